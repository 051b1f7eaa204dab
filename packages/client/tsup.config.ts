import { defineConfig } from "tsup";

export default defineConfig({
  entry: ["src/index.ts"],
  format: ["esm", "cjs"],
  // Against the other packages' built declarations (the build depends on theirs), not their sources:
  // checking the contract's sources again in every package's build costs more.
  dts: { compilerOptions: { customConditions: [] } },
  sourcemap: true,
  clean: true,
  target: "es2022",
});
