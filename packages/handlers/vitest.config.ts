import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // Each file gets its own database; PostgreSQL-backed files create theirs on the server.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
