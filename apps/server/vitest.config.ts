import { defineConfig } from "vitest/config";

export default defineConfig({
  // The workspace packages from their sources (the first condition of their exports), as TypeScript reads
  // them: a test run needs no build of theirs first.
  resolve: { conditions: ["@cloudplane/source"] },
  ssr: { resolve: { conditions: ["@cloudplane/source"] } },
  test: {
    include: ["test/**/*.test.ts"],
    // The suite bundles the server with esbuild and runs it as a process of its own.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
