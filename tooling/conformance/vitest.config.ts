import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The suite runs against a real server on a seeded database, and the CLI test starts tsx.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
