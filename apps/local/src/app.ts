/**
 * The local app: the API and its docs on one Node server, on embedded PGlite kept in a data directory
 * or on PostgreSQL, with the demo data loaded into an empty database. `main.ts` runs it from the
 * environment, and the tests run `main.ts` as `pnpm start` does.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import {
  accounts,
  createDatabase,
  demoToken,
  holdsDemoData,
  importSecretsKey,
  loadDemoData,
  type CloudplaneDatabase,
  type PgliteDurability,
} from "@cloudplane/db";
import { loadOrCreateLocalSecretsKey } from "@cloudplane/db/node";
import { createHandlerFromEnv, type Env, type Handler } from "@cloudplane/handlers";
import { serve, shutdown } from "@cloudplane/handlers/node";
import { lockDataDir } from "./data-dir-lock.js";
import { DOCS_PATH, defaultDocsDirectory, docsHandler, isDocsBuilt, isDocsPath } from "./docs.js";
import { jsonLogger, type Logger } from "./log.js";

export interface LocalAppOptions {
  /** Default 8787; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1: the API is for this machine only. */
  hostname?: string;
  /** Where PGlite keeps its files (`<dataDir>/pglite`) and the local secrets key lives. */
  dataDir: string;
  /** A PostgreSQL URL; when set, PGlite is not used. */
  databaseUrl?: string;
  /**
   * PGlite's durability (CLOUDPLANE_PGLITE_DURABILITY): "durable" (default) answers a write once it is on
   * the disk; "relaxed" once the operating system has it (faster; an OS crash or power loss can lose it).
   */
  pgliteDurability?: PgliteDurability;
  /**
   * The base64 secrets key. On PGlite its default is the key file of the data directory, made on first
   * start; on PostgreSQL it must be given (every server of the database needs the same key).
   */
  secretsKey?: string;
  /** The built docs site; default: the `@cloudplane/docs` build. */
  docsDir?: string;
  /** Where log entries go; default: JSON lines on stdout and stderr. */
  log?: Logger;
  /**
   * The deployment settings every deployment reads (CLOUDPLANE_BASE_PATH, CLOUDPLANE_RATE_LIMIT,
   * CLOUDPLANE_RATE_BURST, CLOUDPLANE_CORS_ORIGINS, CLOUDPLANE_REQUEST_LOG); the database and the key come from the options
   * above. Default: none (CORS then allows the app's own pages, ownOrigins).
   */
  env?: Env;
  /** How long a shutdown waits for requests in flight, in ms. Default 5000. */
  shutdownGraceMs?: number;
  /** How long a client has to send a request's line and headers, in ms (then 408). Default 10 000. */
  headersTimeoutMs?: number;
  /** How long a client has to send a whole request, in ms (then 408). Default 30 000. */
  requestTimeoutMs?: number;
}

export interface LocalApp {
  /** The API's base URL, e.g. http://127.0.0.1:8787. */
  url: string;
  docsUrl: string;
  docsBuilt: boolean;
  docsDir: string;
  /** Where the data is, in words (never the URL, which may carry a password). */
  storage: string;
  /** Whether this start loaded the demo data (the database was empty). */
  demoDataLoaded: boolean;
  /**
   * The demo administrator's API key (account 1, token role-1-active) when the database holds the demo
   * data; undefined on a database of its own accounts (provisioned), where that key answers 401.
   */
  adminApiKey: string | undefined;
  server: Server;
  /**
   * Stops taking connections, answers the requests in flight with `Connection: close` and closes idle
   * connections; once none is left (or at the grace period), closes the database.
   */
  close(): Promise<void>;
}

function newRequestId(): string {
  return `req_${crypto.randomUUID().replaceAll("-", "")}`;
}

/** Loads the demo data into a database that has no account yet; one that has any is left as it is. */
async function loadDemoDataIfEmpty(database: CloudplaneDatabase, secretsKey: CryptoKey): Promise<boolean> {
  const [anyAccount] = await database.db.select({ id: accounts.id }).from(accounts).limit(1);
  if (anyAccount) return false;
  await loadDemoData(database.db, { secretsKey });
  return true;
}

function describeStorage(options: LocalAppOptions): string {
  if (!options.databaseUrl) return `PGlite in ${options.dataDir}${options.pgliteDurability === "relaxed" ? ", durability relaxed" : ""}`;
  const url = new URL(options.databaseUrl);
  return `PostgreSQL at ${url.host}${url.pathname}`;
}

/** The API at the root, the docs under /docs, and / leading to the docs. */
function localHandler(api: Handler, docs: Handler, log: Logger): Handler {
  return async (request) => {
    const { pathname, search } = new URL(request.url);
    if (pathname === "/" && (request.method === "GET" || request.method === "HEAD"))
      return new Response(null, { status: 302, headers: { location: `${DOCS_PATH}/${search}` } });
    if (!isDocsPath(pathname)) return api(request);
    // The API's handler logs its own requests; docs requests get the same kind of entry here.
    const started = performance.now();
    const requestId = newRequestId();
    const response = await docs(request);
    response.headers.set("x-request-id", requestId);
    log({
      level: "info",
      msg: "request",
      request_id: requestId,
      method: request.method,
      path: pathname,
      status: response.status,
      duration_ms: Math.round((performance.now() - started) * 100) / 100,
    });
    return response;
  };
}

