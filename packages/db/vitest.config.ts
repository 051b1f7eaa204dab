import { defineConfig } from "vitest/config";

// PGlite takes a few seconds to start a database, more when many test files start theirs at once.
export default defineConfig({
  // The workspace packages from their sources (the first condition of their exports), as TypeScript reads
  // them: a test run needs no build of theirs first.
  resolve: { conditions: ["@cloudplane/source"] },
  ssr: { resolve: { conditions: ["@cloudplane/source"] } },
  test: { include: ["src/**/*.test.ts"], testTimeout: 30_000, hookTimeout: 60_000 },
});
