/**
 * `createDatabase`: one Drizzle database over either engine, migrated before it is handed out.
 * With a URL, PostgreSQL through postgres.js (Node, AWS Lambda, Cloudflare Workers); without, embedded PGlite.
 */
import type { Extension, PGlite as PGliteClass, PGliteOptions } from "@electric-sql/pglite";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { applyMigrations } from "./migrate.js";
import * as schema from "./schema/index.js";

export type Schema = typeof schema;

/** The database handlers are written against; both engines satisfy it. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

/** A transaction of a `Database` (`db.transaction(async (tx) => …)`), for helpers that take either. */
export type DatabaseTransaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

export type Engine = "pglite" | "postgres";

/**
 * How PGlite keeps a data directory on disk (`createDatabase`'s `durability`):
 * - `"durable"`: a write is answered once it is on the disk, so it survives an operating-system crash or
 *   a power loss, as on PostgreSQL with its default settings;
 * - `"relaxed"`: PGlite's own settings (PostgreSQL's fsync off). A write is answered once the operating
 *   system has it: it survives the process being killed, but an operating-system crash or a power loss
 *   can lose the last writes or damage the database. Faster writes, for data that can be made again.
 */
export type PgliteDurability = "durable" | "relaxed";

export const PGLITE_DURABILITIES: readonly PgliteDurability[] = ["durable", "relaxed"];

export interface CloudplaneDatabase {
  db: Database;
  engine: Engine;
  /** Ends the connections (PostgreSQL) or shuts the embedded database down (PGlite). */
  close(): Promise<void>;
}

export interface CreateDatabaseOptions {
  /** A PostgreSQL connection URL; when given, PostgreSQL is used and `dataDir` is ignored. */
  url?: string;
  /**
   * The local data directory; PGlite keeps its files in `<dataDir>/pglite` (beside the local secrets
   * key, see `@cloudplane/db/node`). In memory when absent. Needs a file system (Node).
   */
  dataDir?: string;
  /**
   * PGlite with a `dataDir`: `"durable"` (default) answers a write once it is on the disk; `"relaxed"`
   * once the operating system has it (faster; an operating-system crash or a power loss can lose it).
   * See `PgliteDurability`. In memory and on PostgreSQL it changes nothing.
   */
  durability?: PgliteDurability;
  /** Most connections in the PostgreSQL pool. Default 10; 1 or 2 suit AWS Lambda and Workers. */
  max?: number;
  /** Seconds to wait for a PostgreSQL connection before failing. Default 5. */
  connectTimeout?: number;
  /** Apply the bundled migrations before returning. Default true. */
  migrate?: boolean;
  /**
   * PostgreSQL: look up the server's array types when a connection opens (postgres.js `fetch_types`),
   * one round trip before its first query. Drizzle parses array columns itself, so a connection that
   * serves one request (Workers) does better without; without it, postgres.js cannot send a JS array as
   * a parameter, so lists go as array literals cast in the SQL (`= any($1::text[])`). Default true.
   */
  fetchTypes?: boolean;
  /**
   * PostgreSQL: prepare the statements the handlers prepare on the server, once per connection (a
   * round trip the first time). A connection that serves one request (Workers) does better sending
   * every statement unnamed. Default true.
   */
  prepare?: boolean;
  /**
   * PostgreSQL: build Drizzle's relational queries (`db.query.<table>`) from the schema, about 1.5 ms of
   * work per database opened. A connection that serves one request (Workers) does better without: the
   * handlers use only the query builder. Default true.
   */
  relationalQueries?: boolean;
}

/**
 * Opens the database as `createDatabase` does, without looking at its migrations: for a deployment that
 * applies them beforehand (Workers). A bundle that calls only this carries none of the migrations' SQL.
 */
