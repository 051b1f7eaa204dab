#!/usr/bin/env node
/**
 * `pnpm test`: every package's tests through turbo, then a closing line that adds up the packages'
 * vitest reports (passed, failed, skipped) and one that says whether the PostgreSQL suites ran.
 * Arguments go to turbo (`pnpm test --filter=@cloudplane/db`); arguments after `--` go to vitest.
 * The exit code is turbo's, or 1 when a package left no report.
 *
 * The suite runs on a supported Node line (22 or newer): on an older Node this runs itself again through
 * scripts/with-node.mjs, on Node 22 from the npm registry, so that turbo, every package's vitest and the
 * Node line in the tasks' hashes below are that Node's.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { nodeLineFor } from "./with-node.mjs";

if (nodeLineFor() !== Number(process.versions.node.split(".")[0])) {
  const self = spawnSync(process.execPath, [fileURLToPath(new URL("./with-node.mjs", import.meta.url)), "node", fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: "inherit",
  });
  if (self.error) throw self.error;
  process.exit(self.status ?? 1);
}

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
// never stands in for a run on another (CI runs the suite on Node 22 and on Node 24). It is this Node's
// (22 or newer, see above): every package's test script runs vitest through scripts/with-node.mjs, which
// runs it as it is on this line, and the test tasks have that script among their inputs (turbo.json).
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
/** The test files that ran, with how long each took (vitest's report: from its first test's start to its end). */
const slowestFiles = [];
/** The tests that failed, with the first lines of why: printed last, where the tail of a long log shows them. */
const failures = [];
// How long each test task ran (a cache hit took none): where the suite's time goes, longest first.
const durations = summary.tasks
  .filter((task) => task.task === "test" && task.command !== "<NONEXISTENT>" && task.cache.status !== "HIT" && task.execution?.endTime)
  .map((task) => ({ name: task.package, seconds: (task.execution.endTime - task.execution.startTime) / 1000 }))
  .sort((a, b) => b.seconds - a.seconds);
if (durations.length > 0) console.log(`\ntest tasks by time: ${durations.map(({ name, seconds }) => `${name} ${seconds.toFixed(0)} s`).join(", ")}`);
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
  for (const file of report.testResults ?? []) {
    const name = file.name.slice(process.cwd().length + 1);
    if (ran) slowestFiles.push({ name, seconds: (file.endTime - file.startTime) / 1000 });
    for (const test of file.assertionResults ?? [])
      if (test.status === "failed") failures.push({ name: `${name} > ${test.fullName}`, why: (test.failureMessages ?? []).join("\n") });
    // A file that failed outside its tests (an import, a hook) has no failed test to name.
    if (file.status === "failed" && !(file.assertionResults ?? []).some((test) => test.status === "failed"))
      failures.push({ name, why: file.message ?? "" });
  }
  totals.passed += report.numPassedTests;
  totals.failed += report.numFailedTests;
  totals.skipped += report.numPendingTests + report.numTodoTests;
}

slowestFiles.sort((a, b) => b.seconds - a.seconds);
if (slowestFiles.length > 0) console.log(`slowest test files: ${slowestFiles.slice(0, 6).map(({ name, seconds }) => `${name} ${seconds.toFixed(0)} s`).join(", ")}`);
if (failures.length > 0) {
  console.log(`\nfailed (${failures.length}):`);
  for (const { name, why } of failures.slice(0, 20)) {
    console.log(`  ${name}`);
    for (const line of why.split("\n").filter((text) => text.trim() && !/^\s*at /.test(text)).slice(0, 4)) console.log(`      ${line.trim().slice(0, 300)}`);
  }
  if (failures.length > 20) console.log(`  and ${failures.length - 20} more (see the output above)`);
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
