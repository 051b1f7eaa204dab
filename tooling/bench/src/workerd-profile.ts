/**
 * CPU profiles of the workers in workerd, with BENCH_PROFILE_DIR set (as the Node servers write theirs):
 * each worker's workerd listens for the Chrome DevTools Protocol on a port of its own, V8's sampling
 * profiler runs through the worker's own measured rounds of a route, and the profile is written with every frame mapped
 * through the bundle's source map to the file it came from, so `pnpm profile-summary` puts its time
 * where it sits (our packages, each library) as it does for Node's profiles.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { basename, dirname } from "node:path";
import WebSocket from "ws";
import { mapBundleFrames, type CpuProfile } from "./profile-frames.js";

/** Microseconds between samples (V8's default, 1 ms, leaves too few samples for a request of 100 µs). */
const SAMPLING_INTERVAL = 100;

/** A free TCP port on loopback, for a workerd's inspector. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done, fail) => server.once("error", fail).listen(0, "127.0.0.1", done));
  const address = server.address();
  await new Promise((done) => server.close(done));
  if (!address || typeof address === "string") throw new Error("no port was given");
  return address.port;
}

/**
 * A profiler of the user worker of the workerd whose inspector is on `port`: `during` profiles what runs
 * while `work` does (the worker's own rounds, so the time it waits while another worker is under load
 * is left out), `profile` is every such stretch as one profile, and `close` ends the session.
 */
export async function workerProfiler(port: number): Promise<{ during<T>(work: () => Promise<T>): Promise<T>; profile(): CpuProfile; close(): void }> {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json`)).json()) as { id: string; webSocketDebuggerUrl: string }[];
  // Miniflare names its own workers (core:entry, cache:…); the one it was given is core:user:<name>.
  const target = targets.find((candidate) => candidate.id.startsWith("core:user:"));
  if (!target) throw new Error(`workerd's inspector lists no user worker (${targets.map((candidate) => candidate.id).join(", ")})`);
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise<void>((done, fail) => socket.once("open", () => done()).once("error", fail));
  let next = 0;
  const waiting = new Map<number, { done(result: unknown): void; fail(error: Error): void }>();
  socket.on("message", (data) => {
    const text = (Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data instanceof ArrayBuffer ? new Uint8Array(data) : data)).toString("utf8");
    const message = JSON.parse(text) as { id?: number; result?: unknown; error?: { message: string } };
    const call = message.id === undefined ? undefined : waiting.get(message.id);
    if (!call) return;
    waiting.delete(message.id!);
    if (message.error) call.fail(new Error(message.error.message));
    else call.done(message.result);
  });
  const send = (method: string, params: object = {}) =>
    new Promise<unknown>((done, fail) => {
      const id = ++next;
      waiting.set(id, { done, fail });
      socket.send(JSON.stringify({ id, method, params }));
    });
  await send("Profiler.enable");
  await send("Profiler.setSamplingInterval", { interval: SAMPLING_INTERVAL });
  const stretches: CpuProfile[] = [];
  return {
    async during(work) {
      await send("Profiler.start");
      try {
        return await work();
      } finally {
        stretches.push(((await send("Profiler.stop")) as { profile: CpuProfile }).profile);
      }
    },
    profile: () => joined(stretches),
    close: () => socket.close(),
  };
}

/** Profiles one after another as one: their trees under one root, their samples in turn. */
function joined(profiles: CpuProfile[]): CpuProfile {
  const root = { id: 1, callFrame: { functionName: "(root)", url: "", lineNumber: -1, columnNumber: -1 }, children: [] as number[] };
  const nodes: CpuProfile["nodes"] = [root];
  const samples: number[] = [];
  const timeDeltas: number[] = [];
  let offset = 1;
  for (const profile of profiles) {
    const rootId = profile.nodes[0]!.id;
    const idOf = (id: number) => (id === rootId ? root.id : id + offset);
    for (const node of profile.nodes) {
      const children = (node.children ?? []).map(idOf);
      if (node.id === rootId) root.children.push(...children);
      else nodes.push({ ...node, id: idOf(node.id), children });
    }
    samples.push(...profile.samples.map(idOf));
    timeDeltas.push(...profile.timeDeltas);
    offset += Math.max(...profile.nodes.map((node) => node.id));
  }
  const startTime = profiles[0]?.startTime ?? 0;
  return { nodes, samples, timeDeltas, startTime, endTime: startTime + timeDeltas.reduce((sum, delta) => sum + delta, 0) };
}

/**
 * Writes `profile` to `file` with each frame of `script` (a bundle with its `.map` beside it) given the
 * file, line and name it came from; frames of workerd's own modules are left as they are.
 */
export async function writeMappedProfile(profile: CpuProfile, script: string, file: string): Promise<void> {
  // workerd names the worker's module by its path under Miniflare's modules root: the bundle's file name.
  const module = basename(script);
  mapBundleFrames(profile, (url) => (url === module || url.endsWith(`/${module}`) ? script : undefined));
  // The folder may not exist yet.
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(profile));
}
