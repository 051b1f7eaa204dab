/**
 * `pnpm --filter @cloudplane/bench profile-summary <dir>`: where a server's CPU time went, from the V8
 * CPU profiles a run wrote with BENCH_PROFILE_DIR set. Self time is added up per part (our code, each
 * library, Node's HTTP and streams, the garbage collector), so a route's cost can be put where it sits.
 * A Node server's profile comes with the requests it served while profiled (settings.ts): its figures
 * are then per request too, and the servers of a run are set side by side, part by part.
 */
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { heapNodes, type CallFrame, type CpuProfile, type HeapProfile } from "./profile-frames.js";
import type { ProfileCoverage } from "./servers/settings.js";

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

/** A function as the tables name it: its name, and its file (shortened) and line. */
function frameName(frame: CallFrame): string {
  const where = frame.url.replace(/^.*node_modules\/\.pnpm\//, "").replace(/^file:\/\/.*\/packages\//, "packages/");
  return `${frame.functionName || "(anonymous)"} ${where}:${frame.lineNumber + 1}`;
}

function partOf(frame: CallFrame): string {
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
    const name = frameName(node.callFrame);
    functions.set(name, (functions.get(name) ?? 0) + delta);
  });
  return { parts, functions };
}

/** Bytes allocated per part and per function (the frame that allocated them), from an allocation profile. */
function allocatedBytes(profile: HeapProfile): { parts: Map<string, number>; functions: Map<string, number> } {
  const parts = new Map<string, number>();
  const functions = new Map<string, number>();
  for (const { callFrame, selfSize } of heapNodes(profile)) {
    if (selfSize === 0) continue;
    const part = partOf(callFrame);
    parts.set(part, (parts.get(part) ?? 0) + selfSize);
    const name = frameName(callFrame);
    functions.set(name, (functions.get(name) ?? 0) + selfSize);
  }
  return { parts, functions };
}

/** Rows of `rows` (bytes), most first: each its share of `total` and its bytes per request. */
function bytesTable(rows: Map<string, number>, total: number, limit: number, requests: number): string {
  return [...rows]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([name, bytes]) => `  ${((100 * bytes) / total).toFixed(1).padStart(5)} %  ${(bytes / requests).toFixed(0).padStart(7)} B/request  ${name}`)
    .join("\n");
}

/** A profile's busy time (idle left out), in microseconds. */
function busyOf(parts: Map<string, number>): number {
  return [...parts].filter(([name]) => name !== "idle").reduce((sum, [, micros]) => sum + micros, 0);
}

/** Rows of `rows` (microseconds), costliest first: each its share of `total`, its time, and its time per request when `requests` is known. */
function table(rows: Map<string, number>, total: number, limit: number, requests?: number): string {
  return [...rows]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([name, micros]) => {
      const perRequest = requests ? `${(micros / requests).toFixed(1).padStart(7)} µs/request` : "";
      return `  ${((100 * micros) / total).toFixed(1).padStart(5)} %  ${(micros / 1000).toFixed(0).padStart(7)} ms${perRequest}  ${name}`;
    })
    .join("\n");
}

/** The servers side by side: each part's µs per request, for every profile that says how many requests it served. */
function sideBySide(profiles: { label: string; requests: number; parts: Map<string, number> }[]): string {
  const most = (name: string) => Math.max(...profiles.map(({ parts }) => parts.get(name) ?? 0));
  const names = [...new Set(profiles.flatMap(({ parts }) => [...parts.keys()]))].sort((a, b) => most(b) - most(a));
  const rows: [string, number[]][] = [
    ["busy (idle left out)", profiles.map(({ parts, requests }) => busyOf(parts) / requests)],
    ...names.map((name): [string, number[]] => [name, profiles.map(({ parts, requests }) => (parts.get(name) ?? 0) / requests)]),
  ];
  const nameWidth = Math.max(...rows.map(([name]) => name.length));
  const widths = profiles.map(({ label }) => Math.max(label.length, 8));
  return [
    `  ${"µs per request".padEnd(nameWidth)}  ${profiles.map(({ label }, index) => label.padStart(widths[index]!)).join("  ")}`,
    ...rows.map(([name, values]) => `  ${name.padEnd(nameWidth)}  ${values.map((value, index) => value.toFixed(1).padStart(widths[index]!)).join("  ")}`),
  ].join("\n");
}

async function main(): Promise<void> {
  const directory = process.argv[2];
  if (!directory) throw new Error("Usage: profile-summary <directory of .cpuprofile files>");
  const files = (await readdir(directory)).filter((name) => name.endsWith(".cpuprofile")).sort();
  if (files.length === 0) throw new Error(`No .cpuprofile file in ${directory}: run the bench with BENCH_PROFILE_DIR=${directory}.`);
  const covered: { label: string; requests: number; parts: Map<string, number> }[] = [];
  for (const file of files) {
    const profile = JSON.parse(await readFile(join(directory, file), "utf8")) as CpuProfile;
    const coverageFile = join(directory, file.replace(/\.cpuprofile$/, ".json"));
    const coverage = existsSync(coverageFile) ? (JSON.parse(await readFile(coverageFile, "utf8")) as ProfileCoverage) : undefined;
    const { parts, functions } = selfTimes(profile);
    const busy = busyOf(parts);
    parts.delete("idle");
    functions.delete("(idle) :0");
    const requests = coverage?.requests || undefined;
    const heading = requests ? `${file}: ${coverage!.label}, ${requests} requests, ${(busy / requests).toFixed(0)} µs busy a request` : `${file}: ${(busy / 1000).toFixed(0)} ms busy`;
    console.log(`${heading} (idle left out)\n${table(parts, busy, PARTS.length + 2, requests)}\n  top functions:\n${table(functions, busy, 15, requests)}\n`);
    if (requests) covered.push({ label: coverage!.label, requests, parts });
    const heapFile = join(directory, file.replace(/\.cpuprofile$/, ".heapprofile"));
    if (requests && existsSync(heapFile)) {
      const allocated = allocatedBytes(JSON.parse(await readFile(heapFile, "utf8")) as HeapProfile);
      const total = [...allocated.parts.values()].reduce((sum, bytes) => sum + bytes, 0);
      console.log(
        `  allocated (BENCH_PROFILE_ALLOCATIONS): ${(total / requests).toFixed(0)} B a request\n${bytesTable(allocated.parts, total, PARTS.length + 2, requests)}\n` +
          `  top allocating functions:\n${bytesTable(allocated.functions, total, 20, requests)}\n`,
      );
    }
  }
  if (covered.length > 1) console.log(`Side by side, each part's time per request:\n${sideBySide(covered)}`);
}

await main();
