#!/usr/bin/env node
/**
 * Builds what the package whose script runs this needs: its workspace dependencies, through turbo
 * (cached, so a second run takes a moment). A package's documented commands start with it
 * (`node ../../scripts/build-deps.mjs && …`), so they work in a fresh clone. With `--self` it builds
 * the package too (its `prepack`: what it publishes). Inside a turbo task it does nothing: turbo built
 * the dependencies before the task.
 */
import { spawnSync } from "node:child_process";

const name = process.env.npm_package_name;
const self = process.argv.includes("--self");
if (!name) {
  console.error("build-deps: run me from a package's script (pnpm sets npm_package_name).");
  process.exit(2);
}
// Turbo sets TURBO_HASH in every task it runs.
if (process.env.TURBO_HASH) process.exit(0);

// On stderr, all of it: what a script prints on stdout (`pnpm pack --json`) stays its own.
console.error(`Building ${self ? name : `what ${name} needs`} (turbo): a few minutes the first time, a few seconds once cached.`);
const turbo = spawnSync("turbo", ["run", "build", `--filter=${self ? name : `${name}^...`}`, "--output-logs=new-only"], {
  stdio: ["inherit", process.stderr, process.stderr],
  shell: process.platform === "win32",
});
if (turbo.error) throw turbo.error;
process.exit(turbo.status ?? 1);
