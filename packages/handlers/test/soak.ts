/**
 * The soak: mixed traffic over every route at a fixed rate against a real server in a child
 * process (test/soak-server.ts: the Node adapter on PGlite in a temporary data directory), with zero
 * unexpected replies and the server's memory after the run within 10 % of its memory after warm-up.
 * `pnpm --filter @cloudplane/handlers test:soak`; not part of `pnpm test`. SOAK_RATE, SOAK_SECONDS and
 * SOAK_WARM_UP_SECONDS change the defaults (50 requests a second, 60 s, 15 s).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import type { DemoAccountId, DemoTokenName } from "@cloudplane/db";
import { build } from "tsup";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authorization, secretsScanDirectory } from "./harness.js";
import { mayCall, routeCases, successStatus, takesBody, type RouteCase } from "./routes.js";

const RATE = Number(process.env.SOAK_RATE ?? 50);
const SECONDS = Number(process.env.SOAK_SECONDS ?? 60);
const WARM_UP_SECONDS = Number(process.env.SOAK_WARM_UP_SECONDS ?? 15);
/** Requests in flight at most: a few clients, not a flood. */
const CONCURRENCY = 4;
/** Three tokens an account, six in all: each stays far under the default limit of 50 a second. */
const TOKENS: [DemoAccountId, DemoTokenName][] = [
  [1, "role-1-active"],
  [2, "role-1-active"],
  [1, "role-5-active"],
  [2, "role-5-active"],
  [1, "role-1-ci"],
  [2, "role-1-ci"],
];

interface SoakRequest {
  method: string;
  path: string;
  body?: unknown;
  authorization: string | null;
  expected: number;
}

/**
 * The request sent `index`-th: every route of the route table on both accounts' objects in turn, each
 * with one of its account's tokens; every tenth request is one the API must refuse (404, 401, 400, 403).
 */
/** Does the route refuse the query the soak sends out of range (`limit=0&page=0&role=7`, and nothing else)? Its own query schema says. */
function refusesBadPaging(route: RouteCase["route"]): boolean {
  const query = route.query as { safeParse?: (value: unknown) => { success: boolean } } | null | undefined;
  return typeof query?.safeParse === "function" && !query.safeParse({ limit: "0", page: "0", role: "7" }).success;
}

function request(index: number): SoakRequest {
  const token = TOKENS[index % TOKENS.length]!;
  const account = token[0];
  const routeCase = routeCases[Math.floor(index / TOKENS.length) % routeCases.length]!;
  // Made anew for each request: requests go concurrently, and a name in a path (a new bucket's) is taken once.
  const path = routeCase.newPath(account);
  const { method } = routeCase.route;
  // A route that uses its object up (a delete) names an id no object has here: the soak sends requests
  // concurrently and cannot make one first, so it checks that route's lookup (404) instead of its success.
  // Some routes answer a role otherwise than their access says (only Administrators create tokens).
  const role = Number(/^role-(\d+)-/.exec(token[1])![1]);
  // A role the route refuses outright (403) is refused before any lookup, a missing object included.
  const refused = routeCase.roleStatus?.[role] === 403;
  const expected = routeCase.madeFirst && !refused ? 404 : (routeCase.roleStatus?.[role] ?? successStatus(routeCase.route));
  const valid: SoakRequest = { method, path, body: routeCase.body?.(account), authorization: authorization(token), expected };
  if (index % 10 !== 9) return valid;
  switch (Math.floor(index / 10) % 4) {
    case 0: {
      const missing = path.replace(/\/\d+(?=\/|$|\?)/, "/999999");
      // A role the route refuses outright is refused before the lookup; a path that names the account is 403 for
      // another account's id; every other id that does not exist is 404.
      return { ...valid, path: missing, expected: missing === path ? valid.expected : refused || routeCase.route.path.includes(":clientId") ? 403 : 404 };
    }
    case 1:
      return { ...valid, authorization: null, expected: 401 };
    case 2:
      // Out-of-range paging and filters: 400 where the route takes them, ignored where it does not.
      // A route without a body (a DELETE) reads none: a bad one changes nothing there.
      if (method === "GET" || !takesBody(routeCase.route))
        return { ...valid, path: `${path.split("?")[0]}?limit=0&page=0&role=7`, expected: method === "GET" && refusesBadPaging(routeCase.route) ? 400 : valid.expected };
      // A route that takes raw bytes gets bytes it refuses (not JSON, which is 415 there).
      return { ...valid, body: valid.body instanceof Uint8Array ? new TextEncoder().encode("not wasm") : { unknown_field: true }, expected: 400 };
    default:
      // A role the route refuses: Purge and Prefetch, or Users where purging is what the route does.
      return { ...valid, authorization: authorization([account, mayCall(routeCase.route, 3009) ? "role-2-active" : "role-3009-active"]), expected: 403 };
  }
}

