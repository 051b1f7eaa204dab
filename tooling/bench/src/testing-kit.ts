/**
 * Part 8: @cloudplane/testing against the same work over HTTP to the local app. How long
 * `createTestPlatform()` takes to be ready (in a fresh process from the image on disk, in a warm process
 * from the image in memory, and from a closed platform's database), `reset()` after a test's writes,
 * and one client call; beside them, starting our server (what `pnpm start` runs), cleaning a test's
 * objects up over HTTP, and the same call over HTTP on loopback.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { createClient, type CloudplaneClient } from "@cloudplane/client";
import { demoFixture } from "@cloudplane/db";
import { createTestPlatform, type TestPlatform } from "@cloudplane/testing";
import { benchDatabase, databaseForServer, type BenchDatabase } from "./databases.js";
import { startServer, type RunningServer } from "./servers/launch.js";
import { AUTHORIZATION, BENCH_ACCOUNT_ID } from "./scenario.js";

const run = promisify(execFile);

/** Goals of the issue that asked for the kit. */
export const KIT_READY_GOAL_MS = 500;
export const KIT_RESET_GOAL_MS = 20;
export const KIT_CALL_GOAL_MS = 2;

const ROUNDS = { freshProcess: 5, readyInProcess: 7, reset: 40, callsWarmup: 200, calls: 2000, callsBlock: 100, serverStarts: 3 } as const;

export interface Spread {
  /** Milliseconds. */
  p50: number;
  p90: number;
  samples: number;
}

export interface TestingKitPart {
  ready: {
    /** A test file's first platform: a new Node process, the image read from the disk cache. */
    freshProcess: Spread;
    /** A later platform in a process: a new database from the image in memory. */
    fromImage: Spread;
    /** After a platform was closed: its database, put back to the seeded state. */
    fromPool: Spread;
    /** Our server in a process of its own on a copy of the demo data directory, to its first answer (what `pnpm start` runs). */
    serverStart: Spread;
  };
  reset: {
    /** `reset()` after a test made a stream, an origin group and a CDN resource. */
    afterWrites: Spread;
    /** `reset()` after a test that changed nothing. */
    untouched: Spread;
    /** Removing the same three objects over HTTP (four calls), as a test against a shared server cleans up. */
    cleanupOverHttp: Spread;
  };
  call: {
    /** `client.streaming.streams.get(id)` through the kit (in the process, no network). */
    kit: Spread;
    /** The same call with the same client over HTTP on loopback to our server. */
    http: Spread;
  };
}

function spread(samples: number[]): Spread {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (fraction: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))]!;
  return { p50: at(0.5), p90: at(0.9), samples: sorted.length };
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

const show = (name: string, value: Spread) => console.log(`  ${name.padEnd(58)} p50 ${value.p50.toFixed(2).padStart(8)} ms  p90 ${value.p90.toFixed(2).padStart(8)} ms  (${value.samples})`);

/** A test file's first platform: a fresh Node process that imports the kit and starts one, from the image in `cacheDirectory`. */
async function freshProcessReady(cacheDirectory: string): Promise<number> {
  const script = fileURLToPath(new URL("./testing-kit-start.ts", import.meta.url));
  const { stdout } = await run(process.execPath, ["--import", "tsx", script, cacheDirectory], { cwd: fileURLToPath(new URL("..", import.meta.url)) });
  return (JSON.parse(stdout.trim().split("\n").at(-1)!) as { readyMs: number }).readyMs;
}

/** What a test made: a stream, an origin group and a CDN resource. */
async function makeObjects(client: CloudplaneClient, round: number) {
  const stream = await client.streaming.streams.create({ name: `bench-${round}` });
  const group = await client.cdn.originGroups.create({ name: `bench-${round}`, sources: [{ source: `origin-${round}.bench.example` }] });
  const resource = await client.cdn.resources.create({ cname: `bench-${round}-${Date.now()}.bench.example`, originGroup: group.id });
  return { stream, group, resource };
}