export async function openDatabase(options: Omit<CreateDatabaseOptions, "migrate"> = {}): Promise<CloudplaneDatabase> {
  const durability = options.durability ?? "durable";
  if (!PGLITE_DURABILITIES.includes(durability))
    throw new TypeError(`durability must be ${PGLITE_DURABILITIES.map((value) => `"${value}"`).join(" or ")}, not ${JSON.stringify(durability)}.`);
  return options.url ? await openPostgres(options.url, options) : await openPglite(options.dataDir, durability);
}

/**
 * Opens the database and applies the migrations it lacks. The engines are imported on demand, so a
 * process that uses one never loads the other.
 */
export async function createDatabase(options: CreateDatabaseOptions = {}): Promise<CloudplaneDatabase> {
  const database = await openDatabase(options);
  if (options.migrate !== false) {
    try {
      await applyMigrations(database.db);
    } catch (error) {
      await database.close().catch(() => undefined);
      throw error;
    }
  }
  return database;
}

async function openPostgres(url: string, options: CreateDatabaseOptions): Promise<CloudplaneDatabase> {
  const [{ default: postgres }, { drizzle }] = await Promise.all([import("postgres"), import("drizzle-orm/postgres-js")]);
  const client = postgres(url, {
    max: options.max ?? 10,
    prepare: true,
    fetch_types: options.fetchTypes ?? true,
    connect_timeout: options.connectTimeout ?? 5,
    // postgres.js waits up to 20 s between reconnection attempts by default, and every queued query
    // waits with it; during an outage requests must fail fast (503) and recover as soon as it ends.
    backoff: (attempt: number) => Math.min(0.05 * 2 ** attempt, 0.5),
    // Server notices ("relation already exists, skipping") are not for the API's logs.
    onnotice: () => undefined,
    connection: { application_name: "cloudplane" },
  });
  // Drizzle asks for a named statement where the code prepares one; a connection that serves one request sends them unnamed.
  const queries = options.prepare === false ? rewritingQueryOptions(client, { query: "unsafe", transaction: "begin" }, (given) => ({ ...given, prepare: false })) : client;
  // Without the schema, `db.query` is empty; the type stays the same, as no code of the handlers reads it.
  const db: Database = options.relationalQueries === false ? (drizzle(queries) as unknown as Database) : drizzle(queries, { schema });
  return {
    db,
    engine: "postgres",
    close: () => client.end({ timeout: 5 }),
  };
}

/**
 * PGlite's own folder inside the data directory, made with its parents (PGlite makes only the last
 * level). The file system is imported here, on demand, so that the entry still bundles for Workers,
 * where a data directory is never given.
 */
async function pgliteDirectory(dataDir: string): Promise<string> {
  const directory = `${dataDir.replace(/[\\/]+$/, "")}/pglite`;
  const { mkdir } = await import("node:fs/promises");
  await mkdir(directory, { recursive: true });
  return directory;
}

/**
 * The types Drizzle reads as PostgreSQL's text (dates, times, intervals and their arrays, numeric[]),
 * by type OID: Drizzle passes these parsers with every query, and PGlite then copies its whole parser
 * table per query (an eighth of a small request's time). Set once on the client, the queries need not
 * pass them (`withoutQueryParsers`). A PGlite that `pgliteDatabase` serves is started with them, best
 * as part of `PGLITE_CLIENT_OPTIONS` (`PGlite.create({ ...PGLITE_CLIENT_OPTIONS, … })`).
 */
const keepText = (value: string) => value;
const DRIZZLE_TEXT_TYPES = [1114, 1184, 1186, 1082, 1231, 1115, 1185, 1187, 1182];
export const DRIZZLE_PARSERS: NonNullable<PGliteOptions["parsers"]> = Object.fromEntries(DRIZZLE_TEXT_TYPES.map((oid) => [oid, keepText]));

