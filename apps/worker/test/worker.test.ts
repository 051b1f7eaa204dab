/**
 * The Workers deployment: `wrangler deploy --dry-run` builds it (always), and the built worker, run
 * in workerd by Miniflare, passes the conformance suite on PostgreSQL reached over Workers TCP sockets
 * (when DATABASE_URL is set).
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { conformanceChecks, conformanceContext, conformanceTokens, createClient, expectCorsAnswers, expectFailoverAnswers, type ConformanceContext } from "@cloudplane/conformance";
import { demoFixture } from "@cloudplane/db";
import { createTestDatabase, failoverUnderLoad, type TestDatabase } from "@cloudplane/db/testing";
import { Miniflare } from "miniflare";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildWorker, WORKER_DIR, type WorkerBuild } from "./build.js";

let outdir: string;
let build: WorkerBuild;

beforeAll(async () => {
  outdir = await mkdtemp(join(tmpdir(), "cloudplane-worker-"));
  build = await buildWorker(outdir);
});
afterAll(async () => {
  await rm(outdir, { recursive: true, force: true });
});

describe("wrangler deploy --dry-run", () => {
  it("builds the worker into one module and prints its gzipped size", async () => {
    expect(build.output).toContain("--dry-run: exiting now.");
    expect(build.gzipKiB).toBeGreaterThan(0);
    const files = (await readdir(outdir)).filter((file) => file.endsWith(".js"));
    expect(files).toEqual(["index.js"]);
  });

  it("minifies the bundle and writes its source map, which names our sources", async () => {
    const script = await readFile(join(outdir, "index.js"), "utf8");
    // Unminified, esbuild writes one statement per line: about 30,000 lines. Minified, a few hundred.
    expect(script.split("\n").length).toBeLessThan(2_000);
    expect(script).toMatch(/\/\/# sourceMappingURL=index\.js\.map\s*$/);
    const map = JSON.parse(await readFile(join(outdir, "index.js.map"), "utf8")) as { sources: string[] };
    expect(map.sources.some((source) => source.endsWith("apps/worker/src/index.ts"))).toBe(true);
    expect(map.sources.some((source) => source.includes("packages/handlers/src/"))).toBe(true);
  });

  it("leaves PGlite out and reaches PostgreSQL over cloudflare:sockets", async () => {
    const script = await readFile(join(outdir, "index.js"), "utf8");
    expect(script).toContain('import("cloudflare:sockets")');
    expect(script).toContain("PGlite is not part of the Workers build");
    expect(script).not.toMatch(/pglite\.wasm|pglite\.data/);
  });

  it("leaves the migrations out: a worker never applies them (the deployment does, beforehand)", async () => {
    const script = await readFile(join(outdir, "index.js"), "utf8");
    expect(script).not.toContain("0000_init");
    expect(script).not.toContain('CREATE TABLE "accounts"');
  });

  it("carries the contract without its documentation, but with its checks' messages", async () => {
    const script = await readFile(join(outdir, "index.js"), "utf8");
    // A KV store's comment: its description (and its route's summary) stay out, the message of its check is in.
    expect(script).not.toContain("The store's description, at most 1024 characters.");
    expect(script).not.toContain("Create a KV store");
    expect(script).toContain("At most 1024 characters.");
    const map = JSON.parse(await readFile(join(outdir, "index.js.map"), "utf8")) as { sources: string[] };
    expect(map.sources.some((source) => source.includes("packages/contract/src/edge/kv-stores.ts"))).toBe(true);
    // Neither the examples, nor a description passed to a helper of the contract (`pemText(…)`).
    expect(script).not.toContain("cdn.acme.example");
    expect(script).not.toContain("The certificate's private key, unencrypted");
  });

  it("carries the tables without their constraints and indexes (the migrations hold them) and without relations", async () => {
    const script = await readFile(join(outdir, "index.js"), "utf8");
    expect(script).toContain('"dvr_duration"');
    expect(script).not.toContain("streams_dvr_duration_check");
    expect(script).not.toContain("streams_client_user_fk");
    const map = JSON.parse(await readFile(join(outdir, "index.js.map"), "utf8")) as { sources: string[] };
    expect(map.sources.some((source) => source.includes("packages/db/src/schema/streaming.ts"))).toBe(true);
  });
});

/** The origin of a page allowed to call the worker on PostgreSQL (CLOUDPLANE_CORS_ORIGINS). */
const APP_ORIGIN = "https://app.example";

