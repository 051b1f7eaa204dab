/**
 * Part 10, routing (in every whole run; alone with `BENCH_PARTS=routing pnpm bench`, or `node --import tsx src/routing.ts` on Node 22):
 * µs per lookup through itty-router's `Router.fetch`, the router @ts-rest/serverless serves our API with,
 * before (the registry's loop, which tries every route in turn) and after (our patch's index,
 * patches/itty-router@5.0.24.patch), interleaved in the same run. The routes are the contract's as ts-rest
 * registers them for packages/handlers: every route's path with its `:params`, in the contract's order,
 * then a HEAD twin of each GET route (handlers' `servedContract`), then ts-rest's `all("*")` that answers
 * 404. At 3×, each area's routes twice more under another first segment (`/cdn_2/…`, `/cdn_3/…`), in the
 * order src/builds.ts's `--scale 3` gives `contractAtScale`, the HEAD twins of all of them after.
 * A whole run measures it in a process of its own (`measureRoutingApart`) and writes its figures into
 * results.json and results.md ("10. Routing", and a goal per lookup).
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ROUTES } from "@cloudplane/contract";
import { Router } from "itty-router";
import { median } from "./load.js";

type Handler = (request: LookupRequest) => unknown;
interface LookupRequest {
  method: string;
  url: string;
  [key: string]: unknown;
}
interface Routing {
  add(method: string, path: string, handler: Handler): void;
  fetch(request: LookupRequest): Promise<unknown>;
}

/**
 * itty-router 5.0.24's `Router` as the registry publishes it (MIT, Kevin R. Whitley), its `fetch` the loop
 * over every route: the "before" of this part. Written out from the published Router.mjs, with the
 * options ts-rest does not pass here (base, before, catch, finally) as empty as they are in the
 * measured router.
 */
function registryRouter(): Routing {
  const routes: [string, RegExp, Handler[], string][] = [];
  const other: { before?: Handler[]; finally?: ((response: unknown, request: LookupRequest) => unknown)[]; catch?: (error: unknown, request: LookupRequest) => unknown } = {};
  return {
    add(method, route, handler) {
      const path = route.replace(/\/+(\/|$)/g, "$1");
      const pattern = path
        .replace(/(\/?\.?):(\w+)\+/g, "($1(?<$2>[^]+))")
        .replace(/(\/?\.?):(\w+)/g, "($1(?<$2>[^$1/]+?))")
        .replace(/\./g, "\\.")
        .replace(/(\/?)\*/g, "($1.*)?");
      routes.push([method.toUpperCase(), RegExp(`^${pattern}/*$`), [handler], path]);
    },
    async fetch(request) {
      let response: unknown, match: RegExpMatchArray | null;
      const url = new URL(request.url);
      const query: Record<string, unknown> = (request.query = { __proto__: null });
      for (const [k, v] of url.searchParams) query[k] = query[k] ? ([] as unknown[]).concat(query[k], v) : v;
      t: try {
        for (const handler of other.before ?? []) if ((response = await handler(request)) != null) break t;
        outer: for (const [method, regex, handlers, path] of routes)
          if ((method == request.method || method == "ALL") && (match = url.pathname.match(regex))) {
            request.params = match.groups ?? {};
            request.route = path;
            for (const handler of handlers) if ((response = await handler(request)) != null) break outer;
          }
      } catch (error) {
        if (!other.catch) throw error;
        response = await other.catch(error, request);
      }
      for (const handler of other.finally ?? []) response = (await handler(response, request)) ?? response;
      return response;
    },
  };
}

/** The patched `Router` (the index), behind the same two calls. */
function indexedRouter(): Routing {
  const router = Router();
  // ts-rest registers through the method's name, as here (`router[routerMethod](path, ...handlers)`).
  const register = router as unknown as Record<string, (path: string, handler: Handler) => unknown>;
  return {
    add: (method, path, handler) => void register[method.toLowerCase()]!(path, handler),
    fetch: (request) => router.fetch(request),
  };
}

/** [method, path] of every route ts-rest registers for the handlers at `scale` (1 or 3), in order. */
export function registeredRoutes(scale: number): [string, string][] {
  const areas = [...new Set(ROUTES.map(({ area }) => area))];
  const routes: [string, string][] = ROUTES.map(({ route }) => [route.method, route.path]);
  if (scale === 3)
    for (const area of areas)
      for (const copy of [2, 3])
        for (const { route } of ROUTES.filter((entry) => entry.area === area))
          routes.push([route.method, route.path.replace(new RegExp(`^/${area}(?=/|$)`), `/${area}_${copy}`)]);
  return [...routes, ...routes.filter(([method]) => method === "GET").map(([, path]): [string, string] => ["HEAD", path])];
}

interface Case {
  name: string;
  method: string;
  path: string;
}