/**
 * The origins of the app's own pages (its docs), which CORS allows unless CLOUDPLANE_CORS_ORIGINS says
 * otherwise: its URL and, on loopback or every interface, each name this machine has for itself. The
 * docs' "Test Request" calls the server their OpenAPI document names (http://127.0.0.1:8787 by
 * default): from a page opened as http://localhost:8787 that is another origin.
 */
function ownOrigins(url: string, address: AddressInfo): Set<string> {
  const origins = new Set([url]);
  if (["127.0.0.1", "::1", "0.0.0.0", "::"].includes(address.address))
    for (const host of ["localhost", "127.0.0.1", "[::1]"]) origins.add(`http://${host}:${address.port}`);
  return origins;
}

/** Where the API is on this server (CLOUDPLANE_BASE_PATH), for the docs' Test Request. */
function apiBasePath(env: Env | undefined): string | undefined {
  const basePath = env?.CLOUDPLANE_BASE_PATH;
  return typeof basePath === "string" ? basePath : undefined;
}

function listenError(error: unknown, port: number): Error {
  if ((error as { code?: string }).code === "EADDRINUSE")
    return new Error(`Port ${port} is already in use: stop what uses it, or set PORT to another port.`, { cause: error });
  return error instanceof Error ? error : new Error(String(error));
}

export async function startLocalApp(options: LocalAppOptions): Promise<LocalApp> {
  const log = options.log ?? jsonLogger;
  const port = options.port ?? 8787;
  const hostname = options.hostname ?? "127.0.0.1";
  const docsDir = options.docsDir ?? defaultDocsDirectory();

  if (options.databaseUrl && !options.secretsKey)
    throw new Error(
      "CLOUDPLANE_SECRETS_KEY is not set. On PostgreSQL, give the key that encrypts the stored secrets, the same on every " +
        "server of the database, and keep it with your other secrets: secrets stored with one key cannot be read with another. " +
        `Make one with: node -e "console.log(crypto.randomBytes(32).toString('base64'))"`,
    );
  const secretsKey = await importSecretsKey(options.secretsKey ?? (await loadOrCreateLocalSecretsKey(options.dataDir)));
  const unlock = options.databaseUrl ? async () => {} : await lockDataDir(options.dataDir);
  let database: CloudplaneDatabase;
  try {
    database = await createDatabase(options.databaseUrl ? { url: options.databaseUrl } : { dataDir: options.dataDir, durability: options.pgliteDurability });
  } catch (error) {
    await unlock();
    if (options.databaseUrl) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      `The embedded database in ${join(options.dataDir, "pglite")} could not be opened (${reason}). ` +
        "If it was damaged, for instance by a process killed while writing, move that folder away to start afresh.",
      { cause: error },
    );
  }
  let server: Server;
  let demoDataLoaded: boolean;
  let demoData: boolean;
  // Known once the server listens (PORT may be 0).
  let allowedOrigins = new Set<string>();
  try {
    demoDataLoaded = await loadDemoDataIfEmpty(database, secretsKey);
    // Loaded now or by an earlier start; a provisioned database has accounts of its own instead.
    demoData = demoDataLoaded || (await holdsDemoData(database.db));
    const api = await createHandlerFromEnv(options.env ?? {}, {
      db: database.db,
      secretsKey,
      handler: {
        cors: { origins: (origin) => allowedOrigins.has(origin) },
        onRequest: (entry) => log({ level: "info", msg: "request", ...entry }),
        onError: (report, requestId) => log({ level: "error", msg: "unexpected error", request_id: requestId, error: report }),
      },
    });
    server = await serve(localHandler(api, docsHandler(docsDir, { apiBasePath: apiBasePath(options.env), demoApiKey: demoData ? demoToken(1, "role-1-active").plaintext : undefined }), log), {
      port,
      hostname,
      headersTimeoutMs: options.headersTimeoutMs,
      requestTimeoutMs: options.requestTimeoutMs,
      // Requests Node's HTTP layer refused (malformed, headers too large, too slow): answered in the envelope, logged here.
      onClientError: (entry) => log({ level: "info", msg: "client error", ...entry }),
    }).catch((error: unknown) => {
      throw listenError(error, port);
    });
  } catch (error) {
    await database.close().catch(() => undefined);
    await unlock();
    throw error;
  }

  const address = server.address() as AddressInfo;
  // Listening on every interface: this machine reaches it on loopback.
  const shown = address.address === "0.0.0.0" ? "127.0.0.1" : address.address === "::" ? "::1" : address.address;
  const host = shown.includes(":") ? `[${shown}]` : shown;
  const url = `http://${host}:${address.port}`;
  allowedOrigins = ownOrigins(url, address);
  const graceMs = options.shutdownGraceMs ?? 5000;
  let closing: Promise<void> | undefined;

  return {
    url,
    docsUrl: `${url}${DOCS_PATH}/`,
    docsBuilt: await isDocsBuilt(docsDir),
    docsDir,
    storage: describeStorage(options),
    demoDataLoaded,
    adminApiKey: demoData ? demoToken(1, "role-1-active").plaintext : undefined,
    server,
    close() {
      closing ??= (async () => {
        // Requests in flight are answered; connections still open after the grace period are closed.
        const { closedAtGrace } = await shutdown(server, { graceMs });
        if (closedAtGrace > 0) log({ level: "info", msg: "connections closed at the end of the shutdown grace period", connections: closedAtGrace, grace_ms: graceMs });
        // Last, so that every write that was answered is in the database's files (PGlite checkpoints on close).
        await database.close();
        await unlock();
      })();
      return closing;
    },
  };
}
