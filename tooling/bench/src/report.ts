/**
 * The results: every figure of the run as JSON, and the same as Markdown for a person deciding whether
 * to use this stack, with each goal of the benchmark met or not and its number.
 */
import type { Engine } from "@cloudplane/db";
import { buildsSection } from "./builds.js";
import type { ClientFigures, DeploymentFigures, Measured, BundleSize, ColdStart } from "./bundles.js";
import { DURABILITIES, type DurabilityPart } from "./durability.js";
import { shownRatio, throughputRatio, type LoadResult } from "./load.js";
import type { Machine } from "./machine.js";
import type { ScalePart } from "./scale.js";
import { type LOAD, ROUTES, SCALE } from "./scenario.js";
import { KIT_CALL_GOAL_MS, KIT_READY_GOAL_MS, KIT_RESET_GOAL_MS, type Spread, type TestingKitPart } from "./testing-kit.js";
import type { RoutingFigures } from "./routing.js";
import { VARIANT_TITLES, type ThroughputPart } from "./throughput.js";
import { VALIDATION_BLOCK_GOAL_MS, type ValidationPart, type ValidationRow } from "./validation.js";
import { WORKER_TITLES, type WorkerdFigures } from "./workerd.js";

export interface NotMeasured {
  engine: Engine;
  why: string;
}

export interface Goal {
  /** Stable across runs, to set a run's figure beside the same figure of the "before" run. */
  id: string;
  goal: string;
  /** The number, in words and units. */
  measured: string;
  /** null: not measured (see `measured` for why). */
  met: boolean | null;
}

/** The run the figures are set against: the last whole run before the serving core's rewrite (before.json). */
export interface Before {
  date: string;
  file: string;
  /** Its goals, evaluated by this run's code (so against today's goals). */
  goals: Goal[];
}

export interface Results {
  date: string;
  durationSeconds: number;
  machine: Machine;
  settings: { load: typeof LOAD; scale: typeof SCALE };
  throughput: (ThroughputPart | NotMeasured)[];
  scale: (ScalePart | NotMeasured)[];
  worker: DeploymentFigures;
  lambda: DeploymentFigures;
  client: ClientFigures;
  /** Absent from runs made before the workerd part existed (before.json). */
  workerd?: WorkerdFigures;
  /** Absent from runs made before the durability part existed (before.json). */
  durability?: DurabilityPart | NotMeasured;
  /** Absent from runs made before the validation part existed (before.json). */
  validation?: (ValidationPart | NotMeasured)[];
  /** Absent from runs made before the testing kit's part existed (before.json). */
  testingKit?: TestingKitPart | NotMeasured;
  /** Absent from runs made before the routing part went into whole runs (before.json, runs before 2026-12-04). */
  routing?: Measured<RoutingFigures[]>;
  goals: Goal[];
  before?: Before;
}

/** Ours over the bare server (the baseline), per route and engine: on PostgreSQL the harder bound. */
export const THROUGHPUT_RATIO_GOAL: Record<Engine, number> = { pglite: 0.7, postgres: 0.8 };
/** The cost report on PostgreSQL is held to more than the other routes: ours over the baseline. */
export const COST_REPORT_POSTGRES_RATIO_GOAL = 0.9;
/** Ours (rate limit off) over the peer (Hono + @hono/zod-openapi), per route and engine. */
export const PEER_RATIO_GOAL = 1.0;
/** Ours (rate limit off) over the Fastify peer (fast-json-stringify answers), per route and engine. */
export const FASTIFY_PEER_RATIO_GOAL = 0.9;
export const WORKERD_RATIO_GOAL = 0.9;
/**
 * Routing at three times the routes: each lookup's µs at 3× over the same lookup's at 1×, at most this. "The same
 * cost at any size" within the spread of sub-µs medians from one run to the next; a loop over the routes is ~3.5×
 * on the last route.
 */
export const ROUTING_SCALE_GOAL = 1.25;
/** PGlite: ours (rate limit off) per request over the floor's (the database's own time), at most this. */
export const FLOOR_RATIO_GOAL = 1.3;
export const WORKER_GZIP_GOAL_KIB = 200;
export const WORKER_FIRST_RESPONSE_GOAL_MS = 30;
export const LAMBDA_FIRST_RESPONSE_GOAL_MS = 50;
const LAMBDA_FIRST_RESPONSE_GOAL = `The Lambda's first event after load (a fresh Node process, its init phase done) < ${LAMBDA_FIRST_RESPONSE_GOAL_MS} ms`;
export const CLIENT_GZIP_GOAL_KIB = 35;

const ENGINE_NAMES: Record<Engine, string> = { pglite: "PGlite", postgres: "PostgreSQL" };

