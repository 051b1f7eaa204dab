/**
 * The build every published package shares (each package's tsup.config.ts adds its entries): ESM and
 * CJS bundles for ES2022 with source maps, and their declarations.
 *
 * The declarations are emitted, not checked. Type checking is the `typecheck` task's job (every file,
 * the tests too, against the other packages' sources), so the build does not check again: with
 * `noCheck`, and `noEmitOnError` off (which our tsup patch lets a config say), TypeScript emits the
 * declarations of the files the entries' declarations reach, inferring only the types they name,
 * instead of first checking every file of the program. They are made against the other packages'
 * built declarations (the build depends on theirs), which are much cheaper to read than the contract's
 * sources.
 */
import { defineConfig, type Options } from "tsup";

export function packageBuild(options: Options & Required<Pick<Options, "entry">>) {
  return defineConfig({
    format: ["esm", "cjs"],
    dts: { compilerOptions: { customConditions: [], noCheck: true, noEmitOnError: false } },
    sourcemap: true,
    clean: true,
    target: "es2022",
    ...options,
  });
}
