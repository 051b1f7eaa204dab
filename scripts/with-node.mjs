#!/usr/bin/env node
/**
 * `node scripts/with-node.mjs [--at-least=<major>] <command> [args…]`: runs the command on a Node of that
 * major line or newer (22 by default: the lowest supported line, the packages' engines, and what vitest 5,
 * wrangler 4 and miniflare 4 need). When the Node running this is new enough, the command runs as it is,
 * nothing fetched. When it is older, the command runs with that line's Node (22, or 24 for --at-least=24)
 * first on its PATH: Node's binary from the npm registry (the `node` package, through npx, which keeps it in
 * its cache after the first time), so that `node` and every package bin's shim that calls `node` (vitest,
 * wrangler, tsx) start it.
 *
 * What runs where is decided here alone, from the Node line this runs on (scripts/test.mjs asks
 * `nodeLineFor` whether to run itself through this); turbo's test hash has that line (scripts/test.mjs) and
 * this file (the test tasks' inputs in turbo.json), so it says what ran.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The lowest supported Node line (the packages' engines), and what vitest 5, wrangler 4 and miniflare 4 need. */
export const DEFAULT_MINIMUM = 22;
/** The Node lines that can be fetched: the LTS lines the project supports. */
const LINES = [22, 24];

/** The Node line a command given `minimum` runs on, when this runs on `line`: that one, or `minimum`'s line. */
export function nodeLineFor(minimum = DEFAULT_MINIMUM, line = Number(process.versions.node.split(".")[0])) {
  if (line >= minimum) return line;
  if (!LINES.includes(minimum)) throw new Error(`with-node: Node ${minimum} is not a line it fetches (${LINES.join(", ")})`);
  return minimum;
}

/**
 * Node `line`'s binary from the npm registry and its version. npx finds it (fetching it the first time) in
 * about 2 to 7 seconds, which every test and build task would pay: the path it found is kept in
 * node_modules/.cache/with-node/ and used again while the binary is there (a cleared npx cache, or a new
 * checkout, finds it again).
 */
function fetchedNode(line) {
  const kept = new URL(`../node_modules/.cache/with-node/node-${line}.json`, import.meta.url);
  try {
    const { node, version } = JSON.parse(readFileSync(kept, "utf8"));
    if (typeof node === "string" && typeof version === "string" && version.startsWith(`v${line}.`) && existsSync(node)) return { node, version };
  } catch {
    // Not kept yet (or unreadable): ask npx.
  }
  const found = spawnSync("npx", ["--yes", "--prefer-offline", "--loglevel=error", "-p", `node@${line}`, "node", "-p", "process.execPath"], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
    shell: process.platform === "win32",
  });
  const node = found.stdout?.trim().split("\n").pop();
  if (found.status !== 0 || !node) throw new Error(`with-node: npx found no Node ${line} (exit ${found.status ?? found.signal})`);
  const version = spawnSync(node, ["--version"], { encoding: "utf8" }).stdout?.trim() ?? "";
  if (!version.startsWith(`v${line}.`)) throw new Error(`with-node: npx's Node ${line} says it is ${version || "nothing"}`);
  try {
    mkdirSync(new URL(".", kept), { recursive: true });
    writeFileSync(kept, JSON.stringify({ node, version }));
  } catch {
    // A read-only checkout asks npx each time.
  }
  return { node, version };
}

/**
 * The environment to run `command` in on a Node of `minimum` or newer: this one's, or with Node `minimum`
 * first on PATH (and a line on stderr that says so, as the task's output would otherwise name this Node only).
 */
function envWithNode(command, minimum = DEFAULT_MINIMUM, env = process.env) {
  const line = Number(process.versions.node.split(".")[0]);
  const target = nodeLineFor(minimum, line);
  if (target === line) return env;
  const { node, version } = fetchedNode(target);
  console.error(`with-node: ${command} runs on Node ${version} from the npm registry, as this Node (${process.version}) is older than ${minimum}`);
  const pathKey = Object.keys(env).find((key) => key.toUpperCase() === "PATH") ?? "PATH";
  return { ...env, ...machineNpmConfig(env), [pathKey]: `${dirname(node)}${delimiter}${env[pathKey] ?? ""}` };
}

/**
 * npm finds its global config (the machine's registry, proxy and certificate authority) beside the Node that
 * runs it, `<prefix>/etc/npmrc`: under the fetched Node that is the npx cache, where there is none, so npm
 * and pnpm there would lose the machine's settings (and, behind a TLS-inspecting proxy, fail every request
 * with SELF_SIGNED_CERT_IN_CHAIN). The global config of this Node's npm is named for them, unless one is.
 */
function machineNpmConfig(env) {
  if (Object.keys(env).some((key) => key.toLowerCase() === "npm_config_globalconfig")) return {};
  const globalConfig = join(env.PREFIX ?? dirname(dirname(process.execPath)), "etc", "npmrc");
  return existsSync(globalConfig) ? { npm_config_globalconfig: globalConfig } : {};
}

// Run as a script (not imported by scripts/test.mjs for nodeLineFor).
if (process.argv[1] && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url))) main();

function main() {
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
}