export async function measureTestingKit(): Promise<TestingKitPart> {
  const cacheDirectory = await mkdtemp(join(tmpdir(), "cloudplane-bench-kit-"));
  const database: BenchDatabase = await benchDatabase("pglite");
  const copies: BenchDatabase[] = [];
  let server: RunningServer | undefined;
  const held: TestPlatform[] = [];
  try {
    // The image: made once (and written to the cache), not measured.
    const first = await createTestPlatform({ preset: "demo", cacheDirectory });
    held.push(first);

    const freshProcess: number[] = [];
    for (let round = 0; round < ROUNDS.freshProcess; round++) freshProcess.push(await freshProcessReady(cacheDirectory));

    // Held open, so that each starts a new database rather than taking a pooled one.
    const fromImage: number[] = [];
    for (let round = 0; round < ROUNDS.readyInProcess; round++) {
      let platform: TestPlatform | undefined;
      fromImage.push(await timed(async () => (platform = await createTestPlatform({ preset: "demo", cacheDirectory }))));
      held.push(platform!);
    }
    const fromPool: number[] = [];
    for (let round = 0; round < ROUNDS.readyInProcess; round++) {
      await held.pop()!.close();
      let platform: TestPlatform | undefined;
      fromPool.push(await timed(async () => (platform = await createTestPlatform({ preset: "demo", cacheDirectory }))));
      held.push(platform!);
    }

    const afterWrites: number[] = [];
    const untouched: number[] = [];
    for (let round = 0; round < ROUNDS.reset; round++) {
      await makeObjects(first.client, round);
      afterWrites.push(await timed(() => first.reset()));
      untouched.push(await timed(() => first.reset()));
    }

    const serverStart: number[] = [];
    for (let round = 0; round < ROUNDS.serverStarts; round++) {
      const copy = await databaseForServer(database);
      copies.push(copy);
      const started = performance.now();
      const starting = await startServer("ours", { location: copy.location, rateLimit: "off" });
      const answer = await fetch(`${starting.url}/streaming/streams/1`, { headers: { authorization: AUTHORIZATION } });
      await answer.arrayBuffer();
      serverStart.push(performance.now() - started);
      if (round < ROUNDS.serverStarts - 1) await starting.stop();
      else server = starting;
    }

    const http = createClient({ apiKey: AUTHORIZATION.slice("apikey ".length), baseUrl: server!.url, maxRetries: 0 });
    const cleanupOverHttp: number[] = [];
    for (let round = 0; round < ROUNDS.reset; round++) {
      const made = await makeObjects(http, round);
      cleanupOverHttp.push(
        await timed(async () => {
          await http.streaming.streams.delete(made.stream.id);
          await http.cdn.resources.update(made.resource.id, { active: false });
          await http.cdn.resources.delete(made.resource.id);
          await http.cdn.originGroups.delete(made.group.id);
        }),
      );
    }

    // Account 1's first stream, as part 1's "GET a stream" reads it. The two clients take turns by blocks of
    // calls, so that noise from elsewhere falls on both alike, while neither call pays for the other's
    // leftovers (the HTTP client's socket reads, its garbage).
    const streamId = demoFixture.streams.find((stream) => stream.accountId === BENCH_ACCOUNT_ID)!.id;
    const kitCalls: number[] = [];
    const httpCalls: number[] = [];
    for (let round = 0; round < ROUNDS.callsWarmup; round++) {
      await first.client.streaming.streams.get(streamId);
      await http.streaming.streams.get(streamId);
    }
    for (let block = 0; block < ROUNDS.calls / ROUNDS.callsBlock; block++) {
      for (let call = 0; call < ROUNDS.callsBlock; call++) kitCalls.push(await timed(() => first.client.streaming.streams.get(streamId)));
      for (let call = 0; call < ROUNDS.callsBlock; call++) httpCalls.push(await timed(() => http.streaming.streams.get(streamId)));
    }

    const part: TestingKitPart = {
      ready: { freshProcess: spread(freshProcess), fromImage: spread(fromImage), fromPool: spread(fromPool), serverStart: spread(serverStart) },
      reset: { afterWrites: spread(afterWrites), untouched: spread(untouched), cleanupOverHttp: spread(cleanupOverHttp) },
      call: { kit: spread(kitCalls), http: spread(httpCalls) },
    };
    show("createTestPlatform(), a fresh process, image on disk", part.ready.freshProcess);
    show("createTestPlatform(), warm process, image in memory", part.ready.fromImage);
    show("createTestPlatform(), after a close (pooled database)", part.ready.fromPool);
    show("our server started, to its first answer (HTTP)", part.ready.serverStart);
    show("reset() after a stream, an origin group, a CDN resource", part.reset.afterWrites);
    show("reset() after nothing changed", part.reset.untouched);
    show("deleting the same three objects over HTTP", part.reset.cleanupOverHttp);
    show("GET a stream through the kit's client", part.call.kit);
    show("GET a stream, same client, over HTTP (loopback)", part.call.http);
    return part;
  } finally {
    for (const platform of held) await platform.close();
    await server?.stop();
    for (const copy of copies) await copy.close();
    await database.close();
    await rm(cacheDirectory, { recursive: true, force: true });
  }
}
