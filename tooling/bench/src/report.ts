/**
 * The results: every figure of the run as JSON, and the same as Markdown for a person deciding whether
 * to use this stack, with each goal of the benchmark met or not and its number.
 */
import type { Engine } from "@cloudplane/db";
import type { ClientFigures, DeploymentFigures, Measured, BundleSize, ColdStart } from "./bundles.js";
import type { LoadResult } from "./load.js";
import type { Machine } from "./machine.js";
import type { ScalePart } from "./scale.js";
import { type LOAD, SCALE } from "./scenario.js";
import { VARIANT_TITLES, type ThroughputPart } from "./throughput.js";

export interface NotMeasured {
  engine: Engine;
  why: string;
}

export interface Goal {
  goal: string;
  /** The number, in words and units. */
  measured: string;
  /** null: not measured (see `measured` for why). */
  met: boolean | null;
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
  goals: Goal[];
}

export const THROUGHPUT_RATIO_GOAL = 0.7;
export const WORKER_GZIP_GOAL_KIB = 200;
export const WORKER_FIRST_RESPONSE_GOAL_MS = 50;
export const CLIENT_GZIP_GOAL_KIB = 35;

const ENGINE_NAMES: Record<Engine, string> = { pglite: "PGlite", postgres: "PostgreSQL" };

