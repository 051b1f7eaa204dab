import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // Each suite starts a seeded database (PGlite, or its own on the PostgreSQL server), and the retry
    // tests wait out real backoff delays.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
