#!/usr/bin/env node
/**
 * `node scripts/with-node.mjs [--at-least=<major>] <command> [args…]`: runs the command on a Node of that
 * major line or newer (22 by default: what wrangler 4 and miniflare 4 need). When the Node running this is
 * new enough, the command runs as it is, nothing fetched. When it is older, the command runs with Node 24,
 * the newest LTS line, first on its PATH: Node's binary from the npm registry (the `node` package, through
 * npx, which keeps it in its cache after the first time), so that `node` and every package bin's shim
 * that calls `node` (wrangler, vitest, tsx) start it.
 *
 * What runs where is decided here alone, from the Node line this runs on; turbo's test hash has that line
 * (scripts/test.mjs) and this file (the tasks' inputs in turbo.json), so it says what ran.
 */
import { spawn, spawnSync } from "node:child_process";
import { dirname, delimiter } from "node:path";

/** The line fetched when the running Node is too old. */
const FALLBACK_LINE = 24;
/** What wrangler 4 and miniflare 4 (their `engines`) need. */
const DEFAULT_MINIMUM = 22;

/** The Node line a command given `minimum` runs on, when this runs on `line`. */
function nodeLineFor(minimum = DEFAULT_MINIMUM, line = Number(process.versions.node.split(".")[0])) {
  if (minimum > FALLBACK_LINE) throw new Error(`with-node: Node ${minimum} is newer than the Node ${FALLBACK_LINE} it would fetch`);
  return line >= minimum ? line : FALLBACK_LINE;
}

/**
 * The environment to run `command` in on a Node of `minimum` or newer: this one's, or with Node 24 first on
 * PATH (and a line on stderr that says so, as the task's output would otherwise name this Node only).
 */
function envWithNode(command, minimum = DEFAULT_MINIMUM, env = process.env) {
  const line = Number(process.versions.node.split(".")[0]);
  if (nodeLineFor(minimum, line) === line) return env;
  const found = spawnSync("npx", ["--yes", "--loglevel=error", "-p", `node@${FALLBACK_LINE}`, "node", "-p", "process.execPath"], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
    shell: process.platform === "win32",
  });
  const node = found.stdout?.trim().split("\n").pop();
  if (found.status !== 0 || !node) throw new Error(`with-node: npx found no Node ${FALLBACK_LINE} (exit ${found.status ?? found.signal})`);
  const version = spawnSync(node, ["--version"], { encoding: "utf8" }).stdout?.trim();
  console.error(`with-node: ${command} runs on Node ${version} from the npm registry, as this Node (${process.version}) is older than ${minimum}`);
  const pathKey = Object.keys(env).find((key) => key.toUpperCase() === "PATH") ?? "PATH";
  return { ...env, [pathKey]: `${dirname(node)}${delimiter}${env[pathKey] ?? ""}` };
}

let args = process.argv.slice(2);
let minimum = DEFAULT_MINIMUM;
const option = /^--at-least=(\d+)$/.exec(args[0] ?? "");
if (option) {
  minimum = Number(option[1]);
  args = args.slice(1);
}
if (args.length === 0) {
  console.error("usage: node scripts/with-node.mjs [--at-least=<major>] <command> [args…]");
  process.exit(2);
}
const child = spawn(args[0], args.slice(1), { stdio: "inherit", env: envWithNode(args[0], minimum), shell: process.platform === "win32" });
// The command ends as a signal to this would have ended it (a terminal's Ctrl-C, turbo or CI stopping a task).
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => child.kill(signal));
child.on("error", (error) => {
  console.error(`with-node: ${args[0]}: ${error.message}`);
  process.exit(127);
});
child.on("exit", (code, signal) => {
  if (signal) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  } else process.exit(code ?? 1);
});
