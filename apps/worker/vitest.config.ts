import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // wrangler builds the worker once per suite, and workerd opens a PostgreSQL connection per request.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
