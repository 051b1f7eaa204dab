/**
 * The cloudplane API on Cloudflare Workers. Workers forbid using a socket opened by one request in
 * another, so every request opens its own PostgreSQL connection (postgres.js over cloudflare:sockets,
 * or through Hyperdrive) and closes it after the response. Migrations are not run here: the
 * deployment applies them beforehand (`pnpm --filter @cloudplane/worker migrate`).
 */
import { createDatabase, importSecretsKey, type CloudplaneDatabase } from "@cloudplane/db";
import { createHandler, lazyHandler } from "@cloudplane/handlers";

/** The worker's bindings (wrangler.toml, `wrangler secret put`). */
export interface Env {
  /** PostgreSQL connection URL (a secret); not needed with a Hyperdrive binding. */
  DATABASE_URL?: string;
  /** A Hyperdrive configuration in front of PostgreSQL; preferred over DATABASE_URL when bound. */
  HYPERDRIVE?: { connectionString: string };
  /** The base64 AES-256 key that encrypts secrets at rest (a secret). */
  CLOUDPLANE_SECRETS_KEY?: string;
  /** Serve the API under this path prefix; empty or unset: at the root. */
  CLOUDPLANE_BASE_PATH?: string;
}

export interface ExecutionContext {
  waitUntil(promise: Promise<unknown>): void;
}

function log(entry: Record<string, unknown>): void {
  console.log(JSON.stringify(entry));
}

function logError(msg: string, error: unknown, requestId?: string): void {
  const detail = error instanceof Error ? { error: error.name, message: error.message } : { error: String(error) };
  console.error(JSON.stringify({ level: "error", msg, ...(requestId ? { request_id: requestId } : {}), ...detail }));
}

/** The imported key is no I/O object: one per isolate serves every request. */
/** The most of an unread request body a worker reads and discards before answering. */
const DISCARD_LIMIT_BYTES = 16 * 1024 * 1024;

/**
 * Reads and drops what the handler left of a request body: it answers 413 to a body declared over
 * 1 MiB without reading it, and workerd resets a connection whose body was left unread, so a client
 * still sending it could lose the answer. Past the limit the body is cancelled instead.
 */
async function discardUnreadBody(request: Request): Promise<void> {
  if (!request.body || request.bodyUsed) return;
  let read = 0;
  const sink = new WritableStream<Uint8Array>({
    write(chunk, controller) {
      read += chunk.byteLength;
      if (read > DISCARD_LIMIT_BYTES) controller.error(new Error("Request body too large to discard."));
    },
  });
  await request.body.pipeTo(sink).catch(() => undefined);
}

let secretsKey: { base64: string; key: Promise<CryptoKey> } | undefined;

function secretsKeyOf(base64: string): Promise<CryptoKey> {
  if (secretsKey?.base64 !== base64) secretsKey = { base64, key: importSecretsKey(base64) };
  const { key } = secretsKey;
  // A key that fails to import is tried again by the next request, and answers in the envelope now.
  key.catch(() => {
    if (secretsKey?.key === key) secretsKey = undefined;
  });
  return key;
}

export default {
  async fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
    let database: CloudplaneDatabase | undefined;
    // lazyHandler answers a setup failure (a missing setting, say) with the error envelope and logs why.
    const handler = lazyHandler(
      async () => {
        const url = env.HYPERDRIVE?.connectionString || env.DATABASE_URL;
        if (!url) throw new Error("Neither a HYPERDRIVE binding nor the DATABASE_URL secret is set.");
        if (!env.CLOUDPLANE_SECRETS_KEY) throw new Error("The CLOUDPLANE_SECRETS_KEY secret is not set: 32 random bytes, base64.");
        const key = await secretsKeyOf(env.CLOUDPLANE_SECRETS_KEY);
        // One connection, opened by the first query; creating the handler costs a fraction of a millisecond.
        database = await createDatabase({ url, max: 1, migrate: false });
        return createHandler({
          db: database.db,
          secretsKey: key,
          basePath: env.CLOUDPLANE_BASE_PATH || undefined,
          onRequest: (entry) => log({ level: "info", msg: "request", ...entry }),
          onError: (error, requestId) => logError("unexpected error", error, requestId),
        });
      },
      (error) => logError("the worker is not configured", error),
    );
    try {
      const response = await handler(request);
      await discardUnreadBody(request);
      return response;
    } finally {
      if (database) ctx.waitUntil(database.close());
    }
  },
};
