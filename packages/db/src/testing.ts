/**
 * @cloudplane/db/testing: fresh, migrated and seeded databases for tests, on PGlite (in memory) or on
 * the PostgreSQL server of DATABASE_URL (a database of its own per call, dropped on close), and the
 * PGlite images they can start from.
 */
import type { Overlay, Stream } from "@cloudplane/contract";
import type { SQL } from "drizzle-orm";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { generateSecretsKey, importSecretsKey } from "./crypto.js";
import { createDatabase, pgliteDatabase, type CloudplaneDatabase, type Database, type Engine } from "./database.js";
import { applyMigrations } from "./migrate.js";
import { createPgliteForImage, dumpPgliteImage, pgliteImage, startPgliteFromImage } from "./pglite-image.js";
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

export { createPgliteForImage, dumpPgliteImage, pgliteImage, startPgliteFromImage } from "./pglite-image.js";

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
 * The environment variable through which `prepareTestDatabases` hands its run's images to the test
 * processes it starts: the folder of `image.json` (`RunImages`) and `pglite.tar`.
 */
const RUN_IMAGES = "CLOUDPLANE_TEST_DATABASE_IMAGES";

/** What `prepareTestDatabases` made for the run. */
interface RunImages {
  /** The key the images' demo secrets were encrypted with (base64). */
  secretsKeyBase64: string;
  /** The PostgreSQL database, migrated and seeded, that test databases are copied from (`create database … template`). */
  template?: string;
}

/** This process's view of the run's images, by folder: read once per module registry (each test file has its own). */
const runImages = new Map<string, Promise<RunImages & { tarball: Blob; secretsKey: CryptoKey }>>();

async function imagesOfRun() {
  const folder = globalThis.process?.env?.[RUN_IMAGES];
  if (!folder) return undefined;
  let images = runImages.get(folder);
  if (!images) {
    images = (async () => {
      const made = JSON.parse(await readFile(join(folder, "image.json"), "utf8")) as RunImages;
      const tarball = pgliteImage(await readFile(join(folder, "pglite.tar")));
      return { ...made, tarball, secretsKey: await importSecretsKey(made.secretsKeyBase64) };
    })();
    runImages.set(folder, images);
  }
  return images;
}

/**
 * Makes a test run's databases start in a fraction of a second instead of seconds: one PGlite image and,
 * when DATABASE_URL is set, one PostgreSQL template database, both migrated and seeded with the demo
 * data once; `createTestDatabase` then starts each PGlite database from the image and copies each
 * PostgreSQL one from the template (`create database … template`). Call it in a vitest global setup,
 * before the test processes start (they find the images through an environment variable it sets), and
 * call what it returns in the teardown: it deletes the image and drops the template. A run without it
 * migrates and seeds every database itself: slower, the same databases.
 */