/**
 * What every PGlite this package starts is given: Drizzle's parsers (`DRIZZLE_PARSERS`), and a cache of
 * prepared statements (`statementCacheSize`, added by our PGlite patch). Without it PGlite parses and
 * plans every query anew, in six exchanges with the database; with it, a statement seen before is bound
 * to the one PostgreSQL prepared the first time and answered in one exchange: on the bench's database,
 * GET a stream's two statements take 0.2 ms instead of 0.95 ms, the cost report's 0.25 ms instead of
 * 0.59 ms. The API sends a few hundred distinct statements; the 256 used last stay prepared.
 */
export const PGLITE_CLIENT_OPTIONS = { parsers: DRIZZLE_PARSERS, statementCacheSize: 256 } satisfies PGliteOptions;

type QueryOptions = Record<string, unknown> | undefined;

/**
 * `client` (PGlite, or a postgres.js `sql`) with the options of every query rewritten, in the
 * transactions it opens too: `query` names its query method (options third), `transaction` the method
 * whose last argument is the work to run in a transaction.
 */
function rewritingQueryOptions<C extends object>(
  client: C,
  methods: { query: string; transaction: string },
  rewrite: (options: QueryOptions) => QueryOptions,
): C {
  return new Proxy(client, {
    get(target, property) {
      // Read with the client as `this`: PGlite's getters use private fields, which a proxy does not have.
      const value: unknown = Reflect.get(target, property);
      if (typeof value !== "function") return value;
      const method = value as (...args: unknown[]) => unknown;
      if (property === methods.query)
        return (text: unknown, params: unknown, options: QueryOptions) => method.call(target, text, params, rewrite(options));
      if (property === methods.transaction)
        return (...args: unknown[]) => {
          const work = args.pop() as (tx: object) => unknown;
          return method.call(target, ...args, (tx: object) => work(rewritingQueryOptions(tx, methods, rewrite)));
        };
      return method.bind(target);
    },
  });
}

/** PGlite's queries without a `parsers` option: the client is given Drizzle's once (`DRIZZLE_PARSERS`). */
function withoutQueryParsers(options: QueryOptions): QueryOptions {
  if (!options?.parsers) return options;
  const { parsers: _dropped, ...rest } = options;
  return rest;
}

/**
 * What "durable" takes in PGlite 0.5 on Node. PGlite starts PostgreSQL with `-F` (fsync off), and its
 * Node file system (Emscripten's NODEFS, which reads and writes the real files) has no fsync operation:
 * Emscripten answers fsync() with success when a file system has none, and fdatasync() always. PGlite's
 * own `relaxedDurability` only decides whether a query waits for the file system's `syncToFs`, which
 * does nothing on Node. So, on a data directory:
 * - NODEFS's files get the fsync operation PostgreSQL's fsync() reaches: Node's fsync of the file's
 *   descriptor (`syncedFiles`);
 * - PostgreSQL runs with fsync on and syncs its WAL with fsync() (not fdatasync(), which would reach
 *   nothing), with a commit waiting for its WAL (synchronous_commit) and whole pages logged after a
 *   checkpoint (full_page_writes) against torn pages, as PostgreSQL's defaults are;
 * - the files already in the directory when it is opened are synced file by file (`syncTree`): those
 *   initdb wrote for a new one (with fsync unreachable), those of a relaxed run or of a copy, on which
 *   the WAL synced from then on builds. A sync of a file with nothing to write costs little: about a
 *   tenth of a second for a new directory's 1,200 files, seconds on a disk busy with other work.
 */
const DURABLE_SETTINGS = ["fsync=on", "synchronous_commit=on", "full_page_writes=on", "wal_sync_method=fsync"];

/** What the extensions below use of Emscripten's NODEFS: its operations, by name, on streams and on nodes. */
interface NodeFs {
  stream_ops: Record<string, (...args: never[]) => unknown>;
  node_ops: Record<string, (...args: never[]) => unknown>;
  /** Emscripten's: runs a Node file operation, turning a Node error into the errno PostgreSQL sees. */
  tryFSOperation<T>(operation: () => T): T;
}

