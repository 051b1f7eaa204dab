import { defineConfig } from "vitest/config";

export default defineConfig({
  // The workspace packages from their sources (the first condition of their exports), as TypeScript reads
  // them: a test run needs no build of theirs first.
  resolve: { conditions: ["@cloudplane/source"] },
  ssr: { resolve: { conditions: ["@cloudplane/source"] } },
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // The first platform of a file may make the database image (migrations and preset): seconds on a busy machine.
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
