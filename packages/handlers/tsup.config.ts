import { defineConfig } from "tsup";

export default defineConfig({
  entry: {
    index: "src/index.ts",
    "adapter/fetch/index": "src/adapter/fetch/index.ts",
    "adapter/aws-lambda/index": "src/adapter/aws-lambda/index.ts",
    "adapter/node/index": "src/adapter/node/index.ts",
    // The test harness of this repository's packages, and the secrets scan's vitest global setup; vitest is the caller's.
    testing: "test/testing.ts",
    "testing/global-setup": "test/global-setup.ts",
  },
  external: ["vitest"],
  format: ["esm", "cjs"],
  dts: true,
  sourcemap: true,
  clean: true,
  target: "es2022",
});