/**
 * A PGlite extension (its documented way to adjust the Emscripten module before PostgreSQL starts) that
 * changes NODEFS, the file system of a data directory, with `adjust`.
 */
function nodeFsExtension(name: string, adjust: (nodefs: NodeFs) => void): Extension {
  return {
    name,
    setup: (_pg, emscriptenOptions: { preRun?: ((mod: { NODEFS: NodeFs }) => void)[] }) =>
      Promise.resolve({
        emscriptenOpts: { ...emscriptenOptions, preRun: [...(emscriptenOptions.preRun ?? []), (mod: { NODEFS: NodeFs }) => adjust(mod.NODEFS)] },
      }),
  };
}

/** An extension that gives NODEFS's files an fsync reaching the disk. */
function syncedFiles(fs: { fsyncSync(fd: number): void }): Extension {
  return nodeFsExtension("cloudplane-synced-files", (nodefs) => {
    nodefs.stream_ops.fsync = ((stream: { nfd: number }) => nodefs.tryFSOperation(() => (fs.fsyncSync(stream.nfd), 0)));
  });
}

/** NODEFS's operations that change nothing on the disk: every other one forgets the kept sizes. */
const READING_OPERATIONS = new Set(["read", "llseek", "getattr", "open", "close", "dup", "mmap", "lookup", "readdir", "readlink", "statfs"]);

/** `S_IFMT` and `S_IFREG` of a node's mode: a regular file. */
const FILE_TYPE_MASK = 0o170000;
const REGULAR_FILE = 0o100000;

type Seek = (stream: { node: { mode: number }; nfd: number }, offset: number, whence: number) => number;

/**
 * An extension that answers the size of a file of the data directory from memory until the file
 * system next changes. PostgreSQL asks a relation's size (an lseek to the end of its file) each time it
 * plans a statement on it, and NODEFS answers each such lseek with a Node fstat: about ten a request on
 * the API's reads, ~15 µs each on a virtual machine, some 8 % of a GET on PGlite. A size read is kept per
 * file; any operation of NODEFS other than those that only read (a write, a truncate, a rename, a
 * removal, …) forgets them all, so no size is older than the last change PGlite made, and PGlite is the
 * one writer of its data directory.
 */
function keptFileSizes(fs: { fstatSync(fd: number): { size: number } }): Extension {
  return nodeFsExtension("cloudplane-kept-file-sizes", (nodefs) => {
    const sizes = new Map<object, number>();
    for (const operations of [nodefs.stream_ops, nodefs.node_ops])
      for (const [name, operation] of Object.entries(operations))
        if (!READING_OPERATIONS.has(name))
          operations[name] = function (this: unknown, ...args: never[]) {
            sizes.clear();
            return operation.apply(this, args);
          };
    const seek = nodefs.stream_ops.llseek as Seek;
    const seekKept: Seek = (stream, offset, whence) => {
      // From the end of a regular file: its kept size, else read once. A position before the start is
      // NODEFS's own error.
      if (whence !== 2 || (stream.node.mode & FILE_TYPE_MASK) !== REGULAR_FILE) return seek(stream, offset, whence);
      let size = sizes.get(stream.node);
      if (size === undefined) sizes.set(stream.node, (size = nodefs.tryFSOperation(() => fs.fstatSync(stream.nfd).size)));
      return offset + size < 0 ? seek(stream, offset, whence) : offset + size;
    };
    nodefs.stream_ops.llseek = seekKept;
  });
}

/** Node's file system, imported on demand: Workers, which never open a data directory, have none. */
const nodeFileSystem = () => Promise.all([import("node:fs"), import("node:path")]);
type NodeFileSystem = Awaited<ReturnType<typeof nodeFileSystem>>;

/**
 * Syncs every file and folder under `directory` to the disk, then `directory` and the folder holding it.
 * Synchronous, as all of PGlite's file work is: it runs once, when the directory is opened.
 */
