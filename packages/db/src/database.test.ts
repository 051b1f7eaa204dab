/**
 * Tests of `createDatabase`: the engine chosen by the options, PGlite kept in a data directory across
 * restarts, durable by default (PostgreSQL's fsync on, and the syncs reaching the disk) or relaxed,
 * and a PostgreSQL URL that cannot be reached failing fast.
 */
import fs, { readlinkSync } from "node:fs";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { syncBuiltinESMExports } from "node:module";
import { tmpdir } from "node:os";
import { join, sep } from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { and, eq, getTableColumns, sql, type SQL } from "drizzle-orm";
import { integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { arrayLiteral, createDatabase, openDatabase, type CloudplaneDatabase, type Engine } from "./database.js";
import { importSecretsKey, generateSecretsKey } from "./crypto.js";
import { loadDemoData } from "./demo.js";
import { applyMigrations, cloudplaneMigrations } from "./migrate.js";
import { migrations } from "./migrations.generated.js";
import { accounts, edgeSecrets, users } from "./schema/index.js";
import { createPgliteForImage, createTestDatabase, dumpPgliteImage, pgliteImage, selectRows, startPgliteFromImage } from "./testing.js";

describe("createDatabase with PGlite", () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "cloudplane-db-"));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it("keeps the data in the data directory across restarts, and migrates it only once", async () => {
    const secretsKey = await importSecretsKey(generateSecretsKey());
    // A directory that does not exist yet, parents included.
    const dataDir = join(root, "nested", "data");
    const first = await createDatabase({ dataDir });
    expect(first.engine).toBe("pglite");
    await loadDemoData(first.db, { secretsKey });
    const [created] = await first.db.insert(edgeSecrets).values({ accountId: 1, name: "made-before-restart" }).returning();
    await first.close();
    // PGlite's files stay in their own folder, so the data directory can hold the secrets key too.
    expect((await readdir(dataDir)).sort()).toEqual(["pglite"]);

    const second = await createDatabase({ dataDir });
    try {
      const [kept] = await second.db.select().from(edgeSecrets).where(eq(edgeSecrets.id, created?.id ?? 0));
      expect(kept?.name).toBe("made-before-restart");
      expect(await second.db.select().from(accounts)).toHaveLength(2);
      expect(await applyMigrations(second.db)).toEqual([]);
      expect(await second.db.select().from(cloudplaneMigrations)).toHaveLength(migrations.length);
      const again = await loadDemoData(second.db, { secretsKey });
      expect(Object.values(again.inserted).reduce((sum, count) => sum + count, 0)).toBe(0);
    } finally {
      await second.close();
    }
  });

  it("runs in memory when no directory is given, as PGlite makes it: nothing is synced to a disk", async () => {
    const database = await createDatabase();
    try {
      expect(database.engine).toBe("pglite");
      expect(await database.db.select().from(accounts)).toEqual([]);
      expect(await setting(database, "fsync")).toBe("off");
      await database.db.execute(sql`create table memory_probe (id int primary key)`);
      expect(await syncedWhile(() => database.db.execute(sql`insert into memory_probe values (1)`))).toEqual([]);
    } finally {
      await database.close();
    }
  });
});

describe("openDatabase", () => {
  it("opens the database as createDatabase does, without applying or checking the migrations", async () => {
    const database = await openDatabase();
    try {
      expect(database.engine).toBe("pglite");
      expect(await rowsOf(database, sql`select table_name from information_schema.tables where table_schema = 'public'`)).toEqual([]);
      // The same database, migrated by createDatabase's path, holds the schema.
      expect(await applyMigrations(database.db)).toHaveLength(migrations.length);
    } finally {
      await database.close();
    }
  });
});

/** The rows of a statement on PGlite (whose results carry them as `rows`). */
async function rowsOf(database: CloudplaneDatabase, query: SQL): Promise<Record<string, unknown>[]> {
  const result: unknown = await database.db.execute(query);
  return (result as { rows: Record<string, unknown>[] }).rows;
}

async function setting(database: CloudplaneDatabase, name: string): Promise<unknown> {
  return (await rowsOf(database, sql.raw(`show ${name}`)))[0]?.[name];
}

/** Where a file descriptor points: its path on Linux (/proc), else its number. */
function describeDescriptor(fd: number): string {
  return process.platform === "linux" ? readlinkSync(`/proc/self/fd/${fd}`) : `descriptor ${fd}`;
}

