import { defineConfig } from "vitest/config";

export default defineConfig({
  // The workspace packages from their sources (the first condition of their exports), as TypeScript reads
  // them: a test run needs no build of theirs first.
  resolve: { conditions: ["@cloudplane/source"] },
  ssr: { resolve: { conditions: ["@cloudplane/source"] } },
  test: {
    include: ["test/**/*.test.ts"],
    // A file's first platform may make the platform's database image (a few seconds, once per machine).
    hookTimeout: 120_000,
  },
});
