/**
 * postgres.js counts the rows of the result it is filling on a connection. It set that count back to
 * zero only when a statement completed, so a query that failed after some of its rows had come (an
 * error on a later row, a timeout, a backend terminated in a failover) left it standing, and the next
 * query on that connection answered a sparse array: holes first, then its rows (`result[0]` undefined,
 * `length` too large). A backend terminated mid-query also left its error behind, and the connection
 * that replaced it failed its first query with that error. The patched driver (see
 * `patches/README.md`) starts every result from zero and forgets a closed socket's query. These tests
 * check both on one connection of a real PostgreSQL server.
 */
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const url = process.env.DATABASE_URL;

describe.runIf(url)("postgres.js's rows after a query that failed mid-stream (patched), on PostgreSQL", () => {
  let sql: postgres.Sql;
  let admin: postgres.Sql;

  beforeAll(() => {
    sql = postgres(url!, { max: 1, onnotice: () => undefined });
    admin = postgres(url!, { max: 1, onnotice: () => undefined });
  });
  afterAll(async () => {
    await Promise.all([sql.end(), admin.end()]);
  });

  /** Every index of `rows` holds a row, and there are as many as the server counted. */
  function expectDense(rows: postgres.RowList<postgres.Row[]>, expected: unknown[]): void {
    expect(rows.length).toBe(expected.length);
    expect(Object.keys(rows).filter((key) => /^\d+$/.test(key))).toHaveLength(expected.length);
    expect(rows.count).toBe(expected.length);
    expect([...rows]).toEqual(expected);
  }

  it("answers the next query's rows from index 0 when the previous one failed on a later row", async () => {
    // Rows 1 to 3 are sent before row 4 divides by zero; the second query goes out behind it on the same connection.
    const failing = sql`select i, 1 / (4 - i) as q from generate_series(1, 10) as i`.then(
      () => "answered",
      (error: { code?: string }) => error.code,
    );
    const next = sql`select x from generate_series(1, 2) as x`;
    expect(await failing).toBe("22012");
    expectDense(await next, [{ x: 1 }, { x: 2 }]);
    // And a query sent after both.
    expectDense(await sql`select 'after' as v`, [{ v: "after" }]);
  });

  it("answers the first query on the new connection, from index 0, when the backend was terminated mid-stream", async () => {
    const [backend] = await sql<{ pid: number }[]>`select pg_backend_pid() as pid`;
    const pid = backend!.pid;
    // Two rows go out, then the third sleeps until the backend is terminated.
    const streaming = sql`select i, pg_sleep(case when i = 3 then 30 else 0 end) from generate_series(1, 3) as i`.then(
      () => "answered",
      (error: { code?: string }) => error.code,
    );
    // Waits until the backend is in the sleep, then terminates it, as a failover does.
    await waitFor(async () => (await admin`select 1 from pg_stat_activity where pid = ${pid} and wait_event = 'PgSleep'`).length === 1);
    await admin`select pg_terminate_backend(${pid})`;
    // The server's own error (57P01) comes first, and the query is failed as the socket closes.
    expect(await streaming).toBe("CONNECTION_CLOSED");
    const rows = await sql`select x, pg_backend_pid() <> ${pid} as reconnected from generate_series(1, 2) as x`;
    expectDense(rows, [
      { x: 1, reconnected: true },
      { x: 2, reconnected: true },
    ]);
  });
});

async function waitFor(condition: () => Promise<boolean>): Promise<void> {
  for (let tries = 0; tries < 200; tries++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error("the condition was never met");
}
