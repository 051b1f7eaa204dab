/**
 * The second peer: the bench's routes on Fastify, the way a Fastify team on zod 3 would build them, so
 * that "ahead of what a user would pick" means ahead of the fastest common choice, not only of Hono.
 *
 * - Request validation: the contract's own zod schemas in each route's `schema` (params, querystring,
 *   body), compiled by fastify-type-provider-zod's `validatorCompiler` (with its `ZodTypeProvider` for
 *   the handlers' types). That is how Fastify's docs and the provider's README have a zod team validate;
 *   the repository is on zod 3.25, so the provider's 4.x line (the last that takes zod 3; 5.x and later
 *   want zod 4). zod 4's `z.toJSONSchema` is not an option: the contract's schemas are zod 3 objects. A
 *   failure answers 400 through the error handler with the zod issues per field, as the Hono peer does.
 * - Answers: Fastify's own serialiser, fast-json-stringify, compiled from each route's `schema.response`
 *   (Fastify's default serializer compiler). The provider's `serializerCompiler` would parse every answer
 *   with zod and then `JSON.stringify` it, throwing away what Fastify is chosen for; so the response
 *   schemas are JSON Schema, derived from the contract's zod response schemas (peer-routes.ts
 *   `peerSchemas`, checked to be the routes' own) by zod-to-json-schema, the converter the provider itself
 *   uses (`$refStrategy: "none"`, as it does). No JSON Schema is written by hand.
 * - The rest is peer-routes.ts, shared with the Hono peer: the `Authorization: apikey <token>` lookup
 *   (SHA-256 of the token in one SQL statement, reused for up to a second) as an `onRequest` hook, the
 *   role check as each route's own `onRequest` hook (after it, before the body is read), and each
 *   route's work: the very statements ours sends, the rows mapped by hand.
 *
 * Node only (Fastify runs on node:http); served by servers/fastify-peer.ts.
 */
import type { RouteAccess } from "@cloudplane/contract";
import Fastify, { type FastifyInstance, type FastifyRequest, type onRequestHookHandler } from "fastify";
import { hasZodFastifySchemaValidationErrors, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import { zodToJsonSchema } from "zod-to-json-schema";
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

declare module "fastify" {
  interface FastifyRequest {
    /** The caller, set by the authentication hook. */
    caller: PeerCaller | null;
    /** The PATCH's body as sent, kept before validation replaces it with zod's output (for the audit entry). */
    sentBody: unknown;
  }
}

export interface FastifyPeerOptions {
  db: RawDatabase;
  /** The route statements ours sends, per request variant (baseline-core.ts `variantKey`). */
  statements: RouteStatements;
  /** How long a token's lookup is reused, in ms (ours: 1000). */
  authCacheMs?: number;
}

/** A route's answer as JSON Schema for fast-json-stringify, from the contract's zod schema. */
function responseSchema(schema: Parameters<typeof zodToJsonSchema>[0]): object {
  const { $schema: _draft, ...json } = zodToJsonSchema(schema, { $refStrategy: "none" }) as Record<string, unknown>;
  return json;
}

/** The role table as a route's `onRequest` hook, after the authentication hook. */
function access(kind: RouteAccess): onRequestHookHandler {
  return (request, _reply, done) => {
    try {
      checkAccess(request.caller!, kind);
    } catch (error) {
      return done(error as Error);
    }
    done();
  };
}

/** The Fastify app of the bench's routes on `db`; `ready()` before use (listen and inject call it). */
export function createFastifyPeerApp({ db, statements, authCacheMs = 1000 }: FastifyPeerOptions): FastifyInstance {
  const routes = peerRoutes();
  const authenticate = tokenAuthenticator(authCacheMs);
  const context = (request: FastifyRequest): PeerContext => ({ db, statements, caller: request.caller! });

  const app = Fastify({ logger: false }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.decorateRequest("caller", null);
  app.decorateRequest("sentBody", null);

  app.setErrorHandler((error, _request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error))
      return reply
        .code(400)
        .send({ code: "validation_failed", message: "The request is not valid.", errors: fieldErrors(error.validation.map((item) => item.params.issue)) } satisfies Problem);
    if (error instanceof PeerError) return reply.code(error.status).send({ code: error.code, message: error.message } satisfies Problem);
    // Fastify's own refusals (a body that is not JSON, an unsupported content type) carry their status.
    const status = (error as { statusCode?: number }).statusCode;
    if (typeof status === "number" && status >= 400 && status < 500) return reply.code(400).send({ code: "bad_request", message: (error as Error).message } satisfies Problem);
    console.error(error);
    return reply.code(500).send({ code: "internal", message: "Internal error." } satisfies Problem);
  });
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send({ code: "not_found", message: `No route matches ${request.method} ${request.url.split("?")[0]}.` } satisfies Problem),
  );
  app.addHook("onRequest", async (request) => {
    request.caller = await authenticate(request.headers.authorization, db);
  });

  app.get(
    "/streaming/streams/:stream_id",
    { onRequest: access("read"), schema: { params: peerSchemas.streamParams, response: { 200: responseSchema(peerSchemas.stream) } } },
    async (request) => routes.getStream(context(request), request.params),
  );

  app.get(
    "/edge/v1/apps",
    { onRequest: access("read"), schema: { querystring: peerSchemas.appsQuery, response: { 200: responseSchema(peerSchemas.edgeAppList) } } },
    async (request) => routes.listApps(context(request), request.query),
  );

  app.get(
    "/edge/v1/apps/:id",
    { onRequest: access("read"), schema: { params: peerSchemas.appParams, response: { 200: responseSchema(peerSchemas.edgeAppDetail) } } },
    async (request) => routes.getApp(context(request), request.params),
  );

  app.post(
    "/streaming/streams",
    { onRequest: access("write"), schema: { body: peerSchemas.newStreamBody, response: { 201: responseSchema(peerSchemas.newStream) } } },
    async (request, reply) => reply.code(201).send(await routes.createStream(context(request), request.body)),
  );

  app.delete(
    "/streaming/streams/:stream_id",
    { onRequest: access("write"), schema: { params: peerSchemas.deleteStreamParams } },
    async (request, reply) => {
      await routes.deleteStream(context(request), request.params);
      return reply.code(204).send();
    },
  );

  app.patch(
    "/cdn/resources/:resource_id",
    {
      onRequest: access("write"),
      // The body as sent, for the audit entry: validation replaces `request.body` with what zod parsed.
      preValidation: (request, _reply, done) => {
        request.sentBody = request.body;
        done();
      },
      schema: { params: peerSchemas.resourceParams, body: peerSchemas.patchBody, response: { 200: responseSchema(peerSchemas.cdnResource) } },
    },
    async (request) => {
      const facts = {
        header: (name: string) => {
          const value = request.headers[name];
          return Array.isArray(value) ? value.join(", ") : value;
        },
        url: new URL(request.url, `${request.protocol}://${request.host}`),
        sentBody: () => request.sentBody,
      };
      return routes.patchResource(context(request), request.params, request.body, facts);
    },
  );

  app.post(
    "/cloud/v1/reservation_cost_report/totals",
    { onRequest: access("read"), schema: { body: peerSchemas.reportBody, response: { 200: responseSchema(peerSchemas.costReportTotals) } } },
    async (request) => routes.costReport(context(request), request.body),
  );

  return app;
}
