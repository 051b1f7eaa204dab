/**
 * Fetch runtime entry (Cloudflare Workers, Deno, Bun, Vercel): `export default { fetch }`, configured
 * from the environment (Workers bindings, or the process environment elsewhere). On Workers, where a
 * socket opened for one request cannot serve another, each request opens its own connection and
 * closes it after the response, under one handler per isolate (request-database.ts); elsewhere one
 * pooled database serves every request.
 */
import { createDatabase, type CloudplaneDatabase } from "@cloudplane/db";
import { ApiError, errorResponse, newRequestId } from "../../errors.js";
import { createHandlerFromEnv, databaseUrl, type Env } from "../../from-env.js";
import { lazily, lazyHandler, logSetupError } from "../../lazy.js";
import { createHandlerMemory } from "../../memory.js";
import { onRequestDatabase, requestDatabase } from "../../request-database.js";
import type { Handler } from "../../types.js";

export { createHandler } from "../../handler.js";
export type { Handler, HandlerOptions } from "../../types.js";
export { createHandlerFromEnv, type Env } from "../../from-env.js";

/** The part of a Workers `ExecutionContext` this entry uses. */
export interface ExecutionContext {
  waitUntil(promise: Promise<unknown>): void;
}

/** The most of an unread request body that is read and dropped before answering. */
const DISCARD_LIMIT_BYTES = 16 * 1024 * 1024;

/**
 * Reads and drops what the handler left of a request body (it answers 413 to a body declared over
 * 1 MiB without reading it): workerd resets a connection whose body was left unread, so a client
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

/** Token lookups and rate-limit leases outlive the request that made them: the isolate's later requests reuse them. */
const isolateMemory = createHandlerMemory();

/**
 * The handler of an isolate on Workers, per `env`: built once, on `requestDatabase`, the database of
 * whichever request it is serving. A failed setup is logged, answered in the envelope, and tried again
 * on the next request.
 */
const isolateHandlers = new WeakMap<Env, () => Promise<Handler | ApiError>>();

function isolateHandler(env: Env): () => Promise<Handler | ApiError> {
  let handler = isolateHandlers.get(env);
  if (!handler) {
    handler = lazily(() => createHandlerFromEnv(env, { db: requestDatabase, handler: { memory: isolateMemory } }), logSetupError);
    isolateHandlers.set(env, handler);
  }
  return handler;
}

/** The environment the isolate's handler was prepared on at load (`prepareIsolate`), which every request is then served on. */
let preparedEnv: Env | undefined;

/**
 * Builds the isolate's handler at load, from the environment the runtime gives the module
 * (`import { env } from "cloudflare:workers"`), instead of on its first request: the routes, the
 * pipeline and ts-rest's router are made while the runtime loads the worker, before any request waits.
 * No connection is opened (that stays per request). A setup that fails here is logged and tried again
 * on the first request.
 */
export function prepareIsolate(env: Env): void {
  preparedEnv = env;
  void isolateHandler(env)();
}

/**
 * One request on Workers: its own connection, closed afterwards. No migrations (the deployment applies
 * them); no type lookup (Drizzle parses arrays itself) and no statements prepared on the server: on a
 * connection that serves one request each would only add a round trip. No relational query builder
 * either (the routes use only the query builder): building it costs more than a small request.
 */
async function servePerRequest(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
  let database: CloudplaneDatabase | undefined;
  const serve = async (): Promise<Response> => {
    const handler = await isolateHandler(preparedEnv ?? env)();
    if (handler instanceof ApiError) return errorResponse(handler, newRequestId());
    // Opened for this request alone: a failure (no DATABASE_URL, say) answers in the envelope, and the log says why.
    const opened = await lazily(
      async () => (database = await createDatabase({ url: databaseUrl(env), max: 1, migrate: false, fetchTypes: false, prepare: false, relationalQueries: false })),
      logSetupError,
    )();
    if (opened instanceof ApiError) return errorResponse(opened, newRequestId());
    return onRequestDatabase(opened.db, () => handler(request));
  };
  try {
    const response = await serve();
    await discardUnreadBody(request);
    return response;
  } finally {
    if (database) ctx.waitUntil(database.close());
  }
}

let pooled: Handler | undefined;

function processEnv(): Env {
  return (globalThis as { process?: { env?: Env } }).process?.env ?? {};
}

export default {
  fetch(request: Request, env?: Env, ctx?: ExecutionContext): Promise<Response> {
    if (env && typeof ctx?.waitUntil === "function") return servePerRequest(request, env, ctx);
    pooled ??= lazyHandler(() => createHandlerFromEnv(env ?? processEnv()));
    return pooled(request);
  },
};
