/**
 * The one place the environment is read, so a setting means the same in every deployment (the local
 * app, Workers, Lambda): DATABASE_URL (PostgreSQL) or a Hyperdrive binding HYPERDRIVE,
 * CLOUDPLANE_SECRETS_KEY (base64 AES-256 key), CLOUDPLANE_BASE_PATH, CLOUDPLANE_RATE_LIMIT (requests a
 * second per token, 0 turns the limit off), CLOUDPLANE_RATE_BURST and CLOUDPLANE_CORS_ORIGINS (the
 * origins whose pages may call the API, or *) and CLOUDPLANE_REQUEST_LOG (`off`: no line per request).
 * Request logs and errors go to the console as JSON lines unless the caller says where.
 */
import { createDatabase, importSecretsKey, type CloudplaneDatabase, type CreateDatabaseOptions } from "@cloudplane/db";
import { createHandler } from "./handler.js";
import { DEFAULT_RATE_LIMIT, type RateLimit } from "./rate-limit.js";
import type { CorsSettings, Handler, HandlerOptions } from "./types.js";

export type Env = Record<string, unknown>;

function setting(env: Env, name: string): string | undefined {
  const value = env[name];
  return typeof value === "string" && value.length > 0 ? value : undefined;
}

/** The rate limit the environment asks for; the default when it says nothing. */
export function rateLimitFromEnv(env: Env): RateLimit | false {
  const rate = setting(env, "CLOUDPLANE_RATE_LIMIT");
  const burst = setting(env, "CLOUDPLANE_RATE_BURST");
  const parsed = {
    rate: rate === undefined ? DEFAULT_RATE_LIMIT.rate : Number(rate),
    burst: burst === undefined ? DEFAULT_RATE_LIMIT.burst : Number(burst),
  };
  if (!Number.isFinite(parsed.rate) || parsed.rate < 0 || !Number.isFinite(parsed.burst) || parsed.burst < 1)
    throw new Error("CLOUDPLANE_RATE_LIMIT must be a number ≥ 0 (0: no limit) and CLOUDPLANE_RATE_BURST a number ≥ 1.");
  return parsed.rate === 0 ? false : parsed;
}

/**
 * Whether the environment asks for a log line per request: CLOUDPLANE_REQUEST_LOG `on` (the default) or
 * `off`, for a platform that logs each invocation itself (Workers Logs, CloudWatch) and where the line's
 * cost per request is not wanted. Errors are logged either way.
 */
export function requestLogFromEnv(env: Env): boolean {
  const value = setting(env, "CLOUDPLANE_REQUEST_LOG")?.toLowerCase();
  if (value === undefined || value === "on") return true;
  if (value === "off") return false;
  throw new Error("CLOUDPLANE_REQUEST_LOG must be on (a JSON line per request, the default) or off.");
}

/**
 * The CORS setting the environment asks for: CLOUDPLANE_CORS_ORIGINS, `*` or a comma-separated list
 * of origins (`https://app.example.com,http://localhost:5173`); undefined when it says nothing.
 */
export function corsFromEnv(env: Env): CorsSettings | undefined {
  const value = setting(env, "CLOUDPLANE_CORS_ORIGINS");
  if (value === undefined) return undefined;
  const entries = value.split(",").map((entry) => entry.trim()).filter(Boolean);
  if (entries.length === 1 && entries[0] === "*") return { origins: "*" };
  const refuse = (why: string): never => {
    throw new Error(`CLOUDPLANE_CORS_ORIGINS must be * or a comma-separated list of origins such as https://app.example.com: ${why}`);
  };
  if (!entries.length) refuse("it names none.");
  const origins = entries.map((entry) => {
    let url: URL | undefined;
    try {
      url = new URL(entry);
    } catch {
      // Refused below.
    }
    // An origin is a scheme, a host and a port: nothing after them but the one slash URL adds.
    if (!url || (url.protocol !== "http:" && url.protocol !== "https:") || `${url.origin}/` !== url.href)
      return refuse(`"${entry}" is not an origin (scheme, host and port, no path).`);
    return url.origin;
  });
  return { origins: [...new Set(origins)] };
}

