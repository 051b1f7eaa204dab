#!/usr/bin/env node
/**
 * `cloudplane-typecheck`: every package's `typecheck`, `tsc --noEmit` on the package's tsconfig.json, with
 * TypeScript 7 (the native compiler), single-threaded: turbo runs the packages' type checks side by side,
 * and on two cores a compiler's own threads beside the others' made the whole cold typecheck take 81 s
 * where single-threaded ones take 30 s (TypeScript 5.9: 158 s). Arguments go to tsc.
 * TypeScript 5.9 stays for what needs the compiler's JavaScript API (typescript-eslint, tsup's
 * declarations, the client's type tests), which TypeScript 7 does not have.
 */
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const compiler = join(dirname(createRequire(import.meta.url).resolve("typescript7/package.json")), "bin", "tsc");
const result = spawnSync(process.execPath, [compiler, "--noEmit", "--singleThreaded", ...process.argv.slice(2)], { stdio: "inherit" });
if (result.error) throw result.error;
process.exitCode = result.status ?? 1;