/**
 * What `note` makes of each descriptor Node's `fs[name]` was called with while `work` ran, in order, noted
 * at the call: Node's own function, watched and called through (`syncBuiltinESMExports` hands the watched
 * one to `import("node:fs")` too).
 */
async function callsWhile<T>(name: "fsyncSync" | "fstatSync", note: (fd: number) => T, work: () => Promise<unknown>): Promise<T[]> {
  const notes: T[] = [];
  const original = fs[name];
  const watched = vi.spyOn(fs, name).mockImplementation(((fd: number) => {
    notes.push(note(fd));
    return original(fd);
  }));
  syncBuiltinESMExports();
  try {
    await work();
  } finally {
    watched.mockRestore();
    syncBuiltinESMExports();
  }
  return notes;
}

/** The files synced to the disk (Node's fsync) while `work` ran, in order. */
const syncedWhile = (work: () => Promise<unknown>) => callsWhile("fsyncSync", describeDescriptor, work);

/** How many times NODEFS asked Node for a file's status (an fstat) while `work` ran. */
const fstatsWhile = async (work: () => Promise<unknown>) => (await callsWhile("fstatSync", () => 1, work)).length;

describe("PGlite's file sizes on a data directory", () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "cloudplane-db-sizes-"));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it.each(["relaxed", "durable"] as const)("reads a file's size from the disk once between changes, and sees every change (%s)", async (durability) => {
    const database = await createDatabase({ dataDir: join(root, durability), durability, migrate: false });
    const one = async (query: SQL) => (await selectRows<{ value: number }>(database.db, query))[0]!.value;
    // A sequential scan reads as many blocks as the relation's size says: a size kept past a change would
    // hide the blocks added since, or reach for blocks a truncate took away.
    const rows = () => one(sql`select count(pad)::int as value from sized`);
    const bytes = () => one(sql`select pg_relation_size('sized')::int as value`);
    try {
      await database.db.execute(sql`create table sized (id int primary key, pad text)`);
      let size = 0;
      for (let round = 1; round <= 4; round++) {
        await database.db.execute(sql`insert into sized select n, repeat('x', 200) from generate_series(${(round - 1) * 2000 + 1}::int, ${round * 2000}::int) n`);
        expect(await rows()).toBe(round * 2000);
        const grown = await bytes();
        expect(grown).toBeGreaterThan(size);
        size = grown;
      }
      await rows();
      // Reads between changes: each size is read once, then known.
      expect(await fstatsWhile(async () => {
        for (let read = 0; read < 20; read++) expect(await rows()).toBe(8000);
      })).toBe(0);
      await database.db.execute(sql`delete from sized where id > 100`);
      await database.db.execute(sql`vacuum sized`);
      expect(await rows()).toBe(100);
      expect(await bytes()).toBeLessThan(size);
      await database.db.execute(sql`truncate sized`);
      expect(await rows()).toBe(0);
      await database.db.execute(sql`insert into sized select n, 'y' from generate_series(1, 10) n`);
      expect(await rows()).toBe(10);
    } finally {
      await database.close();
    }
    // Opened again, the sizes are read anew from the files.
    const again = await createDatabase({ dataDir: join(root, durability), durability, migrate: false });
    try {
      expect((await selectRows<{ value: number }>(again.db, sql`select count(pad)::int as value from sized`))[0]!.value).toBe(10);
    } finally {
      await again.close();
    }
  });
});