export async function prepareTestDatabases(): Promise<() => Promise<void>> {
  const secretsKeyBase64 = generateSecretsKey();
  const secretsKey = await importSecretsKey(secretsKeyBase64);
  const folder = await mkdtemp(join(tmpdir(), "cloudplane-test-images-"));
  const serverUrl = databaseUrl();
  let template: string | undefined;
  const dropTemplate = async () => {
    if (serverUrl && template) await onServer(serverUrl, `drop database if exists "${template}" with (force)`);
  };
  try {
    const makePglite = async () => {
      const client = await createPgliteForImage();
      try {
        const db = await pgliteDatabase(client);
        await applyMigrations(db);
        await loadDemoData(db, { secretsKey });
        await writeFile(join(folder, "pglite.tar"), new Uint8Array(await (await dumpPgliteImage(client)).arrayBuffer()));
      } finally {
        await client.close();
      }
    };
    const makeTemplate = async () => {
      if (!serverUrl) return;
      await dropTemplatesOfEndedRuns(serverUrl);
      template = `${TEMPLATE_PREFIX}${process.pid}_${globalThis.crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
      await onServer(serverUrl, `create database "${template}"`);
      const database = await createDatabase({ url: withDatabase(serverUrl, template), max: 1 });
      try {
        await loadDemoData(database.db, { secretsKey });
      } finally {
        await database.close();
      }
    };
    await Promise.all([makePglite(), makeTemplate()]);
    const images: RunImages = { secretsKeyBase64, ...(template === undefined ? {} : { template }) };
    await writeFile(join(folder, "image.json"), JSON.stringify(images));
  } catch (error) {
    await rm(folder, { recursive: true, force: true });
    await dropTemplate();
    throw error;
  }
  process.env[RUN_IMAGES] = folder;
  return async () => {
    delete process.env[RUN_IMAGES];
    await rm(folder, { recursive: true, force: true });
    await dropTemplate();
  };
}

/** Template databases are `cloudplane_template_<pid>_<random>`, named after the process that made them. */
const TEMPLATE_PREFIX = "cloudplane_template_";

/** Drops the templates that runs on this machine left behind when they were killed (their process is gone). */
async function dropTemplatesOfEndedRuns(serverUrl: string): Promise<void> {
  const admin = postgres(serverUrl, { max: 1, onnotice: () => undefined, connect_timeout: 5 });
  try {
    const rows = await admin<{ datname: string }[]>`select datname from pg_database where datname like ${`${TEMPLATE_PREFIX}%`}`;
    for (const { datname } of rows) {
      const pid = Number(datname.slice(TEMPLATE_PREFIX.length).split("_")[0]);
      if (Number.isInteger(pid) && !processRuns(pid)) await admin.unsafe(`drop database if exists "${datname}" with (force)`);
    }
  } finally {
    await admin.end({ timeout: 5 });
  }
}

function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function withDatabase(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * A database of its own for one test file or test: migrated and loaded with the demo data unless told
 * otherwise. On PostgreSQL it is `cloudplane_test_<random>` on the DATABASE_URL server, so files can
 * run in parallel; `close()` drops it. In a run that `prepareTestDatabases` prepared, a migrated and
 * seeded database starts from the run's image (PGlite) or is copied from its template (PostgreSQL).
 */
export async function createTestDatabase(options: CreateTestDatabaseOptions = {}): Promise<TestDatabase> {
  const serverUrl = databaseUrl();
  const engine = options.engine ?? (serverUrl ? "postgres" : "pglite");
  const migrate = options.migrate !== false;
  const seeded = migrate && options.seed !== false;
  const images = seeded ? await imagesOfRun() : undefined;
  const secretsKeyBase64 = images?.secretsKeyBase64 ?? generateSecretsKey();
  const secretsKey = images?.secretsKey ?? (await importSecretsKey(secretsKeyBase64));

  let database: CloudplaneDatabase;
  let url: string | undefined;
  let drop = async () => {};
  let fromImage = false;
  if (engine === "postgres") {
    if (!serverUrl) throw new Error("DATABASE_URL must be set to test on PostgreSQL.");
    const name = `cloudplane_test_${globalThis.crypto.randomUUID().replaceAll("-", "")}`;
    fromImage = images?.template !== undefined;
    await onServer(serverUrl, fromImage ? `create database "${name}" template "${images!.template}"` : `create database "${name}"`);
    url = withDatabase(serverUrl, name);
    drop = () => onServer(serverUrl, `drop database if exists "${name}" with (force)`);
    try {
      database = await createDatabase({ url, max: 4, migrate: migrate && !fromImage });
    } catch (error) {
      await drop();
      throw error;
    }
  } else if (images) {
    fromImage = true;
    const client = await startPgliteFromImage(images.tarball);
    database = { db: await pgliteDatabase(client), engine: "pglite", close: () => client.close() };
  } else {
    database = await createDatabase({ migrate });
  }

  try {
    if (seeded && !fromImage) await loadDemoData(database.db, { secretsKey });
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
