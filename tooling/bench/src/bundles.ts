/**
 * Parts 3 and 4: the deployments' bundles and cold starts (the Workers bundle in workerd through
 * Miniflare, the Lambda bundle in a fresh Node process) and the client's browser bundle. Each is
 * measured when its package is in the repository and can be built; otherwise it says why not.
 */
import { execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { createTestDatabase, type TestDatabase } from "@cloudplane/db/testing";
import { build } from "esbuild";
import { postgresServerUrl } from "./databases.js";
import { median } from "./load.js";
import { AUTHORIZATION } from "./scenario.js";

export const REPO = fileURLToPath(new URL("../../..", import.meta.url));

/** A figure, or why it could not be measured. */
export type Measured<T> = { measured: true; value: T } | { measured: false; why: string };

export interface BundleSize {
  /** What was measured, e.g. the file or the entry. */
  what: string;
  bytes: number;
  gzipBytes: number;
}

export interface ColdStart {
  /** Fresh starts measured; the figures are their medians. */
  trials: number;
  /** From starting the runtime to the bundle being loaded and ready (workerd listening; the module imported). */
  loadMs: number;
  /** From the bundle being loaded to the first response's last byte. */
  firstResponseMs: number;
  /** From starting the runtime to the first response. */
  totalMs: number;
  /** A second request on the same instance, for comparison. */
  warmResponseMs: number;
  request: string;
}

export interface DeploymentFigures {
  bundle: Measured<BundleSize>;
  coldStart: Measured<ColdStart>;
}

export interface ClientFigures {
  whole: Measured<BundleSize>;
  oneArea: Measured<BundleSize>;
}

export const COLD_START_TRIALS = Number(process.env.BENCH_COLD_START_TRIALS ?? 5);
export const FIRST_REQUEST = "/streaming/streams/1";

export function summarizeStarts(starts: Omit<ColdStart, "trials" | "request">[]): ColdStart {
  return {
    trials: starts.length,
    loadMs: median(starts.map((start) => start.loadMs)),
    firstResponseMs: median(starts.map((start) => start.firstResponseMs)),
    totalMs: median(starts.map((start) => start.totalMs)),
    warmResponseMs: median(starts.map((start) => start.warmResponseMs)),
    request: `GET ${FIRST_REQUEST} as the demo administrator`,
  };
}

export async function sizeOf(files: string[], what: string): Promise<BundleSize> {
  const contents = await Promise.all(files.map((file) => readFile(file)));
  return {
    what,
    bytes: contents.reduce((sum, content) => sum + content.byteLength, 0),
    gzipBytes: contents.reduce((sum, content) => sum + gzipSync(content, { level: 9 }).byteLength, 0),
  };
}

export function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split("\n").slice(0, 3).join(" ").slice(0, 300);
}

/** A PostgreSQL database of its own for the cold starts, or why there is none. */
async function coldStartDatabase(): Promise<TestDatabase | string> {
  if (!postgresServerUrl()) return "DATABASE_URL is not set (the Workers and Lambda deployments need PostgreSQL)";
  return createTestDatabase({ engine: "postgres" });
}

// ---------------------------------------------------------------------------------------------------
// Cloudflare Workers

/**
 * The export conditions apps/worker's own scripts (`build`, `deploy`) bundle with: the workspace packages'
 * sources (`@cloudplane/source`), not their built files. Read from its `build` script, so that the bench
 * measures the bundle that is deployed.
 */
async function workerBuildConditions(workerDir: string): Promise<string> {
  const { scripts } = JSON.parse(await readFile(join(workerDir, "package.json"), "utf8")) as { scripts?: Record<string, string> };
  const conditions = /\bWRANGLER_BUILD_CONDITIONS=(\S+)/.exec(scripts?.build ?? "")?.[1];
  if (!conditions) throw new Error("apps/worker's build script sets no WRANGLER_BUILD_CONDITIONS: the bench builds the worker with that script's conditions");
  return conditions;
}

/** apps/worker's bundle as its `build` script has `wrangler deploy --dry-run` write it; `minify: false` overrides wrangler.toml's (for profiles). */
export async function buildWorker(workerDir: string, outdir: string, { minify }: { minify?: false } = {}): Promise<string[]> {
  const wrangler = join(workerDir, "node_modules", ".bin", "wrangler");
  if (!existsSync(wrangler)) throw new Error("wrangler is not installed in apps/worker (pnpm install)");
  await promisify(execFile)(wrangler, ["deploy", "--dry-run", "--outdir", outdir, ...(minify === false ? ["--minify=false"] : [])], {
    cwd: workerDir,
    env: { ...process.env, WRANGLER_BUILD_CONDITIONS: await workerBuildConditions(workerDir), WRANGLER_SEND_METRICS: "false", NO_COLOR: "1" },
    maxBuffer: 16 * 1024 * 1024,
  });
  const files = (await readdir(outdir)).filter((file) => /\.(m?js|wasm)$/.test(file));
  if (!files.length) throw new Error("wrangler wrote no module");
  return files.map((file) => join(outdir, file));
}