describe("PGlite's durability on a data directory", () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "cloudplane-db-durability-"));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it("is durable by default: fsync on, the directory's files synced on opening, and each commit's WAL synced before it is answered", async () => {
    const dataDir = join(root, "durable");
    let database: CloudplaneDatabase | undefined;
    const syncedWhileMade = await syncedWhile(async () => {
      database = await createDatabase({ dataDir, migrate: false });
    });
    try {
      expect(await setting(database!, "fsync")).toBe("on");
      expect(await setting(database!, "synchronous_commit")).toBe("on");
      expect(await setting(database!, "wal_sync_method")).toBe("fsync");
      expect(await setting(database!, "full_page_writes")).toBe("on");
      expect(syncedWhileMade.length).toBeGreaterThan(0);
      if (process.platform === "linux") {
        // template1, which nothing here writes to: its files reach the disk only through the sync of the new directory.
        const template = join(dataDir, "pglite", "base", "1");
        for (const file of await readdir(template)) expect(syncedWhileMade).toContain(join(template, file));
        expect(syncedWhileMade).toContain(join(dataDir, "pglite", "PG_VERSION"));
      }

      await database!.db.execute(sql`create table durable_probe (id int primary key)`);
      const syncedByCommit = await syncedWhile(() => database!.db.execute(sql`insert into durable_probe values (1)`));
      expect(syncedByCommit.length).toBeGreaterThan(0);
      if (process.platform === "linux") expect(syncedByCommit.every((path) => path.includes(`${sep}pglite${sep}pg_wal${sep}`))).toBe(true);
      // A read commits nothing: it waits for no disk.
      expect(await syncedWhile(() => database!.db.execute(sql`select * from durable_probe`))).toEqual([]);
    } finally {
      await database?.close();
    }
  });

  it("is relaxed on request: PGlite's own settings (fsync off), nothing synced; opened durable again, its files are synced first", async () => {
    const dataDir = join(root, "relaxed");
    let database: CloudplaneDatabase | undefined;
    const syncedWhileMade = await syncedWhile(async () => {
      database = await createDatabase({ dataDir, durability: "relaxed", migrate: false });
    });
    try {
      expect(syncedWhileMade).toEqual([]);
      expect(await setting(database!, "fsync")).toBe("off");
      await database!.db.execute(sql`create table relaxed_probe (id int primary key)`);
      expect(await syncedWhile(() => database!.db.execute(sql`insert into relaxed_probe values (1)`))).toEqual([]);
    } finally {
      await database?.close();
    }
    // The same directory opened durable: the setting is the process's, not the directory's, and what the
    // relaxed run wrote is synced to the disk on opening.
    let again: CloudplaneDatabase | undefined;
    const syncedWhileOpened = await syncedWhile(async () => {
      again = await createDatabase({ dataDir, migrate: false });
    });
    try {
      expect(await setting(again!, "fsync")).toBe("on");
      const [table] = await rowsOf(again!, sql`select pg_relation_filepath('relaxed_probe') as path`);
      if (process.platform === "linux") expect(syncedWhileOpened).toContain(join(dataDir, "pglite", String(table?.path)));
      else expect(syncedWhileOpened.length).toBeGreaterThan(0);
      expect(await rowsOf(again!, sql`select id from relaxed_probe`)).toEqual([{ id: 1 }]);
    } finally {
      await again?.close();
    }
  });

  it("refuses a durability it does not know, before opening anything", async () => {
    const dataDir = join(root, "unknown");
    await expect(createDatabase({ dataDir, durability: "fast" as never })).rejects.toThrow(
      new TypeError('durability must be "durable" or "relaxed", not "fast".'),
    );
    await expect(readdir(dataDir)).rejects.toMatchObject({ code: "ENOENT" });
  });
});

