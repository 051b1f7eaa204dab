/**
 * @cloudplane/db/testing: fresh, migrated and seeded databases for tests, on PGlite (in memory) or on
 * the PostgreSQL server of DATABASE_URL (a database of its own per call, dropped on close).
 */
import type { Overlay, Stream } from "@cloudplane/contract";
import type { SQL } from "drizzle-orm";
import postgres from "postgres";
import { generateSecretsKey, importSecretsKey } from "./crypto.js";
import { createDatabase, type CloudplaneDatabase, type Database, type Engine } from "./database.js";
import { loadDemoData } from "./demo.js";
import { byColumnName, demoFixture, type DemoRow } from "./demo-fixture.js";

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

/** What `failoverUnderLoad` saw. */
export interface FailoverRun<Reply> {
  /** Every answer the clients got while the backends were terminated and for a while after. */
  replies: Reply[];
  /** How many backends each termination ended. */
  terminated: number[];
  /** Each client's next request, once all had stopped. */
  after: Reply[];
}

/**
 * A failover under load: `clients` callers keep calling (`call(client, serial)`, each waiting for its
 * answer before the next) while every backend of the PostgreSQL database at `url` but the terminating
 * session's own is terminated `terminations` times, 150 ms apart (as a failover, a restart or an
 * idle-session kill ends them); then 1.5 s more under the same load, and one more call of each client
 * once they have stopped. What the answers must be is the caller's to check.
 */
export async function failoverUnderLoad<Reply>(
  url: string,
  call: (client: number, serial: number) => Promise<Reply>,
  { clients = 8, terminations = 5 }: { clients?: number; terminations?: number } = {},
): Promise<FailoverRun<Reply>> {
  // A connection of its own, as an operator's session would be.
  const admin = postgres(url, { max: 1, onnotice: () => undefined, connect_timeout: 5 });
  let serial = 0;
  let running = true;
  const replies: Reply[] = [];
  const loop = async (client: number) => {
    while (running) replies.push(await call(client, serial++));
  };
  const loops = Array.from({ length: clients }, (_, client) => loop(client));
  const terminated: number[] = [];
  try {
    for (let round = 0; round < terminations; round++) {
      await new Promise((resolve) => setTimeout(resolve, 150));
      const rows = await admin<{ done: boolean }[]>`
        select pg_terminate_backend(pid) as done from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`;
      terminated.push(rows.filter((row) => row.done).length);
    }
    // Let the connections come back under the same load, then stop the clients.
    await new Promise((resolve) => setTimeout(resolve, 1500));
  } finally {
    running = false;
    await Promise.all(loops);
    await admin.end({ timeout: 5 });
  }
  const after = await Promise.all(Array.from({ length: clients }, (_, client) => call(client, serial++)));
  return { replies, terminated, after };
}

/** A stream overlay of the demo fixture as the API shows it. */
export function shownDemoOverlay(row: DemoRow<"streamOverlays">): Overlay {
  const { account_id: _account, ...fields } = byColumnName("streamOverlays", row);
  return fields as Overlay;
}

/**
 * A stream of the demo fixture as the API shows it: its columns but the account's and the service's own, and
 * what the API derives from them (the broadcasts that show it, its overlays, token and active ingest regions). The demo data
 * records nothing, so `recording_duration` is 0.
 */
export function shownDemoStream(row: DemoRow<"streams">): Stream {
  const {
    account_id: _account,
    ingest_region_primary: regionPrimary,
    ingest_region_backup: regionBackup,
    dvr_cleared_at: _cleared,
    recording_started_at: _recording,
    ...fields
  } = byColumnName("streams", row);
  return {
    ...fields,
    recording_duration: 0,
    dvr_enabled: row.dvrDuration > 0,
    broadcast_ids: demoFixture.broadcastStreams
      .filter((shown) => shown.accountId === row.accountId && shown.streamId === row.id)
      .map((shown) => shown.broadcastId)
      .sort((a, b) => a - b),
    token: row.pushUrl.split("?")[1]!,
    active_ingest_region_primary: regionPrimary,
    active_ingest_region_backup: regionBackup,
    html_overlays: demoFixture.streamOverlays
      .filter((overlay) => overlay.accountId === row.accountId && overlay.streamId === row.id)
      .sort((a, b) => a.id - b.id)
      .map(shownDemoOverlay),
  } as Stream;
}
