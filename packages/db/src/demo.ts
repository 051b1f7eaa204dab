/**
 * Loads the demo data (demo-fixture.ts) into a database through the schema's tables, idempotently: rows
 * whose key is already there are left alone. A table gets demo data from rows in the fixture, not code.
 */
import { and, eq, getTableColumns, getTableName, sql } from "drizzle-orm";
import { getTableConfig, type PgColumn, type PgTable } from "drizzle-orm/pg-core";
import { hashToken } from "./crypto.js";
import { generateDemoCdnTraffic } from "./demo-cdn-traffic.js";
import type { Database } from "./database.js";
import { DEMO_PLAINTEXTS, demoFixture, demoToken, type DemoColumnValue, type DemoFixture, type DemoTableName } from "./demo-fixture.js";
import * as schema from "./schema/index.js";

export interface LoadDemoDataOptions {
  /** The AES-GCM key that encrypts secret slot values and logs uploader secret keys. */
  secretsKey: CryptoKey;
  /** The data to load; the bundled demo fixture by default. */
  fixture?: DemoFixture;
}

export interface LoadDemoDataResult {
  /** Rows inserted per table (by its SQL name); 0 where every row was already there. */
  inserted: Record<string, number>;
}

/**
 * The fixture's tables, each after the tables its foreign keys point to, so every insert finds what it
 * refers to. A table's references to itself are left to the one statement that inserts its rows.
 */
export function demoTablesInOrder(fixture: DemoFixture): [DemoTableName, PgTable][] {
  const tables = new Map((Object.keys(fixture) as DemoTableName[]).map((name) => [schema[name] as PgTable, name]));
  const ordered: [DemoTableName, PgTable][] = [];
  const placed = new Set<PgTable>();
  const place = (table: PgTable, name: DemoTableName) => {
    if (placed.has(table)) return;
    placed.add(table);
    for (const foreignKey of getTableConfig(table).foreignKeys) {
      const referenced = foreignKey.reference().foreignTable;
      const referencedName = tables.get(referenced);
      if (referencedName !== undefined) place(referenced, referencedName);
    }
    ordered.push([name, table]);
  };
  for (const [table, name] of tables) place(table, name);
  return ordered;
}

/** A fixture value as the column takes it: JSON holds a time as its ISO string. */
function columnValue(column: PgColumn, value: unknown): unknown {
  return column.dataType === "date" && typeof value === "string" ? new Date(value) : value;
}

/** A fixture row as the table's insert takes it, with the columns its plaintexts stand in for derived. */
async function insertValues(name: DemoTableName, table: PgTable, row: object, secretsKey: CryptoKey): Promise<Record<string, unknown>> {
  const columns = getTableColumns(table);
  const plaintexts: Partial<Record<string, Record<string, DemoColumnValue>>> = DEMO_PLAINTEXTS[name as keyof typeof DEMO_PLAINTEXTS] ?? {};
  const values: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(row)) {
    const derived = plaintexts[field];
    if (derived) {
      for (const [column, derive] of Object.entries(derived)) values[column] = await derive(value as string, secretsKey);
      continue;
    }
    const column = columns[field];
    if (!column) throw new Error(`The demo fixture's ${name} row has ${field}, which is no column of ${getTableName(table)}.`);
    values[field] = columnValue(column, value);
  }
  return values;
}

/** The columns of a table's primary key: what decides that a fixture row is already there. */
function primaryKeyOf(table: PgTable): PgColumn[] {
  const [composite] = getTableConfig(table).primaryKeys;
  return composite ? composite.columns : Object.values(getTableColumns(table)).filter((column) => column.primary);
}

/**
 * Inserts the demo data in one transaction, skipping rows whose key exists, then moves every id
 * sequence past the largest id so rows created later get fresh ids.
 */
export async function loadDemoData(db: Database, options: LoadDemoDataOptions): Promise<LoadDemoDataResult> {
  const fixture = options.fixture ?? demoFixture;
  // Crypto first, so the transaction holds its locks only for the inserts.
  const prepared = await Promise.all(
    demoTablesInOrder(fixture).map(async ([name, table]) => ({
      table,
      rows: await Promise.all((fixture[name] as object[]).map((row) => insertValues(name, table, row, options.secretsKey))),
    })),
  );

  const inserted: Record<string, number> = {};
  await db.transaction(async (tx) => {
    for (const { table, rows } of prepared) {
      const name = getTableName(table);
      if (rows.length === 0) {
        inserted[name] = 0;
        continue;
      }
      const result = await tx.insert(table).values(rows).onConflictDoNothing({ target: primaryKeyOf(table) }).returning({ one: sql<number>`1` });
      inserted[name] = result.length;
    }
    // The CDN resources' traffic is arithmetic the database does, not rows of the fixture.
    await generateDemoCdnTraffic(tx, ((fixture.cdnResources ?? []) as Array<{ id: number }>).map((resource) => resource.id));
    await advanceIdSequences(tx);
  });

  return { inserted };
}

/**
 * Moves the sequence of every identity id past the table's largest id (never backwards), since rows
 * inserted with explicit ids do not advance it; without this the next created row would collide.
 */
async function advanceIdSequences(db: Pick<Database, "execute">): Promise<void> {
  await db.execute(
    sql.raw(`do $$
declare
  entry record;
  largest bigint;
  sequence_name text;
begin
  for entry in
    select table_name from information_schema.columns
    where table_schema = current_schema() and column_name = 'id' and is_identity = 'YES'
  loop
    execute format('select max(id) from %I', entry.table_name) into largest;
    sequence_name := pg_get_serial_sequence(format('%I', entry.table_name), 'id');
    if largest is not null and largest > coalesce(pg_sequence_last_value(sequence_name::regclass), 0) then
      perform setval(sequence_name, largest);
    end if;
  end loop;
end
$$`),
  );
}

/**
 * Whether the database holds the demo data, loaded by this process or an earlier one: the demo
 * administrator's token (account 1, role-1-active) is there and not deleted. A database whose accounts
 * were provisioned instead has no such token, and the demo keys answer 401 there.
 */
export async function holdsDemoData(db: Database): Promise<boolean> {
  const tokenHash = await hashToken(demoToken(1, "role-1-active").plaintext);
  const [found] = await db
    .select({ id: schema.apiTokens.id })
    .from(schema.apiTokens)
    .where(and(eq(schema.apiTokens.tokenHash, tokenHash), eq(schema.apiTokens.deleted, false)))
    .limit(1);
  return found !== undefined;
}