describe("createDatabase with a PostgreSQL URL", () => {
  it("fails within the connect timeout when the server cannot be reached, without the password in the error", async () => {
    const started = Date.now();
    const error: unknown = await createDatabase({ url: "postgres://cloudplane:hunter2-password@127.0.0.1:1/none", connectTimeout: 2 }).then(
      async (database) => {
        await database.close();
        return undefined;
      },
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(Error);
    expect(JSON.stringify(error, Object.getOwnPropertyNames(error))).not.toContain("hunter2-password");
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

/**
 * drizzle-orm (patched, patches/): a database builds its relational query builders when `query` is first
 * read, so a transaction, which Drizzle makes as a database of its own, builds none unless it uses them.
 */
const relationalEngines: Engine[] = process.env.DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];
describe.each(relationalEngines)("relational queries on %s", (engine) => {
  it("are built when first read, on the database and in a transaction, and work as before", async () => {
    const database = await createTestDatabase({ engine });
    try {
      const { db } = database;
      expect(Object.getOwnPropertyDescriptor(db, "query")?.value).toBeUndefined();
      const account = await db.query.accounts.findFirst({ where: eq(accounts.id, 1), columns: { id: true } });
      expect(Object.keys(Object.getOwnPropertyDescriptor(db, "query")?.value as object)).toContain("accounts");
      const inside = await db.transaction(async (tx) => {
        // Made for the transaction: nothing built until read.
        expect(Object.getOwnPropertyDescriptor(tx, "query")).toBeUndefined();
        return tx.query.accounts.findFirst({ where: eq(accounts.id, 1), columns: { id: true } });
      });
      expect(account).toEqual({ id: 1 });
      expect(inside).toEqual({ id: 1 });
      // Assignable as before (a plain data property once set).
      const replaced = {} as typeof db.query;
      db.query = replaced;
      expect(db.query).toBe(replaced);
    } finally {
      await database.close();
    }
  });
});

/**
 * drizzle-orm (patched, patches/): a statement's rows are mapped with a plan made once for its list of
 * fields (each column's decoder, path and table); a prepared statement maps every execution with it.
 */
describe.each(relationalEngines)("rows of a prepared statement on %s", (engine) => {
  it("are mapped the same on every execution: nested fields, decoders, and a left join's missing row as null", async () => {
    const database = await createTestDatabase({ engine });
    try {
      const { db } = database;
      const [user] = await db.select({ id: users.id, name: users.name }).from(users).where(eq(users.accountId, 1)).limit(1);
      expect(user).toBeDefined();
      const statement = db
        .select({
          account: { id: accounts.id, doubled: sql<number>`${accounts.id} * 2`.mapWith(Number) },
          user: users,
          label: sql<string>`'n' || ${accounts.id}`,
        })
        .from(accounts)
        .leftJoin(users, and(eq(users.accountId, accounts.id), eq(users.id, sql.placeholder("userId"))))
        .where(eq(accounts.id, 1))
        .prepare("mapped_rows_test");
      for (let round = 0; round < 2; round++) {
        const [found] = await statement.execute({ userId: user!.id });
        expect(found).toMatchObject({ account: { id: 1, doubled: 2 }, user: { id: user!.id, name: user!.name, accountId: 1 }, label: "n1" });
        expect(found!.user!.created).toBeInstanceOf(Date);
        const [missing] = await statement.execute({ userId: -1 });
        expect(missing).toEqual({ account: { id: 1, doubled: 2 }, user: null, label: "n1" });
        // Keys in the order the select names them, a table's in its columns' order.
        expect(Object.keys(found!)).toEqual(["account", "user", "label"]);
        expect(Object.keys(found!.user!)).toEqual(Object.keys(getTableColumns(users)));
      }
      // An object of two tables' columns is never a missing row, even when the first is null; one of
      // expressions alone neither; a table alone under a left join is.
      const mixed = db
        .select({
          both: { userId: users.id, accountName: accounts.name },
          computed: { label: sql<string>`'c'`, none: sql<null>`null` },
          user: users,
        })
        .from(accounts)
        .leftJoin(users, and(eq(users.accountId, accounts.id), eq(users.id, sql.placeholder("userId"))))
        .where(eq(accounts.id, 1))
        .prepare("mapped_mixed_test");
      const [account] = await db.select({ name: accounts.name }).from(accounts).where(eq(accounts.id, 1));
      for (let round = 0; round < 2; round++) {
        const [row] = await mixed.execute({ userId: -1 });
        expect(row).toEqual({ both: { userId: null, accountName: account!.name }, computed: { label: "c", none: null }, user: null });
        expect(Object.keys(row!)).toEqual(["both", "computed", "user"]);
        expect(Object.keys(row!.both)).toEqual(["userId", "accountName"]);
      }
    } finally {
      await database.close();
    }
  });

  // Where the runtime compiles functions (Node), a flat select's rows are made by a function built for its
  // fields; the rows must be the ones the loop makes: keys in the select's order, decoders, nulls.
  it("are mapped the same for a flat select: the select's keys in order, decoders, nulls, any key's spelling", async () => {
    const database = await createTestDatabase({ engine });
    try {
      const { db } = database;
      const [user] = await db.select().from(users).where(eq(users.accountId, 1)).limit(1);
      expect(user).toBeDefined();
      const statement = db
        .select({
          name: users.name,
          phone: sql<string | null>`null`,
          created: users.created,
          doubled: sql<number>`(${users.id} * 2)::numeric`.mapWith(Number),
          'a "quoted" key\n': sql<string>`'q'`,
          "7": users.id,
          authTypes: users.authTypes,
        })
        .from(users)
        .where(eq(users.id, sql.placeholder("id")))
        .prepare("mapped_flat_test");
      for (let round = 0; round < 2; round++) {
        const [row] = await statement.execute({ id: user!.id });
        expect(row).toEqual({
          name: user!.name,
          phone: null,
          created: user!.created,
          doubled: user!.id * 2,
          'a "quoted" key\n': "q",
          "7": user!.id,
          authTypes: user!.authTypes,
        });
        expect(row!.created).toBeInstanceOf(Date);
        expect(typeof row!.doubled).toBe("number");
        // As an object's keys always are: an integer key first, then the others in the select's order.
        expect(Object.keys(row!)).toEqual(["7", "name", "phone", "created", "doubled", 'a "quoted" key\n', "authTypes"]);
        expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
        expect(await statement.execute({ id: -1 })).toEqual([]);
      }
      // Many rows: every one, in the statement's order, in a plain array.
      const ids = db.select({ id: users.id }).from(users).orderBy(users.id).prepare("mapped_many_test");
      const all = await selectRows<{ id: number }>(db, sql`select id from users order by id`);
      expect(all.length).toBeGreaterThan(1);
      for (let round = 0; round < 2; round++) {
        const rows = await ids.execute();
        expect(rows).toEqual(all.map(({ id }) => ({ id })));
        expect(Object.getPrototypeOf(rows)).toBe(Array.prototype);
      }
      // A whole table's row, as `select()` and `returning()` give it: every column, in the table's order.
      const [whole] = await db.select().from(users).where(eq(users.id, user!.id));
      expect(whole).toEqual(user);
      expect(Object.keys(whole!)).toEqual(Object.keys(getTableColumns(users)));
      const [changed] = await db.update(users).set({ phone: null }).where(eq(users.id, user!.id)).returning();
      expect(changed).toEqual({ ...user, phone: null });
      expect(Object.keys(changed!)).toEqual(Object.keys(getTableColumns(users)));
    } finally {
      await database.close();
    }
  });
});

/**
 * drizzle-orm (patched, patches/): a prepared statement's parameters are filled without asking a column's
 * parameter twice which kind of entity it is; every kind fills as before.
 */
describe.each(relationalEngines)("parameters of a prepared statement on %s", (engine) => {
  it("are filled the same on every execution: placeholders a column encodes, bare placeholders, constants, and a missing value named", async () => {
    const database = await createTestDatabase({ engine });
    try {
      const { db } = database;
      const probe = pgTable("parameters_probe", { id: integer("id").notNull(), kind: text("kind").notNull(), at: timestamp("at", { withTimezone: true }), data: jsonb("data") });
      await db.execute(sql`create table parameters_probe (id integer not null, kind text not null, at timestamptz, data jsonb)`);
      // Placeholders the columns encode (a Date as text, a value as JSON) and a constant.
      const insert = db
        .insert(probe)
        .values({ id: sql.placeholder("id"), kind: "constant", at: sql.placeholder("at"), data: sql.placeholder("data") })
        .prepare("filled_insert_test");
      // A bare placeholder in SQL of our own, and one the condition takes as it is.
      const select = db
        .select({ id: probe.id, kind: probe.kind, at: probe.at, data: probe.data, label: sql<string>`${sql.placeholder("label")}::text` })
        .from(probe)
        .where(eq(probe.id, sql.placeholder("id")))
        .prepare("filled_select_test");
      for (let id = 1; id <= 2; id++) {
        const at = new Date(Date.UTC(2026, 0, id, 12, 30));
        await insert.execute({ id, at, data: { id, list: [id, "two"], nested: { quote: "'\"" } } });
        expect(await select.execute({ id, label: `row ${id}` })).toEqual([{ id, kind: "constant", at, data: { id, list: [id, "two"], nested: { quote: "'\"" } }, label: `row ${id}` }]);
        await expect(insert.execute({ id, at })).rejects.toThrow('No value for placeholder "data" was provided');
      }
      expect(await select.execute({ id: 3, label: "none" })).toEqual([]);
    } finally {
      await database.close();
    }
  });
});

/**
 * Wraps the driver's query method of `client` (PGlite's `query`, postgres.js's `unsafe`) to mark each answer
 * as it is handed to its caller, and returns a function that resolves to the number of microtask
 * turns from that moment until `work` settles.
 */
function turnsAfterAnswer(engine: Engine, client: object): (work: () => Promise<unknown>) => Promise<number> {
  let onAnswer = () => {};
  const method = engine === "postgres" ? "unsafe" : "query";
  const holder = client as Record<string, (...args: unknown[]) => PromiseLike<unknown>>;
  const original = holder[method]!.bind(client);
  holder[method] = (...args: unknown[]) => {
    const query = original(...args);
    // PGlite answers with a promise: the answer is marked as it settles.
    if (engine === "pglite")
      return Promise.resolve(query).then((value) => {
        onAnswer();
        return value;
      });
    // postgres.js's query runs when its `then` is first called; the answer is marked as it is handed on.
    const then = query.then.bind(query) as (resolve?: (value: unknown) => unknown, reject?: (error: unknown) => unknown) => PromiseLike<unknown>;
    Object.defineProperty(query, "then", {
      value: (resolve?: (value: unknown) => unknown, reject?: (error: unknown) => unknown) =>
        then((value) => {
          onAnswer();
          return resolve ? resolve(value) : value;
        }, reject),
    });
    return query;
  };
  return async (work) => {
    let turns = 0;
    let settled = false;
    onAnswer = () => {
      const tick = () => {
        if (settled) return;
        turns++;
        queueMicrotask(tick);
      };
      queueMicrotask(tick);
    };
    await work().finally(() => (settled = true));
    onAnswer = () => {};
    return turns;
  };
}

/**
 * drizzle-orm (patched, patches/): without a cache, a prepared statement's `execute` hands on its driver's
 * answer in as few turns of the microtask queue as its work takes (no `async` layers around the driver's
 * promise), its rows mapped as before; a failure is still a rejection, never a throw, with the query named.
 */
describe.each(relationalEngines)("execute of a prepared statement on %s", (engine) => {
  it("settles within a few turns of its driver's answer, with rows as before; a failure rejects", async () => {
    const database = await createTestDatabase({ engine });
    try {
      const { db } = database;
      // The driver Drizzle was given (the Database type leaves out the driver it runs on).
      const count = turnsAfterAnswer(engine, (db as unknown as { $client: object }).$client);
      const rows = db
        .select({ id: accounts.id, doubled: sql<number>`${accounts.id} * 2`.mapWith(Number), none: sql<string | null>`null::text` })
        .from(accounts)
        .where(eq(accounts.id, sql.placeholder("id")))
        .prepare("settling_rows_test");
      for (let round = 0; round < 3; round++) {
        let found: unknown;
        // Counted to the test's own await of the call: 5 on both engines with Drizzle's own `execute`.
        expect(await count(async () => (found = await rows.execute({ id: 1 })))).toBeLessThanOrEqual(engine === "postgres" ? 3 : 4);
        expect(found).toEqual([{ id: 1, doubled: 2, none: null }]);
        expect(Object.keys((found as object[])[0]!)).toEqual(["id", "doubled", "none"]);
      }
      // A missing value is a rejection of the call, as a failed query is.
      const call = rows.execute({});
      expect(call).toBeInstanceOf(Promise);
      await expect(call).rejects.toThrow('No value for placeholder "id" was provided');
      const failing = db.select({ id: accounts.id }).from(accounts).where(sql`${accounts.id} = 1 / ${sql.placeholder("zero")}::integer`).prepare("failing_rows_test");
      await expect(failing.execute({ zero: 0 })).rejects.toThrow(/Failed query: .*\nparams: 0/);
      await expect(failing.execute({ zero: 0 })).rejects.toMatchObject({ cause: expect.objectContaining({ message: "division by zero" }) });
    } finally {
      await database.close();
    }
  });
});

/** arrayLiteral: a list as one text parameter, which PostgreSQL reads back as the same list on either engine. */
describe.each(relationalEngines)("arrayLiteral on %s", (engine) => {
  it("sends text and numbers that PostgreSQL reads back as they were: quotes, backslashes, commas, braces, spaces, NULL as text, none", async () => {
    const database = await createTestDatabase({ engine, seed: false });
    try {
      const texts = ["instance", 'a"b', "c\\d", '\\"', "x,y", "{z}", " padded ", "NULL", "", "ünï ✓", "end\\"];
      // Read back as JSON, which both drivers parse alike.
      const [read] = await selectRows(
        database.db,
        sql`select to_json(${arrayLiteral(texts)}::text[]) as texts, to_json(${arrayLiteral([3, -1, 0])}::int[]) as numbers, to_json(${arrayLiteral([])}::text[]) as none`,
      );
      expect(read).toEqual({ texts, numbers: [3, -1, 0], none: [] });
      expect(arrayLiteral(['a"b', 7])).toBe('{"a\\"b",7}');
    } finally {
      await database.close();
    }
  });
});

describe("PGlite with our patch (patches/)", () => {
  // One PGlite for both tests: making one (initdb) is most of their time.
  let client: PGlite;
  const echo = "select t as echoed, octet_length(t) as bytes, length(t) as characters from (select $1::text as t) given";
  beforeAll(async () => {
    client = await createPgliteForImage();
    // The first run of a statement opens the catalog's files, whose names the file system hashes character by character.
    await client.query(echo, ["warm"]);
  });
  afterAll(async () => {
    await client.close();
  });

  it("sends text parameters whole in every UTF-8 width, without first counting a long one's bytes character by character", async () => {
    // One to four bytes a character, and a text of a megabyte (a body as large as the API takes).
    const texts = ["", "plain", "ünï", "✓ 世界", "𝄞 🚀", "mixed é ✓ 🚀 end", `{"value":[${'"\\u0000",'.repeat(116_000)}"x"]}`];
    for (const text of texts) {
      const charCodeAt = vi.spyOn(String.prototype, "charCodeAt");
      let read: Record<string, unknown> | undefined;
      let counted: number;
      try {
        ({
          rows: [read],
        } = await client.query<Record<string, unknown>>(echo, [text]));
      } finally {
        // Read before the spy is restored: restoring it clears its calls.
        counted = charCodeAt.mock.calls.length;
        charCodeAt.mockRestore();
      }
      expect(read).toEqual({ echoed: text, bytes: Buffer.byteLength(text), characters: [...text].length });
      // PGlite's serializer counted the UTF-8 bytes of the statement's text once and of each parameter
      // twice, in a loop over their characters; now the encoder's own count is taken.
      expect(counted).toBe(0);
    }
  });

  it("reads a row's texts straight from the message, without copying each out of it first", async () => {
    const rows = "select i, repeat('é', i % 7) as accents, 'row ' || i as label from generate_series(1, 200) i";
    const slice = vi.spyOn(ArrayBuffer.prototype, "slice");
    let read: { rows: unknown[] };
    let copies: number;
    try {
      read = await client.query(rows, [], { rowMode: "array" });
    } finally {
      copies = slice.mock.calls.length;
      slice.mockRestore();
    }
    expect(read.rows).toHaveLength(200);
    expect(read.rows.slice(0, 2)).toEqual([
      [1, "é", "row 1"],
      [2, "éé", "row 2"],
    ]);
    expect(read.rows[199]).toEqual([200, "é".repeat(200 % 7), "row 200"]);
    // PGlite's reader copied every field (600 here) into an ArrayBuffer of its own to decode it; now only
    // the answer's chunks are copied, as they arrive.
    expect(copies).toBeLessThan(20);
  });

  it("keeps statements prepared by their text: answered as before, bounded, and prepared again when PostgreSQL forgot or changed them", async () => {
    // Read with exec (the simple protocol, which prepares nothing): the statements `query` keeps prepared.
    const ours = async () => ((await client.exec("select statement from pg_prepared_statements where not from_sql"))[0]!.rows as { statement: string }[]).map((row) => row.statement).sort();
    // From a clean slate: this PGlite has prepared its own first statements and the test's above.
    await client.exec("deallocate all; create table prepared_notes (id int primary key, note text, tags text[], doc jsonb, at timestamptz)");
    const insert = "insert into prepared_notes (id, note, tags, doc, at) values ($1, $2, $3, $4, $5)";
    const byId = "select id, note, tags, doc, at from prepared_notes where id = $1";
    const at = new Date("2026-05-04T03:02:01.000Z");
    // Parameters serialized by the types PostgreSQL found the first time: an array, an object as JSON, a
    // date (read back as PostgreSQL's text: this PGlite keeps Drizzle's parsers).
    const atText = "2026-05-04 03:02:01+00";
    for (const id of [1, 2]) expect(await client.query(insert, [id, `note ${id}`, ["a", "b,c"], { id, nested: [true] }, at])).toMatchObject({ affectedRows: 1, rows: [] });
    expect((await client.query(byId, [2])).rows).toEqual([{ id: 2, note: "note 2", tags: ["a", "b,c"], doc: { id: 2, nested: [true] }, at: atText }]);
    const none = await client.query(byId, [3]);
    expect(none.rows).toEqual([]);
    expect(none.fields.map((field) => field.name)).toEqual(["id", "note", "tags", "doc", "at"]);
    expect((await client.query(byId, [1], { rowMode: "array" })).rows).toEqual([[1, "note 1", ["a", "b,c"], { id: 1, nested: [true] }, atText]]);
    // Each text prepared once, however often it ran.
    expect(await ours()).toEqual([insert, byId].sort());

    // An error in a statement's text prepares nothing; one in its execution leaves it prepared and usable.
    await expect(client.query("select from where $1", [1])).rejects.toMatchObject({ code: "42601" });
    const divide = "select 10 / $1::int as quotient";
    await expect(client.query(divide, [0])).rejects.toMatchObject({ code: "22012" });
    expect((await client.query(divide, [5])).rows).toEqual([{ quotient: 2 }]);
    expect(await ours()).toEqual([insert, byId, divide].sort());

    // The columns changed under a prepared statement (PostgreSQL refuses to run it): prepared again, outside a transaction.
    const all = "select * from prepared_notes where id = $1";
    expect(Object.keys((await client.query<object>(all, [1])).rows[0]!)).toEqual(["id", "note", "tags", "doc", "at"]);
    await client.exec("alter table prepared_notes add column extra int default 7");
    expect((await client.query(all, [1])).rows).toMatchObject([{ id: 1, extra: 7 }]);
    // In a transaction it cannot be run again (the transaction is aborted): the error is the caller's, and the next run prepares it anew.
    await client.exec("alter table prepared_notes drop column extra");
    await expect(client.transaction((tx) => tx.query(all, [1]))).rejects.toMatchObject({ code: "0A000" });
    expect(Object.keys((await client.query<object>(all, [1])).rows[0]!)).toEqual(["id", "note", "tags", "doc", "at"]);
    // Statements PostgreSQL was told to forget: prepared again.
    await client.exec("deallocate all");
    expect((await client.query(byId, [2])).rows).toMatchObject([{ id: 2, note: "note 2" }]);
    expect(await ours()).toEqual([byId]);

    // At most statementCacheSize stay prepared, the ones used longest ago closed first; 0 prepares none.
    const size = client.statementCacheSize;
    try {
      client.statementCacheSize = 3;
      const texts = [1, 2, 3, 4, 5].map((n) => `select $1::int + ${n} as sum`);
      for (const text of texts) expect((await client.query(text, [1])).rows).toEqual([{ sum: 1 + Number(text.at(-8)) }]);
      expect(await ours()).toEqual(texts.slice(2));
      client.statementCacheSize = 0;
      expect((await client.query("select $1::int * 2 as twice", [4])).rows).toEqual([{ twice: 8 }]);
      expect(await ours()).toEqual(texts.slice(2));
    } finally {
      client.statementCacheSize = size;
    }
    await client.exec("drop table prepared_notes; deallocate all");
  });

  it("starts databases from an image that each copy its files out of it once, and change their own copies only", async () => {
    await client.exec("create table kept (id int primary key, note text); insert into kept select i, repeat('x', 500) from generate_series(1, 2000) i");
    const image = pgliteImage(new Uint8Array(await (await dumpPgliteImage(client)).arrayBuffer()));
    // The bytes typed arrays copy with slice() while a database starts: PGlite's untar copies each file
    // out of the tar, and its in-memory file system kept a second copy of each.
    const typedArray = Object.getPrototypeOf(Uint8Array.prototype) as { slice(start?: number, end?: number): Uint8Array };
    const slice = vi.spyOn(typedArray, "slice");
    let first: PGlite;
    let copied: number;
    try {
      first = await startPgliteFromImage(image);
    } finally {
      copied = slice.mock.results.reduce((bytes, result) => bytes + (result.type === "return" ? result.value.byteLength : 0), 0);
      slice.mockRestore();
    }
    const second = await startPgliteFromImage(image);
    try {
      // The files are a little less than the tar (its headers and padding); copied twice they were near twice it.
      expect(copied).toBeGreaterThan(image.size / 2);
      expect(copied).toBeLessThanOrEqual(image.size);
      const read = async (database: PGlite) =>
        (await database.query<{ rows: number; changed: number }>("select count(*)::int as rows, count(*) filter (where note = 'changed')::int as changed from kept")).rows[0];
      await first.exec("update kept set note = 'changed' where id <= 1000; delete from kept where id > 1500; checkpoint");
      expect(await read(first)).toEqual({ rows: 1500, changed: 1000 });
      // Started from the same image before the first changed its files, and running beside it: its own copy.
      expect(await read(second)).toEqual({ rows: 2000, changed: 0 });
      // Started after the first changed and checkpointed its files: the image is as it was.
      const third = await startPgliteFromImage(image);
      try {
        expect(await read(third)).toEqual({ rows: 2000, changed: 0 });
      } finally {
        await third.close();
      }
    } finally {
      await first.close();
      await second.close();
    }
  });
});
