// Three entries: the main one (bundles for Workers), `node` (file system helpers) and `testing`.
import { packageBuild } from "../../tooling/typescript/tsup.js";

export default packageBuild({
  entry: ["src/index.ts", "src/node.ts", "src/testing.ts"],
  // Keep "node:" in specifiers: Workers (nodejs_compat) only know built-ins by that name.
  removeNodeProtocol: false,
});
