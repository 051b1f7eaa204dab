import { defineConfig } from "vitest/config";

export default defineConfig({
  // The workspace packages from their sources (the first condition of their exports), as TypeScript reads
  // them: a test run needs no build of theirs first.
  resolve: { conditions: ["@cloudplane/source"] },
  ssr: { resolve: { conditions: ["@cloudplane/source"] } },
  test: {
    include: ["test/**/*.test.ts"],
    // wrangler builds the worker once per suite, and workerd opens a PostgreSQL connection per request: the
    // conformance checks that call every route with a role (over 1,000 requests) take 37 s on a quiet two-core
    // machine and passed 60 s under CI's load.
    testTimeout: 180_000,
    hookTimeout: 120_000,
  },
});
