/**
 * Part 5 (`BENCH_PARTS=workerd`): our worker against a bare worker and the peer (peer-core.ts, Hono with
 * @hono/zod-openapi, as a worker), all in workerd (Miniflare) on the same PostgreSQL database. Ours is apps/worker's bundle (`wrangler deploy --dry-run`); the bare one
 * is workers/bare.ts bundled by esbuild, sending the very statements ours sends (caught from our
 * handler and checked before any load), each on a connection of its own per request, as ours does.
 *
 * Throughput: per route, both are warmed up, then measured in interleaved rounds (the order turning
 * each round), so load from elsewhere on the machine falls on both alike. Cold isolate: fresh workerd
 * processes, ours and bare in turn; the time from the worker being loaded (Miniflare ready) to its
 * first response.
 */
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import type { Miniflare } from "miniflare";
import { compareStatements, variantKey } from "./baseline-core.js";
import { buildWorker, COLD_START_TRIALS, errorText, FIRST_REQUEST, REPO, sizeOf, summarizeStarts, type BundleSize, type ColdStart } from "./bundles.js";
import { captureRouteSql, type CapturedStatement, type RouteSql } from "./capture.js";
import { benchDatabase, postgresServerUrl, type BenchDatabase } from "./databases.js";
import { inTurns, runLoad, summarize, type LoadResult, type LoadSample } from "./load.js";
import { answerDifference, type Side } from "./peer.js";
import { freePort, workerProfiler, writeMappedProfile } from "./workerd-profile.js";
import { answeredId, AUTHORIZATION, checkedRequests, jsonOf, LOAD, PROFILE_DIR, requestPath, ROUTES, type BenchRequest, type BenchRoute, type RouteId } from "./scenario.js";

export type WorkerKind = "ours" | "bare";
const KINDS: WorkerKind[] = ["ours", "bare"];

export const WORKER_TITLES: Record<WorkerKind, string> = { ours: "ours (apps/worker)", bare: "bare worker" };

/** The workers put under load: ours, the bare one and the peer (which has no cold-start figures). */
type LoadKind = WorkerKind | "peer";
const LOAD_TITLES: Record<LoadKind, string> = { ...WORKER_TITLES, peer: "peer (Hono + zod-openapi)" };

export interface WorkerdRow {
  route: RouteId;
  title: string;
  /** Absent when a worker failed the route before the load (`failed` says how); `peer` absent when the peer failed its checks on it. */
  results?: Record<WorkerKind, LoadResult> & { peer?: LoadResult };
  failed?: string;
}

export interface WorkerdPart {
  rows: WorkerdRow[];
  /** Differences between the bare worker's statements and ours; empty when they are the same. */
  bareDifferences: string[];
  /**
   * What failed of the peer worker's checks (statements, answers against ours, a wrong token's 401);
   * empty when all passed. Absent from runs made before the peer existed.
   */
  peerDifferences?: string[];
  /** The peer worker's bundle (src/workers/peer.ts, esbuild). */
  peerBundle?: BundleSize;
  coldStart: Record<WorkerKind, ColdStart>;
  bundles: Record<WorkerKind, BundleSize>;
}

/** The part, or why it was not measured. */
export type WorkerdFigures = { measured: true; value: WorkerdPart } | { measured: false; why: string };

/** The compatibility settings of apps/worker/wrangler.toml, for both workers. */
const COMPATIBILITY = { compatibilityDate: "2026-07-30", compatibilityFlags: ["nodejs_compat"] };

interface RunningWorker {
  url: URL;
  /** The port of its workerd's inspector, when profiles are taken (BENCH_PROFILE_DIR). */
  inspectorPort?: number;
  /** From constructing Miniflare (spawning workerd) to it being ready: the worker loaded. */
  loadMs: number;
  /** The last lines the worker printed, to say why it failed. */
  output: string[];
  dispose(): Promise<void>;
}