async function workerStart(outdir: string, database: TestDatabase): Promise<Omit<ColdStart, "trials" | "request">> {
  const { Miniflare } = await import("miniflare");
  const started = performance.now();
  const miniflare = new Miniflare({
    modules: true,
    scriptPath: join(outdir, "index.js"),
    modulesRoot: outdir,
    compatibilityDate: "2026-07-30",
    compatibilityFlags: ["nodejs_compat"],
    bindings: { DATABASE_URL: database.url!, CLOUDPLANE_SECRETS_KEY: database.secretsKeyBase64, CLOUDPLANE_BASE_PATH: "" },
    host: "127.0.0.1",
    port: 0,
    // The worker logs each request on stdout; not wanted here.
    handleRuntimeStdio: (stdout, stderr) => {
      stdout.resume();
      stderr.resume();
    },
  });
  try {
    const url = await miniflare.ready;
    const loaded = performance.now();
    const first = await fetch(new URL(FIRST_REQUEST, url), { headers: { authorization: AUTHORIZATION } });
    await first.arrayBuffer();
    const answered = performance.now();
    if (first.status !== 200) throw new Error(`the worker answered ${first.status}`);
    const warmStarted = performance.now();
    const second = await fetch(new URL(FIRST_REQUEST, url), { headers: { authorization: AUTHORIZATION } });
    await second.arrayBuffer();
    return {
      loadMs: loaded - started,
      firstResponseMs: answered - loaded,
      totalMs: answered - started,
      warmResponseMs: performance.now() - warmStarted,
    };
  } finally {
    await miniflare.dispose();
  }
}

