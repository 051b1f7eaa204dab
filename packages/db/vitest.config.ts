import { defineConfig } from "vitest/config";

export default defineConfig({
  // The workspace packages from their sources (the first condition of their exports), as TypeScript reads
  // them: a test run needs no build of theirs first.
  resolve: { conditions: ["@cloudplane/source"] },
  ssr: { resolve: { conditions: ["@cloudplane/source"] } },
  test: {
    include: ["src/**/*.test.ts"],
    // PGlite takes a few seconds to start a database, more when many test files start theirs at once.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // drizzle-kit, which a test runs on src/schema, loads the schema's imports of the contract with Node's resolution.
    env: { NODE_OPTIONS: [process.env.NODE_OPTIONS, "--conditions=@cloudplane/source"].filter(Boolean).join(" ") },
  },
});