export function isMeasured<T extends object>(part: T | NotMeasured): part is T {
  return !("why" in part);
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
const ms = (value: number) => (value >= 100 ? `${value.toFixed(0)} ms` : `${value.toFixed(1)} ms`);
const rps = (value: number) => Math.round(value).toLocaleString("en-US");
/** Microseconds a request takes at `requestsPerSecond` on one thread. */
const perRequest = (requestsPerSecond: number) => 1e6 / requestsPerSecond;
const micros = (value: number) => `${Math.round(value).toLocaleString("en-US")} µs`;

/** The ratio goal of two load results (the median of their rounds' ratios), or why the run is invalid. */
function ratioGoal(id: string, goal: string, ours: LoadResult, baseline: LoadResult, bound: number): Goal {
  const { ratio, low, high, rounds } = throughputRatio(ours, baseline);
  const valid = !ours.failures && !baseline.failures;
  const spread = rounds ? `; median of ${rounds} rounds, ${low.toFixed(2)}–${high.toFixed(2)}` : "";
  return {
    id,
    goal,
    measured: valid
      ? `${ratio.toFixed(2)} × (${rps(ours.requestsPerSecond)} vs ${rps(baseline.requestsPerSecond)} req/s${spread})`
      : `invalid run: ${ours.failures + baseline.failures} failed requests`,
    met: valid ? ratio >= bound : false,
  };
}

const FIRST_RESPONSE_GOAL = `Our worker's first response after load in workerd (cold isolate) < ${WORKER_FIRST_RESPONSE_GOAL_MS} ms`;
const BARE_FIRST_RESPONSE_GOAL = `The bare worker's first response after load in workerd (cold isolate) < ${WORKER_FIRST_RESPONSE_GOAL_MS} ms`;

function firstResponseGoal(id: string, goal: string, start: ColdStart, where: string, goalMs = WORKER_FIRST_RESPONSE_GOAL_MS): Goal {
  return {
    id,
    goal,
    measured: `${ms(start.firstResponseMs)} (median of ${start.trials} fresh starts, ${where}; start to first response ${ms(start.totalMs)})`,
    met: start.firstResponseMs < goalMs,
  };
}

/** The workerd part's goals: ours / bare per route, and the bare worker's cold isolate. */
function workerdGoals(workerd: WorkerdFigures | undefined): Goal[] {
  if (!workerd) return [];
  const title = (route: string) => `${route} in workerd, our worker: ≥ ${WORKERD_RATIO_GOAL} × the bare worker`;
  if (!workerd.measured)
    return [
      ...ROUTES.map((route) => ({ id: `workerd.${route.id}`, goal: title(route.title), measured: `not measured: ${workerd.why}`, met: null })),
      { id: "workerd.bare.firstResponse", goal: BARE_FIRST_RESPONSE_GOAL, measured: `not measured: ${workerd.why}`, met: null },
    ];
  const goals: Goal[] = workerd.value.rows.map((row) =>
    row.results
      ? ratioGoal(`workerd.${row.route}`, title(row.title), row.results.ours, row.results.bare, WORKERD_RATIO_GOAL)
      : { id: `workerd.${row.route}`, goal: title(row.title), measured: `failed before the load: ${row.failed ?? "?"}`, met: false },
  );
  // Against the peer worker: from the runs made since it exists (peerDifferences set).
  const { peerDifferences } = workerd.value;
  if (peerDifferences)
    for (const row of workerd.value.rows) {
      const peerTitle = `${row.title} in workerd, our worker: ≥ ${PEER_RATIO_GOAL.toFixed(1)} × the peer worker`;
      const id = `workerd.${row.route}.peer`;
      if (row.results?.peer) goals.push(ratioGoal(id, peerTitle, row.results.ours, row.results.peer, PEER_RATIO_GOAL));
      else goals.push({ id, goal: peerTitle, measured: row.results ? "the peer worker failed its checks on this route (results.md says how)" : `failed before the load: ${row.failed ?? "?"}`, met: false });
    }
  goals.push(firstResponseGoal("workerd.bare.firstResponse", BARE_FIRST_RESPONSE_GOAL, workerd.value.coldStart.bare, "workerd part"));
  return goals;
}

/** What our code held the event loop for in a row: the longest hold less JSON.parse of the body, which comes before any of it. */
function validationHoldMs(row: ValidationRow): number {
  return Math.max(0, row.maxBlockMs - row.parseMs);
}

/** A body the API refuses: what the goal is on (a valid body's hold includes writing and answering it). */
const refused = (row: ValidationRow) => row.status >= 400 && row.status < 500;

/**
 * The validation part's goal per engine: of the bodies refused, the worst hold beyond parsing the JSON under
 * the bound; and no body answered with a 5xx.
 */
/** Part 8's goals: the kit ready in a warm process, reset() after a test's writes, one call through it. */
function testingKitGoals(part: Results["testingKit"]): Goal[] {
  if (!part) return [];
  const goals = [
    { id: "testing.ready", goal: `createTestPlatform() ready in a warm process (a new database from the image) < ${KIT_READY_GOAL_MS} ms`, bound: KIT_READY_GOAL_MS },
    { id: "testing.reset", goal: `reset() after a test's writes < ${KIT_RESET_GOAL_MS} ms`, bound: KIT_RESET_GOAL_MS },
    { id: "testing.call", goal: `One client call through the kit: p50 < ${KIT_CALL_GOAL_MS} ms`, bound: KIT_CALL_GOAL_MS },
  ];
  if (!isMeasured(part)) return goals.map(({ id, goal }) => ({ id, goal, measured: `not measured: ${part.why}`, met: null }));
  const figures: Record<string, [Spread, string]> = {
    "testing.ready": [part.ready.fromImage, `a fresh process from the image on disk: ${ms(part.ready.freshProcess.p50)}; our server started: ${ms(part.ready.serverStart.p50)}`],
    "testing.reset": [part.reset.afterWrites, `the same cleaned up over HTTP: ${ms(part.reset.cleanupOverHttp.p50)}`],
    "testing.call": [part.call.kit, `over HTTP on loopback: ${ms(part.call.http.p50)}`],
  };
  return goals.map(({ id, goal, bound }) => {
    const [figure, beside] = figures[id]!;
    return { id, goal, measured: `p50 ${ms(figure.p50)}, p90 ${ms(figure.p90)} (${beside})`, met: figure.p50 < bound };
  });
}

function testingKitSection(part: Results["testingKit"]): string {
  if (!part) return "Not in this run.\n";
  if (!isMeasured(part)) return `Not measured: ${part.why}.\n`;
  const row = (what: string, figure: Spread) => [what, ms(figure.p50), ms(figure.p90), String(figure.samples)];
  return [
    table(
      ["", "p50", "p90", "samples"],
      [
        row("`createTestPlatform()`, a fresh process (a test file's first), image on disk", part.ready.freshProcess),
        row("`createTestPlatform()`, a warm process, a new database from the image in memory", part.ready.fromImage),
        row("`createTestPlatform()` after a `close()`: a pooled database", part.ready.fromPool),
        row("HTTP: our server started in a process of its own, to its first answer", part.ready.serverStart),
        row("`reset()` after a stream, an origin group and a CDN resource were made", part.reset.afterWrites),
        row("`reset()` after nothing changed", part.reset.untouched),
        row("HTTP: deleting the same three objects (four calls)", part.reset.cleanupOverHttp),
        row("GET a stream through the kit's client (in the process)", part.call.kit),
        row("HTTP: GET a stream, the same client over loopback", part.call.http),
      ],
    ),
    "",
  ].join("\n");
}

function validationGoals(parts: Results["validation"]): Goal[] {
  return (parts ?? []).map((part) => {
    const goal = `The worst bodies within 1 MiB on ${ENGINE_NAMES[part.engine]}: no 5xx, and a refusal holds the event loop < ${VALIDATION_BLOCK_GOAL_MS} ms beyond parsing the JSON`;
    const id = `validation.${part.engine}`;
    if (!isMeasured(part)) return { id, goal, measured: `not measured: ${part.why}`, met: null };
    const refusals = part.rows.filter(refused);
    if (!refusals.length) return { id, goal, measured: "no body was refused", met: false };
    const worst = refusals.reduce((a, b) => (validationHoldMs(b) > validationHoldMs(a) ? b : a));
    const failed = part.rows.filter((row) => row.status >= 500);
    return {
      id,
      goal,
      measured:
        `${worst.id}: ${ms(validationHoldMs(worst))} (held ${ms(worst.maxBlockMs)}, JSON.parse alone ${ms(worst.parseMs)}; least of ${part.rounds} rounds)` +
        (failed.length ? `; answered ${failed.map((row) => `${row.id} ${row.status}`).join(", ")}` : ""),
      met: !failed.length && validationHoldMs(worst) < VALIDATION_BLOCK_GOAL_MS,
    };
  });
}

type PeerVariant = "peer" | "fastifyPeer";

/** Each peer's goal: ours (rate limit off) over it, at least this; what it is called; its checks' failures in a part. */
const PEERS: Record<PeerVariant, { bound: number; name: string; differences: (part: ThroughputPart) => string[] | undefined }> = {
  peer: { bound: PEER_RATIO_GOAL, name: "the peer", differences: (part) => part.peerDifferences },
  fastifyPeer: { bound: FASTIFY_PEER_RATIO_GOAL, name: "the Fastify peer", differences: (part) => part.fastifyPeerDifferences },
};

const peerGoalTitle = (what: string, engine: Engine, kind: PeerVariant = "peer") =>
  `${what} on ${ENGINE_NAMES[engine]}, ${VARIANT_TITLES.ours}: ≥ ${PEERS[kind].bound.toFixed(1)} × ${PEERS[kind].name}`;

/** A peer of a row: absent from runs made before that peer existed (before.json). */
function peerOf(row: ThroughputPart["rows"][number], kind: PeerVariant = "peer"): LoadResult | undefined {
  return (row.results as Partial<ThroughputPart["rows"][number]["results"]>)[kind];
}

/** Part 1's goals against the peers: ours (rate limit off) over each peer per route; not met when that peer's checks failed. */
function peerGoals(part: ThroughputPart): Goal[] {
  const goals: Goal[] = [];
  for (const kind of ["peer", "fastifyPeer"] as const)
    for (const row of part.rows) {
      const peer = peerOf(row, kind);
      if (!peer) continue;
      const { bound, name, differences } = PEERS[kind];
      const goal = ratioGoal(`throughput.${part.engine}.${row.route}.${kind}`, peerGoalTitle(row.title, part.engine, kind), row.results.ours, peer, bound);
      if (differences(part)?.length) goals.push({ ...goal, measured: `${goal.measured}; ${name}'s checks failed (results.md says how)`, met: false });
      else goals.push(goal);
    }
  return goals;
}

/** Ours (rate limit off) per request over the floor's (1 ÷ req/s each, so the floor's req/s over ours), and whether it meets FLOOR_RATIO_GOAL. */
function floorRatio(row: ThroughputPart["rows"][number]): { ratio: number; met: boolean } {
  const { ours } = row.results;
  const ratio = row.floor!.requestsPerSecond / ours.requestsPerSecond;
  return { ratio, met: !ours.failures && ratio <= FLOOR_RATIO_GOAL };
}

/** PGlite's goals against its floor: ours (rate limit off) per request at most FLOOR_RATIO_GOAL × the floor's, per route. */
function floorGoals(part: ThroughputPart): Goal[] {
  return part.rows
    .filter((row) => row.floor)
    .map((row) => {
      const { ours } = row.results;
      const floor = row.floor!.requestsPerSecond;
      const { ratio, met } = floorRatio(row);
      return {
        id: `throughput.${part.engine}.${row.route}.floor`,
        goal: `${row.title} on ${ENGINE_NAMES[part.engine]}, ${VARIANT_TITLES.ours}: per request ≤ ${FLOOR_RATIO_GOAL} × the floor (PGlite alone)`,
        measured: ours.failures
          ? `invalid run: ${ours.failures} failed requests`
          : `${ratio.toFixed(2)} × (${micros(perRequest(ours.requestsPerSecond))} vs ${micros(perRequest(floor))} a request)`,
        met,
      };
    });
}

/** Each routing case's goal: its µs per lookup at 3× at most ROUTING_SCALE_GOAL × its µs at 1×. */
function routingGoals(routing: Results["routing"]): Goal[] {
  const goal = (name: string) => `Routing, ${name}: µs per lookup at 3× the routes ≤ ${ROUTING_SCALE_GOAL} × at today's routes`;
  if (!routing?.measured)
    return [{ id: "routing", goal: goal("every lookup"), measured: routing ? `not measured: ${routing.why}` : "not measured in this run", met: null }];
  const [today, triple] = [1, 3].map((scale) => routing.value.find((figure) => figure.scale === scale));
  if (!today || !triple) return [{ id: "routing", goal: goal("every lookup"), measured: "not measured at both sizes", met: null }];
  return today.cases.map((at1) => {
    const at3 = triple.cases.find((c) => c.name === at1.name)!;
    const ratio = at3.indexMicros / at1.indexMicros;
    return {
      id: `routing.${at1.name.replaceAll(" ", "-")}`,
      goal: goal(`${at1.name} (${at1.request})`),
      measured: `${ratio.toFixed(2)} × (${at3.indexMicros.toFixed(2)} µs at ${triple.routes} routes vs ${at1.indexMicros.toFixed(2)} µs at ${today.routes})`,
      met: ratio <= ROUTING_SCALE_GOAL,
    };
  });
}

export function evaluateGoals(results: Omit<Results, "goals">): Goal[] {
  const goals: Goal[] = [];
  for (const part of results.throughput) {
    if (!isMeasured(part)) {
      goals.push({
        id: `throughput.${part.engine}`,
        goal: `Throughput ≥ ${THROUGHPUT_RATIO_GOAL[part.engine]} × baseline on ${ENGINE_NAMES[part.engine]}`,
        measured: `not measured: ${part.why}`,
        met: null,
      });
      goals.push({ id: `throughput.${part.engine}.peer`, goal: peerGoalTitle("Throughput", part.engine), measured: `not measured: ${part.why}`, met: null });
      goals.push({
        id: `throughput.${part.engine}.fastifyPeer`,
        goal: peerGoalTitle("Throughput", part.engine, "fastifyPeer"),
        measured: `not measured: ${part.why}`,
        met: null,
      });
      continue;
    }
    for (const limiter of ["ours", "oursRateLimited"] as const)
      for (const row of part.rows)
        goals.push(
          ratioGoal(
            `throughput.${part.engine}.${row.route}.${limiter}`,
            `${row.title} on ${ENGINE_NAMES[part.engine]}, ${VARIANT_TITLES[limiter]}: ≥ ${THROUGHPUT_RATIO_GOAL[part.engine]} × baseline`,
            row.results[limiter],
            row.results.baseline,
            THROUGHPUT_RATIO_GOAL[part.engine],
          ),
        );
    const costReport = part.engine === "postgres" ? part.rows.find((row) => row.route === "costReport") : undefined;
    if (costReport)
      goals.push(
        ratioGoal(
          "throughput.postgres.costReport.ours.strict",
          `${costReport.title} on PostgreSQL, ${VARIANT_TITLES.ours}: ≥ ${COST_REPORT_POSTGRES_RATIO_GOAL} × baseline`,
          costReport.results.ours,
          costReport.results.baseline,
          COST_REPORT_POSTGRES_RATIO_GOAL,
        ),
      );
    goals.push(...peerGoals(part), ...floorGoals(part));
  }
  const postgresScale = results.scale.find((part) => part.engine === "postgres");
  for (const [id, title, bound] of [
    ["listApps", `Listing edge apps at ${SCALE.edgeApps.toLocaleString("en-US")} apps on PostgreSQL: p50 < 20 ms`, 20],
    ["listResources", `Listing CDN resources at ${SCALE.cdnResources.toLocaleString("en-US")} resources on PostgreSQL: p50 < 20 ms`, 20],
    ["costReport", `Cost report at ${SCALE.usageLines.toLocaleString("en-US")} usage lines on PostgreSQL: p50 < 100 ms`, 100],
    ["viewsByCountry", `Streaming views by country at ${SCALE.playerEvents.toLocaleString("en-US")} player events on PostgreSQL: p50 < 100 ms`, 100],
    ["viewsGrouped", `Streaming views per day, type and country at ${SCALE.playerEvents.toLocaleString("en-US")} player events on PostgreSQL: p50 < 100 ms`, 100],
  ] as const) {
    if (!results.scale.length) continue;
    if (!postgresScale || !isMeasured(postgresScale)) {
      goals.push({ id: `scale.${id}`, goal: title, measured: `not measured: ${postgresScale?.why ?? "DATABASE_URL is not set"}`, met: null });
      continue;
    }
    const row = postgresScale.rows.find((item) => item.id === id);
    // A run made before this request was measured (before.json) has no row for it.
    if (!row) {
      goals.push({ id: `scale.${id}`, goal: title, measured: "not measured in this run", met: null });
      continue;
    }
    goals.push({
      id: `scale.${id}`,
      goal: title,
      measured: row.ours.failures ? `invalid run: ${row.ours.failures} failed requests` : `p50 ${ms(row.ours.p50)} (p99 ${ms(row.ours.p99)})`,
      met: !row.ours.failures && row.ours.p50 < bound,
    });
  }
  // Every other listing of an account's objects (scale-listings.ts), each request at the same bound.
  if (postgresScale && isMeasured(postgresScale))
    for (const row of postgresScale.rows.filter((item) => item.listing && item.goalP50Ms !== undefined))
      goals.push({
        id: `scale.${row.id}`,
        goal: `${row.title}, at ${(postgresScale.listingRows ?? 0).toLocaleString("en-US")} rows on PostgreSQL: p50 < ${row.goalP50Ms} ms`,
        measured: row.ours.failures ? `invalid run: ${row.ours.failures} failed requests` : `p50 ${ms(row.ours.p50)} (p99 ${ms(row.ours.p99)})`,
        met: !row.ours.failures && row.ours.p50 < row.goalP50Ms!,
      });
  const { bundle, coldStart } = results.worker;
  const bundleGoal = `Worker bundle < ${WORKER_GZIP_GOAL_KIB} KiB gzipped`;
  goals.push(
    bundle.measured
      ? { id: "worker.bundle", goal: bundleGoal, measured: kib(bundle.value.gzipBytes), met: bundle.value.gzipBytes < WORKER_GZIP_GOAL_KIB * 1024 }
      : { id: "worker.bundle", goal: bundleGoal, measured: `not measured: ${bundle.why}`, met: null },
  );
  // Our worker's cold isolate: from the workerd part when it ran, else from the cold-start part (the same measure).
  const { workerd } = results;
  goals.push(
    workerd?.measured
      ? firstResponseGoal("worker.firstResponse", FIRST_RESPONSE_GOAL, workerd.value.coldStart.ours, "workerd part")
      : coldStart.measured
        ? firstResponseGoal("worker.firstResponse", FIRST_RESPONSE_GOAL, coldStart.value, "cold-start part")
        : { id: "worker.firstResponse", goal: FIRST_RESPONSE_GOAL, measured: `not measured: ${workerd && !workerd.measured && workerd.why !== "not in BENCH_PARTS" ? workerd.why : coldStart.why}`, met: null },
  );
  goals.push(...workerdGoals(workerd));
  const lambdaStart = results.lambda.coldStart;
  goals.push(
    lambdaStart.measured
      ? firstResponseGoal("lambda.firstResponse", LAMBDA_FIRST_RESPONSE_GOAL, lambdaStart.value, "cold-start part", LAMBDA_FIRST_RESPONSE_GOAL_MS)
      : { id: "lambda.firstResponse", goal: LAMBDA_FIRST_RESPONSE_GOAL, measured: `not measured: ${lambdaStart.why}`, met: null },
  );
  const { whole } = results.client;
  const clientGoal = `Whole client < ${CLIENT_GZIP_GOAL_KIB} KiB minified + gzipped`;
  goals.push(
    whole.measured
      ? { id: "client.bundle", goal: clientGoal, measured: kib(whole.value.gzipBytes), met: whole.value.gzipBytes < CLIENT_GZIP_GOAL_KIB * 1024 }
      : { id: "client.bundle", goal: clientGoal, measured: `not measured: ${whole.why}`, met: null },
  );
  goals.push(...validationGoals(results.validation));
  goals.push(...testingKitGoals(results.testingKit));
  goals.push(...routingGoals(results.routing));
  return goals;
}

/** Each goal of this run beside the same goal of the before run (goals only the before run has come last). */
export function goalsBeforeAfter(goals: Goal[], before: Goal[] | undefined): { goal: string; before: Goal | undefined; after: Goal | undefined }[] {
  const earlier = new Map((before ?? []).map((goal) => [goal.id, goal]));
  const rows: { goal: string; before: Goal | undefined; after: Goal | undefined }[] = goals.map((goal) => ({ goal: goal.goal, before: earlier.get(goal.id), after: goal }));
  const ids = new Set(goals.map((goal) => goal.id));
  for (const goal of before ?? []) if (!ids.has(goal.id)) rows.push({ goal: goal.goal, before: goal, after: undefined });
  return rows;
}

function verdict(met: boolean | null): string {
  return met === null ? "not measured" : met ? "**met**" : "**not met**";
}

function latency(result: LoadResult): string {
  if (result.failures) return `${result.failures} failed`;
  return `${ms(result.p50)} / ${ms(result.p99)}`;
}

function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.map((cell) => cell.replaceAll("|", "\\|")).join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}

