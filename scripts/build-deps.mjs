#!/usr/bin/env node
/**
 * Builds, through turbo (cached, so a second run takes a moment), what the package whose script runs
 * this needs built before it can run. Workspace packages are read from their sources (the
 * `@cloudplane/source` condition), so most scripts need no build at all; the few that read a real build
 * output (the docs site, a package's `dist/` that plain Node or a packed tarball loads) name it:
 *
 *   node ../../scripts/build-deps.mjs @cloudplane/docs   those packages (and what their builds need)
 *   node ../../scripts/build-deps.mjs                    every workspace package this one depends on
 *   node ../../scripts/build-deps.mjs --self             this package (its `prepack`: what it publishes)
 *
 * Inside a turbo task it does nothing: turbo built what the task depends on before the task.
 */
import { spawnSync } from "node:child_process";

const name = process.env.npm_package_name;
const args = process.argv.slice(2);
const self = args.includes("--self");
const named = args.filter((arg) => !arg.startsWith("--"));
if (!name) {
  console.error("build-deps: run me from a package's script (pnpm sets npm_package_name).");
  process.exit(2);
}
// Turbo sets TURBO_HASH in every task it runs.
if (process.env.TURBO_HASH) process.exit(0);

const filters = self ? [name] : named.length > 0 ? named : [`${name}^...`];
// On stderr, all of it: what a script prints on stdout (`pnpm pack --json`) stays its own.
console.error(`Building ${self || named.length > 0 ? filters.join(", ") : `what ${name} needs`} (turbo): a minute or two the first time, a few seconds once cached.`);
const turbo = spawnSync("turbo", ["run", "build", ...filters.map((filter) => `--filter=${filter}`), "--output-logs=new-only"], {
  stdio: ["inherit", process.stderr, process.stderr],
  shell: process.platform === "win32",
});
if (turbo.error) throw turbo.error;
process.exit(turbo.status ?? 1);
