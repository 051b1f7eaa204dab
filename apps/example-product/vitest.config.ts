import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // A file's first platform may make the platform's database image (a few seconds, once per machine).
    hookTimeout: 120_000,
  },
});
