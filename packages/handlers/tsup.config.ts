import { defineConfig } from "tsup";

export default defineConfig({
  // The test harness (test/testing.ts, test/global-setup.ts) is not an entry: this repository's tests read
  // it from its sources (the package's `./testing` exports), and it is not published.
  entry: {
    index: "src/index.ts",
    "adapter/fetch/index": "src/adapter/fetch/index.ts",
    "adapter/aws-lambda/index": "src/adapter/aws-lambda/index.ts",
    "adapter/node/index": "src/adapter/node/index.ts",
  },
  format: ["esm", "cjs"],
  // The declarations are made against the other packages' built declarations (the build depends on
  // theirs), not their sources: checking the contract's sources again in every package's build costs more.
  dts: { compilerOptions: { customConditions: [] } },
  sourcemap: true,
  clean: true,
  target: "es2022",
});
