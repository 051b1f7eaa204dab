/**
 * The local app as `pnpm start` runs it: the conformance suite over HTTP on PGlite (always) and on
 * PostgreSQL (when DATABASE_URL is set), its banner and JSON request logs, the docs at /docs, and a
 * restart after SIGTERM that finds what was written before it.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { conformanceChecks, conformanceContext, conformanceTokens, type ConformanceContext } from "@cloudplane/conformance";
import { demoFixture, demoToken } from "@cloudplane/db";
import { createTestDatabase, type TestDatabase } from "@cloudplane/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalProcess, type LocalProcess } from "./local-process.js";

const ADMIN_KEY = demoToken(1, "role-1-active").plaintext;

/** Registers every conformance check as a test against the app `current()` returns. */
function conformanceSuite(current: () => LocalProcess) {
  describe("conformance", () => {
    let context: ConformanceContext;
    beforeAll(async () => {
      context = await conformanceContext(current().url, conformanceTokens(demoFixture));
    });
    for (const check of conformanceChecks) it(check.name, () => check.run(context));
  });
}

function call(app: LocalProcess, method: string, path: string, body?: unknown) {
  return fetch(`${app.url}${path}`, {
    method,
    headers: { authorization: `apikey ${app.adminApiKey}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** The request log lines must show requests, never a credential or a secret value the suite sent. */
function expectCleanRequestLogs(app: LocalProcess) {
  const requests = app.logs().filter((entry) => entry.msg === "request");
  expect(requests.length).toBeGreaterThan(100);
  for (const entry of requests) {
    expect(entry).toEqual({
      time: expect.any(String),
      level: "info",
      msg: "request",
      request_id: expect.stringMatching(/^[A-Za-z0-9._-]{1,128}$/),
      method: expect.any(String),
      path: expect.stringMatching(/^\//),
      status: expect.any(Number),
      duration_ms: expect.any(Number),
    });
  }
  expect(requests.some((entry) => entry.request_id === "conformance-404" && entry.status === 404)).toBe(true);
  const logged = app.stdout().split("\n").filter((line) => line.startsWith("{")).join("\n") + app.stderr();
  for (const token of demoFixture.apiTokens) expect(logged).not.toContain(token.plaintext);
  for (const secret of ["conformance-value", "conformance-secret-access-key"]) expect(logged).not.toContain(secret);
}

describe("local app on PGlite", () => {
  let dataDir: string;
  let app: LocalProcess;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "cloudplane-local-"));
    app = await startLocalProcess({ DATA_DIR: dataDir });
  });
  afterAll(async () => {
    await app?.stop("SIGKILL");
    await rm(dataDir, { recursive: true, force: true });
  });

  it("prints the base URL, the docs URL and the demo administrator's API key, and loads the demo data on first start", () => {
    expect(app.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(app.docs).toContain(`${app.url}/docs/`);
    expect(app.adminApiKey).toBe(ADMIN_KEY);
    expect(app.headline).toBe(`cloudplane API on PGlite in ${dataDir} (demo data loaded)`);
  });

  conformanceSuite(() => app);

  it("logs each request as a JSON line with method, path, status, duration and request id, and no credential", () => {
    expectCleanRequestLogs(app);
  });

  it("serves the docs at /docs when they are built, and says so when they are not; / leads to them", async () => {
    const root = await fetch(`${app.url}/`, { redirect: "manual" });
    expect(root.status).toBe(302);
    expect(root.headers.get("location")).toBe("/docs/");
    const docs = await fetch(`${app.url}/docs/`);
    expect(docs.headers.get("content-type")).toBe("text/html; charset=utf-8");
    if (app.docs === `${app.url}/docs/`) {
      expect(docs.status).toBe(200);
      expect(await docs.text()).toMatch(/<html/i);
      const bare = await fetch(`${app.url}/docs`, { redirect: "manual" });
      expect([bare.status, bare.headers.get("location")]).toEqual([301, "/docs/"]);
    } else {
      expect(app.docs).toMatch(/^not built/);
      expect(docs.status).toBe(404);
      expect(await docs.text()).toContain("pnpm --filter @cloudplane/docs build");
    }
  });

  it("keeps what was written across a SIGTERM and a restart, without loading the demo data again", async () => {
    const apps = demoFixture.edgeApps.filter((candidate) => candidate.accountId === 1);
    const target = apps[apps.length - 1]!;
    const comment = `written before the restart ${Date.now()}`;
    const secretName = `restart-${Date.now()}`;
    expect((await call(app, "PUT", `/edge/v1/apps/${target.id}`, { comment })).status).toBe(200);
    expect((await call(app, "POST", "/edge/v1/secrets", { name: secretName, secret_slots: [{ slot: 1, value: "kept" }] })).status).toBe(200);

    expect(await app.stop("SIGTERM")).toBe(0);
    expect(app.logs().map((entry) => entry.msg).slice(-2)).toEqual(["shutting down", "stopped"]);

    app = await startLocalProcess({ DATA_DIR: dataDir });
    expect(app.headline).toBe(`cloudplane API on PGlite in ${dataDir}`);
    const listed = (await (await call(app, "GET", "/edge/v1/apps?limit=1000")).json()) as { apps: { id: number; comment: string }[] };
    expect(listed.apps.find((candidate) => candidate.id === target.id)?.comment).toBe(comment);
    // The secret is there: its name is taken.
    expect((await call(app, "POST", "/edge/v1/secrets", { name: secretName, secret_slots: [{ slot: 1, value: "again" }] })).status).toBe(409);
  });

  it("refuses a second process on the same data directory, and stops cleanly on SIGINT", async () => {
    await expect(startLocalProcess({ DATA_DIR: dataDir })).rejects.toThrow(/Another cloudplane process \(pid \d+\) is using the data directory/);
    expect(await app.stop("SIGINT")).toBe(0);
    expect(app.logs().at(-1)).toMatchObject({ msg: "stopped" });
  });
});

// Registered only when there is a PostgreSQL server to run on, so that no test shows as skipped.
if (process.env.DATABASE_URL) describe("local app on PostgreSQL", () => {
  let database: TestDatabase;
  let dataDir: string;
  let app: LocalProcess;

  beforeAll(async () => {
    // Migrated but empty: the app loads the demo data itself, as on a first start.
    database = await createTestDatabase({ engine: "postgres", seed: false });
    dataDir = await mkdtemp(join(tmpdir(), "cloudplane-local-pg-"));
    app = await startLocalProcess({ DATA_DIR: dataDir, DATABASE_URL: database.url, CLOUDPLANE_SECRETS_KEY: database.secretsKeyBase64 });
  });
  afterAll(async () => {
    await app?.stop("SIGKILL");
    await database?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("runs on the PostgreSQL of DATABASE_URL and loads the demo data into its empty database", () => {
    const url = new URL(database.url!);
    expect(app.headline).toBe(`cloudplane API on PostgreSQL at ${url.host}${url.pathname} (demo data loaded)`);
    expect(app.adminApiKey).toBe(ADMIN_KEY);
  });

  conformanceSuite(() => app);

  it("logs each request as a JSON line, with no credential", () => {
    expectCleanRequestLogs(app);
  });

  it("stops cleanly on SIGTERM", async () => {
    expect(await app.stop("SIGTERM")).toBe(0);
    expect(app.logs().at(-1)).toMatchObject({ msg: "stopped" });
  });
});
