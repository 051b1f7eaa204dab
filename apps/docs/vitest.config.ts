import { defineConfig } from "vitest/config";

export default defineConfig({
  // The workspace packages from their sources (the first condition of their exports), as TypeScript reads
  // them: a test run needs no build of theirs first.
  resolve: { conditions: ["@cloudplane/source"] },
  ssr: { resolve: { conditions: ["@cloudplane/source"] } },
  test: {
    include: ["src/**/*.test.ts"],
    // The browser test builds the whole site (vite bundles Scalar) before it starts Chromium.
    testTimeout: 120_000,
    hookTimeout: 300_000,
    // Scalar renders on the page's own time; on a loaded CI machine that is seconds, not the default one.
    expect: { poll: { timeout: 60_000 } },
  },
});
