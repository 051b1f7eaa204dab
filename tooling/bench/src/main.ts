/**
 * `pnpm bench`: runs every part of the benchmark in turn, printing figures as they come, then writes
 * tooling/bench/results.md and results.json. PostgreSQL parts need DATABASE_URL; without it they say so.
 */
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { Engine } from "@cloudplane/db";
import { measureClient, measureLambda, measureWorker, type BundleSize, type ColdStart, type DeploymentFigures, type Measured } from "./bundles.js";
import { benchEngines, postgresServerUrl } from "./databases.js";
import { measureDurability, type DurabilityPart } from "./durability.js";
import { describeMachine, endLoadAverage } from "./machine.js";
import { evaluateGoals, goalsBeforeAfter, isMeasured, renderMarkdown, type Goal, type NotMeasured, type Results } from "./report.js";
import { measureScale, type ScalePart } from "./scale.js";
import { measureTestingKit, type TestingKitPart } from "./testing-kit.js";
import { LOAD, SCALE } from "./scenario.js";
import { measureThroughput, type ThroughputPart } from "./throughput.js";
import { measureValidation, type ValidationPart } from "./validation.js";
import { measureBuilds, recordBuilds } from "./builds.js";
import { measureWorkerd, type WorkerdFigures } from "./workerd.js";
import { measureRoutingApart, type RoutingFigures } from "./routing.js";

const RESULTS_MD = fileURLToPath(new URL("../results.md", import.meta.url));
const RESULTS_JSON = fileURLToPath(new URL("../results.json", import.meta.url));
/** The figures every run is set against: the last whole run before the serving core's rewrite. */
const BEFORE_FILE = "before.json";
const BEFORE_JSON = fileURLToPath(new URL(`../${BEFORE_FILE}`, import.meta.url));

function why(error: unknown): string {
  return error instanceof Error ? error.message.split("\n")[0]! : String(error);
}

async function orNotMeasured<T>(engine: Engine, work: () => Promise<T>): Promise<T | NotMeasured> {
  try {
    return await work();
  } catch (error) {
    console.error(error);
    return { engine, why: `the run failed: ${why(error)}` };
  }
}

function showSize(name: string, figure: Measured<BundleSize>): void {
  console.log(
    figure.measured
      ? `  ${name}: ${(figure.value.bytes / 1024).toFixed(1)} KiB, ${(figure.value.gzipBytes / 1024).toFixed(1)} KiB gzipped`
      : `  ${name}: not measured: ${figure.why}`,
  );
}

function showStart(name: string, figure: Measured<ColdStart>): void {
  console.log(
    figure.measured
      ? `  ${name}: load ${figure.value.loadMs.toFixed(1)} ms, first response ${figure.value.firstResponseMs.toFixed(1)} ms after load, warm ${figure.value.warmResponseMs.toFixed(1)} ms`
      : `  ${name} cold start: not measured: ${figure.why}`,
  );
}

async function deployment(name: string, measure: () => Promise<DeploymentFigures>): Promise<DeploymentFigures> {
  let figures: DeploymentFigures;
  try {
    figures = await measure();
  } catch (error) {
    console.error(error);
    const failed = { measured: false as const, why: `the run failed: ${why(error)}` };
    figures = { bundle: failed, coldStart: failed };
  }
  showSize(`${name} bundle`, figures.bundle);
  showStart(name, figures.coldStart);
  return figures;
}

/**
 * BENCH_PARTS (throughput,scale,coldstart,client,workerd,validation,durability,testing,builds,routing), BENCH_ENGINES (pglite,postgres) and BENCH_ROUTES
 * (route ids of scenario.ts) narrow a run while working on one figure; such a run prints its figures
 * but writes no results file, so results.md always holds one whole run.
 */
type Part = "throughput" | "scale" | "coldstart" | "client" | "workerd" | "validation" | "durability" | "testing" | "builds" | "routing";
const chosenParts = process.env.BENCH_PARTS?.split(",").filter(Boolean);
const runs = (part: Part) => !chosenParts || chosenParts.includes(part);
const partial = Boolean(chosenParts || process.env.BENCH_ENGINES || process.env.BENCH_ROUTES);

const started = new Date();
const machine = await describeMachine();
console.log(`cloudplane benchmark, ${started.toISOString()}`);
console.log(`  ${machine.cpuModel}, ${machine.cores} cores, ${machine.memoryGiB} GiB, Node ${machine.node}, ${machine.postgres}, ${machine.pglite}`);
console.log(`  load average ${machine.loadAverageAtStart.toFixed(2)}`);
if (!postgresServerUrl()) console.log("  DATABASE_URL is not set: the PostgreSQL parts will say \"not measured\".");

console.log("\n1. Throughput and latency over HTTP");
const throughput: (ThroughputPart | NotMeasured)[] = [];
if (runs("throughput"))
  for (const engine of benchEngines()) throughput.push(await orNotMeasured(engine, () => measureThroughput(engine)));
if (!postgresServerUrl()) throughput.push({ engine: "postgres", why: "DATABASE_URL is not set" });

console.log("\n2. At scale");
const scale: (ScalePart | NotMeasured)[] = [];
const scaleEngines = benchEngines().filter((engine) => engine === "postgres" || process.env.BENCH_SCALE_PGLITE !== "0");
for (const engine of ["postgres", "pglite"] as const) {
  if (!runs("scale")) continue;
  if (scaleEngines.includes(engine)) scale.push(await orNotMeasured(engine, () => measureScale(engine)));
  else scale.push({ engine, why: engine === "postgres" ? "DATABASE_URL is not set" : "BENCH_SCALE_PGLITE=0" });
}