/** The ratio of `limiter` to the baseline for a route in the before run, or "—". */
function beforeRatio(before: Results | undefined, engine: Engine, route: string, limiter: "ours" | "oursRateLimited"): string {
  const part = before?.throughput.find((item) => item.engine === engine);
  const row = part && isMeasured(part) ? part.rows.find((item) => item.route === route) : undefined;
  return row ? throughputRatio(row.results[limiter], row.results.baseline).ratio.toFixed(2) : "—";
}

/** A section with a part per engine: each engine's heading, then its lines, or why it was not measured. */
function perEngine<P extends { engine: Engine }>(parts: readonly P[], lines: (part: Exclude<P, NotMeasured>) => string[]): string {
  const out: string[] = [];
  for (const part of parts) {
    out.push(`### ${ENGINE_NAMES[part.engine]}`, "");
    if (isMeasured<object>(part)) out.push(...lines(part as Exclude<P, NotMeasured>));
    else out.push(`Not measured: ${(part as NotMeasured).why}.`, "");
  }
  return out.join("\n");
}

/**
 * Each server's own CPU time per request (its process, all its threads), beside its req/s: the servers
 * share two cores with the load generator, so req/s moves with how the cores were shared in a server's
 * turn; CPU time per request is the work the server did, whatever the sharing. On PostgreSQL it leaves
 * out the database's own process; on PGlite it holds the database, which runs in the server's process.
 */