export function isMeasured<T extends object>(part: T | NotMeasured): part is T {
  return !("why" in part);
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
const ms = (value: number) => (value >= 100 ? `${value.toFixed(0)} ms` : `${value.toFixed(1)} ms`);
const rps = (value: number) => Math.round(value).toLocaleString("en-US");

export function evaluateGoals(results: Omit<Results, "goals">): Goal[] {
  const goals: Goal[] = [];
  for (const part of results.throughput) {
    if (!isMeasured(part)) {
      goals.push({ goal: `Throughput ≥ ${THROUGHPUT_RATIO_GOAL} × baseline on ${ENGINE_NAMES[part.engine]}`, measured: `not measured: ${part.why}`, met: null });
      continue;
    }
    for (const limiter of ["ours", "oursRateLimited"] as const)
      for (const row of part.rows) {
        const ours = row.results[limiter];
        const baseline = row.results.baseline;
        const ratio = ours.requestsPerSecond / baseline.requestsPerSecond;
        const valid = !ours.failures && !baseline.failures;
        goals.push({
          goal: `${row.title} on ${ENGINE_NAMES[part.engine]}, ${VARIANT_TITLES[limiter]}: ≥ ${THROUGHPUT_RATIO_GOAL} × baseline`,
          measured: valid
            ? `${ratio.toFixed(2)} × (${rps(ours.requestsPerSecond)} vs ${rps(baseline.requestsPerSecond)} req/s)`
            : `invalid run: ${ours.failures + baseline.failures} failed requests`,
          met: valid ? ratio >= THROUGHPUT_RATIO_GOAL : false,
        });
      }
  }
  const postgresScale = results.scale.find((part) => part.engine === "postgres");
  for (const [id, title, bound] of [
    ["listApps", `Listing edge apps at ${SCALE.edgeApps.toLocaleString("en-US")} apps on PostgreSQL: p50 < 20 ms`, 20],
    ["costReport", `Cost report at ${SCALE.usageLines.toLocaleString("en-US")} usage lines on PostgreSQL: p50 < 100 ms`, 100],
  ] as const) {
    if (!postgresScale || !isMeasured(postgresScale)) {
      goals.push({ goal: title, measured: `not measured: ${postgresScale?.why ?? "DATABASE_URL is not set"}`, met: null });
      continue;
    }
    const row = postgresScale.rows.find((item) => item.id === id)!;
    goals.push({
      goal: title,
      measured: row.ours.failures ? `invalid run: ${row.ours.failures} failed requests` : `p50 ${ms(row.ours.p50)} (p99 ${ms(row.ours.p99)})`,
      met: !row.ours.failures && row.ours.p50 < bound,
    });
  }
  const { bundle, coldStart } = results.worker;
  goals.push(
    bundle.measured
      ? { goal: `Worker bundle < ${WORKER_GZIP_GOAL_KIB} KiB gzipped`, measured: kib(bundle.value.gzipBytes), met: bundle.value.gzipBytes < WORKER_GZIP_GOAL_KIB * 1024 }
      : { goal: `Worker bundle < ${WORKER_GZIP_GOAL_KIB} KiB gzipped`, measured: `not measured: ${bundle.why}`, met: null },
    coldStart.measured
      ? {
          goal: `Worker's first response in workerd < ${WORKER_FIRST_RESPONSE_GOAL_MS} ms after load`,
          measured: `${ms(coldStart.value.firstResponseMs)} (median of ${coldStart.value.trials} fresh starts)`,
          met: coldStart.value.firstResponseMs < WORKER_FIRST_RESPONSE_GOAL_MS,
        }
      : { goal: `Worker's first response in workerd < ${WORKER_FIRST_RESPONSE_GOAL_MS} ms after load`, measured: `not measured: ${coldStart.why}`, met: null },
  );
  const { whole } = results.client;
  goals.push(
    whole.measured
      ? { goal: `Whole client < ${CLIENT_GZIP_GOAL_KIB} KiB minified + gzipped`, measured: kib(whole.value.gzipBytes), met: whole.value.gzipBytes < CLIENT_GZIP_GOAL_KIB * 1024 }
      : { goal: `Whole client < ${CLIENT_GZIP_GOAL_KIB} KiB minified + gzipped`, measured: `not measured: ${whole.why}`, met: null },
  );
  return goals;
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

function throughputSection(parts: Results["throughput"]): string {
  const out: string[] = [];
  for (const part of parts) {
    out.push(`### ${ENGINE_NAMES[part.engine]}`, "");
    if (!isMeasured(part)) {
      out.push(`Not measured: ${part.why}.`, "");
      continue;
    }
    out.push(
      table(
        ["Route", "Baseline req/s", "Ours req/s", "Ours / baseline", "Ours + rate limit req/s", "Ratio with limit", "p50 / p99 baseline", "p50 / p99 ours", "p50 / p99 ours + limit"],
        part.rows.map((row) => {
          const { baseline, ours, oursRateLimited } = row.results;
          return [
            row.title,
            rps(baseline.requestsPerSecond),
            rps(ours.requestsPerSecond),
            (ours.requestsPerSecond / baseline.requestsPerSecond).toFixed(2),
            rps(oursRateLimited.requestsPerSecond),
            (oursRateLimited.requestsPerSecond / baseline.requestsPerSecond).toFixed(2),
            latency(baseline),
            latency(ours),
            latency(oursRateLimited),
          ];
        }),
      ),
      "",
      part.baselineDifferences.length
        ? `The baseline's statements differ from ours: ${part.baselineDifferences.join("; ")}.`
        : "Checked before the runs: for every route the baseline sends exactly the statements ours sends, with the same parameters.",
      "",
    );
  }
  return out.join("\n");
}

function scaleSection(parts: Results["scale"]): string {
  const out: string[] = [];
  for (const part of parts) {
    out.push(`### ${ENGINE_NAMES[part.engine]}`, "");
    if (!isMeasured(part)) {
      out.push(`Not measured: ${part.why}.`, "");
      continue;
    }
    out.push(
      `${part.edgeApps.toLocaleString("en-US")} edge apps (${part.accountEdgeApps.toLocaleString("en-US")} in the caller's account) and ` +
        `${part.usageLines.toLocaleString("en-US")} usage lines (${part.accountUsageLines.toLocaleString("en-US")} in the caller's account, over 24 months), ` +
        `generated in ${part.generateSeconds.toFixed(0)} s. One request at a time, ${SCALE.warmupSeconds} s warm-up then ${SCALE.durationSeconds} s.`,
      "",
      table(
        ["Request", "Ours p50", "Ours p99", "Baseline p50", "Baseline p99", "Goal"],
        part.rows.map((row) => [
          `${row.title} (\`${row.request.method} ${row.request.path}\`${row.request.body ? ` ${JSON.stringify(row.request.body)}` : ""})`,
          row.ours.failures ? `${row.ours.failures} failed` : ms(row.ours.p50),
          row.ours.failures ? "" : ms(row.ours.p99),
          row.baseline.failures ? `${row.baseline.failures} failed` : ms(row.baseline.p50),
          row.baseline.failures ? "" : ms(row.baseline.p99),
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
  }
  return out.join("\n");
}

function sizeCell(figure: Measured<BundleSize>): [string, string] {
  return figure.measured ? [kib(figure.value.bytes), kib(figure.value.gzipBytes)] : [`not measured: ${figure.why}`, ""];
}

function startCells(figure: Measured<ColdStart>): string[] {
  if (!figure.measured) return [`not measured: ${figure.why}`, "", "", ""];
  const start = figure.value;
  return [ms(start.loadMs), ms(start.firstResponseMs), ms(start.totalMs), ms(start.warmResponseMs)];
}

export function renderMarkdown(results: Results): string {
  const { machine } = results;
  const date = results.date.replace("T", " ").replace(/\.\d+Z$/, " UTC");
  const load = results.settings.load;
  const deployments = [
    ["Cloudflare Workers (workerd via Miniflare)", results.worker],
    ["AWS Lambda (fresh Node process)", results.lambda],
  ] as const;
  return `# cloudplane benchmark results

Written by \`pnpm bench\` (tooling/bench) on ${date}; the run took ${Math.round(results.durationSeconds / 60)} min.
Every figure below was taken in this one run, on this machine; the baselines ran in the same run, on the same databases.
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

${table(
  ["Goal", "Measured", "Result"],
  results.goals.map((goal) => [goal.goal, goal.measured, verdict(goal.met)]),
)}

## 1. Throughput and latency over HTTP (loopback)

autocannon in the benchmark's process, each server in a Node process of its own, ${load.connections} connections.
For each route every server is warmed up for ${load.warmupSeconds} s, then measured ${load.rounds} × ${load.roundSeconds} s, the servers taking turns
(so a burst of other work on the machine falls on each of them alike); req/s counts 2xx responses over the measured time,
p50 / p99 are per-response latencies of those runs.

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
- Routes: \`GET /streaming/streams/1\`; \`GET /edge/v1/apps?status=1&ordering=-name&limit=25&offset=50\` (rows and count);
  \`PATCH /cdn/resources/{1,3,5,7}\` (account 1's resources in turn) setting three options (a transaction: lock, update, read
  back); \`POST /cloud/v1/reservation_cost_report/totals\` for one quarter and three usage types. As the demo administrator
  (account 1, token role-1-active), on the demo data.

${throughputSection(results.throughput)}
## 2. At scale

The listing and the cost report with the database filled by the benchmark's generator (one SQL statement each, generate_series),
then VACUUM ANALYZE. Ours with the rate limit off; the baseline as in part 1. On PostgreSQL both prepare their statements,
so after five runs the server may switch either to a generic plan (planned without the values); the plans below are made
for the values given, as the first five runs are.

${scaleSection(results.scale)}
## 3. Cold start

Bundle sizes are the files a deployment uploads, gzipped at level 9 here. The worker is built with \`wrangler deploy --dry-run
--outdir\` (apps/worker) and started in workerd by Miniflare; the Lambda bundle is apps/lambda's esbuild build
(dist/index.mjs), imported by \`node -e\` in a fresh process and sent one API Gateway v2 event. "Load" is from starting the
runtime (Miniflare spawning workerd; Node's process start) to the bundle loaded and ready; "first response" from then to the
first response to GET /streaming/streams/1 (token lookup and stream read on PostgreSQL, including opening the connection);
"warm" is a second request on the same instance. Medians of fresh starts.

${table(
  ["Deployment", "Bundle", "Gzipped", "Load", "First response after load", "Start to first response", "Warm request"],
  deployments.map(([name, figures]) => [name, ...sizeCell(figures.bundle), ...startCells(figures.coldStart)]),
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
`;
}
