/**
 * Builds the handler from environment settings, as serverless deployments configure it:
 * DATABASE_URL (PostgreSQL), CLOUDPLANE_SECRETS_KEY (base64 AES-256 key), CLOUDPLANE_BASE_PATH.
 */
import { createDatabase, importSecretsKey } from "@cloudplane/db";
import { createHandler, type Handler } from "./handler.js";

export type Env = Record<string, unknown>;

function setting(env: Env, name: string): string | undefined {
  const value = env[name];
  return typeof value === "string" && value.length > 0 ? value : undefined;
}

export async function createHandlerFromEnv(env: Env): Promise<Handler> {
  const url = setting(env, "DATABASE_URL");
  const key = setting(env, "CLOUDPLANE_SECRETS_KEY");
  if (!url) throw new Error("DATABASE_URL is not set: a serverless deployment needs a PostgreSQL database.");
  if (!key) throw new Error("CLOUDPLANE_SECRETS_KEY is not set: it encrypts secrets at rest (32 random bytes, base64).");
  const { db } = await createDatabase({ url });
  return createHandler({ db, secretsKey: await importSecretsKey(key), basePath: setting(env, "CLOUDPLANE_BASE_PATH") });
}
