import { packageBuild } from "../../tooling/typescript/tsup.js";

export default packageBuild({
  // The test harness (test/testing.ts, test/global-setup.ts) is not an entry: this repository's tests read
  // it from its sources (the package's `./testing` exports), and it is not published.
  entry: {
    index: "src/index.ts",
    "adapter/fetch/index": "src/adapter/fetch/index.ts",
    "adapter/aws-lambda/index": "src/adapter/aws-lambda/index.ts",
    "adapter/node/index": "src/adapter/node/index.ts",
  },
  // Bundled, not imported: the fixes in patches/ are applied at our install only, so the published
  // package carries the patched code of these two (a product repo's own copies would have none of them).
  noExternal: ["@ts-rest/serverless", "itty-router"],
});