function cpuLines(part: ThroughputPart): string[] {
  const rows = part.rows.filter((row) => row.cpuMicros);
  if (!rows.length) return [];
  const ratio = (ours: number, other: number | undefined) => (other ? (ours / other).toFixed(2) : "—");
  return [
    `Each server's CPU time per request: its process's user and system time, all threads, over its measured rounds, divided by its answers (${part.engine === "pglite" ? "PGlite runs in each server's process, so this includes the database's own work" : "PostgreSQL's own work, in its processes, is not in it"}). Unlike req/s, it does not move with how the two cores were shared with the load generator in a server's turn. Ours ÷ a peer below 1.0: ours does less work per request.`,
    "",
    table(
      ["Route", "Baseline", "Peer", "Fastify peer", "Ours", "Ours + rate limit", "Ours ÷ peer", "Ours ÷ Fastify peer", "Ours − baseline"],
      rows.map((row) => {
        const cpu = row.cpuMicros!;
        return [
          row.title,
          micros(cpu.baseline),
          micros(cpu.peer),
          micros(cpu.fastifyPeer),
          micros(cpu.ours),
          micros(cpu.oursRateLimited),
          ratio(cpu.ours, cpu.peer),
          ratio(cpu.ours, cpu.fastifyPeer),
          `${cpu.ours >= cpu.baseline ? "+" : "−"}${micros(Math.abs(cpu.ours - cpu.baseline))}`,
        ];
      }),
    ),
    "",
  ];
}

/**
 * PGlite's floor: the database's own time per request, and what each server spends over it. A server on
 * PGlite does its work on one thread (PGlite's PostgreSQL runs in the server's process), so at full load
 * 1 ÷ req/s is the time a request takes of that thread.
 */