function cases(routes: [string, string][]): Case[] {
  const concrete = (path: string) => path.replace(/:\w+/g, "1");
  const [firstMethod, firstPath] = routes[0]!;
  const [lastMethod, lastPath] = routes.at(-1)!;
  return [
    { name: "first route", method: firstMethod, path: concrete(firstPath) },
    { name: "GET a stream", method: "GET", path: "/streaming/streams/1" },
    { name: "last route", method: lastMethod, path: concrete(lastPath) },
    { name: "missing route", method: "GET", path: "/missing/route" },
  ];
}

function build(make: () => Routing, routes: [string, string][]): Routing {
  const router = make();
  for (const [method, path] of routes) router.add(method, path, () => `${method} ${path}`);
  router.add("all", "*", () => "404");
  return router;
}

/** µs per lookup of `count` lookups of the case, one after another. */
async function timed(router: Routing, { method, path }: Case, count: number): Promise<number> {
  const url = `http://api.test${path}`;
  const start = process.hrtime.bigint();
  for (let i = 0; i < count; i++) await router.fetch({ method, url });
  return Number(process.hrtime.bigint() - start) / count / 1000;
}

function uptime(): string {
  try {
    return execFileSync("uptime", { encoding: "utf8" }).trim();
  } catch {
    return "uptime: not available";
  }
}

export interface RoutingFigures {
  scale: number;
  routes: number;
  cases: { name: string; request: string; registryMicros: number; indexMicros: number }[];
}

/**
 * Measures every case at 1× and 3×, before and after, and answers the medians. Within each round every
 * case is timed at both scales and with both routers (which goes first turns each round), so the 3×
 * against 1× ratio compares lookups made side by side, and a change in the machine's load falls on both
 * scales alike rather than on whichever was measured later.
 */
export async function measureRouting(rounds = 15, lookups = 2000): Promise<RoutingFigures[]> {
  console.log(`  ${uptime()}`);
  const scales = [1, 3].map((scale) => {
    const routes = registeredRoutes(scale);
    return {
      scale,
      routes,
      routers: { registry: build(registryRouter, routes), index: build(indexedRouter, routes) },
      measured: cases(routes).map((c) => ({ case: c, registry: [] as number[], index: [] as number[] })),
    };
  });
  for (const { routers, measured } of scales)
    for (const { case: c } of measured) {
      const [before, after] = [await routers.registry.fetch({ method: c.method, url: `http://api.test${c.path}` }), await routers.index.fetch({ method: c.method, url: `http://api.test${c.path}` })];
      if (before !== after) throw new Error(`routing: ${c.method} ${c.path} reached ${String(before)} before and ${String(after)} after`);
    }
  // A round of warm-up, then the rounds.
  for (let round = -1; round < rounds; round++) {
    for (const [index] of scales[0]!.measured.entries())
      for (const { routers, measured } of round % 2 === 0 ? scales : [...scales].reverse()) {
        const m = measured[index]!;
        const order = round % 2 === 0 ? (["registry", "index"] as const) : (["index", "registry"] as const);
        for (const which of order) {
          const micros = await timed(routers[which], m.case, lookups);
          if (round >= 0) m[which].push(micros);
        }
      }
  }
  const figures: RoutingFigures[] = [];
  for (const { scale, routes, measured } of scales) {
    const figure: RoutingFigures = {
      scale,
      routes: routes.length + 1,
      cases: measured.map((m) => ({ name: m.case.name, request: `${m.case.method} ${m.case.path}`, registryMicros: median(m.registry), indexMicros: median(m.index) })),
    };
    console.log(`  ${scale}×, ${figure.routes} routes registered (HEAD twins and the 404 route included):`);
    for (const c of figure.cases)
      console.log(`    ${c.name.padEnd(14)} ${c.request.padEnd(48)} ${c.registryMicros.toFixed(2).padStart(6)} → ${c.indexMicros.toFixed(2).padStart(5)} µs`);
    figures.push(figure);
  }
  console.log(`  ${uptime()}`);
  return figures;
}

/**
 * `measureRouting` in a process of its own (this file, run with `--json <file>`), as a whole run measures
 * it: there it comes after every other part, in a process whose heap holds what they left, and its
 * lookups of a few µs were slower at 3× than at 1× there (1.3×) and not when run alone (1.0×).
 */
export async function measureRoutingApart(): Promise<RoutingFigures[]> {
  const directory = await mkdtemp(join(tmpdir(), "bench-routing-"));
  const file = join(directory, "routing.json");
  try {
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url), "--json", file], { stdio: "inherit" });
      child.once("error", reject);
      child.once("exit", resolve);
    });
    if (code !== 0) throw new Error(`the routing process exited with ${String(code)}`);
    return JSON.parse(await readFile(file, "utf8")) as RoutingFigures[];
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const json = process.argv.indexOf("--json");
  if (json < 0) console.log("Routing: µs per lookup through itty-router's Router.fetch, the registry's loop → the index (median of 15 rounds)");
  const figures = await measureRouting();
  if (json >= 0) await writeFile(process.argv[json + 1]!, JSON.stringify(figures));
}