/** The built worker in workerd, with these bindings; what it logs goes to `logs`. */
function startWorker(bindings: Record<string, string>, logs: string[]): Miniflare {
  const collect = (chunk: string) => logs.push(...chunk.split("\n").filter(Boolean));
  return new Miniflare({
    modules: true,
    scriptPath: join(outdir, "index.js"),
    // Module names are relative to this; the default (the working directory) would put ".." in them.
    modulesRoot: outdir,
    compatibilityDate: "2026-07-30",
    compatibilityFlags: ["nodejs_compat"],
    bindings,
    host: "127.0.0.1",
    port: 0,
    handleRuntimeStdio(stdout, stderr) {
      stdout.setEncoding("utf8").on("data", collect);
      stderr.setEncoding("utf8").on("data", collect);
    },
  });
}

describe("the worker in workerd (Miniflare) without a database setting", () => {
  it("answers 500 in the error envelope and logs which setting is missing", async () => {
    const logs: string[] = [];
    const miniflare = startWorker({ CLOUDPLANE_SECRETS_KEY: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=" }, logs);
    try {
      const reply = await fetch(new URL("/cdn/clients/me/features", await miniflare.ready), { headers: { authorization: "apikey x" } });
      expect(reply.status).toBe(500);
      expect(await reply.json()).toEqual({ message: expect.any(String), code: "internal", request_id: reply.headers.get("x-request-id") });
      await expect.poll(() => logs.join("\n")).toContain("DATABASE_URL is not set");
    } finally {
      await miniflare.dispose();
    }
  });
});

// Registered only when there is a PostgreSQL server to run on, so that no test shows as skipped.
if (process.env.DATABASE_URL)
  describe("the worker in workerd (Miniflare) on a database that does not exist", () => {
    it("answers in the error envelope and logs the server's error by its name and code, though the bundle keeps no function names", async () => {
      const url = new URL(process.env.DATABASE_URL!);
      url.pathname = `/cloudplane_missing_${process.pid}`;
      const logs: string[] = [];
      const miniflare = startWorker({ DATABASE_URL: url.toString(), CLOUDPLANE_SECRETS_KEY: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=" }, logs);
      try {
        const reply = await fetch(new URL("/cdn/clients/me/features", await miniflare.ready), { headers: { authorization: "apikey x" } });
        const requestId = reply.headers.get("x-request-id");
        expect(reply.status).toBe(500);
        expect(await reply.json()).toEqual({ message: expect.any(String), code: "internal", request_id: requestId });
        // postgres.js named its error after its class (`this.constructor.name`), which minifying renames: the patch names it.
        await expect
          .poll(() => logs.map((line) => JSON.parse(line) as { msg: string; request_id?: string; error?: unknown }).find((entry) => entry.msg === "unexpected error")?.error)
          .toMatchObject({ name: "PostgresError", code: "3D000", message: `database "${url.pathname.slice(1)}" does not exist` });
      } finally {
        await miniflare.dispose();
      }
    });
  });

if (process.env.DATABASE_URL)
  describe("the worker in workerd (Miniflare) on PostgreSQL", () => {
    let database: TestDatabase;
    let miniflare: Miniflare;
    const logs: string[] = [];
    let context: ConformanceContext;

    beforeAll(async () => {
      database = await createTestDatabase({ engine: "postgres" });
      // With CORS on for one origin: every answer of the suite goes through the CORS answers too.
      miniflare = startWorker(
        { DATABASE_URL: database.url!, CLOUDPLANE_SECRETS_KEY: database.secretsKeyBase64, CLOUDPLANE_BASE_PATH: "", CLOUDPLANE_CORS_ORIGINS: APP_ORIGIN },
        logs,
      );
      const url = await miniflare.ready;
      context = await conformanceContext(url.toString(), conformanceTokens(demoFixture));
    });
    afterAll(async () => {
      await miniflare?.dispose();
      await database?.close();
    });

    describe("conformance", () => {
      // The raw-socket check is left out here: Miniflare's local HTTP front (a Node server in front of
      // workerd, no part of a Workers deployment) answers a Host header with a space with its own 500
      // before the worker sees the request; on Workers, Cloudflare's edge refuses such requests itself.
      for (const check of conformanceChecks.filter((candidate) => !candidate.name.startsWith("raw:"))) it(check.name, () => check.run(context));
    });

    it("serves requests at once, each on a connection of its own", async () => {
      const replies = await Promise.all(
        Array.from({ length: 12 }, (_, index) =>
          context.client.call("GET", index % 2 ? "/edge/v1/apps?limit=3" : "/streaming/streams", { headers: { "x-request-id": `concurrent-${index}` } }),
        ),
      );
      expect(replies.map((reply) => [reply.status, reply.headers.get("x-request-id")])).toEqual(
        Array.from({ length: 12 }, (_, index) => [200, `concurrent-${index}`]),
      );
    });

    it("answers a page on the allowed origin with its CORS headers, one on another origin without them, HEAD and a preflight", () =>
      expectCorsAnswers(context.client, APP_ORIGIN));

    it("gives each of concurrent CDN writes its own audit entry, in its own transaction", async () => {
      const writes = await Promise.all([1, 3].map((id) => context.client.call("PATCH", `/cdn/resources/${id}`, { body: { description: `Written in workerd ${id}.` } })));
      expect(writes.map((reply) => reply.status)).toEqual([200, 200]);
      const logged = await context.client.call("GET", "/cdn/activity_log/requests?method=PATCH&limit=2");
      const entries = (logged.body as { results: { path: string; status_code: number; actions: { action_type: string }[] }[] }).results;
      expect(entries.map((entry) => `${entry.path} ${entry.status_code} ${entry.actions.map((action) => action.action_type).join()}`).sort()).toEqual([
        "/cdn/resources/1 200 U",
        "/cdn/resources/3 200 U",
      ]);
    });

    it("logs each request as a JSON line and reported no unexpected error", () => {
      const entries = logs.filter((line) => line.startsWith("{")).map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(entries.filter((entry) => entry.msg === "request").length).toBeGreaterThan(100);
      expect(entries.filter((entry) => entry.level === "error")).toEqual([]);
    });
  });

if (process.env.DATABASE_URL)
  describe("the worker in workerd (Miniflare) while PostgreSQL terminates its backends", () => {
    let database: TestDatabase;
    let miniflare: Miniflare;
    const logs: string[] = [];

    beforeAll(async () => {
      database = await createTestDatabase({ engine: "postgres" });
      miniflare = startWorker(
        { DATABASE_URL: database.url!, CLOUDPLANE_SECRETS_KEY: database.secretsKeyBase64, CLOUDPLANE_BASE_PATH: "", CLOUDPLANE_RATE_LIMIT: "0" },
        logs,
      );
    });
    afterAll(async () => {
      await miniflare?.dispose();
      await database?.close();
    });

    it("answers 200 or 503 with Retry-After under load, then 200s, and nothing is thrown out of the worker", async () => {
      const client = createClient((await miniflare.ready).toString(), conformanceTokens(demoFixture));
      // Each request has a connection of its own: every backend terminated was serving a request.
      const { replies, terminated, after } = await failoverUnderLoad(database.url!, (index, serial) =>
        index % 2 === 0
          ? client.call("GET", "/edge/v1/apps?limit=1")
          : client.call("POST", "/edge/v1/secrets", { body: { name: `failover-${index}-${serial}`, secret_slots: [{ slot: 0, value: "v" }] } }),
      );
      const { served, unavailable } = expectFailoverAnswers(replies, after);
      console.log(`failover in workerd: ${terminated.join(", ")} backends terminated; ${served} × 200, ${unavailable} × 503`);
      expect(terminated.some((count) => count > 0)).toBe(true);
      expect(served).toBeGreaterThan(0);
      // workerd logs what a request throws out of the worker as "Uncaught …" and answers it 500.
      expect(logs.filter((line) => /uncaught/i.test(line))).toEqual([]);
    });
  });

if (process.env.DATABASE_URL)
  describe("pnpm migrate", () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await createTestDatabase({ engine: "postgres", migrate: false });
    });
    afterAll(async () => {
      await database?.close();
    });

    it("applies the migrations a database lacks, once, without printing the URL", async () => {
      const migrate = () =>
        promisify(execFile)(join(WORKER_DIR, "node_modules/.bin/tsx"), ["--conditions=@cloudplane/source", "scripts/migrate.ts"], { cwd: WORKER_DIR, env: { ...process.env, DATABASE_URL: database.url } });
      const first = await migrate();
      expect(first.stdout).toMatch(/^Applied to [^ ]+: \d{4}_\w+/);
      expect(first.stdout).not.toContain("postgres://");
      expect((await migrate()).stdout).toMatch(/already has every migration\.\n$/);
    });
  });
