/**
 * A failover under load: PostgreSQL terminates every backend of the API's database (as a failover, a
 * restart or an idle-session kill does) while clients keep calling the real handler. Every answer is a
 * 200 or a 503 `unavailable` with Retry-After, the pool reconnects by itself, and nothing escapes as an
 * uncaught exception or an unhandled rejection (postgres.js 3.4.9 threw one from a write scheduled on a
 * socket that had closed: `patches/postgres@3.4.9.patch`): on a pool, as on Node and Lambda, and on a
 * connection of each request's own, as on Workers; and a backend terminated while its connection starts
 * (fetching the array types) neither escapes nor fails the request waiting on that connection. Needs PostgreSQL (DATABASE_URL); CI sets it.
 * The suite's database is its own (`useApi`), so the terminations reach no other test file.
 */
import net, { type AddressInfo } from "node:net";
import { createDatabase } from "@cloudplane/db";
import { failoverUnderLoad } from "@cloudplane/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { workersHandler } from "../src/workers.js";
import { buildRequest, expectEnvelope, replyOf, useApi, type Reply } from "./harness.js";

const serverUrl = process.env.DATABASE_URL;

/** Error reports of a database that went away, and nothing else. */
function expectOutageErrors(reports: unknown[]): void {
  for (const report of reports) {
    const { code, message } = report as { code?: unknown; message?: unknown };
    expect(`${String(code)}: ${String(message)}`).toMatch(/CONNECTION_(DESTROYED|CLOSED|ENDED)|CONNECT_TIMEOUT|ECONNREFUSED|ECONNRESET|57P01|terminat/i);
  }
}

describe.skipIf(!serverUrl)("failover on postgres: the server terminates its backends under load", () => {
  const api = useApi("postgres");
  // What escapes the handler: an exception thrown from a driver's callback, a rejection nobody awaits.
  const escaped: unknown[] = [];
  const onEscape = (error: unknown) => escaped.push(error);

  beforeAll(() => {
    process.on("uncaughtException", onEscape);
    process.on("unhandledRejection", onEscape);
  });
  afterAll(async () => {
    // The last rejections run through the pipeline a few turns after the last answer.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expectOutageErrors(api.takeErrors());
    process.off("uncaughtException", onEscape);
    process.off("unhandledRejection", onEscape);
  });

  /**
   * Eight clients calling in a loop (reads and writes: small statements, each written to the socket on
   * the next turn) while every backend of the database is terminated five times, then for a while
   * after (`failoverUnderLoad`); each client's next request once they stop. Checks every answer and
   * that nothing escaped.
   */
  async function failover(what: string, call: (method: string, path: string, body?: unknown) => Promise<Reply>): Promise<void> {
    const { replies, terminated, after } = await failoverUnderLoad(api.database.url!, (client, serial) =>
      client % 2 === 0
        ? call("GET", "/edge/v1/apps?limit=1")
        : call("POST", "/edge/v1/secrets", { name: `failover-${what}-${client}-${serial}`, secret_slots: [{ slot: 0, value: "v" }] }),
    );
    const statuses = replies.map((reply) => reply.status);
    const count = (status: number) => statuses.filter((s) => s === status).length;
    console.log(
      `failover (${what}): ${terminated.length} terminations (${terminated.join(", ")} backends), ${replies.length} requests from ${after.length} clients: ` +
        `${count(200)} × 200, ${count(503)} × 503, ${replies.length - count(200) - count(503)} other; ${escaped.length} escaped`,
    );
    expect(escaped).toEqual([]);
    expect(terminated.reduce((sum, n) => sum + n, 0)).toBeGreaterThan(0);
    for (const reply of replies) {
      if (reply.status === 200) continue;
      expectEnvelope(reply, 503, "unavailable");
      expect(Number(reply.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    expect(count(503)).toBeGreaterThan(0);
    // Served again: every client's next request succeeds.
    expect(after.map((reply) => reply.status)).toEqual(after.map(() => 200));
  }

  it("answers 200 or 503 with Retry-After while the pool reconnects, then 200s, and nothing escapes", async () => {
    await failover("pool", (method, path, body) => api.call(method, path, body === undefined ? {} : { body }));
  });

  it("does the same with a connection of each request's own, as on Workers (workersHandler, here in Node)", async () => {
    const closing: Promise<unknown>[] = [];
    const env = { DATABASE_URL: api.database.url!, CLOUDPLANE_SECRETS_KEY: api.database.secretsKeyBase64, CLOUDPLANE_RATE_LIMIT: "0" };
    const handler = workersHandler(env, { waitUntil: (promise) => closing.push(promise) });
    await failover("per-request", async (method, path, body) => {
      const reply = replyOf(await handler(buildRequest(method, path, body === undefined ? {} : { body })));
      const answered = await reply;
      api.recordReply({ method, path, status: answered.status, headers: Object.fromEntries(answered.headers), body: answered.text });
      return answered;
    });
    await Promise.all(closing);
  });

  it("serves the request a connection was starting for when the backend is terminated while it fetches the types", async () => {
    // A proxy that answers the driver's first array-types query as a terminated backend does (its
    // ErrorResponse, then the end of the connection), and passes everything else through.
    let terminatedStartups = 0;
    const proxy = net.createServer((client) => {
      const upstream = net.connect(Number(target.port || 5432), target.hostname);
      for (const socket of [client, upstream]) socket.on("error", () => socket.destroy());
      upstream.pipe(client);
      client.on("data", (chunk: Buffer) => {
        if (terminatedStartups === 0 && chunk.includes("typcategory")) {
          terminatedStartups++;
          upstream.destroy();
          client.end(terminatedBackend());
        } else upstream.write(chunk);
      });
      client.on("close", () => upstream.destroy());
    });
    const target = new URL(api.database.url!);
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    const url = new URL(api.database.url!);
    url.hostname = "127.0.0.1";
    url.port = String((proxy.address() as AddressInfo).port);
    const database = await createDatabase({ url: url.toString(), max: 1, migrate: false });
    try {
      const handler = api.createHandler({ db: database.db });
      const first = await api.call("GET", "/edge/v1/apps?limit=1", { handler });
      expect(terminatedStartups).toBe(1);
      // The next connection serves it: the old backend's error is not replayed onto it, and nothing escapes.
      expect(first.status, first.text).toBe(200);
      expect((await api.call("GET", "/edge/v1/apps?limit=1", { handler })).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(escaped).toEqual([]);
    } finally {
      await database.close();
      await new Promise((resolve) => proxy.close(resolve));
    }
  });
});

/** The ErrorResponse PostgreSQL sends a client whose backend `pg_terminate_backend` ends. */
function terminatedBackend(): Buffer {
  const fields = Buffer.concat(
    [
      ["S", "FATAL"],
      ["V", "FATAL"],
      ["C", "57P01"],
      ["M", "terminating connection due to administrator command"],
    ].map(([code, value]) => Buffer.from(`${code}${value}\0`)),
  );
  const message = Buffer.alloc(1 + 4 + fields.length + 1);
  message.write("E", 0);
  message.writeInt32BE(4 + fields.length + 1, 1);
  fields.copy(message, 5);
  return message;
}