function syncTree([fs, path]: NodeFileSystem, directory: string): void {
  // Windows cannot open a folder to sync it; its folder entries are written through.
  const folders = process.platform !== "win32";
  const entries = fs.readdirSync(directory, { recursive: true, withFileTypes: true });
  const paths = entries.filter((entry) => entry.isFile() || (folders && entry.isDirectory())).map((entry) => path.join(entry.parentPath, entry.name));
  if (folders) paths.push(directory, path.dirname(directory));
  for (const each of paths) {
    const fd = fs.openSync(each, "r");
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  }
}

async function openPgliteDirectory(PGlite: typeof PGliteClass, dataDir: string, durability: PgliteDurability): Promise<PGliteClass> {
  const directory = await pgliteDirectory(dataDir);
  const node = await nodeFileSystem();
  const sizes = keptFileSizes(node[0]);
  if (durability === "relaxed") return PGlite.create(directory, { ...PGLITE_CLIENT_OPTIONS, extensions: { sizes } });
  const client = await PGlite.create(directory, {
    ...PGLITE_CLIENT_OPTIONS,
    startParams: [...PGlite.defaultStartParams, ...DURABLE_SETTINGS.flatMap((setting) => ["-c", setting])],
    extensions: { syncedFiles: syncedFiles(node[0]), sizes },
  });
  try {
    syncTree(node, directory);
  } catch (error) {
    await client.close().catch(() => undefined);
    throw error;
  }
  return client;
}

/**
 * The Drizzle database with the schema over `client`, a PGlite started with `PGLITE_CLIENT_OPTIONS`, as
 * `createDatabase` makes it over the PGlite it starts: its queries go without the parsers option. For a
 * PGlite the caller starts itself (from a data directory's dump, say); the caller closes it. The client may
 * be given while it starts: Drizzle's driver loads meanwhile (in a new process, as long as a third of
 * PGlite's start).
 */
export async function pgliteDatabase(starting: PGliteClass | Promise<PGliteClass>): Promise<Database> {
  const [{ drizzle }, client] = await Promise.all([import("drizzle-orm/pglite"), starting]);
  return drizzle(rewritingQueryOptions(client, { query: "query", transaction: "transaction" }, withoutQueryParsers), { schema });
}

async function openPglite(dataDir: string | undefined, durability: PgliteDurability): Promise<CloudplaneDatabase> {
  // Drizzle's PGlite driver loads beside PGlite, as pgliteDatabase will ask for it.
  const [{ PGlite }] = await Promise.all([import("@electric-sql/pglite"), import("drizzle-orm/pglite")]);
  // In memory (tests) as PGlite makes it: nothing to make durable, and nothing slowed down.
  const client = dataDir === undefined ? await PGlite.create(undefined, PGLITE_CLIENT_OPTIONS) : await openPgliteDirectory(PGlite, dataDir, durability);
  return {
    db: await pgliteDatabase(client),
    engine: "pglite",
    close: () => client.close(),
  };
}

/**
 * A list as one parameter: PostgreSQL's array literal (`{"a","b"}`, `{1,2}`), cast in the SQL
 * (`= any($1::text[])`). Sent as text, it needs no array type from the driver: a connection that skips
 * postgres.js's type lookup (`fetchTypes: false`) would otherwise send the list as `a,b`.
 */
export function arrayLiteral(values: readonly (string | number)[]): string {
  let literal = "{";
  for (let index = 0; index < values.length; index++) {
    const value = values[index]!;
    if (index) literal += ",";
    // Most text has no quote or backslash to escape: a test is ~5× cheaper than a replace that finds none.
    literal += typeof value === "number" ? String(value) : `"${ESCAPED_IN_ARRAY.test(value) ? value.replace(/[\\"]/g, "\\$&") : value}"`;
  }
  return `${literal}}`;
}

const ESCAPED_IN_ARRAY = /[\\"]/;

