/**
 * A failover under load: PostgreSQL terminates every backend of the API's database (as a failover, a
 * restart or an idle-session kill does) while clients keep calling the real handler. Every answer is a
 * 200 or a 503 `unavailable` with Retry-After, the pool reconnects by itself, and nothing escapes as an
 * uncaught exception or an unhandled rejection (postgres.js 3.4.9 threw one from a write scheduled on a
 * socket that had closed: `patches/postgres@3.4.9.patch`). Needs PostgreSQL (DATABASE_URL); CI sets it.
 * The suite's database is its own (`useApi`), so the terminations reach no other test file.
 */
import { createDatabase, sql, type CloudplaneDatabase } from "@cloudplane/db";
import { selectRows } from "@cloudplane/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectEnvelope, useApi, type Reply } from "./harness.js";

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
  let admin: CloudplaneDatabase;

  beforeAll(async () => {
    process.on("uncaughtException", onEscape);
    process.on("unhandledRejection", onEscape);
    // A connection of its own, as an operator's session would be: it terminates every other backend.
    admin = await createDatabase({ url: api.database.url!, max: 1, migrate: false });
  });
  afterAll(async () => {
    await admin.close();
    // The last rejections run through the pipeline a few turns after the last answer.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expectOutageErrors(api.takeErrors());
    process.off("uncaughtException", onEscape);
    process.off("unhandledRejection", onEscape);
  });

  it("answers 200 or 503 with Retry-After while the pool reconnects, then 200s, and nothing escapes", async () => {
    const CLIENTS = 8;
    const TERMINATIONS = 5;
    let serial = 0;
    let running = true;
    const replies: Reply[] = [];
    // Reads and writes, as clients send them: small statements, each written to the socket on the next turn.
    const client = async (index: number) => {
      while (running) {
        const reply =
          index % 2 === 0
            ? await api.call("GET", "/edge/v1/apps?limit=1")
            : await api.call("POST", "/edge/v1/secrets", { body: { name: `failover-${index}-${serial++}`, secret_slots: [{ slot: 0, value: "v" }] } });
        replies.push(reply);
      }
    };
    const clients = Array.from({ length: CLIENTS }, (_, index) => client(index));
    const terminated: number[] = [];
    for (let round = 0; round < TERMINATIONS; round++) {
      await new Promise((resolve) => setTimeout(resolve, 150));
      const rows = await selectRows<{ done: boolean }>(
        admin.db,
        sql`select pg_terminate_backend(pid) as done from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`,
      );
      terminated.push(rows.filter((row) => row.done === true).length);
    }
    // Let the pool reconnect under the same load, then stop the clients.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    running = false;
    await Promise.all(clients);

    const statuses = replies.map((reply) => reply.status);
    const count = (status: number) => statuses.filter((s) => s === status).length;
    console.log(
      `failover: ${TERMINATIONS} terminations (${terminated.join(", ")} backends), ${replies.length} requests from ${CLIENTS} clients: ` +
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
    // Served again: every client's next requests succeed.
    const after = await Promise.all(Array.from({ length: CLIENTS }, () => api.call("GET", "/edge/v1/apps?limit=1")));
    expect(after.map((reply) => reply.status)).toEqual(Array.from({ length: CLIENTS }, () => 200));
  });
});
