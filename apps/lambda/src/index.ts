/**
 * The cloudplane API on AWS Lambda behind an API Gateway HTTP API (payload 2.0; REST API events work
 * too). The database from DATABASE_URL is opened on the first event and reused by the ones after it.
 */
import { createDatabase, importSecretsKey } from "@cloudplane/db";
import { createHandler, lazyHandler, type ApiHandler } from "@cloudplane/handlers";
import { handle } from "@cloudplane/handlers/lambda";

function log(entry: Record<string, unknown>): void {
  console.log(JSON.stringify(entry));
}

function logError(msg: string, error: unknown, requestId?: string): void {
  const detail = error instanceof Error ? { error: error.name, message: error.message } : { error: String(error) };
  console.error(JSON.stringify({ level: "error", msg, ...(requestId ? { request_id: requestId } : {}), ...detail }));
}

function setting(name: string): string | undefined {
  return process.env[name] || undefined;
}

async function createLambdaHandler(): Promise<ApiHandler> {
  const url = setting("DATABASE_URL");
  const key = setting("CLOUDPLANE_SECRETS_KEY");
  if (!url) throw new Error("DATABASE_URL is not set: the Lambda needs a PostgreSQL database.");
  if (!key) throw new Error("CLOUDPLANE_SECRETS_KEY is not set: 32 random bytes, base64.");
  // One instance serves one event at a time: one connection is enough. Applying missing migrations
  // is safe from many cold starts at once, and a no-op once they are in.
  const { db } = await createDatabase({ url, max: 1, connectTimeout: 5 });
  return createHandler({
    db,
    secretsKey: await importSecretsKey(key),
    basePath: setting("CLOUDPLANE_BASE_PATH"),
    onRequest: (entry) => log({ level: "info", msg: "request", ...entry }),
    onError: (error, requestId) => logError("unexpected error", error, requestId),
  });
}

/** The Lambda handler: `index.handler` in the bundle (dist/index.mjs). */
export const handler = handle(lazyHandler(createLambdaHandler, (error) => logError("the Lambda could not start", error)));