console.log("\n3. Cold start");
const skipped = { measured: false as const, why: "not in BENCH_PARTS" };
const worker = runs("coldstart") ? await deployment("worker", measureWorker) : { bundle: skipped, coldStart: skipped };
const lambda = runs("coldstart") ? await deployment("lambda", measureLambda) : { bundle: skipped, coldStart: skipped };

console.log("\n4. The client");
const client = runs("client") ? await measureClient() : { whole: skipped, oneArea: skipped };
showSize("whole client", client.whole);
showSize("one area alone", client.oneArea);

console.log("\n5. Workers: ours against a bare worker and the peer in workerd");
let workerd: WorkerdFigures = { measured: false, why: "not in BENCH_PARTS" };
if (runs("workerd")) {
  try {
    workerd = await measureWorkerd();
  } catch (error) {
    console.error(error);
    workerd = { measured: false, why: `the run failed: ${why(error)}` };
  }
  if (!workerd.measured) console.log(`  not measured: ${workerd.why}`);
}

console.log("\n6. The worst request bodies within the body limit");
const validation: (ValidationPart | NotMeasured)[] = [];
if (runs("validation"))
  for (const engine of benchEngines()) validation.push(await orNotMeasured(engine, () => measureValidation(engine)));

console.log("\n7. PGlite on disk: durable against relaxed writes");
let durability: DurabilityPart | NotMeasured = { engine: "pglite", why: "not in BENCH_PARTS" };
if (runs("durability"))
  durability = benchEngines().includes("pglite") ? await orNotMeasured("pglite", measureDurability) : { engine: "pglite", why: "not in BENCH_ENGINES" };
if (!isMeasured(durability)) console.log(`  not measured: ${durability.why}`);

console.log("\n8. @cloudplane/testing: the platform in a test process");
let testingKit: TestingKitPart | NotMeasured = { engine: "pglite", why: "not in BENCH_PARTS" };
if (runs("testing"))
  testingKit = benchEngines().includes("pglite") ? await orNotMeasured("pglite", measureTestingKit) : { engine: "pglite", why: "not in BENCH_ENGINES" };
if (!isMeasured(testingKit)) console.log(`  not measured: ${testingKit.why}`);

console.log("\n9. Builds: cold build and typecheck, the edit loop, a warm start; at today's size and at 3×");
// Only when named (BENCH_PARTS=builds): it deletes every dist/ and builds the repository cold, twice.
if (chosenParts?.includes("builds")) {
  // Its own section of results.md and builds.json, written even by a partial run: it is the one part
  // also measured in another checkout (`src/builds.ts --before <dir>`).
  const repo = fileURLToPath(new URL("../../..", import.meta.url));
  for (const scale of [1, 3]) for (const figures of await measureBuilds([{ repo, label: "now" }], { scale, skipStart: scale !== 1 })) recordBuilds(figures);
}

console.log("\n10. Routing: µs per lookup through itty-router's Router.fetch, the registry's loop → our patch's index, at 1× and 3×");
let routing: Measured<RoutingFigures[]> = { measured: false, why: "not in BENCH_PARTS" };
if (runs("routing")) {
  try {
    routing = { measured: true, value: await measureRoutingApart() };
  } catch (error) {
    console.error(error);
    routing = { measured: false, why: `the run failed: ${why(error)}` };
  }
}

endLoadAverage(machine);
const measured = {
  date: started.toISOString(),
  durationSeconds: (Date.now() - started.getTime()) / 1000,
  machine,
  settings: { load: LOAD, scale: SCALE },
  throughput,
  scale,
  worker,
  lambda,
  client,
  workerd,
  durability,
  validation,
  testingKit,
  routing,
};
const before = existsSync(BEFORE_JSON) ? (JSON.parse(await readFile(BEFORE_JSON, "utf8")) as Results) : undefined;
const results: Results = {
  ...measured,
  goals: evaluateGoals(measured),
  ...(before ? { before: { date: before.date, file: BEFORE_FILE, goals: evaluateGoals(before) } } : {}),
};

const state = (goal: Goal | undefined) => (!goal ? "-" : goal.met === null ? "not measured" : goal.met ? "met" : "NOT MET");
console.log(`\nGoals (before: ${before ? `${BEFORE_FILE}, ${before.date}` : "none"} → now)`);
for (const row of goalsBeforeAfter(results.goals, results.before?.goals)) {
  console.log(`  ${state(row.after).padEnd(12)} ${row.goal}`);
  console.log(`      before: ${row.before ? `${row.before.measured} (${state(row.before)})` : "-"}`);
  console.log(`      now:    ${row.after ? row.after.measured : "not in this run"}`);
}

if (partial) {
  console.log("\nA partial run (BENCH_PARTS, BENCH_ENGINES or BENCH_ROUTES): no results file written.");
  process.exit(0);
}
await writeFile(RESULTS_JSON, `${JSON.stringify(results, null, 2)}\n`);
await writeFile(RESULTS_MD, renderMarkdown(results, before));
console.log(`\nWrote ${RESULTS_MD} and ${RESULTS_JSON} (${Math.round(results.durationSeconds / 60)} min).`);
