// Three entries: the main one (bundles for Workers), `node` (file system helpers) and `testing`.
import { defineConfig } from "tsup";

export default defineConfig({
  entry: ["src/index.ts", "src/node.ts", "src/testing.ts"],
  format: ["esm", "cjs"],
  // Against the other packages' built declarations (the build depends on theirs), not their sources:
  // checking the contract's sources again in every package's build costs more.
  dts: { compilerOptions: { customConditions: [] } },
  sourcemap: true,
  clean: true,
  target: "es2022",
  // Keep "node:" in specifiers: Workers (nodejs_compat) only know built-ins by that name.
  removeNodeProtocol: false,
});
