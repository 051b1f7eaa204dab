/**
 * `pnpm --filter @cloudplane/bench profile-summary <dir>`: where a server's CPU time went, from the V8
 * CPU profiles a run wrote with BENCH_PROFILE_DIR set. Self time is added up per part (our code, each
 * library, Node's HTTP and streams, the garbage collector), so a route's cost can be put where it sits.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Parts, first match wins: a pattern on the script's URL (or the function name for V8's own entries). */
const PARTS: [string, RegExp][] = [
  ["idle", /^\(idle\)$/],
  ["garbage collector", /^\(garbage collector\)$/],
  ["V8 and native code", /^\((program|root)\)$/],
  ["@ts-rest/serverless (router, TsRestRequest/TsRestResponse)", /@ts-rest\+serverless|@ts-rest\/serverless/],
  ["itty-router (ts-rest's matcher)", /itty-router/],
  ["@ts-rest/core (request checks)", /@ts-rest\+core|@ts-rest\/core/],
  ["zod (validation)", /[/+]zod[@/]/],
  ["@hono/node-server (IncomingMessage → Request)", /@hono\+node-server|@hono\/node-server/],
  ["undici (fetch Request, Response, Headers, streams)", /undici|node:internal\/deps\/undici/],
  ["Drizzle (SQL, row mapping)", /drizzle-orm/],
  ["postgres.js (driver)", /[/+]postgres@|\/postgres\/src/],
  ["PGlite (embedded database)", /pglite/],
  // PGlite's PostgreSQL, compiled to WebAssembly (no other WebAssembly runs in the bench's servers).
  ["PGlite's PostgreSQL (WebAssembly)", /^wasm:\/\//],
  ["cloudplane (handlers, contract, db)", /packages\/(handlers|contract|db)\//],
  ["Node (http, net, streams, timers)", /^node:/],
];

function partOf(frame: ProfileNode["callFrame"]): string {
  const key = frame.url || frame.functionName;
  for (const [name, pattern] of PARTS) if (pattern.test(key)) return name;
  return frame.url ? "other JavaScript" : "V8 and native code";
}

/** Self time per part and per function, in microseconds. */
function selfTimes(profile: CpuProfile): { parts: Map<string, number>; functions: Map<string, number> } {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parts = new Map<string, number>();
  const functions = new Map<string, number>();
  profile.samples.forEach((id, index) => {
    const node = byId.get(id);
    const delta = profile.timeDeltas[index] ?? 0;
    if (!node) return;
    const part = partOf(node.callFrame);
    parts.set(part, (parts.get(part) ?? 0) + delta);
    const where = node.callFrame.url.replace(/^.*node_modules\/\.pnpm\//, "").replace(/^file:\/\/.*\/packages\//, "packages/");
    const name = `${node.callFrame.functionName || "(anonymous)"} ${where}:${node.callFrame.lineNumber + 1}`;
    functions.set(name, (functions.get(name) ?? 0) + delta);
  });
  return { parts, functions };
}

function table(rows: Map<string, number>, total: number, limit: number): string {
  return [...rows]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([name, micros]) => `  ${((100 * micros) / total).toFixed(1).padStart(5)} %  ${(micros / 1000).toFixed(0).padStart(7)} ms  ${name}`)
    .join("\n");
}

async function main(): Promise<void> {
  const directory = process.argv[2];
  if (!directory) throw new Error("Usage: profile-summary <directory of .cpuprofile files>");
  const files = (await readdir(directory)).filter((name) => name.endsWith(".cpuprofile"));
  if (files.length === 0) throw new Error(`No .cpuprofile file in ${directory}: run the bench with BENCH_PROFILE_DIR=${directory}.`);
  for (const file of files) {
    const profile = JSON.parse(await readFile(join(directory, file), "utf8")) as CpuProfile;
    const { parts, functions } = selfTimes(profile);
    const busy = [...parts].filter(([name]) => name !== "idle").reduce((sum, [, micros]) => sum + micros, 0);
    parts.delete("idle");
    console.log(`${file}: ${(busy / 1000).toFixed(0)} ms busy (idle left out)\n${table(parts, busy, PARTS.length + 2)}\n  top functions:\n${table(functions, busy, 15)}\n`);
  }
}

await main();
