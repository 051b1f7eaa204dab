/**
 * Builds the handler from environment settings, as serverless deployments configure it:
 * DATABASE_URL (PostgreSQL) or a Hyperdrive binding HYPERDRIVE, CLOUDPLANE_SECRETS_KEY (base64
 * AES-256 key), CLOUDPLANE_BASE_PATH, CLOUDPLANE_RATE_LIMIT (requests a second per token, 0 turns the
 * limit off) and CLOUDPLANE_RATE_BURST. Request logs and errors go to the console as JSON lines.
 */
import { createDatabase, importSecretsKey, type CloudplaneDatabase, type CreateDatabaseOptions } from "@cloudplane/db";
import { createHandler, type ApiHandler, type HandlerMemory } from "./handler.js";
import { DEFAULT_RATE_LIMIT, type RateLimit } from "./rate-limit.js";

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

/** The database URL: a Hyperdrive binding's connection string first, then DATABASE_URL. */
function databaseUrl(env: Env): string {
  const hyperdrive = env.HYPERDRIVE as { connectionString?: unknown } | undefined;
  const url = typeof hyperdrive?.connectionString === "string" ? hyperdrive.connectionString : setting(env, "DATABASE_URL");
  if (!url) throw new Error("Neither DATABASE_URL nor a HYPERDRIVE binding is set: a serverless deployment needs PostgreSQL.");
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

/**
 * Opens the database the environment names and builds the handler on it. `database` tunes the
 * connection (Workers use one connection per request and never migrate); `onDatabase` receives it
 * so the caller can close it.
 */
export async function createHandlerFromEnv(
  env: Env,
  options: {
    database?: Omit<CreateDatabaseOptions, "url" | "dataDir">;
    onDatabase?: (database: CloudplaneDatabase) => void;
    /** Shared by handlers built per request. */
    memory?: HandlerMemory;
  } = {},
): Promise<ApiHandler> {
  const url = databaseUrl(env);
  const rateLimit = rateLimitFromEnv(env);
  const secretsKey = await secretsKeyFromEnv(env);
  const database = await createDatabase({ url, ...options.database });
  options.onDatabase?.(database);
  return createHandler({
    db: database.db,
    secretsKey,
    basePath: setting(env, "CLOUDPLANE_BASE_PATH"),
    rateLimit,
    memory: options.memory,
    onRequest: (entry) => console.log(JSON.stringify({ level: "info", msg: "request", ...entry })),
  });
}