interface Traffic {
  sent: number;
  unexpected: string[];
  latencies: number[];
  maxLagMs: number;
  seconds: number;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Sends requests `first`… at `RATE` a second, `CONCURRENCY` at a time, checking each reply. */
async function drive(base: string, first: number, count: number): Promise<Traffic> {
  const traffic: Traffic = { sent: 0, unexpected: [], latencies: [], maxLagMs: 0, seconds: 0 };
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < count; i = next++) {
      const lag = performance.now() - (started + (i * 1000) / RATE);
      if (lag < 0) await sleep(-lag);
      else traffic.maxLagMs = Math.max(traffic.maxLagMs, lag);
      const soak = request(first + i);
      const headers: Record<string, string> = {};
      if (soak.authorization) headers.authorization = soak.authorization;
      // Raw bytes (a route that takes them) go as they are; any other body as JSON.
      const raw = soak.body instanceof Uint8Array;
      if (soak.body !== undefined) headers["content-type"] = raw ? "application/octet-stream" : "application/json";
      const sentAt = performance.now();
      try {
        const response = await fetch(`${base}${soak.path}`, {
          method: soak.method,
          headers,
          ...(soak.body === undefined ? {} : { body: raw ? (soak.body as Uint8Array<ArrayBuffer>) : JSON.stringify(soak.body) }),
        });
        const text = await response.text();
        traffic.latencies.push(performance.now() - sentAt);
        const what = `${soak.method} ${soak.path} → ${response.status} (expected ${soak.expected}) ${text.slice(0, 200)}`;
        if (response.status !== soak.expected) traffic.unexpected.push(what);
        else if (response.status >= 300 && (JSON.parse(text) as { request_id?: string }).request_id !== response.headers.get("x-request-id"))
          traffic.unexpected.push(`${what}: request_id differs from x-request-id`);
      } catch (error) {
        traffic.unexpected.push(`${soak.method} ${soak.path} → ${String(error)}`);
      }
      traffic.sent++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  traffic.seconds = (performance.now() - started) / 1000;
  return traffic;
}

/** The resident set size of a process, in MiB, from /proc. */
function rssMiB(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  if (!match) throw new Error(`No VmRSS for process ${pid}.`);
  return Number(match[1]) / 1024;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

function describeTraffic(name: string, traffic: Traffic): string {
  return (
    `${name}: ${traffic.sent} requests in ${traffic.seconds.toFixed(1)} s (${(traffic.sent / traffic.seconds).toFixed(1)}/s), ` +
    `latency p50 ${percentile(traffic.latencies, 50).toFixed(1)} ms, p99 ${percentile(traffic.latencies, 99).toFixed(1)} ms, ` +
    `max ${Math.max(...traffic.latencies).toFixed(1)} ms, most behind schedule ${traffic.maxLagMs.toFixed(0)} ms, ${traffic.unexpected.length} unexpected`
  );
}

describe("soak against a real server", () => {
  const root = join(import.meta.dirname, "..");
  const buildDir = join(root, "test-results", "soak", `${Date.now()}-${process.pid}`);
  const dataDir = mkdtempSync(join(tmpdir(), "cloudplane-soak-"));
  const serverErrors: string[] = [];
  let server: ChildProcess;
  let base: string;

  beforeAll(async () => {
    // The handler's source, bundled: the child runs plain JavaScript, so its memory is the server's alone.
    await build({
      entry: { "soak-server": join(root, "test/soak-server.ts") },
      outDir: buildDir,
      format: ["esm"],
      platform: "node",
      target: "node20",
      config: false,
      silent: true,
    });
    server = spawn(process.execPath, ["--expose-gc", join(buildDir, "soak-server.js")], {
      env: { ...process.env, SOAK_DATA_DIR: dataDir, SECRETS_SCAN_DIRECTORY: secretsScanDirectory() },
      stdio: ["ignore", "pipe", "pipe"],
    });
    createInterface({ input: server.stderr! }).on("line", (line) => serverErrors.push(line));
    const port = await new Promise<number>((resolve, reject) => {
      server.once("exit", (code) => reject(new Error(`The soak server exited with ${code}: ${serverErrors.join("\n")}`)));
      createInterface({ input: server.stdout! }).once("line", (line) => resolve((JSON.parse(line) as { port: number }).port));
    });
    base = `http://127.0.0.1:${port}`;
  });

  afterAll(async () => {
    if (server?.exitCode === null) {
      const exited = new Promise((resolve) => server.once("exit", resolve));
      server.kill("SIGTERM");
      await Promise.race([exited, sleep(10_000).then(() => server.kill("SIGKILL"))]);
    }
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(buildDir, { recursive: true, force: true });
  });

  /** The server's memory once a garbage collection has run and it has been idle a moment. */
  const settledRss = async () => {
    server.kill("SIGUSR2");
    await sleep(1_000);
    return rssMiB(server.pid!);
  };

  it(`serves ${SECONDS} s of mixed traffic at ${RATE} requests a second without an unexpected reply or a growing memory`, async () => {
    const startRss = rssMiB(server.pid!);
    const warmUp = await drive(base, 0, WARM_UP_SECONDS * RATE);
    const warmRss = await settledRss();
    const samples: number[] = [];
    const sampler = setInterval(() => samples.push(rssMiB(server.pid!)), 5_000);
    const run = await drive(base, warmUp.sent, SECONDS * RATE);
    clearInterval(sampler);
    const endRss = await settledRss();
    const growth = (endRss - warmRss) / warmRss;

    console.log(describeTraffic(`soak warm-up (${WARM_UP_SECONDS} s)`, warmUp));
    console.log(describeTraffic(`soak run (${SECONDS} s)`, run));
    console.log(
      `soak memory (RSS of the server process): ${startRss.toFixed(1)} MiB at start, ${warmRss.toFixed(1)} MiB after warm-up, ` +
        `${endRss.toFixed(1)} MiB after the run (${(growth * 100).toFixed(1)} %), highest sample ${Math.max(...samples).toFixed(1)} MiB; ` +
        `${serverErrors.length} errors reported by the server`,
    );
    expect([...warmUp.unexpected, ...run.unexpected].slice(0, 20)).toEqual([]);
    expect(serverErrors).toEqual([]);
    expect(run.sent).toBe(SECONDS * RATE);
    // The rate held: the run took at most a tenth longer than its schedule.
    expect(run.seconds).toBeLessThan(SECONDS * 1.1);
    expect(Math.abs(growth)).toBeLessThanOrEqual(0.1);
  });
});
