/**
 * The Lambda deployment: esbuild bundles it into one file (always), and the bundle, invoked with API
 * Gateway HTTP API events through a bridge, passes the conformance suite on PostgreSQL (when
 * DATABASE_URL is set).
 */
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { conformanceChecks, conformanceContext, conformanceTokens, createClient, expectCorsAnswers, expectFailoverAnswers, type ConformanceContext } from "@cloudplane/conformance";
import { demoFixture } from "@cloudplane/db";
import { createTestDatabase, failoverUnderLoad, type TestDatabase } from "@cloudplane/db/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildLambda, type LambdaBuild } from "../scripts/build.js";
import { startBridge, type Bridge, type LambdaHandler } from "./api-gateway-bridge.js";

const SETTINGS = ["DATABASE_URL", "CLOUDPLANE_SECRETS_KEY", "CLOUDPLANE_BASE_PATH", "CLOUDPLANE_RATE_LIMIT", "CLOUDPLANE_CORS_ORIGINS"] as const;
/** The origin of a page allowed to call the bundle on PostgreSQL (CLOUDPLANE_CORS_ORIGINS). */
const APP_ORIGIN = "https://app.example";
const saved = Object.fromEntries(SETTINGS.map((name) => [name, process.env[name]]));

let outdir: string;
let built: LambdaBuild;
let handler: LambdaHandler;
/** What the bundle logged, one JSON line each. */
const logged: string[] = [];

