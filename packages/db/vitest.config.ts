import { defineConfig } from "vitest/config";

// PGlite takes a few seconds to start a database, more when many test files start theirs at once.
export default defineConfig({ test: { include: ["src/**/*.test.ts"], testTimeout: 30_000, hookTimeout: 60_000 } });