function floorLines(part: ThroughputPart): string[] {
  const rows = part.rows.filter((row) => row.floor);
  if (!rows.length) return [];
  const cell = (floor: number, result: LoadResult) => {
    const each = perRequest(result.requestsPerSecond);
    return `${micros(each)} (${each >= floor ? "+" : "−"}${micros(Math.abs(each - floor))})`;
  };
  return [
    "The floor under every server on PGlite: the route's requests answered by the baseline's code in the bench's own process, on a copy of the database, one after another, with no HTTP and no server, for as long as a server's rounds. Each server runs PGlite in its own process, on one thread, so at full load 1 ÷ req/s is what a request takes of it; over the floor (in brackets) is what the server spends beyond the database's own time: its HTTP, routing, checks and answer.",
    "",
    table(
      ["Route", "PGlite alone (the floor)", "Baseline per request (over the floor)", "Peer per request", "Fastify peer per request", "Ours per request", "Ours' share of its time", `Ours ÷ the floor (goal ≤ ${FLOOR_RATIO_GOAL})`],
      rows.map((row) => {
        const floor = perRequest(row.floor!.requestsPerSecond);
        const { baseline, ours } = row.results;
        const peer = peerOf(row);
        const fastifyPeer = peerOf(row, "fastifyPeer");
        return [
          row.title,
          `${micros(floor)} (${rps(row.floor!.requestsPerSecond)} req/s)`,
          cell(floor, baseline),
          peer ? cell(floor, peer) : "—",
          fastifyPeer ? cell(floor, fastifyPeer) : "—",
          cell(floor, ours),
          `${Math.round(100 * (1 - floor / perRequest(ours.requestsPerSecond)))} %`,
          `${floorRatio(row).ratio.toFixed(2)}: ${verdict(floorRatio(row).met)}`,
        ];
      }),
    ),
    "",
  ];
}

function throughputSection(parts: Results["throughput"], before: Results | undefined): string {
  return perEngine(parts, (part) => [
      table(
        [
          "Route",
          "Baseline req/s",
          "Ours req/s",
          `Ours / baseline (before → now; goal ≥ ${THROUGHPUT_RATIO_GOAL[part.engine]})`,
          "Ours + rate limit req/s",
          "Ratio with limit (before → now)",
          "Peer req/s",
          `Ours / peer (goal ≥ ${PEER_RATIO_GOAL.toFixed(1)})`,
          "Fastify peer req/s",
          `Ours / Fastify peer (goal ≥ ${FASTIFY_PEER_RATIO_GOAL.toFixed(1)})`,
          "p50 / p99 baseline",
          "p50 / p99 ours",
          "p50 / p99 ours + limit",
          "p50 / p99 peer",
          "p50 / p99 Fastify peer",
        ],
        part.rows.map((row) => {
          const { baseline, ours, oursRateLimited } = row.results;
          const peer = peerOf(row);
          const fastifyPeer = peerOf(row, "fastifyPeer");
          return [
            row.title,
            rps(baseline.requestsPerSecond),
            rps(ours.requestsPerSecond),
            `${beforeRatio(before, part.engine, row.route, "ours")} → ${shownRatio(ours, baseline)}`,
            rps(oursRateLimited.requestsPerSecond),
            `${beforeRatio(before, part.engine, row.route, "oursRateLimited")} → ${shownRatio(oursRateLimited, baseline)}`,
            peer ? rps(peer.requestsPerSecond) : "—",
            peer
              ? `${shownRatio(ours, peer)}: ${verdict(!ours.failures && !peer.failures && !part.peerDifferences?.length && throughputRatio(ours, peer).ratio >= PEER_RATIO_GOAL)}`
              : "—",
            fastifyPeer ? rps(fastifyPeer.requestsPerSecond) : "—",
            fastifyPeer
              ? `${shownRatio(ours, fastifyPeer)}: ${verdict(!ours.failures && !fastifyPeer.failures && !part.fastifyPeerDifferences?.length && throughputRatio(ours, fastifyPeer).ratio >= FASTIFY_PEER_RATIO_GOAL)}`
              : "—",
            latency(baseline),
            latency(ours),
            latency(oursRateLimited),
            peer ? latency(peer) : "—",
            fastifyPeer ? latency(fastifyPeer) : "—",
          ];
        }),
      ),
      "",
      ...cpuLines(part),
      ...floorLines(part),
      part.baselineDifferences.length
        ? `The baseline's statements differ from ours: ${part.baselineDifferences.join("; ")}.`
        : "Checked before the runs: for every route the baseline sends exactly the statements ours sends, with the same parameters.",
      "",
      part.peerDifferences === undefined
        ? "No peer in this run."
        : part.peerDifferences.length
          ? `The peer's checks failed: ${part.peerDifferences.join("; ")}.`
          : "Checked before the runs: for every route the peer sends exactly the statements ours sends for the route's data, with the same parameters; it answers every request of the run with ours' status and the body ours answers (but `updated`, the time of the write, and what a create makes itself: its id, stream key and time); and it answers a wrong token 401.",
      "",
      part.fastifyPeerDifferences === undefined
        ? "No Fastify peer in this run."
        : part.fastifyPeerDifferences.length
          ? `The Fastify peer's checks failed: ${part.fastifyPeerDifferences.join("; ")}.`
          : "Checked before the runs, the same for the Fastify peer: the same statements with the same parameters, ours' status and body for every request of the run, and 401 for a wrong token.",
      "",
  ]);
}

function scaleSection(parts: Results["scale"]): string {
  return perEngine(parts, (part) => {
    const out: string[] = [];
    out.push(
      `${part.edgeApps.toLocaleString("en-US")} edge apps (${part.accountEdgeApps.toLocaleString("en-US")} in the caller's account), ` +
        `${part.cdnResources.toLocaleString("en-US")} CDN resources (${part.accountCdnResources.toLocaleString("en-US")} in the caller's account) and ` +
        `${part.usageLines.toLocaleString("en-US")} usage lines (${part.accountUsageLines.toLocaleString("en-US")} in the caller's account, over 24 months)` +
        (part.playerEvents === undefined ? ", " : ` and ${part.playerEvents.toLocaleString("en-US")} streaming player events (${part.accountPlayerEvents.toLocaleString("en-US")} in the caller's account, over 12 months), `) +
        `generated in ${part.generateSeconds.toFixed(0)} s. One request at a time, ${SCALE.warmupSeconds} s warm-up then ${SCALE.durationSeconds} s.`,
      "",
      ...(part.listings?.length
        ? [
            `Then, for each other listing of an account's objects, ${(part.listingRows ?? 0).toLocaleString("en-US")} rows, nine in ten in the caller's account ` +
              `(src/scale-listings.ts), generated in ${(part.listingsGenerateSeconds ?? 0).toFixed(0)} s: ` +
              part.listings.map((listing) => `${listing.route} (${listing.rows})`).join("; ") +
              ". The baseline serves part 1's routes only, so these are measured on ours alone.",
            "",
          ]
        : []),
      table(
        ["Request", "Ours p50", "Ours p99", "Baseline p50", "Baseline p99", "Goal"],
        part.rows.map((row) => [
          `${row.title} (\`${row.request.method} ${row.request.path}\`${row.request.body ? ` ${JSON.stringify(row.request.body)}` : ""})`,
          row.ours.failures ? `${row.ours.failures} failed` : ms(row.ours.p50),
          row.ours.failures ? "" : ms(row.ours.p99),
          !row.baseline ? "—" : row.baseline.failures ? `${row.baseline.failures} failed` : ms(row.baseline.p50),
          !row.baseline || row.baseline.failures ? "" : ms(row.baseline.p99),
          row.goalP50Ms === undefined
            ? "—"
            : part.engine === "postgres"
              ? `p50 < ${row.goalP50Ms} ms: ${verdict(!row.ours.failures && row.ours.p50 < row.goalP50Ms)}`
              : `(PostgreSQL only)`,
        ]),
      ),
      "",
      `Query plans. ${part.planNote}`,
      "",
    );
    for (const row of part.rows)
      for (const [index, plan] of row.plans.entries()) {
        out.push(
          `<details><summary>${row.title}: statement ${index + 1} of ${row.plans.length}</summary>`,
          "",
          "```sql",
          plan.sql,
          `-- parameters: ${JSON.stringify(plan.params)}`,
          "```",
          "",
          "```",
          plan.plan,
          "```",
          "",
          "</details>",
          "",
        );
      }
    return out;
  });
}

