/**
 * Part 1: requests a second and latency over HTTP on loopback, per route and engine, for our server
 * (rate limiter off, and on with a budget no run reaches), for the peer (the same routes on Hono with
 * @hono/zod-openapi, peer-core.ts) and for the baseline, on one database.
 */
import type { Engine } from "@cloudplane/db";
import { verifyBaseline } from "./baseline.js";
import { captureRouteSql, type RouteSql } from "./capture.js";
import { benchDatabase, databaseForServer, type BenchDatabase } from "./databases.js";
import { runLoad, summarize, type LoadResult, type LoadSample } from "./load.js";
import { checkedRequests, LOAD, ROUTES, type RouteId } from "./scenario.js";
import { verifyPeerAnswers, verifyPeerStatements } from "./peer.js";
import { startServer, type RunningServer } from "./servers/launch.js";

export type Variant = "baseline" | "peer" | "ours" | "oursRateLimited";

export const VARIANT_TITLES: Record<Variant, string> = {
  baseline: "baseline",
  peer: "peer (Hono + zod-openapi)",
  ours: "ours (rate limit off)",
  oursRateLimited: "ours (rate limit on)",
};

export interface ThroughputRow {
  engine: Engine;
  route: RouteId;
  title: string;
  results: Record<Variant, LoadResult>;
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
}

/** The SQL of every route without the parameters it was caught with (the baseline makes its own). */
function sqlOnly(statements: RouteSql): RouteSql {
  return Object.fromEntries(Object.entries(statements).map(([key, list]) => [key, list.map(({ sql }) => ({ sql, params: [] }))]));
}

export function show(result: LoadResult): string {
  const failures = result.failures ? `, ${result.failures} FAILED` : "";
  return `${result.requestsPerSecond.toFixed(0).padStart(6)} req/s  p50 ${result.p50.toFixed(2)} ms  p99 ${result.p99.toFixed(2)} ms${failures}`;
}

const VARIANTS = ["baseline", "peer", "ours", "oursRateLimited"] as const;

export async function measureThroughput(engine: Engine): Promise<ThroughputPart> {
  const database = await benchDatabase(engine);
  const copies: BenchDatabase[] = [];
  const servers: Partial<Record<Variant, RunningServer>> = {};
  try {
    const requests = ROUTES.flatMap(checkedRequests);
    const statements = await captureRouteSql(database.location, requests);
    const baselineDifferences = await verifyBaseline(database.location, statements, requests);
    if (baselineDifferences.length) console.log(`  the baseline differs from ours: ${baselineDifferences.join("; ")}`);
    else console.log("  the baseline sends the same statements with the same parameters as ours: verified");
    const peerDifferences = await verifyPeerStatements(database.location, statements, requests);

    for (const variant of VARIANTS) {
      const copy = await databaseForServer(database);
      copies.push(copy);
      servers[variant] =
        variant === "baseline" || variant === "peer"
          ? await startServer(variant, { location: copy.location, statements: sqlOnly(statements) })
          : await startServer("ours", { location: copy.location, rateLimit: variant === "ours" ? "off" : "unreachable" });
    }

    const chosen = process.env.BENCH_ROUTES?.split(",");
    const routes = ROUTES.filter((route) => !chosen || chosen.includes(route.id));
    peerDifferences.push(...(await verifyPeerAnswers(servers.ours!.url, servers.peer!.url, routes)));
    if (peerDifferences.length) console.log(`  the peer's checks failed: ${peerDifferences.join("; ")}`);
    else console.log("  the peer sends the same statements as ours, answers every request with our body, and a wrong token 401: verified");

    const rows: ThroughputRow[] = [];
    for (const route of routes) {
      for (const variant of VARIANTS) await runLoad(servers[variant]!.url, route.requests, LOAD.connections, LOAD.warmupSeconds);
      const samples: Record<Variant, LoadSample[]> = { baseline: [], peer: [], ours: [], oursRateLimited: [] };
      for (let round = 0; round < LOAD.rounds; round++)
        for (const variant of VARIANTS) samples[variant].push(await runLoad(servers[variant]!.url, route.requests, LOAD.connections, LOAD.roundSeconds));
      const results = Object.fromEntries(VARIANTS.map((variant) => [variant, summarize(samples[variant])])) as Record<Variant, LoadResult>;
      for (const variant of VARIANTS)
        console.log(`  ${engine.padEnd(8)} ${route.title.padEnd(40)} ${VARIANT_TITLES[variant].padEnd(26)} ${show(results[variant])}`);
      rows.push({ engine, route: route.id, title: route.title, results });
    }
    return { engine, rows, baselineDifferences, peerDifferences };
  } finally {
    for (const server of Object.values(servers)) await server.stop();
    for (const copy of copies) await copy.close();
    await database.close();
  }
}
