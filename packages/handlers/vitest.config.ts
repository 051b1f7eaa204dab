import { defineConfig } from "vitest/config";

// `vitest run --mode soak` (the test:soak script) runs only the soak, which takes minutes and is not part of `pnpm test`.
// The workspace packages from their sources (the first condition of their exports), as TypeScript reads
// them: a test run needs no build of theirs first.
const fromSources = {
  resolve: { conditions: ["@cloudplane/source"] },
  ssr: { resolve: { conditions: ["@cloudplane/source"] } },
  // Where the global setup runs.
  environments: { __vitest__: { resolve: { conditions: ["@cloudplane/source"] } } },
};

export default defineConfig(({ mode }) =>
  mode === "soak"
    ? { ...fromSources, test: { include: ["test/soak.ts"], globalSetup: ["test/global-setup.ts"], testTimeout: 300_000, hookTimeout: 120_000 } }
    : {
        ...fromSources,
        test: {
          include: ["src/**/*.test.ts", "test/**/*.test.ts"],
          // Makes the secrets scan's folder before the files run and scans it after they all have; makes the
          // run's database image and template, from which each file's own databases start.
          globalSetup: ["test/global-setup.ts", "test/databases-setup.ts"],
          // Each file gets its own database; PostgreSQL-backed files create theirs on the server.
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
);