function sizeCell(figure: Measured<BundleSize>): [string, string] {
  return figure.measured ? [kib(figure.value.bytes), kib(figure.value.gzipBytes)] : [`not measured: ${figure.why}`, ""];
}

function startCells(figure: Measured<ColdStart>): string[] {
  if (!figure.measured) return [`not measured: ${figure.why}`, "", "", ""];
  const start = figure.value;
  return [ms(start.loadMs), ms(start.firstResponseMs), ms(start.totalMs), ms(start.warmResponseMs)];
}

function workerdSection(workerd: WorkerdFigures | undefined, before: Results | undefined): string {
  if (!workerd?.measured) return `Not measured: ${workerd?.why ?? "not in this run"}.\n`;
  const { rows, coldStart, bundles, bareDifferences, peerDifferences, peerBundle } = workerd.value;
  const beforeOurs = before?.worker.coldStart.measured ? `${ms(before.worker.coldStart.value.firstResponseMs)} (cold-start part)` : "—";
  return [
    table(
      [
        "Route",
        "Bare worker req/s",
        "Our worker req/s",
        "Ours / bare",
        `Goal ≥ ${WORKERD_RATIO_GOAL}`,
        "Peer worker req/s",
        `Ours / peer (goal ≥ ${PEER_RATIO_GOAL.toFixed(1)})`,
        "p50 / p99 bare",
        "p50 / p99 ours",
        "p50 / p99 peer",
      ],
      rows.map((row) => {
        if (!row.results) return [row.title, `not measured: ${row.failed ?? "?"}`, "", "", "**not met**", "", "", "", "", ""];
        const { ours, bare, peer } = row.results;
        const ratio = throughputRatio(ours, bare).ratio;
        const valid = !ours.failures && !bare.failures;
        const peerRatio = peer ? throughputRatio(ours, peer).ratio : undefined;
        return [
          row.title,
          rps(bare.requestsPerSecond),
          rps(ours.requestsPerSecond),
          shownRatio(ours, bare),
          verdict(valid && ratio >= WORKERD_RATIO_GOAL),
          peer ? rps(peer.requestsPerSecond) : peerDifferences ? "failed its checks" : "—",
          peer && peerRatio !== undefined ? `${shownRatio(ours, peer)}: ${verdict(!ours.failures && !peer.failures && peerRatio >= PEER_RATIO_GOAL)}` : "—",
          latency(bare),
          latency(ours),
          peer ? latency(peer) : "—",
        ];
      }),
    ),
    "",
    bareDifferences.length
      ? `The bare worker's statements differ from ours: ${bareDifferences.join("; ")}.`
      : "Checked before the runs: for every route measured the bare worker sends exactly the statements ours sends, with the same parameters.",
    "",
    peerDifferences === undefined
      ? "No peer worker in this run."
      : peerDifferences.length
        ? `The peer worker's checks failed (a route it fails is measured without it): ${peerDifferences.join("; ")}.`
        : `Checked before the runs: for every request of every route measured the peer worker (${peerBundle ? `${kib(peerBundle.gzipBytes)} gzipped` : "its bundle"}) answers with ours' status and the body ours answers (but \`updated\` and what a create makes itself), sends exactly the statements ours sends for the route's data, with the same parameters, and answers a wrong token 401.`,
    "",
    `Cold isolate: fresh workerd processes, ours and the bare worker in turn, ${coldStart.ours.trials} each; medians. "Load" is from Miniflare spawning workerd to it being ready (the worker loaded); "first response" from then to the first response to ${coldStart.ours.request} (a connection opened, and for ours the token looked up); "warm" is a second request.`,
    "",
    table(
      ["Worker", "Bundle gzipped", "Load", "First response after load (before → now)", `Goal < ${WORKER_FIRST_RESPONSE_GOAL_MS} ms`, "Warm request"],
      (["ours", "bare"] as const).map((kind) => [
        WORKER_TITLES[kind],
        kib(bundles[kind].gzipBytes),
        ms(coldStart[kind].loadMs),
        `${kind === "ours" ? beforeOurs : "—"} → ${ms(coldStart[kind].firstResponseMs)}`,
        verdict(coldStart[kind].firstResponseMs < WORKER_FIRST_RESPONSE_GOAL_MS),
        ms(coldStart[kind].warmResponseMs),
      ]),
    ),
    "",
  ].join("\n");
}

function validationSection(parts: Results["validation"]): string {
  if (!parts?.length) return "Not in this run.\n";
  return perEngine(parts, (part) => [
      table(
        ["Body", "Size", "Answer", "Time to answer", "Event loop held", "JSON.parse alone", "Held beyond the parse", `Goal < ${VALIDATION_BLOCK_GOAL_MS} ms`],
        part.rows.map((row) => [
          row.title,
          kib(row.bodyBytes),
          `${row.status}, ${kib(row.responseBytes)}`,
          ms(row.durationMs),
          ms(row.maxBlockMs),
          ms(row.parseMs),
          ms(validationHoldMs(row)),
          row.status >= 500 ? verdict(false) : refused(row) ? verdict(validationHoldMs(row) < VALIDATION_BLOCK_GOAL_MS) : "— (accepted: written and answered)",
        ]),
      ),
      "",
  ]);
}

function durabilitySection(part: Results["durability"]): string {
  if (!part) return "Not in this run.\n";
  if (!isMeasured(part)) return `Not measured: ${part.why}.\n`;
  return [
    `The data directories were on ${part.fileSystem}.`,
    "",
    table(
      ["Write", ...DURABILITIES.map((durability) => `${durability} req/s`), "Durable / relaxed", ...DURABILITIES.map((durability) => `p50 / p99 ${durability}`)],
      part.rows.map((row) => [
        row.title,
        ...DURABILITIES.map((durability) => rps(row.results[durability].requestsPerSecond)),
        row.results.durable.failures || row.results.relaxed.failures
          ? "invalid run: failed requests"
          : shownRatio(row.results.durable, row.results.relaxed),
        ...DURABILITIES.map((durability) => latency(row.results[durability])),
      ]),
    ),
    "",
  ].join("\n");
}

function goalCell(goal: Goal | undefined, missing: string): string {
  if (!goal) return missing;
  return goal.met === null ? goal.measured : `${goal.measured} (${goal.met ? "met" : "not met"})`;
}

