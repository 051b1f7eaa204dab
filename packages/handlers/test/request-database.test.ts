/**
 * One handler over a database per request (Workers): `requestDatabase` is the database of the request
 * being served, and statements prepared once are prepared once per request's database, so none runs on
 * another request's connection.
 */
import { sql } from "@cloudplane/db";
import { createTestDatabase, type TestDatabase } from "@cloudplane/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { preparedOnce } from "../src/prepared.js";
import { onRequestDatabase, requestDatabase } from "../src/request-database.js";

describe("a database per request behind one handler", () => {
  let first: TestDatabase;
  let second: TestDatabase;

  beforeAll(async () => {
    // Two databases told apart by what they hold: the second has no demo data.
    [first, second] = await Promise.all([createTestDatabase({ engine: "pglite" }), createTestDatabase({ engine: "pglite", seed: false })]);
  });
  afterAll(async () => {
    await Promise.all([first?.close(), second?.close()]);
  });

  const accounts = preparedOnce(() => requestDatabase.select({ n: sql<number>`count(*)::int` }).from(sql`accounts`).prepare("count_accounts"));

  it("runs each request's statements on that request's database, requests interleaved", async () => {
    const seeded = await first.db.select({ n: sql<number>`count(*)::int` }).from(sql`accounts`);
    expect(seeded[0]!.n).toBeGreaterThan(0);
    const counts = await Promise.all(
      [first, second, first, second].map((database) =>
        onRequestDatabase(database.db, async () => {
          await new Promise((resolve) => setTimeout(resolve, 5));
          const [row] = await accounts().execute();
          return row!.n;
        }),
      ),
    );
    expect(counts).toEqual([seeded[0]!.n, 0, seeded[0]!.n, 0]);
  });

  it("prepares a statement once per request's database, and once outside any request", () => {
    let builds = 0;
    const statements = preparedOnce(() => ({ build: ++builds }));
    const inFirst = onRequestDatabase(first.db, () => [statements(), statements()]);
    const inSecond = onRequestDatabase(second.db, () => statements());
    const outside = statements();
    expect(inFirst[0]).toBe(inFirst[1]);
    expect(onRequestDatabase(first.db, () => statements())).toBe(inFirst[0]);
    expect(statements()).toBe(outside);
    expect([inFirst[0], inSecond, outside]).toEqual([{ build: 1 }, { build: 2 }, { build: 3 }]);
    expect(builds).toBe(3);
  });

  it("refuses to be used outside a request", () => {
    expect(() => requestDatabase.select()).toThrow(/outside onRequestDatabase/);
  });
});
