/** What the benchmark's server processes share: their settings (JSON in BENCH_SERVER), a clean stop and, when asked, a profile. */
import { mkdir, writeFile } from "node:fs/promises";
import type { Server } from "node:http";
import { Session } from "node:inspector/promises";
import { constants, PerformanceObserver, type PerformanceEntry } from "node:perf_hooks";
import { join } from "node:path";
import { heapNodes, mapBundleFrames, packageBundle } from "../profile-frames.js";
import { GC_STATS, PROFILE_ALLOCATIONS, PROFILE_DIR } from "../scenario.js";

export function serverSettings<T>(): T {
  const text = process.env.BENCH_SERVER;
  if (!text) throw new Error("BENCH_SERVER is not set: this process is started by the benchmark.");
  return JSON.parse(text) as T;
}

/** What a server's profile covers, written beside it (`<name>.json`) for `profile-summary`. */
export interface ProfileCoverage {
  /** The server, as the benchmark started it (`ours`, `peer`…, with the part's engine and variant where it gave them). */
  label: string;
  /** Requests the server was handed while it was profiled. */
  requests: number;
}

/**
 * With BENCH_PROFILE_DIR set: V8's CPU profile of the server from the moment it listens to its stop (its
 * start-up, module loading included, is left out), and the requests it was handed in that time, so that
 * `profile-summary` can put each part's time per request. Resolves once the profiler runs; the function
 * it resolves to stops it and writes `<label>-<pid>.cpuprofile` and its `.json`.
 */
async function profileWhileServing(directory: string, requests: () => number): Promise<() => Promise<void>> {
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.start");
  // Every allocation sampled, the ones the garbage collector has since taken too (V8 leaves those out by default).
  if (PROFILE_ALLOCATIONS)
    await session.post("HeapProfiler.startSampling", { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  return async () => {
    const { profile } = await session.post("Profiler.stop");
    const allocations = PROFILE_ALLOCATIONS ? (await session.post("HeapProfiler.stopSampling")).profile : undefined;
    session.disconnect();
    // Our packages' frames are put back in the files they came from (ts-rest and itty-router are bundled in the handlers').
    mapBundleFrames(profile, packageBundle);
    const label = process.env.BENCH_PROFILE_LABEL || "server";
    const name = join(directory, `${label}-${process.pid}`);
    const coverage: ProfileCoverage = { label, requests: requests() };
    await mkdir(directory, { recursive: true });
    await writeFile(`${name}.cpuprofile`, JSON.stringify(profile));
    await writeFile(`${name}.json`, `${JSON.stringify(coverage)}\n`);
    if (allocations) {
      mapBundleFrames({ nodes: heapNodes(allocations) }, packageBundle);
      await writeFile(`${name}.heapprofile`, JSON.stringify(allocations));
    }
  };
}

/** V8's kinds of collection, as a `gc` performance entry's `detail.kind` gives them. */
const GC_KINDS: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: "scavenges",
  [constants.NODE_PERFORMANCE_GC_MAJOR]: "mark-compacts",
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: "incremental marking steps",
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: "weak callbacks",
};

/**
 * With BENCH_GC_STATS=1: each collection the server's V8 makes while it serves (Node's `gc` performance
 * entries), counted by kind with its time; the function it returns prints them per request, on stderr
 * (the bench shows a server's stderr). Unlike a profile's "garbage collector", which the profiler's own
 * allocations inflate, this is the collector as it runs unobserved.
 */
function collectionsWhileServing(requests: () => number): () => void {
  const kinds = new Map<number, { count: number; ms: number }>();
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const { kind } = (entry as PerformanceEntry & { detail: { kind: number } }).detail;
      const seen = kinds.get(kind) ?? { count: 0, ms: 0 };
      seen.count += 1;
      seen.ms += entry.duration;
      kinds.set(kind, seen);
    }
  });
  observer.observe({ entryTypes: ["gc"] });
  return () => {
    observer.disconnect();
    const served = Math.max(requests(), 1);
    const each = [...kinds].map(
      ([kind, { count, ms }]) =>
        `${count} ${GC_KINDS[kind] ?? `kind ${kind}`} (${((1000 * count) / served).toFixed(2)} per 1,000 requests, ${((1000 * ms) / served).toFixed(2)} µs a request)`,
    );
    const total = [...kinds.values()].reduce((sum, { ms }) => sum + ms, 0);
    console.error(`gc over ${requests()} requests: ${((1000 * total) / served).toFixed(2)} µs a request; ${each.join(", ") || "none"}`);
  };
}

/**
 * Once the server listens: on SIGTERM, stop listening, drop idle connections and close the database
 * (PGlite writes its files then); with BENCH_PROFILE_DIR set, its profile is taken from now on and
 * written first; with BENCH_GC_STATS=1, its collections are counted from now on and printed first.
 */
export async function onStop(server: Server, closeDatabase: () => Promise<void>): Promise<void> {
  // One count of the requests the server is handed from now on, for whichever of the two reports them.
  let requests = 0;
  if (PROFILE_DIR || GC_STATS) server.on("request", () => requests++);
  const served = () => requests;
  const stopProfile = PROFILE_DIR ? await profileWhileServing(PROFILE_DIR, served) : undefined;
  const printCollections = GC_STATS ? collectionsWhileServing(served) : undefined;
  process.once("SIGTERM", () => {
    printCollections?.();
    server.close();
    server.closeAllConnections();
    // Requests cut off with their connections still finish their queries: give them time first.
    setTimeout(() => {
      (stopProfile?.() ?? Promise.resolve())
        .then(closeDatabase)
        .catch((error: unknown) => console.error(error))
        .finally(() => process.exit(0));
    }, 1000);
  });
}
