/**
 * Builds the handler from environment settings, as serverless deployments configure it:
 * DATABASE_URL (PostgreSQL), CLOUDPLANE_SECRETS_KEY (base64 AES-256 key), CLOUDPLANE_BASE_PATH,
 * CLOUDPLANE_RATE_LIMIT (requests a second per token, 0 turns the limit off) and CLOUDPLANE_RATE_BURST.
 */
import { createDatabase, importSecretsKey } from "@cloudplane/db";
import { createHandler, type Handler } from "./handler.js";
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

export async function createHandlerFromEnv(env: Env): Promise<Handler> {
  const url = setting(env, "DATABASE_URL");
  const key = setting(env, "CLOUDPLANE_SECRETS_KEY");
  if (!url) throw new Error("DATABASE_URL is not set: a serverless deployment needs a PostgreSQL database.");
  if (!key) throw new Error("CLOUDPLANE_SECRETS_KEY is not set: it encrypts secrets at rest (32 random bytes, base64).");
  const rateLimit = rateLimitFromEnv(env);
  const { db } = await createDatabase({ url });
  return createHandler({
    db,
    secretsKey: await importSecretsKey(key),
    basePath: setting(env, "CLOUDPLANE_BASE_PATH"),
    rateLimit,
  });
}