/** The database URL: a Hyperdrive binding's connection string first, then DATABASE_URL. */
export function databaseUrl(env: Env): string {
  const hyperdrive = env.HYPERDRIVE as { connectionString?: unknown } | undefined;
  const url = typeof hyperdrive?.connectionString === "string" ? hyperdrive.connectionString : setting(env, "DATABASE_URL");
  if (!url) throw new Error("DATABASE_URL is not set: a serverless deployment needs PostgreSQL (on Workers, a HYPERDRIVE binding may stand in for it).");
  return url;
}

let importedKey: { base64: string; key: Promise<CryptoKey> } | undefined;

/** The secrets key, imported once per process or isolate (a CryptoKey is no I/O object, so it may be shared). */
function secretsKeyFromEnv(env: Env): Promise<CryptoKey> {
  const base64 = setting(env, "CLOUDPLANE_SECRETS_KEY");
  if (!base64) throw new Error("CLOUDPLANE_SECRETS_KEY is not set: it encrypts secrets at rest (32 random bytes, base64).");
  if (importedKey?.base64 !== base64) {
    const key = importSecretsKey(base64);
    importedKey = { base64, key };
    // A key that fails to import is tried again next time.
    key.catch(() => {
      if (importedKey?.key === key) importedKey = undefined;
    });
  }
  return importedKey.key;
}

export interface FromEnvOptions {
  /** A database already open (the local app's PGlite); otherwise the one the environment names is opened. */
  db?: HandlerOptions["db"];
  /** The secrets key, when the caller has it (the local app's key file); otherwise CLOUDPLANE_SECRETS_KEY. */
  secretsKey?: CryptoKey;
  /** Tunes the connection opened from the environment: pool size, connect timeout, `migrate: false` where another step migrates. */
  database?: Omit<CreateDatabaseOptions, "url" | "dataDir">;
  /** Receives the database opened from the environment, so the caller can close it. */
  onDatabase?: (database: CloudplaneDatabase) => void;
  /**
   * Anything else, as `createHandler` takes it (memory, onRequest, onError, …); the environment's
   * settings win (its CORS setting when it has one: `cors` here is the default).
   */
  handler?: Partial<HandlerOptions>;
}

/** The settings the environment gives the handler, each checked (a wrong one throws, naming it), with the secrets key. */
async function settingsFromEnv(env: Env, secretsKey: CryptoKey | undefined) {
  const rateLimit = rateLimitFromEnv(env);
  const basePath = setting(env, "CLOUDPLANE_BASE_PATH");
  const cors = corsFromEnv(env);
  const requestLog = requestLogFromEnv(env);
  return { secretsKey: secretsKey ?? (await secretsKeyFromEnv(env)), basePath, rateLimit, requestLog, ...(cors ? { cors } : {}) };
}

/** The handler's options: the caller's, then the database, then the environment's settings, which win. */
function withSettings(settings: Awaited<ReturnType<typeof settingsFromEnv>>, db: HandlerOptions["db"], handler: Partial<HandlerOptions> | undefined): HandlerOptions {
  const { requestLog, ...rest } = settings;
  return {
    onRequest: (entry) => console.log(JSON.stringify({ level: "info", msg: "request", ...entry })),
    ...handler,
    // CLOUDPLANE_REQUEST_LOG=off wins over the caller's `onRequest` too, as the environment's settings do.
    ...(requestLog ? {} : { onRequest: undefined }),
    db,
    ...rest,
  };
}

/** The handler's options from the environment: its settings, and the database and key it names unless given. */
export async function handlerOptionsFromEnv(env: Env, options: FromEnvOptions = {}): Promise<HandlerOptions> {
  const settings = await settingsFromEnv(env, options.secretsKey);
  let db = options.db;
  if (!db) {
    const database = await createDatabase({ url: databaseUrl(env), ...options.database });
    options.onDatabase?.(database);
    db = database.db;
  }
  return withSettings(settings, db, options.handler);
}

/** `createHandler` on the environment's settings (`handlerOptionsFromEnv`). */
export async function createHandlerFromEnv(env: Env, options: FromEnvOptions = {}): Promise<Handler> {
  return createHandler(await handlerOptionsFromEnv(env, options));
}

/**
 * `createHandler` on the environment's settings and a database the caller gives (Workers: the request's
 * own connection). It opens none, so a bundle that calls only this carries no migrations.
 */
export async function createHandlerOnDatabase(env: Env, db: HandlerOptions["db"], options: Pick<FromEnvOptions, "secretsKey" | "handler"> = {}): Promise<Handler> {
  return createHandler(withSettings(await settingsFromEnv(env, options.secretsKey), db, options.handler));
}
