/**
 * @cloudplane/db/testing: fresh, migrated and seeded databases for tests, on PGlite (in memory) or on
 * the PostgreSQL server of DATABASE_URL (a database of its own per call, dropped on close).
 */
import type { SQL } from "drizzle-orm";
import postgres from "postgres";
import { generateSecretsKey, importSecretsKey } from "./crypto.js";
import { createDatabase, type CloudplaneDatabase, type Database, type Engine } from "./database.js";
import { loadDemoData } from "./demo.js";

function databaseUrl(): string | undefined {
  const url = globalThis.process?.env?.DATABASE_URL;
  return url ? url : undefined;
}

/** The engines a suite runs on: PGlite always, PostgreSQL too when DATABASE_URL is set. */
export function engines(): Engine[] {
  return databaseUrl() ? ["pglite", "postgres"] : ["pglite"];
}

export interface CreateTestDatabaseOptions {
  /** Default: PostgreSQL when DATABASE_URL is set, else PGlite. */
  engine?: Engine;
  /** Load the demo data. Default true. */
  seed?: boolean;
  /** Apply the migrations. Default true (without them there is nothing to seed). */
  migrate?: boolean;
}

export interface TestDatabase extends CloudplaneDatabase {
  /** The key the demo secrets were encrypted with, and the same key as base64 for handler settings. */
  secretsKey: CryptoKey;
  secretsKeyBase64: string;
  /** The database's own URL on PostgreSQL; absent on PGlite. */
  url?: string;
}

/** A PostgreSQL admin connection that is used for one statement and closed. */
async function onServer(url: string, statement: string): Promise<void> {
  const admin = postgres(url, { max: 1, onnotice: () => undefined, connect_timeout: 5 });
  try {
    await admin.unsafe(statement);
  } finally {
    await admin.end({ timeout: 5 });
  }
}

/**
 * A database of its own for one test file or test: migrated and loaded with the demo data unless told
 * otherwise. On PostgreSQL it is `cloudplane_test_<random>` on the DATABASE_URL server, so files can
 * run in parallel; `close()` drops it.
 */
export async function createTestDatabase(options: CreateTestDatabaseOptions = {}): Promise<TestDatabase> {
  const serverUrl = databaseUrl();
  const engine = options.engine ?? (serverUrl ? "postgres" : "pglite");
  const secretsKeyBase64 = generateSecretsKey();
  const secretsKey = await importSecretsKey(secretsKeyBase64);
  const migrate = options.migrate !== false;

  let database: CloudplaneDatabase;
  let url: string | undefined;
  let drop = async () => {};
  if (engine === "postgres") {
    if (!serverUrl) throw new Error("DATABASE_URL must be set to test on PostgreSQL.");
    const name = `cloudplane_test_${globalThis.crypto.randomUUID().replaceAll("-", "")}`;
    await onServer(serverUrl, `create database "${name}"`);
    const own = new URL(serverUrl);
    own.pathname = `/${name}`;
    url = own.toString();
    drop = () => onServer(serverUrl, `drop database if exists "${name}" with (force)`);
    try {
      database = await createDatabase({ url, max: 4, migrate });
    } catch (error) {
      await drop();
      throw error;
    }
  } else {
    database = await createDatabase({ migrate });
  }

  try {
    if (migrate && options.seed !== false) await loadDemoData(database.db, { secretsKey });
  } catch (error) {
    await database.close();
    await drop();
    throw error;
  }

  return {
    ...database,
    engine,
    secretsKey,
    secretsKeyBase64,
    ...(url === undefined ? {} : { url }),
    close: async () => {
      await database.close();
      await drop();
    },
  };
}

/**
 * Rows of a raw SQL query exactly as the database returns them, bypassing the schema's column
 * mapping: for tests that look at what is stored (hashes, ciphertext). postgres.js answers an
 * array and PGlite `{ rows }`; this hides the difference.
 */
export async function selectRows<Row extends Record<string, unknown> = Record<string, unknown>>(db: Database, query: SQL): Promise<Row[]> {
  const result: unknown = await db.execute(query);
  if (Array.isArray(result)) return [...(result as Row[])];
  return (result as { rows: Row[] }).rows;
}
