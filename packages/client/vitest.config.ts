import { defineConfig } from "vitest/config";

export default defineConfig({
  // The workspace packages from their sources (the first condition of their exports), as TypeScript reads
  // them: a test run needs no build of theirs first.
  resolve: { conditions: ["@cloudplane/source"] },
  ssr: { resolve: { conditions: ["@cloudplane/source"] } },
  // vitest 5 loads the global setup (which imports @cloudplane/handlers/testing/global-setup, a source-only
  // export) in an environment of its own, `__vitest__`, which the two above do not reach.
  environments: { __vitest__: { resolve: { conditions: ["@cloudplane/source"] } } },
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // The handlers' secrets scan: every reply, log entry and error report of the harness, searched once all files ran.
    globalSetup: ["test/global-setup.ts"],
    // Each suite starts a seeded database (PGlite, or its own on the PostgreSQL server), and the retry
    // tests wait out real backoff delays.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
