import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // The first platform of a file may make the database image (migrations and preset): seconds on a busy machine.
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
