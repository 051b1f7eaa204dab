#!/usr/bin/env node
/**
 * `pnpm test`: every package's tests through turbo, then a closing line that adds up the packages'
 * vitest reports (passed, failed, skipped) and one that says whether the PostgreSQL suites ran.
 * Arguments go to turbo (`pnpm test --filter=@cloudplane/db`); arguments after `--` go to vitest.
 * The exit code is turbo's, or 1 when a package left no report.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";

/** Where each package's vitest writes its JSON report; turbo caches it with the task's other outputs. */
const REPORT = "test-results/vitest.json";
/** Turbo's run summaries (`--summarize`): which test tasks ran, in which folder. */
const RUNS = join(process.cwd(), ".turbo", "runs");

const args = process.argv.slice(2);
const split = args.indexOf("--");
const turboArgs = split === -1 ? args : args.slice(0, split);
const vitestArgs = split === -1 ? [] : args.slice(split + 1);

const started = Date.now();
// The Node line the tests run on is part of each test task's hash (turbo.json), so that a run on one line
// never stands in for a run on another (CI runs the suite on the machine's Node and on Node 24). What needs
// Node 22 (wrangler, miniflare) runs through scripts/with-node.mjs, on this line or, when it is older, on Node
// 24: the tasks that use it have it among their inputs (their turbo.json), so this line and it say what ran.
const nodeLine = process.versions.node.split(".")[0];
const turbo = spawnSync(
  "turbo",
  ["run", "test", "--concurrency=2", "--continue", "--summarize", ...turboArgs, "--", "--reporter=default", "--reporter=json", `--outputFile.json=${REPORT}`, ...vitestArgs],
  { stdio: "inherit", shell: process.platform === "win32", env: { ...process.env, CLOUDPLANE_TEST_NODE: nodeLine } },
);
if (turbo.error) throw turbo.error;
const status = turbo.status ?? 1;

const summaryPath = summaryWrittenSince(started);
if (!summaryPath) {
  console.log("\ntests: turbo wrote no run summary, so there are no totals");
  process.exit(status || 1);
}
const summary = JSON.parse(readFileSync(summaryPath, "utf8"));
rmSync(summaryPath, { force: true });

const totals = { passed: 0, failed: 0, skipped: 0 };
const withoutReport = [];
for (const task of summary.tasks) {
  if (task.task !== "test" || task.command === "<NONEXISTENT>") continue;
  const reportPath = join(task.directory, REPORT);
  // A task that ran wrote its report now; a cache hit's report is the one turbo kept with it.
  const ran = task.cache.status !== "HIT";
  if (!existsSync(reportPath) || (ran && statSync(reportPath).mtimeMs < started)) {
    withoutReport.push(task.package);
    continue;
  }
  const report = JSON.parse(readFileSync(reportPath, "utf8"));
  totals.passed += report.numPassedTests;
  totals.failed += report.numFailedTests;
  totals.skipped += report.numPendingTests + report.numTodoTests;
}

if (withoutReport.length > 0) console.log(`\nno test report from ${withoutReport.join(", ")}: its tests did not run to the end (see its output above)`);
console.log(
  process.env.DATABASE_URL
    ? "\nPostgreSQL suites: run, on DATABASE_URL"
    : "\nPostgreSQL suites: skipped, DATABASE_URL is not set (e.g. DATABASE_URL=postgres://postgres@127.0.0.1:5432/test pnpm test)",
);
// The total is the last line: what a reader (or CI) looks for first.
console.log(`tests on Node ${process.versions.node}: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(status || (withoutReport.length > 0 ? 1 : 0));

/** The newest run summary turbo wrote since `time`, if any. */
function summaryWrittenSince(time) {
  if (!existsSync(RUNS)) return undefined;
  let newest;
  for (const name of readdirSync(RUNS)) {
    if (!name.endsWith(".json")) continue;
    const path = join(RUNS, name);
    const written = statSync(path).mtimeMs;
    if (written >= time && (!newest || written > newest.written)) newest = { path, written };
  }
  return newest?.path;
}
