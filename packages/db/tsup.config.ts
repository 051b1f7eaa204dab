// Three entries: the main one (bundles for Workers), `node` (file system helpers) and `testing`.
import { defineConfig } from "tsup";

export default defineConfig({
  entry: ["src/index.ts", "src/node.ts", "src/testing.ts"],
  format: ["esm", "cjs"],
  dts: true,
  sourcemap: true,
  clean: true,
  target: "es2022",
  // Keep "node:" in specifiers: Workers (nodejs_compat) only know built-ins by that name.
  removeNodeProtocol: false,
});
