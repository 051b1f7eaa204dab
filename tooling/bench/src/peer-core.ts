/**
 * The peer: the bench's routes built the way a team would build them without us, on Hono with
 * @hono/zod-openapi. `createRoute` per route with the contract's own zod schemas for the path, query and
 * body (validated by zod-openapi, 400 on a failure), an `Authorization: apikey <token>` middleware that
 * looks the token's SHA-256 hash up in one SQL statement (the lookup reused for up to a second, as ours
 * is), the role check as route middleware, and the route's SQL run through the driver with the rows
 * mapped to the API's fields by hand. Its SQL for the route's data is the very statements ours sends
 * (caught from our handler at the start of the run, as the baseline gets them), so "ours / peer" sets
 * our framework, contract and query builder against a common hand-built stack, not against other SQL.
 *
 * This file is the Hono layer only: the schemas, the token lookup, the role table and each route's work
 * (its SQL and the rows mapped by hand, the 501 of a request shape it was given no SQL for) are
 * peer-routes.ts, which the Fastify peer (fastify-peer-core.ts) shares. It imports no Node module, so
 * that the same app can run in workerd. The Node server is servers/peer.ts.
 */
import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import type { RouteAccess } from "@cloudplane/contract";
import type { Context, MiddlewareHandler } from "hono";
import type { RawDatabase } from "./baseline-core.js";
import {
  checkAccess,
  fieldErrors,
  PeerError,
  peerRoutes,
  peerSchemas,
  tokenAuthenticator,
  type PeerCaller,
  type PeerContext,
  type Problem,
  type RouteStatements,
} from "./peer-routes.js";

export type { PeerCaller } from "./peer-routes.js";

/** What a request runs on. */
export interface PeerConnection {
  db: RawDatabase;
  /** The route statements ours sends, per request variant (baseline-core.ts `variantKey`). */
  statements: RouteStatements;
  /** Called after the response (with `waitUntil` on Workers): a connection opened for the request is closed. */
  close?: () => Promise<void>;
}

type PeerEnv = { Bindings: Record<string, unknown>; Variables: { caller: PeerCaller; db: RawDatabase; statements: RouteStatements } };

export interface PeerOptions {
  /** The database and statements of a request, given the runtime's bindings: on Node one database for the process; on Workers a connection per request. */
  connect: (bindings: PeerEnv["Bindings"]) => PeerConnection;
  /** How long a token's lookup is reused, in ms (ours: 1000). */
  authCacheMs?: number;
}

const errorResponse = { description: "The error: `code`, `message` and, for a validation failure, `errors` per field." };
const json = <S>(schema: S, description: string) => ({ description, content: { "application/json": { schema } } });

/** The `Authorization: apikey <token>` middleware: the caller from one lookup of the token's hash, kept for `cacheMs`. */
function authentication(cacheMs: number): MiddlewareHandler<PeerEnv> {
  const authenticate = tokenAuthenticator(cacheMs);
  return async (c, next) => {
    c.set("caller", await authenticate(c.req.header("authorization"), c.get("db")));
    return next();
  };
}

/** The role table as route middleware: reads for every role that reads, writes for Administrators and Engineers. */
function access(kind: RouteAccess): MiddlewareHandler<PeerEnv> {
  return async (c, next) => {
    checkAccess(c.get("caller"), kind);
    return next();
  };
}

/** What a route's work runs on, from the request's context. */
const context = (c: Context<PeerEnv>): PeerContext => ({ db: c.get("db"), statements: c.get("statements"), caller: c.get("caller") });