async function startWorker(script: string, bindings: Record<string, string>): Promise<RunningWorker> {
  const { Miniflare } = await import("miniflare");
  const output: string[] = [];
  const keep = (chunk: string) => {
    // Ours logs every request as a JSON line; only the last few lines are kept.
    output.push(...chunk.split("\n").filter(Boolean));
    if (output.length > 40) output.splice(0, output.length - 40);
  };
  const inspectorPort = PROFILE_DIR ? await freePort() : undefined;
  const started = performance.now();
  const miniflare: Miniflare = new Miniflare({
    ...(inspectorPort ? { inspectorPort } : {}),
    modules: true,
    scriptPath: script,
    modulesRoot: join(script, ".."),
    ...COMPATIBILITY,
    bindings,
    host: "127.0.0.1",
    port: 0,
    handleRuntimeStdio(stdout, stderr) {
      stdout.setEncoding("utf8").on("data", keep);
      stderr.setEncoding("utf8").on("data", keep);
    },
  });
  try {
    const url = await miniflare.ready;
    return { url, loadMs: performance.now() - started, inspectorPort, output, dispose: () => miniflare.dispose() };
  } catch (error) {
    await miniflare.dispose().catch(() => undefined);
    throw error;
  }
}

function requestInit(request: BenchRequest, headers: Record<string, string> = {}): RequestInit {
  return {
    method: request.method,
    headers: { authorization: AUTHORIZATION, ...(request.body === undefined ? {} : { "content-type": "application/json" }), ...headers },
    body: request.body === undefined ? undefined : JSON.stringify(request.body),
  };
}

/**
 * esbuild bundles the bare worker or the peer as wrangler bundles ours: Workers' export conditions, Node's
 * modules left to nodejs_compat, minified without keeping names (apps/worker/wrangler.toml's `minify` and
 * `keep_names`), but not when profiles are taken.
 */
async function buildBenchWorker(name: "bare" | "peer", outdir: string): Promise<string> {
  const outfile = join(outdir, `${name}.js`);
  await build({
    entryPoints: [fileURLToPath(new URL(`./workers/${name}.ts`, import.meta.url))],
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    conditions: ["workerd", "worker", "import"],
    mainFields: ["module", "main"],
    external: ["cloudflare:sockets", "node:*"],
    minify: !PROFILE_DIR,
    keepNames: false,
    // For profiles (workerd-profile.ts); the bundle's size is its .js alone.
    sourcemap: true,
    outfile,
    logLevel: "silent",
  });
  return outfile;
}

/** What a worker printed other than request logs, shortest first: the messages of its errors. */
function errorOutput(worker: RunningWorker): string {
  const lines = worker.output.filter((line) => !line.includes('"msg":"request"'));
  const messages = lines.flatMap((line) => {
    try {
      const entry = JSON.parse(line) as { message?: unknown };
      return typeof entry.message === "string" ? [entry.message] : [];
    } catch {
      return /error/i.test(line) ? [line.trim()] : [];
    }
  });
  return [...new Set(messages)].join("; ").slice(0, 300) || "nothing";
}

/**
 * Sends `request` to `worker` after `side`'s answer before (with `x-bench-log`, the worker answers
 * `{ status, body, log }` with HTTP 200); keeps this answer for the next request of the side.
 */
async function sendInTurn(
  worker: RunningWorker,
  request: BenchRequest,
  side: Side,
  logged: boolean,
): Promise<{ status: number; body: unknown; log?: CapturedStatement[]; path: string }> {
  const path = requestPath(request, side.previous);
  const response = await fetch(new URL(path, worker.url), requestInit(request, logged ? { "x-bench-log": "1" } : {}));
  const text = await response.text();
  const json = jsonOf(text);
  const answer = logged ? ((json ?? {}) as { status?: number; body?: unknown; log?: CapturedStatement[] }) : { status: response.status, body: json };
  const status = logged && response.status === 200 ? (answer.status ?? 0) : response.status;
  const ok = status >= 200 && status < 300;
  side.previous = ok ? answer.body : undefined;
  side.madeId = request.made ? (answeredId(side.previous) ?? side.madeId) : undefined;
  return { status, body: answer.body, log: answer.log, path };
}

const succeeded = (status: number) => status >= 200 && status < 300;

/**
 * Runs a route's checked requests (its first, and those that follow from it) twice through both workers
 * (as the Node part checks its baseline), asking the bare one for the statements it sent, and compares
 * them with ours. Returns the differences (none: the same), or why a worker failed the route (an
 * answer other than a success), in which case the route is not put under load.
 */
