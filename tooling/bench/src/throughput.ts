/**
 * Part 1: requests a second and latency over HTTP on loopback, per route and engine, for our server
 * (rate limiter off, and on with a budget no run reaches), for the two peers (the same routes on Hono
 * with @hono/zod-openapi, peer-core.ts, and on Fastify, fastify-peer-core.ts) and for the baseline, on
 * one database.
 */
import { readFileSync } from "node:fs";
import type { Engine } from "@cloudplane/db";
import { baselineAnswer, openRawDatabase, verifyBaseline, type RawDatabase } from "./baseline.js";
import { captureRouteSql, sqlOnly, type RouteSql } from "./capture.js";
import { benchDatabase, databaseForServer, type BenchDatabase } from "./databases.js";
import { inTurns, runLoad, shownRatio, summarize, type LoadResult, type LoadSample } from "./load.js";
import { checkedRequests, LOAD, requestPath, ROUTES, type BenchRequest, type RouteId } from "./scenario.js";
import { PEER_NAMES, verifyPeerAnswers, verifyPeerStatements, type PeerKind } from "./peer.js";
import { startServer, type RunningServer } from "./servers/launch.js";

export type Variant = "baseline" | "peer" | "fastifyPeer" | "ours" | "oursRateLimited";

export const VARIANT_TITLES: Record<Variant, string> = {
  baseline: "baseline",
  peer: "peer (Hono + zod-openapi)",
  fastifyPeer: "peer (Fastify)",
  ours: "ours (rate limit off)",
  oursRateLimited: "ours (rate limit on)",
};

export interface ThroughputRow {
  engine: Engine;
  route: RouteId;
  title: string;
  /** `fastifyPeer` is absent from runs made before the Fastify peer existed (results.json's before.json). */
  results: Record<Variant, LoadResult>;
  /**
   * PGlite only: the floor under every server, the database's own time. The route's requests answered
   * by the baseline's code in the bench's own process, on a copy of the database, one after another: no
   * HTTP, no server. Absent on PostgreSQL and from runs made before it was measured.
   */
  floor?: { requestsPerSecond: number };
  /**
   * Each server's CPU time per answered request, in µs: its process's user and system time (all its
   * threads) over its measured rounds, divided by the responses. Unlike req/s, it does not depend on how
   * the two cores were shared with the load generator and the other servers' turns. Absent from runs made
   * before it was measured.
   */
  cpuMicros?: Record<Variant, number>;
}

export interface ThroughputPart {
  engine: Engine;
  rows: ThroughputRow[];
  /** Differences between the baseline's statements and ours; empty when they are the same. */
  baselineDifferences: string[];
  /**
   * What failed of the peer's checks (its statements against ours; its answers against ours over HTTP;
   * a wrong token answered 401); empty when all passed. Absent from runs made before the peer existed.
   */
  peerDifferences?: string[];
  /** The same for the Fastify peer; absent from runs made before it existed. */
  fastifyPeerDifferences?: string[];
}

export function show(result: LoadResult): string {
  const failures = result.failures ? `, ${result.failures} FAILED` : "";
  return `${result.requestsPerSecond.toFixed(0).padStart(6)} req/s  p50 ${result.p50.toFixed(2)} ms  p99 ${result.p99.toFixed(2)} ms${failures}`;
}

const VARIANTS = ["baseline", "peer", "fastifyPeer", "ours", "oursRateLimited"] as const;
const PEERS: readonly PeerKind[] = ["peer", "fastifyPeer"];
const PEER_SERVERS = { peer: "peer", fastifyPeer: "fastify-peer" } as const;
const PEER_LABELS: Record<PeerKind, string> = { peer: "Hono peer", fastifyPeer: "Fastify peer" };

