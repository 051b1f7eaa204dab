import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    // The browser test builds the whole site (vite bundles Scalar) before it starts Chromium.
    testTimeout: 60_000,
    hookTimeout: 300_000,
  },
});
