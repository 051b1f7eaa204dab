import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // Suites start the app as a process of its own; a first start on PGlite migrates and loads the demo data.
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
});