export async function measureWorker(): Promise<DeploymentFigures> {
  const workerDir = join(REPO, "apps", "worker");
  if (!existsSync(join(workerDir, "wrangler.toml"))) {
    const why = "apps/worker (wrangler.toml) is not in the repository";
    return { bundle: { measured: false, why }, coldStart: { measured: false, why } };
  }
  const outdir = await mkdtemp(join(tmpdir(), "cloudplane-bench-worker-"));
  try {
    let files: string[];
    try {
      files = await buildWorker(workerDir, outdir);
    } catch (error) {
      const why = `wrangler deploy --dry-run failed: ${errorText(error)}`;
      return { bundle: { measured: false, why }, coldStart: { measured: false, why } };
    }
    const bundle: Measured<BundleSize> = { measured: true, value: await sizeOf(files, "wrangler deploy --dry-run --outdir (apps/worker)") };
    const database = await coldStartDatabase();
    if (typeof database === "string") return { bundle, coldStart: { measured: false, why: database } };
    try {
      const starts = [];
      for (let trial = 0; trial < COLD_START_TRIALS; trial++) starts.push(await workerStart(outdir, database));
      return { bundle, coldStart: { measured: true, value: summarizeStarts(starts) } };
    } catch (error) {
      return { bundle, coldStart: { measured: false, why: `the worker did not answer in Miniflare: ${errorText(error)}` } };
    } finally {
      await database.close();
    }
  } finally {
    await rm(outdir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------------
// AWS Lambda

/** Run by `node -e` in a fresh process: imports the bundle and sends it one API Gateway v2 event. */
const LAMBDA_COLD_START = `
const started = performance.now();
const { handler } = await import(process.env.BENCH_LAMBDA_BUNDLE);
const loaded = performance.now();
const event = (path) => ({
  version: "2.0", routeKey: "$default", rawPath: path, rawQueryString: "", isBase64Encoded: false,
  headers: { host: "api.example.com", authorization: process.env.BENCH_AUTHORIZATION, "user-agent": "bench" },
  requestContext: { domainName: "api.example.com", requestId: "bench", routeKey: "$default", stage: "$default",
    timeEpoch: Date.now(), http: { method: "GET", path, protocol: "HTTP/1.1", sourceIp: "127.0.0.1", userAgent: "bench" } },
});
const context = { awsRequestId: "bench", functionName: "cloudplane", getRemainingTimeInMillis: () => 30000 };
const first = await handler(event(process.env.BENCH_PATH), context);
const answered = performance.now();
await handler(event(process.env.BENCH_PATH), context);
const warm = performance.now() - answered;
process.stdout.write("BENCH " + JSON.stringify({ status: first.statusCode, processStartToImport: started, loadMs: loaded - started, firstResponseMs: answered - loaded, warmResponseMs: warm }) + "\\n");
process.exit(0);
`;

async function lambdaStart(bundle: string, database: TestDatabase): Promise<Omit<ColdStart, "trials" | "request">> {
  const child = spawn(process.execPath, ["--input-type=module", "-e", LAMBDA_COLD_START], {
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: database.url!,
      CLOUDPLANE_SECRETS_KEY: database.secretsKeyBase64,
      BENCH_LAMBDA_BUNDLE: bundle,
      BENCH_AUTHORIZATION: AUTHORIZATION,
      BENCH_PATH: FIRST_REQUEST,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  let errors = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (errors += chunk));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  const line = output.split("\n").find((item) => item.startsWith("BENCH "));
  if (code !== 0 || !line) throw new Error(`the Lambda process exited ${code}: ${errors || output}`);
  const figures = JSON.parse(line.slice(6)) as {
    status: number;
    processStartToImport: number;
    loadMs: number;
    firstResponseMs: number;
    warmResponseMs: number;
  };
  if (figures.status !== 200) throw new Error(`the Lambda answered ${figures.status}`);
  // The process's own clock starts with the process: Node's start-up counts as loading, as in a Lambda cold start.
  const beforeImport = figures.processStartToImport;
  return {
    loadMs: beforeImport + figures.loadMs,
    firstResponseMs: figures.firstResponseMs,
    totalMs: beforeImport + figures.loadMs + figures.firstResponseMs,
    warmResponseMs: figures.warmResponseMs,
  };
}

export async function measureLambda(): Promise<DeploymentFigures> {
  const lambdaDir = join(REPO, "apps", "lambda");
  const script = join(lambdaDir, "scripts", "build.ts");
  if (!existsSync(script)) {
    const why = "apps/lambda (scripts/build.ts) is not in the repository";
    return { bundle: { measured: false, why }, coldStart: { measured: false, why } };
  }
  const bundleFile = join(lambdaDir, "dist", "index.mjs");
  try {
    await promisify(execFile)(process.execPath, ["--import", "tsx", script], { cwd: lambdaDir, maxBuffer: 16 * 1024 * 1024 });
    await stat(bundleFile);
  } catch (error) {
    const why = `the Lambda build (apps/lambda scripts/build.ts → dist/index.mjs) failed: ${errorText(error)}`;
    return { bundle: { measured: false, why }, coldStart: { measured: false, why } };
  }
  const bundle: Measured<BundleSize> = { measured: true, value: await sizeOf([bundleFile], "apps/lambda/dist/index.mjs (esbuild, minified)") };
  const database = await coldStartDatabase();
  if (typeof database === "string") return { bundle, coldStart: { measured: false, why: database } };
  try {
    const starts = [];
    for (let trial = 0; trial < COLD_START_TRIALS; trial++) starts.push(await lambdaStart(bundleFile, database));
    return { bundle, coldStart: { measured: true, value: summarizeStarts(starts) } };
  } catch (error) {
    return { bundle, coldStart: { measured: false, why: errorText(error) } };
  } finally {
    await database.close();
  }
}

// ---------------------------------------------------------------------------------------------------
// The client

async function browserBundle(clientDir: string, entry: string, what: string): Promise<BundleSize> {
  const result = await build({
    stdin: { contents: entry, resolveDir: clientDir, loader: "ts", sourcefile: "bench-entry.ts" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
    legalComments: "none",
    logLevel: "silent",
  });
  const code = result.outputFiles[0]!.contents;
  return { what, bytes: code.byteLength, gzipBytes: gzipSync(code, { level: 9 }).byteLength };
}

export async function measureClient(): Promise<ClientFigures> {
  const clientDir = join(REPO, "packages", "client");
  const entry = join(clientDir, "src", "index.ts");
  if (!existsSync(entry)) {
    const why = "packages/client (src/index.ts) is not in the repository";
    return { whole: { measured: false, why }, oneArea: { measured: false, why } };
  }
  const measure = async (code: string, what: string): Promise<Measured<BundleSize>> => {
    try {
      return { measured: true, value: await browserBundle(clientDir, code, what) };
    } catch (error) {
      return { measured: false, why: `esbuild could not bundle the client: ${errorText(error)}` };
    }
  };
  return {
    whole: await measure(`export * from "./src/index.ts";`, "export * from @cloudplane/client (every area, every export)"),
    oneArea: await measure(`export { createEdgeClient } from "./src/index.ts";`, "import { createEdgeClient } from @cloudplane/client (the edge area alone)"),
  };
}
