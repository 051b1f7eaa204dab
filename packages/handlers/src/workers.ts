/**
 * The handler on Cloudflare Workers, made where the environment is read: one handler per isolate, built
 * from the isolate's environment, and a database connection of its own for each request (a socket opened
 * for one request cannot serve another there), closed after the response (request-database.ts).
 */
import { openDatabase, type CloudplaneDatabase } from "@cloudplane/db";
import { ApiError, errorResponse, newRequestId } from "./errors.js";
import { createHandlerOnDatabase, databaseUrl, type Env } from "./from-env.js";
import { lazily, logSetupError } from "./lazy.js";
import { createHandlerMemory } from "./memory.js";
import { onRequestDatabase, requestDatabase } from "./request-database.js";
import type { Handler } from "./types.js";

/** The part of a Workers `ExecutionContext` used here. */
export interface ExecutionContext {
  waitUntil(promise: Promise<unknown>): void;
}

/** Token lookups and rate-limit leases outlive the request that made them: the isolate's later requests reuse them. */
const isolateMemory = createHandlerMemory();

/**
 * The handler of an isolate, per `env`: built once, on `requestDatabase`, the database of whichever
 * request it is serving. A failed setup is logged, answered in the envelope, and tried again on the next
 * request.
 */
const isolateHandlers = new WeakMap<Env, () => Promise<Handler | ApiError>>();

function isolateHandler(env: Env): () => Promise<Handler | ApiError> {
  let handler = isolateHandlers.get(env);
  if (!handler) {
    handler = lazily(() => createHandlerOnDatabase(env, requestDatabase, { handler: { memory: isolateMemory } }), logSetupError);
    isolateHandlers.set(env, handler);
  }
  return handler;
}

/** The environment the isolate's handler was prepared on at load (`prepareIsolate`), which every request is then served on. */
let preparedEnv: Env | undefined;

/**
 * Builds the isolate's handler at load, from the environment the runtime gives the module
 * (`import { env } from "cloudflare:workers"`), instead of on its first request: the routes, the
 * middleware and ts-rest's router are made while the runtime loads the worker, before any request waits.
 * No connection is opened (that stays per request). A setup that fails here is logged and tried again
 * on the first request.
 */
export function prepareIsolate(env: Env): void {
  preparedEnv = env;
  void isolateHandler(env)();
}

/**
 * The fetch handler of one request on Workers: the isolate's handler on a connection of the request's
 * own, closed afterwards (`ctx.waitUntil`). No migrations (the deployment applies them); no type lookup
 * (Drizzle parses arrays itself) and no statements prepared on the server: on a connection that serves
 * one request each would only add a round trip. No relational query builder either (the routes use only
 * the query builder): building it costs more than a small request.
 */
export function workersHandler(env: Env, ctx: ExecutionContext): Handler {
  return async (request) => {
    let database: CloudplaneDatabase | undefined;
    try {
      const handler = await isolateHandler(preparedEnv ?? env)();
      if (handler instanceof ApiError) return errorResponse(handler, newRequestId());
      // Opened for this request alone: a failure (no DATABASE_URL, say) answers in the envelope, and the log says why.
      const opened = await lazily(
        async () => (database = await openDatabase({ url: databaseUrl(env), max: 1, fetchTypes: false, prepare: false, relationalQueries: false })),
        logSetupError,
      )();
      if (opened instanceof ApiError) return errorResponse(opened, newRequestId());
      return await onRequestDatabase(opened.db, () => handler(request));
    } finally {
      if (database) ctx.waitUntil(database.close());
    }
  };
}
