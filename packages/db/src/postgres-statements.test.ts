/**
 * postgres.js prepares a statement once per connection for each query text and parameter types, and
 * keeps it; the patched driver (see `patches/README.md`) keeps them by text, then by types, instead of
 * under one key joined from both. These tests check what that cache must do, on one connection of a real
 * PostgreSQL server: a text run again is not prepared again, other parameter types get a statement of
 * their own, and a statement the server no longer has is prepared again and the query still answers.
 */
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const url = process.env.DATABASE_URL;

describe.runIf(url)("postgres.js's prepared statements (patched), on PostgreSQL", () => {
  let sql: postgres.Sql;
  const text = "select $1::text as v, $2::int as n";

  /** The statements the connection has prepared with `statement`'s text (the count itself is sent unnamed). */
  async function preparedWith(statement: string): Promise<number> {
    const [row] = await sql.unsafe<{ c: number }[]>("select count(*)::int as c from pg_prepared_statements where statement = $1", [statement], { prepare: false });
    return row!.c;
  }

  /** `query` run as a prepared statement, as Drizzle runs a prepared query (the driver's `unsafe` prepares none by default). */
  const run = <T extends object[] = Record<string, unknown>[]>(query: string, params: unknown[]) =>
    sql.unsafe<T>(query, params as postgres.ParameterOrJSON<never>[], { prepare: true });

  beforeAll(() => {
    sql = postgres(url!, { max: 1, onnotice: () => undefined });
  });
  afterAll(async () => {
    await sql.end();
  });

  it("prepares a text once, and once more for other parameter types", async () => {
    for (let i = 0; i < 3; i++) expect(await run(text, [`run ${i}`, i])).toEqual([{ v: `run ${i}`, n: i }]);
    expect(await preparedWith(text)).toBe(1);
    // A Date is sent as a timestamptz: another statement for the same text.
    const [dated] = await run<{ v: string; n: number }[]>(text, [new Date(0), 7]);
    expect(new Date(dated!.v).getTime()).toBe(0);
    expect(dated!.n).toBe(7);
    expect(await preparedWith(text)).toBe(2);
    // Both are found again, not prepared a third time.
    expect(await run(text, ["again", 8])).toEqual([{ v: "again", n: 8 }]);
    expect(await run<{ n: number }[]>(text, [new Date(1000), 9])).toMatchObject([{ n: 9 }]);
    expect(await preparedWith(text)).toBe(2);
  });

  it("prepares again a statement the server has dropped, and answers the query", async () => {
    expect(await run(text, ["before", 1])).toEqual([{ v: "before", n: 1 }]);
    await sql.unsafe("deallocate all", [], { prepare: false });
    expect(await preparedWith(text)).toBe(0);
    expect(await run(text, ["after", 2])).toEqual([{ v: "after", n: 2 }]);
    expect(await preparedWith(text)).toBe(1);
    expect(await run(text, ["kept", 3])).toEqual([{ v: "kept", n: 3 }]);
    expect(await preparedWith(text)).toBe(1);
  });

  it("prepares again a statement whose table changed its columns, and answers with the new ones", async () => {
    await sql.unsafe("create temporary table statement_cache_probe (a int)", [], { prepare: false });
    await sql.unsafe("insert into statement_cache_probe values (1)", [], { prepare: false });
    const select = "select * from statement_cache_probe where a = $1";
    expect(await run(select, [1])).toEqual([{ a: 1 }]);
    await sql.unsafe("alter table statement_cache_probe add column b text default 'x'", [], { prepare: false });
    // The server refuses the kept plan (its result type changed); the driver prepares the text again.
    expect(await run(select, [1])).toEqual([{ a: 1, b: "x" }]);
    // Under a new name (the driver leaves the old one on the server, as it always has), and found again after.
    expect(await preparedWith(select)).toBe(2);
    expect(await run(select, [1])).toEqual([{ a: 1, b: "x" }]);
    expect(await preparedWith(select)).toBe(2);
  });
});
