/**
 * The databases the benchmark runs on, made fresh for each run and loaded with the demo data: PGlite
 * in a temporary data directory, and a database of its own on the DATABASE_URL PostgreSQL server.
 */
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createDatabase, generateSecretsKey, importSecretsKey, loadDemoData, type Database, type Engine, type PgliteDurability } from "@cloudplane/db";
import { createTestDatabase } from "@cloudplane/db/testing";

/**
 * Where a database is, as the server processes are told (JSON in their environment). A PGlite data
 * directory is opened with `durability`: relaxed (PGlite's own settings) unless a part asks for durable,
 * because the baseline opens PGlite with its own settings, and because the part that measures
 * durability (part 7) sets the two against each other.
 */
export type DatabaseLocation =
  | { engine: "pglite"; dataDir: string; durability: PgliteDurability; secretsKeyBase64: string }
  | { engine: "postgres"; url: string; secretsKeyBase64: string };

export interface BenchDatabase {
  location: DatabaseLocation;
  /** Deletes the data directory or drops the database. */
  close(): Promise<void>;
}

/** The PostgreSQL server of DATABASE_URL, or undefined when none is set. */
export function postgresServerUrl(): string | undefined {
  return process.env.DATABASE_URL || undefined;
}

/** The engines this run measures: PGlite always, PostgreSQL when DATABASE_URL is set. */
export function benchEngines(): Engine[] {
  const chosen = process.env.BENCH_ENGINES?.split(",");
  const engines: Engine[] = postgresServerUrl() ? ["pglite", "postgres"] : ["pglite"];
  return chosen ? engines.filter((engine) => chosen.includes(engine)) : engines;
}

async function pgliteDatabase(): Promise<BenchDatabase> {
  const dataDir = await mkdtemp(join(tmpdir(), "cloudplane-bench-"));
  const secretsKeyBase64 = generateSecretsKey();
  const durability = "relaxed";
  const database = await createDatabase({ dataDir, durability });
  try {
    await loadDemoData(database.db, { secretsKey: await importSecretsKey(secretsKeyBase64) });
  } finally {
    await database.close();
  }
  return {
    location: { engine: "pglite", dataDir, durability, secretsKeyBase64 },
    close: () => rm(dataDir, { recursive: true, force: true }),
  };
}

async function postgresDatabase(): Promise<BenchDatabase> {
  const database = await createTestDatabase({ engine: "postgres" });
  return {
    location: { engine: "postgres", url: database.url!, secretsKeyBase64: database.secretsKeyBase64 },
    close: () => database.close(),
  };
}

/** A new database on `engine`, migrated and loaded with the demo data. */
export function benchDatabase(engine: Engine): Promise<BenchDatabase> {
  return engine === "postgres" ? postgresDatabase() : pgliteDatabase();
}

/** Opens the database for the orchestrator's own work (bulk loads, EXPLAIN); only while no server has it open on PGlite. */
export async function withDatabase<T>(location: DatabaseLocation, work: (db: Database) => Promise<T>): Promise<T> {
  const database =
    location.engine === "postgres"
      ? await createDatabase({ url: location.url, max: 1 })
      : await createDatabase({ dataDir: location.dataDir, durability: location.durability });
  try {
    return await work(database.db);
  } finally {
    await database.close();
  }
}

/**
 * A database for one more server process at once: PGlite is one process's alone, so it gets a copy of
 * the data directory (same files, so the same data); PostgreSQL is shared as it is.
 */
export async function databaseForServer(database: BenchDatabase): Promise<BenchDatabase> {
  const { location } = database;
  if (location.engine === "postgres") return { location, close: async () => {} };
  const dataDir = await mkdtemp(join(tmpdir(), "cloudplane-bench-"));
  await cp(location.dataDir, dataDir, { recursive: true });
  return { location: { ...location, dataDir }, close: () => rm(dataDir, { recursive: true, force: true }) };
}
