/**
 * The local app as `pnpm start` runs it, under hostile clients, with its timeouts shortened
 * (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS): what Node's HTTP layer refuses answers in the error envelope
 * and is logged, the socket fuzzer finds nothing wrong and the process goes on; and SIGTERM while
 * keep-alive clients keep sending: every request answered whole or never accepted, the answers after the
 * signal with `Connection: close`, and the process gone with exit code 0 within the grace period.
 */
import { Agent, request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { exchangeRaw, rawFuzz } from "@cloudplane/conformance";
import { createTestDatabase, type TestDatabase } from "@cloudplane/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalProcess, type LocalProcess } from "./local-process.js";

// Shortened timeouts, so slow senders take a second or two; no rate limit, for clients that send in a tight loop.
const SETTINGS = { HEADERS_TIMEOUT_MS: "1000", REQUEST_TIMEOUT_MS: "2000", SHUTDOWN_GRACE_MS: "5000", CLOUDPLANE_RATE_LIMIT: "0" };

type Outcome = { status: number; headers: IncomingHttpHeaders; body: string } | { error: string };

function get(url: string, headers: Record<string, string>, agent: Agent): Promise<Outcome> {
  return new Promise((resolve) => {
    const outgoing = httpRequest(url, { headers, agent }, (incoming) => {
      let body = "";
      incoming.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
      incoming.on("error", (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
      incoming.on("end", () => resolve({ status: incoming.statusCode!, headers: incoming.headers, body }));
    });
    outgoing.on("error", (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    outgoing.end();
  });
}

/**
 * Keep-alive clients send requests in a loop while the process gets SIGTERM; each stops at its first
 * request that gets no answer. Returns what every request came to.
 */
async function stopUnderLoad(app: LocalProcess) {
  const outcomes: { id: string; client: number; sentAfterSignalSeen: boolean; outcome: Outcome }[] = [];
  const client = async (name: number) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    for (let count = 0; ; count++) {
      const id = `drain-${name}-${count}`;
      // Once the app has logged that it is shutting down, it must have taken the signal in.
      const sentAfterSignalSeen = app.stdout().includes('"msg":"shutting down"');
      const outcome = await get(`${app.url}/cdn/clients/me/features`, { authorization: `apikey ${app.adminApiKey}`, "x-request-id": id }, agent);
      outcomes.push({ id, client: name, sentAfterSignalSeen, outcome });
      if ("error" in outcome) break;
    }
    agent.destroy();
  };
  const clients = Array.from({ length: 8 }, (_, name) => client(name));
  await expect.poll(() => outcomes.length, { timeout: 30_000 }).toBeGreaterThan(200);
  const signalled = performance.now();
  const code = await app.stop("SIGTERM");
  const stoppedInMs = performance.now() - signalled;
  await Promise.all(clients);
  return { code, stoppedInMs, outcomes };
}

function expectDrained(app: LocalProcess, result: Awaited<ReturnType<typeof stopUnderLoad>>) {
  expect(result.code).toBe(0);
  expect(result.stoppedInMs).toBeLessThan(Number(SETTINGS.SHUTDOWN_GRACE_MS));
  const entries = app.logs();
  // The requests in flight are logged after "shutting down"; none was cut at the end of the grace period.
  const messages = entries.map((entry) => entry.msg).filter((msg) => msg !== "request");
  expect(messages.slice(messages.indexOf("shutting down"))).toEqual(["shutting down", "stopped"]);
  const logged = new Set(entries.filter((entry) => entry.msg === "request").map((entry) => entry.request_id));
  for (const { id, sentAfterSignalSeen, outcome } of result.outcomes) {
    if ("error" in outcome) {
      // No answer: then the app never took the request in (its handler never logged it).
      expect(logged.has(id), `${id}: ${outcome.error}`).toBe(false);
      continue;
    }
    expect(outcome.status, id).toBe(200);
    expect(JSON.parse(outcome.body), id).toMatchObject({ id: 1 });
    if (sentAfterSignalSeen) expect(outcome.headers.connection, id).toBe("close");
  }
  // Each client's last answer closed its connection, and its next request found no server: none was reset.
  for (let name = 0; name < 8; name++) {
    const own = result.outcomes.filter((entry) => entry.client === name);
    const [answered, refused] = own.slice(-2);
    expect(answered && !("error" in answered.outcome) ? answered.outcome.headers.connection : answered?.outcome, answered?.id).toBe("close");
    expect(refused?.outcome, refused?.id).toEqual({ error: "ECONNREFUSED" });
  }
}

describe("local app on PGlite under hostile clients", () => {
  let dataDir: string;
  let app: LocalProcess;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "cloudplane-hostile-"));
    app = await startLocalProcess({ DATA_DIR: dataDir, ...SETTINGS });
  });
  afterAll(async () => {
    await app?.stop("SIGKILL");
    await rm(dataDir, { recursive: true, force: true });
  });

  it("answers a 64 KB header with 431, and a NUL byte in the path with 400, in the envelope, and logs each as a client error", async () => {
    const host = new URL(app.url).host;
    const big = await exchangeRaw(app.url, [`GET /cdn/clients/me/features HTTP/1.1\r\nHost: ${host}\r\nX-Big: ${"a".repeat(64 * 1024)}\r\n\r\n`]);
    const nul = await exchangeRaw(app.url, [`GET /cdn/\0 HTTP/1.1\r\nHost: ${host}\r\n\r\n`]);
    const answers = [big, nul].map(({ responses: [response] }) => ({
      status: response!.status,
      id: response!.headers.get("x-request-id"),
      body: JSON.parse(response!.text) as Record<string, unknown>,
    }));
    expect(answers).toEqual([
      { status: 431, id: expect.stringMatching(/^req_/), body: { message: expect.any(String), code: "request_header_fields_too_large", request_id: answers[0]!.id } },
      { status: 400, id: expect.stringMatching(/^req_/), body: { message: expect.any(String), code: "bad_request", request_id: answers[1]!.id } },
    ]);
    await expect
      .poll(() => app.logs().filter((entry) => entry.msg === "client error").map((entry) => [entry.request_id, entry.status, entry.code]))
      .toEqual(expect.arrayContaining([
        [answers[0]!.id, 431, "request_header_fields_too_large"],
        [answers[1]!.id, 400, "bad_request"],
      ]));
  });

  it("the socket fuzzer: no answer of 500 or more, every error answer in the envelope, no connection left hanging; the process goes on", async () => {
    const report = await rawFuzz(app.url, { seed: 8787, count: 300, headersTimeoutMs: 1000, requestTimeoutMs: 2000, authorization: `apikey ${app.adminApiKey}` });
    expect(report.problems).toEqual([]);
    expect(app.child.exitCode).toBeNull();
    expect(app.logs().filter((entry) => entry.level !== "info")).toEqual([]);
    expect((await fetch(`${app.url}/cdn/clients/me/features`, { headers: { authorization: `apikey ${app.adminApiKey}` } })).status).toBe(200);
  });

  it("on SIGTERM, answers what keep-alive clients sending in a loop have in flight with Connection: close, refuses the rest, and exits 0 within the grace", async () => {
    expectDrained(app, await stopUnderLoad(app));
  });
});

// Registered only when there is a PostgreSQL server to run on, so that no test shows as skipped.
if (process.env.DATABASE_URL)
  describe("local app on PostgreSQL: SIGTERM under keep-alive clients", () => {
    let database: TestDatabase;
    let dataDir: string;
    let app: LocalProcess;

    beforeAll(async () => {
      database = await createTestDatabase({ engine: "postgres", seed: false });
      dataDir = await mkdtemp(join(tmpdir(), "cloudplane-hostile-pg-"));
      app = await startLocalProcess({ DATA_DIR: dataDir, DATABASE_URL: database.url, CLOUDPLANE_SECRETS_KEY: database.secretsKeyBase64, ...SETTINGS });
    });
    afterAll(async () => {
      await app?.stop("SIGKILL");
      await database?.close();
      await rm(dataDir, { recursive: true, force: true });
    });

    it("answers what is in flight with Connection: close, refuses the rest, and exits 0 within the grace", async () => {
      expectDrained(app, await stopUnderLoad(app));
    });
  });