async function verifyRoute(workers: Record<WorkerKind, RunningWorker>, statements: RouteSql, route: BenchRoute): Promise<{ differences: string[] } | { failed: string }> {
  const differences: string[] = [];
  const oursSide: Side = { previous: undefined };
  const bareSide: Side = { previous: undefined };
  for (let time = 0; time < 2; time++)
    for (const request of checkedRequests(route)) {
      const ours = await sendInTurn(workers.ours, request, oursSide, false);
      const bare = await sendInTurn(workers.bare, request, bareSide, true);
      const failures = [
        ...(succeeded(ours.status) ? [] : [`ours answered ${ours.status} (its error: ${errorOutput(workers.ours)})`]),
        ...(succeeded(bare.status) ? [] : [`the bare worker answered ${bare.status} (its error: ${errorOutput(workers.bare)})`]),
      ];
      if (failures.length) return { failed: failures.join("; ") };
      const key = variantKey(request.method, new URL(bare.path, workers.bare.url), request.body)!;
      differences.push(...compareStatements(key, statements[key] ?? [], bare.log ?? [], request.made && { made: request.made, id: bareSide.madeId }));
    }
  return { differences: [...new Set(differences)] };
}

/**
 * The peer worker's checks on a route, before any load: each request answered with ours' status (a
 * success) and ours' body (but `updated`, and what a create makes itself), the statements it sent for the
 * route's checked requests (those they were caught for) the same as ours (its token lookup aside), and
 * a wrong token answered 401. Returns what failed (none: passed).
 */
async function verifyPeerRoute(workers: Record<LoadKind, RunningWorker>, statements: RouteSql, route: BenchRoute): Promise<string[]> {
  const problems: string[] = [];
  const checked = new Set(checkedRequests(route));
  const oursSide: Side = { previous: undefined };
  const peerSide: Side = { previous: undefined };
  for (const request of route.requests) {
    const ours = await sendInTurn(workers.ours, request, oursSide, false);
    const peer = await sendInTurn(workers.peer, request, peerSide, true);
    const what = `${request.method} ${ours.path}`;
    if (!succeeded(ours.status) || peer.status !== ours.status) {
      problems.push(`${what}: ours answered ${ours.status}, the peer ${peer.status} (${JSON.stringify(peer.body ?? errorOutput(workers.peer)).slice(0, 200)})`);
      continue;
    }
    const found = answerDifference(request, ours, oursSide, peer, peerSide);
    if (found) problems.push(`${what}: ${found}`);
    // The statements were caught for the route's checked requests: their parameters are those of these.
    if (!checked.has(request)) continue;
    const key = variantKey(request.method, new URL(peer.path, workers.peer.url), request.body)!;
    const sent = (peer.log ?? []).filter((statement) => !/\bapi_tokens\b/.test(statement.sql));
    problems.push(...compareStatements(key, statements[key] ?? [], sent, request.made && { made: request.made, id: peerSide.madeId }));
  }
  const request = route.requests[0]!;
  const path = requestPath(request, undefined);
  const refused = await fetch(new URL(path, workers.peer.url), requestInit(request, { authorization: "apikey not-a-token" }));
  await refused.arrayBuffer();
  if (refused.status !== 401) problems.push(`${request.method} ${path} with a wrong token: the peer answered ${refused.status}, not 401`);
  return [...new Set(problems)];
}

function show(result: LoadResult): string {
  const failures = result.failures ? `, ${result.failures} FAILED` : "";
  return `${result.requestsPerSecond.toFixed(0).padStart(6)} req/s  p50 ${result.p50.toFixed(2)} ms  p99 ${result.p99.toFixed(2)} ms${failures}`;
}

