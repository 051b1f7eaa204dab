import { defineConfig } from "vitest/config";

export default defineConfig({
  // The workspace packages from their sources (the first condition of their exports), as TypeScript reads
  // them: a test run needs no build of theirs first.
  resolve: { conditions: ["@cloudplane/source"] },
  ssr: { resolve: { conditions: ["@cloudplane/source"] } },
  test: {
    include: ["test/**/*.test.ts"],
    // wrangler builds the worker once per suite, and workerd opens a PostgreSQL connection per request.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
