import { defineConfig } from "vitest/config";

export default defineConfig({
  // The workspace packages from their sources (the first condition of their exports), as TypeScript reads
  // them: a test run needs no build of theirs first.
  resolve: { conditions: ["@cloudplane/source"] },
  ssr: { resolve: { conditions: ["@cloudplane/source"] } },
  test: {
    include: ["test/**/*.test.ts"],
    // Each suite bundles the Lambda with esbuild and serves it through the API Gateway bridge.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