function setEnvironment(settings: Partial<Record<(typeof SETTINGS)[number], string>>) {
  for (const name of SETTINGS) {
    const value = settings[name];
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
}

beforeAll(async () => {
  outdir = await mkdtemp(join(tmpdir(), "cloudplane-lambda-"));
  built = await buildLambda(outdir);
  const capture = (line: unknown) => void logged.push(String(line));
  vi.spyOn(console, "log").mockImplementation(capture);
  vi.spyOn(console, "error").mockImplementation(capture);
  // The bundle makes its setup as it is imported (Lambda's init phase): with no settings it fails there,
  // is logged, and every event tries it again (each describe below sets what it needs).
  setEnvironment({});
  ({ handler } = (await import(pathToFileURL(built.file).href)) as { handler: LambdaHandler });
  expect(logged.at(-1)).toContain("the handler could not start");
});
afterAll(async () => {
  vi.restoreAllMocks();
  setEnvironment(saved);
  await rm(outdir, { recursive: true, force: true });
});

describe("the bundle", () => {
  it("is one ES module exporting the handler, without PGlite", async () => {
    expect(await readdir(outdir)).toEqual(["index.mjs"]);
    expect(built.gzipBytes).toBeLessThan(built.bytes);
    const code = await readFile(built.file, "utf8");
    expect(code).toContain("PGlite is not part of the Lambda bundle");
    expect(code).not.toMatch(/pglite\.wasm|pglite\.data/);
    // The contract without its documentation (a KV store comment's description), with its checks' messages.
    expect(code).not.toContain("The store's description, at most 1024 characters.");
    expect(code).toContain("At most 1024 characters.");
    expect(typeof handler).toBe("function");
  });

  it("answers 500 in the error envelope, and logs why, when DATABASE_URL is not set", async () => {
    setEnvironment({ CLOUDPLANE_SECRETS_KEY: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=" });
    const bridge = await startBridge(handler);
    try {
      const reply = await fetch(`${bridge.url}/cdn/clients/me/features`, { headers: { authorization: "apikey x" } });
      expect(reply.status).toBe(500);
      const body = (await reply.json()) as Record<string, unknown>;
      expect(body).toEqual({ message: expect.any(String), code: "internal", request_id: reply.headers.get("x-request-id") });
      expect(logged.at(-1)).toContain("DATABASE_URL is not set");
    } finally {
      await bridge.close();
    }
  });
});

// Registered only when there is a PostgreSQL server to run on, so that no test shows as skipped.
if (process.env.DATABASE_URL)
  describe("the bundle behind API Gateway events on PostgreSQL", () => {
    let database: TestDatabase;
    let bridge: Bridge;
    let context: ConformanceContext;

    beforeAll(async () => {
      // The server's URL, which the test before this one cleared.
      setEnvironment(saved);
      database = await createTestDatabase({ engine: "postgres" });
      // With CORS on for one origin: every answer of the suite goes through the CORS answers too.
      setEnvironment({ DATABASE_URL: database.url!, CLOUDPLANE_SECRETS_KEY: database.secretsKeyBase64, CLOUDPLANE_CORS_ORIGINS: APP_ORIGIN });
      bridge = await startBridge(handler);
      context = await conformanceContext(bridge.url, conformanceTokens(demoFixture));
    });
    afterAll(async () => {
      await bridge?.close();
      // The bundle's connection stays open for the next event, as in Lambda; dropping the database ends it.
      await database?.close();
    });

    describe("conformance", () => {
      for (const check of conformanceChecks) it(check.name, () => check.run(context));
    });

    it("answers a page on the allowed origin with its CORS headers, one on another origin without them, HEAD and a preflight", () =>
      expectCorsAnswers(context.client, APP_ORIGIN));

    it("was invoked with HTTP API events, and logged each event as a JSON line (a request, or a client error) with no unexpected error", () => {
      expect(bridge.events.length).toBeGreaterThan(100);
      expect(bridge.events.every((event) => event.version === "2.0" && event.routeKey === "$default")).toBe(true);
      const entries = logged.filter((line) => line.startsWith("{")).map((line) => JSON.parse(line) as Record<string, unknown>);
      // From the first request served on PostgreSQL on (the test before this one logged a failed start).
      const served = entries.slice(entries.map((entry) => entry.msg).lastIndexOf("the handler could not start") + 1);
      // Each event once: as a request, or (no HTTP request could be made of it) as a client error.
      expect(served.filter((entry) => entry.msg === "request" || entry.msg === "client error").length).toBe(bridge.events.length);
      expect(served.filter((entry) => entry.msg === "client error").every((entry) => entry.status === 400 && entry.code === "bad_request")).toBe(true);
      expect(served.filter((entry) => entry.level === "error")).toEqual([]);
    });

  });

// Registered only when there is a PostgreSQL server to run on, so that no test shows as skipped.
if (process.env.DATABASE_URL)
  describe("an instance of the bundle while PostgreSQL terminates its connection under load", () => {
    let database: TestDatabase;
    let bridge: Bridge;

    beforeAll(async () => {
      setEnvironment(saved);
      database = await createTestDatabase({ engine: "postgres" });
      setEnvironment({ DATABASE_URL: database.url!, CLOUDPLANE_SECRETS_KEY: database.secretsKeyBase64, CLOUDPLANE_RATE_LIMIT: "0" });
      // Another instance of the function (a module of its own, as another Lambda instance runs it), set up from
      // these settings in its init phase: the limit is off, so that no client waits out a 429 meanwhile.
      const instance = (await import(`${pathToFileURL(built.file).href}?instance=failover`)) as { handler: LambdaHandler };
      bridge = await startBridge(instance.handler);
    });
    afterAll(async () => {
      await bridge?.close();
      await database?.close();
    });

    it("answers 200 or 503 with Retry-After, then 200s, and nothing escapes", async () => {
      const client = createClient(bridge.url, conformanceTokens(demoFixture));
      const escaped: unknown[] = [];
      const onEscape = (error: unknown) => escaped.push(error);
      process.on("uncaughtException", onEscape);
      process.on("unhandledRejection", onEscape);
      try {
        // The instance keeps its one connection (max 1) between events; PostgreSQL ends it five times.
        const { replies, terminated, after } = await failoverUnderLoad(
          database.url!,
          (index, serial) =>
            index % 2 === 0
              ? client.call("GET", "/edge/v1/apps?limit=1")
              : client.call("POST", "/edge/v1/secrets", { body: { name: `failover-${index}-${serial}`, secret_slots: [{ slot: 0, value: "v" }] } }),
          { clients: 4 },
        );
        const { served, unavailable } = expectFailoverAnswers(replies, after);
        console.info(`failover on Lambda: ${terminated.join(", ")} backends terminated; ${served} × 200, ${unavailable} × 503`);
        // A termination can fall while the instance reconnects (no backend then); the others end its connection.
        expect(terminated.some((count) => count > 0)).toBe(true);
        expect(unavailable).toBeGreaterThan(0);
        // The last rejections run a few turns after the last answer.
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(escaped).toEqual([]);
      } finally {
        process.off("uncaughtException", onEscape);
        process.off("unhandledRejection", onEscape);
      }
    });
  });