/** One fresh start of a worker: loaded, then its first response and a second (warm) one. */
async function coldStart(script: string, bindings: Record<string, string>): Promise<Omit<ColdStart, "trials" | "request">> {
  const worker = await startWorker(script, bindings);
  try {
    const loaded = performance.now();
    const first = await fetch(new URL(FIRST_REQUEST, worker.url), { headers: { authorization: AUTHORIZATION } });
    await first.arrayBuffer();
    const answered = performance.now();
    if (first.status !== 200) throw new Error(`the worker answered ${first.status}: ${worker.output.join(" ").slice(-300)}`);
    const second = await fetch(new URL(FIRST_REQUEST, worker.url), { headers: { authorization: AUTHORIZATION } });
    await second.arrayBuffer();
    return { loadMs: worker.loadMs, firstResponseMs: answered - loaded, totalMs: worker.loadMs + answered - loaded, warmResponseMs: performance.now() - answered };
  } finally {
    await worker.dispose();
  }
}

export async function measureWorkerd(): Promise<WorkerdFigures> {
  if (!postgresServerUrl()) return { measured: false, why: "DATABASE_URL is not set (both workers reach PostgreSQL)" };
  const workerDir = join(REPO, "apps", "worker");
  if (!existsSync(join(workerDir, "wrangler.toml"))) return { measured: false, why: "apps/worker (wrangler.toml) is not in the repository" };
  const outdir = await mkdtemp(join(tmpdir(), "cloudplane-bench-workerd-"));
  let database: BenchDatabase | undefined;
  const workers: Partial<Record<LoadKind, RunningWorker>> = {};
  try {
    let oursScript: string;
    try {
      // Profiles are taken of unminified bundles: a minified one maps functions to the wrong sources.
      const files = await buildWorker(workerDir, join(outdir, "ours"), PROFILE_DIR ? { minify: false } : {});
      oursScript = join(outdir, "ours", "index.js");
      if (!files.includes(oursScript)) throw new Error("wrangler wrote no index.js");
    } catch (error) {
      return { measured: false, why: `wrangler deploy --dry-run failed: ${errorText(error)}` };
    }
    const bareScript = await buildBenchWorker("bare", join(outdir, "bare"));
    const peerScript = await buildBenchWorker("peer", join(outdir, "peer"));
    const bundles: Record<WorkerKind, BundleSize> = {
      ours: await sizeOf([oursScript], "apps/worker, wrangler deploy --dry-run"),
      bare: await sizeOf([bareScript], "src/workers/bare.ts, esbuild"),
    };
    const peerBundle = await sizeOf([peerScript], "src/workers/peer.ts, esbuild");
    console.log(
      `  bundles: ours ${(bundles.ours.gzipBytes / 1024).toFixed(1)} KiB gzipped, bare ${(bundles.bare.gzipBytes / 1024).toFixed(1)} KiB gzipped, peer ${(peerBundle.gzipBytes / 1024).toFixed(1)} KiB gzipped`,
    );

    database = await benchDatabase("postgres");
    const { location } = database;
    if (location.engine !== "postgres") throw new Error("the workerd part runs on PostgreSQL");
    const chosen = process.env.BENCH_ROUTES?.split(",");
    const routes = ROUTES.filter((route) => !chosen || chosen.includes(route.id));
    const statements = await captureRouteSql(location, ROUTES.flatMap(checkedRequests));
    const bindings: Record<LoadKind, Record<string, string>> = {
      // Ours as deployed but for the rate limit, which the bare worker does not have (CLOUDPLANE_RATE_LIMIT=0: off), and
      // the request log, which neither the bare worker nor the peer writes, nor ours on Node in part 1 (CLOUDPLANE_REQUEST_LOG=off).
      ours: {
        DATABASE_URL: location.url,
        CLOUDPLANE_SECRETS_KEY: location.secretsKeyBase64,
        CLOUDPLANE_BASE_PATH: "",
        CLOUDPLANE_RATE_LIMIT: "0",
        CLOUDPLANE_REQUEST_LOG: "off",
      },
      bare: { DATABASE_URL: location.url, BENCH_STATEMENTS: JSON.stringify(statements) },
      peer: { DATABASE_URL: location.url, BENCH_STATEMENTS: JSON.stringify(statements) },
    };
    const scripts: Record<LoadKind, string> = { ours: oursScript, bare: bareScript, peer: peerScript };

    for (const kind of [...KINDS, "peer"] as const) workers[kind] = await startWorker(scripts[kind], bindings[kind]);
    const running = workers as Record<LoadKind, RunningWorker>;
    const rows: WorkerdRow[] = [];
    const bareDifferences: string[] = [];
    const peerDifferences: string[] = [];
    for (const route of routes) {
      const verified = await verifyRoute(running, statements, route);
      if ("failed" in verified) {
        console.log(`  workerd  ${route.title.padEnd(40)} not measured: ${verified.failed}`);
        rows.push({ route: route.id, title: route.title, failed: verified.failed });
        continue;
      }
      bareDifferences.push(...verified.differences);
      if (verified.differences.length) console.log(`  the bare worker differs from ours: ${verified.differences.join("; ")}`);
      // The peer is measured on the routes it passes its checks on; ours and the bare worker either way.
      const peerProblems = await verifyPeerRoute(running, statements, route);
      peerDifferences.push(...peerProblems);
      if (peerProblems.length) console.log(`  the peer worker's checks failed: ${peerProblems.join("; ")}`);
      const kinds: LoadKind[] = peerProblems.length ? [...KINDS] : [...KINDS, "peer"];
      for (const kind of kinds) await runLoad(running[kind].url.toString(), route.requests, LOAD.connections, LOAD.warmupSeconds);
      const samples: Record<LoadKind, LoadSample[]> = { ours: [], bare: [], peer: [] };
      const profilers = PROFILE_DIR ? new Map(await Promise.all(kinds.map(async (kind) => [kind, await workerProfiler(running[kind].inspectorPort!)] as const))) : undefined;
      await inTurns(kinds, route.requests, (kind) => running[kind].url.toString(), async (kind, url) => {
        const load = () => runLoad(url, route.requests, LOAD.connections, LOAD.roundSeconds);
        const profiler = profilers?.get(kind);
        samples[kind].push(await (profiler ? profiler.during(load) : load()));
      });
      for (const [kind, profiler] of profilers ?? []) {
        profiler.close();
        const file = join(PROFILE_DIR!, `workerd-${route.id}-${kind}.cpuprofile`);
        await writeMappedProfile(profiler.profile(), scripts[kind], file);
        const answered = samples[kind].reduce((sum, sample) => sum + sample.latencies.length, 0);
        console.log(`  workerd  ${kind}'s CPU profile of its rounds (${answered} requests answered): ${file}`);
      }
      const results = { ours: summarize(samples.ours), bare: summarize(samples.bare), ...(peerProblems.length ? {} : { peer: summarize(samples.peer) }) };
      for (const kind of kinds) console.log(`  workerd  ${route.title.padEnd(40)} ${LOAD_TITLES[kind].padEnd(26)} ${show(results[kind]!)}`);
      rows.push({ route: route.id, title: route.title, results });
    }
    if (!bareDifferences.length) console.log("  the bare worker sent the same statements with the same parameters as ours: verified");
    if (!peerDifferences.length) console.log("  the peer worker sent the same statements as ours, answered with our bodies, and a wrong token 401: verified");
    for (const kind of [...KINDS, "peer"] as const) {
      await running[kind].dispose();
      delete workers[kind];
    }

    // Fresh workerd processes, ours and bare in turn, so both meet the machine's load alike.
    const starts: Record<WorkerKind, Omit<ColdStart, "trials" | "request">[]> = { ours: [], bare: [] };
    for (let trial = 0; trial < COLD_START_TRIALS; trial++)
      for (const kind of trial % 2 ? [...KINDS].reverse() : KINDS) starts[kind].push(await coldStart(scripts[kind], bindings[kind]));
    const cold = { ours: summarizeStarts(starts.ours), bare: summarizeStarts(starts.bare) };
    for (const kind of KINDS)
      console.log(
        `  workerd  cold isolate ${WORKER_TITLES[kind].padEnd(22)} load ${cold[kind].loadMs.toFixed(0)} ms, first response ${cold[kind].firstResponseMs.toFixed(1)} ms after load, warm ${cold[kind].warmResponseMs.toFixed(1)} ms`,
      );
    return { measured: true, value: { rows, bareDifferences, peerDifferences, peerBundle, coldStart: cold, bundles } };
  } finally {
    for (const worker of Object.values(workers)) await worker.dispose().catch(() => undefined);
    await database?.close();
    await rm(outdir, { recursive: true, force: true });
  }
}
