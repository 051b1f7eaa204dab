/**
 * One handler over a database per request (Workers): `requestDatabase` is the database of the request
 * being served, and statements prepared once are built once and run on each request's own connection,
 * so none runs on another request's.
 */
import { sql } from "@cloudplane/db";
import { createTestDatabase, type TestDatabase } from "@cloudplane/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { preparedOnce, preparedPerShape } from "../src/prepared.js";
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

  it("builds a statement once, and runs it on each request's own connection", async () => {
    let builds = 0;
    const statement = preparedOnce(() => {
      builds++;
      return { accounts: requestDatabase.select({ n: sql<number>`count(*)::int` }).from(sql`accounts`).prepare("count_accounts_once") };
    });
    const inFirst = onRequestDatabase(first.db, () => [statement(), statement()] as const);
    const inSecond = onRequestDatabase(second.db, () => statement());
    expect(inFirst[0]).toBe(inFirst[1]);
    expect(inSecond).not.toBe(inFirst[0]);
    const [[firstCount], [secondCount]] = await Promise.all([
      onRequestDatabase(first.db, () => statement().accounts.execute()),
      onRequestDatabase(second.db, () => statement().accounts.execute()),
    ]);
    expect([firstCount!.n > 0, secondCount!.n]).toEqual([true, 0]);
    expect(builds).toBe(1);
  });

  it("builds each shape once, and runs it on each request's own connection", async () => {
    let builds = 0;
    const counts = preparedPerShape<{ n: number }[]>("count_accounts_shape");
    const count = () =>
      counts("all", () => {
        builds++;
        return requestDatabase.select({ n: sql<number>`count(*)::int` }).from(sql`accounts`);
      }).execute();
    const [[inSecond], [inFirst]] = await Promise.all([onRequestDatabase(second.db, count), onRequestDatabase(first.db, count)]);
    expect([inFirst!.n > 0, inSecond!.n]).toEqual([true, 0]);
    expect(builds).toBe(1);
  });

  it("fails loudly for what it cannot run on a request's connection", () => {
    const notStatements = preparedOnce(() => new Map<string, unknown>());
    expect(() => onRequestDatabase(first.db, () => notStatements())).toThrow(/Not a prepared statement/);
  });

  it("refuses to be used outside a request", () => {
    expect(() => requestDatabase.select()).toThrow(/outside onRequestDatabase/);
  });
});