export function renderMarkdown(results: Results, before?: Results): string {
  const { machine } = results;
  const date = results.date.replace("T", " ").replace(/\.\d+Z$/, " UTC");
  const load = results.settings.load;
  const deployments = [
    ["Cloudflare Workers (workerd via Miniflare)", results.worker, before?.worker],
    ["AWS Lambda (fresh Node process)", results.lambda, before?.lambda],
  ] as const;
  return `# cloudplane benchmark results

Written by \`pnpm bench\` (tooling/bench) on ${date}; the run took ${Math.round(results.durationSeconds / 60)} min.
Every figure below was taken in this one run, on this machine (but those marked "before", from before.json); the baselines ran in the same run, on the same databases.
What is measured and how, and what the figures mean for a deployment: tooling/bench/README.md. Every figure is also in results.json.

## Machine

${table(
  ["", ""],
  [
    ["CPU", `${machine.cpuModel}, ${machine.cores} cores`],
    ["Memory", `${machine.memoryGiB} GiB`],
    ["OS", machine.os],
    ["Node", machine.node],
    ["PostgreSQL", machine.postgres],
    ["Embedded database", machine.pglite],
    [
      "Load average (1 min) at start / end",
      `${machine.loadAverageAtStart.toFixed(2)} / ${machine.loadAverageAtEnd?.toFixed(2) ?? "?"}: the cores are shared with other work, so absolute figures move from run to run; the ratios are taken from interleaved runs and move less.`,
    ],
  ],
)}

## Goals

${
  results.before
    ? `"Before" is the last whole run before the serving core's rewrite onto @ts-rest/serverless (${results.before.date.replace("T", " ").replace(/\.\d+Z$/, " UTC")}, kept in tooling/bench/${results.before.file}), held to today's goals; "now" is this run. "—": the before run did not measure it.`
    : "No before run (tooling/bench/before.json) to compare with."
}

${table(
  ["Goal", "Before", "Now", "Result now"],
  goalsBeforeAfter(results.goals, results.before?.goals).map((row) => [
    row.goal,
    goalCell(row.before, "—"),
    goalCell(row.after, "not in this run"),
    row.after ? verdict(row.after.met) : "—",
  ]),
)}

## 1. Throughput and latency over HTTP (loopback)

autocannon in the benchmark's process, each server in a Node process of its own, ${load.connections} connections.
For each route every server is warmed up for ${load.warmupSeconds} s, then measured ${load.rounds} × ${load.roundSeconds} s, the servers taking turns
(so a burst of other work on the machine falls on each of them alike), the order reversed every other round, and each turn
begun with ${load.turnWarmupSeconds} s of load on its own server whose figures are dropped (so no server's round starts hot from its own last
one while the others' start after another server's load); req/s counts 2xx responses over the measured time,
p50 / p99 are per-response latencies of those runs. A ratio of two servers is the median of their rounds' ratios (in a
round they run one right after the other), with the least and the greatest of those in brackets: one round that a
burst of other work fell on does not move it.

- **Ours**: \`createHandler\` from @cloudplane/handlers served by \`serve\` from @cloudplane/handlers/node, with its defaults
  but for the rate limit: request id, body limit and content type, the token's lookup (by SHA-256 hash, reused for up to
  1 s), routing over the contract, the role check, zod validation of path, query and body, the route's Drizzle
  statements, the error envelope. Response validation off, as in production.
  "Rate limit off" is \`rateLimit: false\`; "rate limit on" is the per-token limiter with a budget no run reaches
  (\`{ rate: 1e9, burst: 1e9 }\`), so it does all its work and never refuses: one upsert of the token's bucket per lease
  (64 requests at this rate; 5 at the default 50 a second), the lease spent in the server's memory.
- **Baseline**: a bare \`node:http\` server on the same database with the same driver (postgres.js with its defaults, or
  PGlite), sending the very statements ours sends for the route's data (caught from our handler at the start of the run;
  checked to be identical, parameters included), without Drizzle, answering the rows as plain JSON. It excludes:
  authentication (no token lookup; the caller is account 1), the rate limit, validation, routing beyond a path match,
  request ids and error envelopes. The gap between the two is the whole cost of the contract, auth, validation and the
  query builder. Both prepare their statements on the PostgreSQL server once per connection (postgres.js's default for
  the baseline; \`.prepare()\` in ours for these routes).
- **Peer**: the same routes built the way a team would build them without us (\`src/peer-core.ts\`): Hono with
  @hono/zod-openapi (\`createRoute\` and \`OpenAPIHono\`), served by @hono/node-server. It validates the path, query and
  body with the contract's own zod schemas (400 on a failure), looks the \`Authorization: apikey\` token's SHA-256 hash up
  in one SQL statement (the lookup reused for up to 1 s, as ours does; \`last_usage\` written at most once a minute, as
  ours does), checks the role, sends the very statements ours sends for the route's data (caught from ours, as the
  baseline's are, and checked the same way) through the baseline's driver (postgres.js with its defaults, or PGlite),
  and maps the rows to the API's fields by hand; its answers are checked to be ours (but \`updated\`) before any load.
  It has no rate limit, request id or request log. So "ours / peer" is what our framework, contract plumbing and query
  builder cost against a common hand-built stack doing the same work; the goal is ≥ ${PEER_RATIO_GOAL.toFixed(1)}.
- **Fastify peer**: the same routes on Fastify 5 (\`src/fastify-peer-core.ts\`, served by Fastify's own \`listen\`), the
  fastest common choice on Node: requests validated with the contract's own zod schemas through fastify-type-provider-zod
  (its 4.x, the last on zod 3), answers written by Fastify's serialiser, fast-json-stringify, from \`schema.response\` JSON
  Schema derived from the contract's zod answers by zod-to-json-schema (not written by hand). Its token lookup, role
  check, SQL and row mapping are the Hono peer's own code (\`src/peer-routes.ts\`), checked the same way before any load.
  So "ours / Fastify peer" is our stack against a hand-built one on the framework chosen for its speed; the goal is
  ≥ ${FASTIFY_PEER_RATIO_GOAL.toFixed(1)}.
- Routes: \`GET /streaming/streams/1\`; \`GET /edge/v1/apps?status=1&ordering=-name&limit=25&offset=50\` (rows and count);
  \`PATCH /cdn/resources/{1,3,5,7}\` (account 1's resources in turn) setting three options (a transaction: lock, update, read
  back); \`POST /cloud/v1/reservation_cost_report/totals\` for one quarter and three usage types; \`GET /edge/v1/apps/1\` (one
  statement); \`POST /streaming/streams\` \`{"name": "bench stream"}\` (a transaction: insert, then the URLs made from the new id)
  and then \`DELETE /streaming/streams/{id}\` of the id it answered, in turn on each connection, as one route whose req/s counts
  both. As the demo administrator (account 1, token role-1-active), on the demo data.

${throughputSection(results.throughput, before)}
## 2. At scale

The listings and the cost report with the database filled by the benchmark's generator (one SQL statement each, generate_series),
then VACUUM ANALYZE; then every other listing of an account's objects (src/scale-listings.ts) on rows of its own, generated alike. Ours with the rate limit off; the baseline as in part 1. On PostgreSQL both prepare their statements,
so after five runs the server may switch either to a generic plan (planned without the values); the plans below are made
for the values given, as the first five runs are.

${scaleSection(results.scale)}
## 3. Cold start

Bundle sizes are the files a deployment uploads, gzipped at level 9 here. The worker is built with \`wrangler deploy --dry-run
--outdir\` (apps/worker; minified, as its wrangler.toml says, its source map not counted) and started in workerd by Miniflare; the Lambda bundle is apps/lambda's esbuild build
(dist/index.mjs), imported by \`node -e\` in a fresh process and sent one API Gateway v2 event. "Load" is from starting the
runtime (Miniflare spawning workerd; Node's process start) to the bundle loaded and ready; "first response" from then to the
first response to GET /streaming/streams/1 (token lookup and stream read on PostgreSQL, including opening the connection on
Workers; the Lambda bundle opens its connection, checks the migrations and builds its routes at import, in Lambda's init phase,
and the worker builds its routes as it loads (\`prepareIsolate\`) and opens its connection on the request, so for both that
building is part of "load", and "start to first response" is the figure to compare with runs before those changes);
"warm" is a second request on the same instance. Medians of fresh starts.

${table(
  ["Deployment", "Bundle", "Gzipped", "Load", "First response after load", "Start to first response", "Warm request", "Before: gzipped, first response"],
  deployments.map(([name, figures, earlier]) => [
    name,
    ...sizeCell(figures.bundle),
    ...startCells(figures.coldStart),
    earlier
      ? `${earlier.bundle.measured ? kib(earlier.bundle.value.gzipBytes) : "—"}, ${earlier.coldStart.measured ? ms(earlier.coldStart.value.firstResponseMs) : "—"}`
      : "—",
  ]),
)}

## 4. The client in a browser bundle

packages/client's entry bundled by esbuild for the browser (ESM, minified, tree-shaken as an app's bundler does), gzipped at level 9.

${table(
  ["Bundle", "Minified", "Minified + gzipped"],
  [
    [results.client.whole.measured ? results.client.whole.value.what : "Whole client", ...sizeCell(results.client.whole)],
    [results.client.oneArea.measured ? results.client.oneArea.value.what : "One area alone", ...sizeCell(results.client.oneArea)],
  ],
)}

## 5. Cloudflare Workers: our worker against a bare worker and the peer in workerd

All three run in workerd (Miniflare, each in a workerd process of its own, compatibility date 2026-07-30, \`nodejs_compat\`) on the
same PostgreSQL database, reached with postgres.js over the Workers TCP socket, one connection per request (one connection,
no type lookup, statements sent unnamed), closed after the response.

- **Ours**: apps/worker's bundle (\`wrangler deploy --dry-run\`), that is \`@cloudplane/handlers/fetch\` as deployed, with
  \`CLOUDPLANE_RATE_LIMIT=0\` (the limiter off, as the bare worker has none) and \`CLOUDPLANE_REQUEST_LOG=off\` (no JSON line a
  request: neither other worker writes one, nor ours on Node in part 1).
- **Bare worker** (\`src/workers/bare.ts\`, bundled and minified by esbuild): the Node baseline's request handling (part 1) in a worker,
  sending the very statements ours sends (caught from our handler at the start of the part; checked through the worker,
  parameters included, before any load), rows as plain JSON. No auth, rate limit, validation, routing beyond a path match,
  request id or error envelope.
- **Peer worker** (\`src/workers/peer.ts\`, bundled and minified by esbuild): part 1's peer (Hono with @hono/zod-openapi, the contract's
  schemas, the token looked up by its hash and kept up to 1 s in the isolate, as ours keeps it), the same app, with the
  same connection per request; its answers and statements are checked against ours before any load, and a route it
  fails is measured without it.

Same routes and requests as part 1, autocannon with ${load.connections} connections; per route each is warmed up ${load.warmupSeconds} s, then
measured ${load.rounds} × ${load.roundSeconds} s in turns (the order turning each round, each turn after ${load.turnWarmupSeconds} s of unmeasured load). A route ours or the bare worker fails (an answer
other than a success) is not put under load and counts as not met. The cold isolate is ours and the bare worker's only.

${workerdSection(results.workerd, before)}
## 6. The worst request bodies within the body limit

Bodies a client can send to make validation as costly as it can within the 1 MiB limit (src/validation.ts), each sent to
our handler in the benchmark's own process on a fresh demo database, one at a time, after a full garbage collection;
the least of the rounds, as the cost with the least interference from other work on the machine. "Event loop held" is the longest gap between two turns of the event loop while the request was
served (a setImmediate chain notes each turn): what every other request on the server waited for. "JSON.parse alone" is
the same body parsed by itself, which every server does before any of our code runs; the goal is on what is left, for
the bodies refused (a valid body's hold includes writing it to the database and answering it, which on PGlite runs in
the same thread).

${validationSection(results.validation)}
## 7. PGlite on disk: durable against relaxed writes

Our server (rate limit off) on PGlite in a data directory, twice, each in a Node process of its own on its own copy of the
same directory: **durable** (the default: PostgreSQL's fsync on, a commit answered once its WAL is synced to the disk) and
**relaxed** (\`CLOUDPLANE_PGLITE_DURABILITY=relaxed\`: PGlite's own settings, fsync off, a commit answered once the operating
system has it; parts 1 and 2 run so, as their baseline does). Part 1's PATCH (an update of one of four rows, a transaction)
and a create (\`POST /cdn/logs_uploader/targets\`, a new row each time), autocannon with ${load.connections} connections; per write
both are warmed up ${load.warmupSeconds} s, then measured ${load.rounds} × ${load.roundSeconds} s in turns (the order turning each round, each turn after ${load.turnWarmupSeconds} s of unmeasured load). PGlite serves one
statement at a time, so each commit's sync is waited for in turn.

${durabilitySection(results.durability)}
## 8. @cloudplane/testing: the platform in a test process

\`createTestPlatform({ preset: "demo" })\` of packages/testing (the real handler on an in-memory PGlite in the benchmark's
process), beside the same work over HTTP to our server on a PGlite data directory with the demo data (what \`pnpm start\`
serves). Ready: a fresh Node process that imports the kit and starts a platform from the image in the disk cache (what a
test file's first platform costs), platforms started one after another in a warm process while the earlier ones stay open
(each a new database from the image in memory), and platforms started after one was closed (a pooled database); against
our server started in a process of its own on a copy of the data directory, to its first answer. Reset: \`reset()\` after a
test made a stream, an origin group and a CDN resource through the client, and after nothing; against deleting the same
three objects over HTTP. A call: \`client.streaming.streams.get(id)\` through the kit and with the same client over HTTP on
loopback, one at a time, in turns.

${testingKitSection(results.testingKit)}
${buildsSection()}
## 10. Routing at today's size and at 3×

µs per lookup through itty-router's \`Router.fetch\`, the router @ts-rest/serverless serves our API with, in a
process of the benchmark's own, as ts-rest registers our routes (every route with its \`:params\` in the contract's order, a HEAD twin
of each GET route, then the 404 route); at 3×, each area's routes twice more under another first segment (\`/cdn_2/…\`).
"Loop" is the router as the registry publishes it (written out in src/routing.ts), which tries the routes in turn; "index" is ours, with
patches/itty-router@5.0.24.patch (routes indexed by method and path segments). In every round each case is timed at
both sizes with both routers, in turns (the order turning each round); medians of 15 rounds of 2,000 lookups each.

${routingSection(results.routing)}`;
}

function routingSection(routing: Results["routing"]): string {
  if (!routing?.measured) return `Not measured: ${routing ? routing.why : "not in this run"}.\n`;
  const rows = routing.value.flatMap((figure) =>
    figure.cases.map((c) => [`${figure.scale}× (${figure.routes} routes)`, c.name, `\`${c.request}\``, `${c.registryMicros.toFixed(2)} µs`, `${c.indexMicros.toFixed(2)} µs`]),
  );
  return `${table(["Size", "Lookup", "Request", "Loop (registry)", "Index (ours)"], rows)}\n`;
}