/** The Hono app of the bench's routes on `db`. */
export function createPeerApp({ connect, authCacheMs = 1000 }: PeerOptions): OpenAPIHono<PeerEnv> {
  const routes = peerRoutes();
  const app = new OpenAPIHono<PeerEnv>({
    defaultHook: (result, c) => {
      if (!result.success)
        return c.json<Problem>({ code: "validation_failed", message: "The request is not valid.", errors: fieldErrors(result.error.issues) }, 400);
    },
  });
  app.onError((error, c) => {
    if (error instanceof PeerError) return c.json<Problem>({ code: error.code, message: error.message }, error.status);
    // Hono's own refusals (a body that is not JSON) carry their status.
    const status = (error as { status?: number }).status;
    if (typeof status === "number" && status >= 400 && status < 500) return c.json<Problem>({ code: "bad_request", message: error.message }, 400);
    console.error(error);
    return c.json<Problem>({ code: "internal", message: "Internal error." }, 500);
  });
  app.notFound((c) => c.json<Problem>({ code: "not_found", message: `No route matches ${c.req.method} ${c.req.path}.` }, 404));
  app.use("*", async (c, next) => {
    const { db, statements, close } = connect(c.env);
    c.set("db", db);
    c.set("statements", statements);
    try {
      await next();
    } finally {
      if (close) c.executionCtx.waitUntil(close());
    }
  });
  app.use("*", authentication(authCacheMs));

  app.openapi(
    createRoute({
      method: "get",
      path: "/streaming/streams/{stream_id}",
      middleware: [access("read")] as const,
      request: { params: peerSchemas.streamParams },
      responses: { 200: json(peerSchemas.stream, "The stream."), 404: errorResponse },
    }),
    async (c) => c.json(await routes.getStream(context(c), c.req.valid("param")), 200),
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/edge/v1/apps",
      middleware: [access("read")] as const,
      request: { query: peerSchemas.appsQuery },
      responses: { 200: json(peerSchemas.edgeAppList, "A page of the account's edge apps and the number of all that match.") },
    }),
    async (c) => c.json(await routes.listApps(context(c), c.req.valid("query")), 200),
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/edge/v1/apps/{id}",
      middleware: [access("read")] as const,
      request: { params: peerSchemas.appParams },
      responses: { 200: json(peerSchemas.edgeAppDetail, "The edge app with its settings and the secrets and KV stores it reads."), 404: errorResponse },
    }),
    async (c) => c.json(await routes.getApp(context(c), c.req.valid("param")), 200),
  );

  app.openapi(
    createRoute({
      method: "post",
      path: "/streaming/streams",
      middleware: [access("write")] as const,
      request: { body: { required: true, content: { "application/json": { schema: peerSchemas.newStreamBody } } } },
      responses: { 201: json(peerSchemas.newStream, "The new stream."), 400: errorResponse },
    }),
    async (c) => c.json(await routes.createStream(context(c), c.req.valid("json")), 201),
  );

  app.openapi(
    createRoute({
      method: "delete",
      path: "/streaming/streams/{stream_id}",
      middleware: [access("write")] as const,
      request: { params: peerSchemas.deleteStreamParams },
      responses: { 204: { description: "Deleted." }, 404: errorResponse },
    }),
    async (c) => {
      await routes.deleteStream(context(c), c.req.valid("param"));
      return c.body(null, 204);
    },
  );

  app.openapi(
    createRoute({
      method: "patch",
      path: "/cdn/resources/{resource_id}",
      middleware: [access("write")] as const,
      request: { params: peerSchemas.resourceParams, body: { required: true, content: { "application/json": { schema: peerSchemas.patchBody } } } },
      responses: { 200: json(peerSchemas.cdnResource, "The resource after the change."), 404: errorResponse },
    }),
    async (c) => {
      const facts = { header: (name: string) => c.req.header(name), url: new URL(c.req.url), sentBody: () => c.req.json<unknown>() };
      return c.json(await routes.patchResource(context(c), c.req.valid("param"), c.req.valid("json"), facts), 200);
    },
  );

  app.openapi(
    createRoute({
      method: "post",
      path: "/cloud/v1/reservation_cost_report/totals",
      middleware: [access("read")] as const,
      request: { body: { required: true, content: { "application/json": { schema: peerSchemas.reportBody } } } },
      responses: { 200: json(peerSchemas.costReportTotals, "The totals.") },
    }),
    async (c) => c.json(await routes.costReport(context(c), c.req.valid("json")), 200),
  );

  return app;
}