/** A process's CPU time so far (user and system, all its threads), in seconds, from /proc (Linux). */
function cpuSeconds(pid: number): number {
  // The fields after the command's closing parenthesis: utime and stime are the 12th and 13th of them.
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/** /proc's unit of CPU time: USER_HZ, 100 on every Linux architecture the bench runs on. */
const CLOCK_TICKS = 100;

/** Requests a second of `requests`, in turn, through the baseline's code on `db` in this process, for `seconds` (after a second's warm-up). */
async function floorOf(db: RawDatabase, statements: RouteSql, requests: BenchRequest[], seconds: number): Promise<number> {
  let previous: unknown;
  const answer = async (request: BenchRequest) => {
    const url = new URL(requestPath(request, previous), "http://floor.local");
    const { status, body } = await baselineAnswer(db, statements, request.method, url, request.body);
    if (status < 200 || status >= 300) throw new Error(`the floor's ${request.method} ${url.pathname} answered ${status}`);
    previous = body;
  };
  for (const until = performance.now() + 1000; performance.now() < until; ) for (const request of requests) await answer(request);
  let answered = 0;
  const started = performance.now();
  for (const until = started + seconds * 1000; performance.now() < until; answered += requests.length) for (const request of requests) await answer(request);
  return answered / ((performance.now() - started) / 1000);
}

export async function measureThroughput(engine: Engine): Promise<ThroughputPart> {
  const database = await benchDatabase(engine);
  const copies: BenchDatabase[] = [];
  const servers: Partial<Record<Variant, RunningServer>> = {};
  // PGlite's floor runs on a copy of its own, opened in this process once the servers have had their rounds.
  let floorDatabase: RawDatabase | undefined;
  const openFloorDatabase = async () => {
    const copy = await databaseForServer(database);
    copies.push(copy);
    return openRawDatabase(copy.location);
  };
  try {
    const requests = ROUTES.flatMap(checkedRequests);
    const statements = await captureRouteSql(database.location, requests);
    const baselineDifferences = await verifyBaseline(database.location, statements, requests);
    if (baselineDifferences.length) console.log(`  the baseline differs from ours: ${baselineDifferences.join("; ")}`);
    else console.log("  the baseline sends the same statements with the same parameters as ours: verified");
    const differences: Record<PeerKind, string[]> = { peer: [], fastifyPeer: [] };
    for (const kind of PEERS) differences[kind] = await verifyPeerStatements(database.location, statements, requests, kind);
    const baselineStatements = sqlOnly(statements);

    for (const variant of VARIANTS) {
      const copy = await databaseForServer(database);
      copies.push(copy);
      servers[variant] =
        variant === "baseline" || variant === "peer" || variant === "fastifyPeer"
          ? await startServer(variant === "baseline" ? "baseline" : PEER_SERVERS[variant], { location: copy.location, statements: baselineStatements }, `${engine}-${variant}`)
          : await startServer("ours", { location: copy.location, rateLimit: variant === "ours" ? "off" : "unreachable" }, `${engine}-${variant}`);
    }

    const chosen = process.env.BENCH_ROUTES?.split(",");
    const routes = ROUTES.filter((route) => !chosen || chosen.includes(route.id));
    for (const kind of PEERS) {
      differences[kind].push(...(await verifyPeerAnswers(servers.ours!.url, servers[kind]!.url, routes, kind)));
      if (differences[kind].length) console.log(`  ${PEER_NAMES[kind]}'s checks failed: ${differences[kind].join("; ")}`);
      else console.log(`  ${PEER_NAMES[kind]} sends the same statements as ours, answers every request with our body, and a wrong token 401: verified`);
    }

    const rows: ThroughputRow[] = [];
    for (const route of routes) {
      for (const variant of VARIANTS) await runLoad(servers[variant]!.url, route.requests, LOAD.connections, LOAD.warmupSeconds);
      const samples: Record<Variant, LoadSample[]> = { baseline: [], peer: [], fastifyPeer: [], ours: [], oursRateLimited: [] };
      const cpu: Record<Variant, number> = { baseline: 0, peer: 0, fastifyPeer: 0, ours: 0, oursRateLimited: 0 };
      await inTurns(VARIANTS, route.requests, (variant) => servers[variant]!.url, async (variant, url) => {
        const { pid } = servers[variant]!;
        const before = cpuSeconds(pid);
        samples[variant].push(await runLoad(url, route.requests, LOAD.connections, LOAD.roundSeconds));
        cpu[variant] += cpuSeconds(pid) - before;
      });
      const results = Object.fromEntries(VARIANTS.map((variant) => [variant, summarize(samples[variant])])) as Record<Variant, LoadResult>;
      const cpuMicros = Object.fromEntries(VARIANTS.map((variant) => [variant, (cpu[variant] * 1e6) / Math.max(1, results[variant].responses)])) as Record<Variant, number>;
      for (const variant of VARIANTS)
        console.log(
          `  ${engine.padEnd(8)} ${route.title.padEnd(40)} ${VARIANT_TITLES[variant].padEnd(26)} ${show(results[variant])}  CPU ${cpuMicros[variant].toFixed(0)} µs/request`,
        );
      for (const kind of PEERS)
        console.log(
          `  ${engine.padEnd(8)} ${route.title.padEnd(40)} ${`ours ÷ ${PEER_LABELS[kind]}`.padEnd(26)} ${shownRatio(results.ours, results[kind])}`,
        );
      let floor: ThroughputRow["floor"];
      if (engine === "pglite") {
        floorDatabase ??= await openFloorDatabase();
        floor = { requestsPerSecond: await floorOf(floorDatabase, baselineStatements, route.requests, LOAD.rounds * LOAD.roundSeconds) };
        console.log(`  ${engine.padEnd(8)} ${route.title.padEnd(40)} ${"PGlite alone (the floor)".padEnd(26)} ${floor.requestsPerSecond.toFixed(0).padStart(6)} req/s`);
      }
      rows.push({ engine, route: route.id, title: route.title, results, cpuMicros, ...(floor ? { floor } : {}) });
    }
    return { engine, rows, baselineDifferences, peerDifferences: differences.peer, fastifyPeerDifferences: differences.fastifyPeer };
  } finally {
    await floorDatabase?.close();
    for (const server of Object.values(servers)) await server.stop();
    for (const copy of copies) await copy.close();
    await database.close();
  }
}
