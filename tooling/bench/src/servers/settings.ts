/** What the benchmark's server processes share: their settings (JSON in BENCH_SERVER), a clean stop and, when asked, a profile. */
import { mkdir, writeFile } from "node:fs/promises";
import type { Server } from "node:http";
import { Session } from "node:inspector/promises";
import { join } from "node:path";
import { heapNodes, mapBundleFrames, packageBundle } from "../profile-frames.js";
import { PROFILE_ALLOCATIONS, PROFILE_DIR } from "../scenario.js";

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
async function profileWhileServing(server: Server, directory: string): Promise<() => Promise<void>> {
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.start");
  // Every allocation sampled, the ones the garbage collector has since taken too (V8 leaves those out by default).
  if (PROFILE_ALLOCATIONS)
    await session.post("HeapProfiler.startSampling", { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  let requests = 0;
  server.on("request", () => requests++);
  return async () => {
    const { profile } = await session.post("Profiler.stop");
    const allocations = PROFILE_ALLOCATIONS ? (await session.post("HeapProfiler.stopSampling")).profile : undefined;
    session.disconnect();
    // Our packages' frames are put back in the files they came from (ts-rest and itty-router are bundled in the handlers').
    mapBundleFrames(profile, packageBundle);
    const label = process.env.BENCH_PROFILE_LABEL || "server";
    const name = join(directory, `${label}-${process.pid}`);
    const coverage: ProfileCoverage = { label, requests };
    await mkdir(directory, { recursive: true });
    await writeFile(`${name}.cpuprofile`, JSON.stringify(profile));
    await writeFile(`${name}.json`, `${JSON.stringify(coverage)}\n`);
    if (allocations) {
      mapBundleFrames({ nodes: heapNodes(allocations) }, packageBundle);
      await writeFile(`${name}.heapprofile`, JSON.stringify(allocations));
    }
  };
}

/**
 * Once the server listens: on SIGTERM, stop listening, drop idle connections and close the database
 * (PGlite writes its files then); with BENCH_PROFILE_DIR set, its profile is taken from now on and
 * written first.
 */
export async function onStop(server: Server, closeDatabase: () => Promise<void>): Promise<void> {
  const stopProfile = PROFILE_DIR ? await profileWhileServing(server, PROFILE_DIR) : undefined;
  process.once("SIGTERM", () => {
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
