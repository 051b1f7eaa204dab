import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Each suite bundles the Lambda with esbuild and serves it through the API Gateway bridge.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
