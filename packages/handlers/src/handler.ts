/**
 * `createHandler`: the whole API as one fetch handler `(Request) => Promise<Response>`, built once, that
 * every runtime serves. A request flows one way: the front (front.ts: request id, base path, the body
 * read once within its limit and type, the deadline), then @ts-rest/serverless's fetch handler over the
 * routes (router.ts) with the middleware (middleware.ts: body and query handed over, authentication, the
 * rate limit, a POST's idempotency key, then per route the role), and the answers (answers.ts: the envelope, CORS, HEAD, the log).
 */
import { TsRestResponse } from "@ts-rest/serverless";
import { createFetchHandler } from "@ts-rest/serverless/fetch";
import { createAnswers } from "./answers.js";
import { routeBodyTypes } from "./body-types.js";
import { createAuthenticator } from "./auth.js";
import { createIdempotency } from "./idempotency.js";
import { hasBody, noRoute, requestIdOf, requestUrl, servable, underBasePath, withDeadline, type PlatformContext } from "./front.js";
import { createHandlerMemory } from "./memory.js";
import { requestMiddleware } from "./middleware.js";
import { createRouter, servedContract } from "./router.js";
import type { Handler, HandlerOptions } from "./types.js";

/**
 * ts-rest's `TsRestResponse` extends the `Response` class there was when it was loaded. Where the runtime
 * has put a subclass of that class in its place since (Node's bridge, @hono/node-server, puts its light
 * class there when it starts serving: it keeps a text body as it is, and the bridge writes it straight to
 * the socket, where undici's `Response` would wrap it in a web stream first), `TsRestResponse` is made to
 * extend the runtime's class instead. `super()` calls the class's prototype as it is when it runs, so
 * every answer built from then on is the runtime's kind, with no copy; elsewhere nothing changes.
 */
function followRuntimeResponse(): void {
  const base: unknown = Object.getPrototypeOf(TsRestResponse);
  if (base === Response || typeof base !== "function" || !(Response.prototype instanceof base)) return;
  Object.setPrototypeOf(TsRestResponse, Response);
  Object.setPrototypeOf(TsRestResponse.prototype, Response.prototype);
}

export function createHandler(options: HandlerOptions): Handler {
  const basePath = (options.basePath ?? "").replace(/\/+$/, "");
  const timeoutMs = options.timeoutMs ?? 25_000;
  const memory = options.memory ?? createHandlerMemory(options.authCacheMs);
  const bodyTypeOf = routeBodyTypes(basePath);
  const idempotency = createIdempotency(options.db, options.secretsKey);
  const answers = createAnswers(options, basePath, idempotency);
  const authenticate = createAuthenticator(options.db, memory.tokens);
  const serve = createFetchHandler(servedContract, createRouter({ ...options, memory }), {
    basePath: basePath || undefined,
    responseValidation: options.responseValidation ?? false,
    requestMiddleware: requestMiddleware(options, memory, authenticate, idempotency),
    ...answers.serverless,
  });
  return async (request) => {
    const started = performance.now();
    // Asked on each request: the bridge puts its class in place when it starts serving, after this module loaded.
    followRuntimeResponse();
    const requestId = requestIdOf(request);
    const url = requestUrl(request.url);
    try {
      if (!underBasePath(basePath, url.pathname)) throw noRoute(request.method, url.pathname);
      const context: PlatformContext = { started, requestId, progress: {}, url };
      const answer = (async () => {
        // A body costs its reading and parsing: only a caller with a valid token gets that far, so a
        // client without one cannot hold the event loop (a preflight, answered before any token, has none).
        if (request.method !== "OPTIONS" && hasBody(request)) context.caller = await authenticate(request.headers.get("authorization"));
        const servedRequest = await servable(request, url, context.progress, bodyTypeOf);
        // ts-rest types its fetch handler's answer as any; it is the Response its router made.
        return (await serve(servedRequest, context)) as Response;
      })();
      return await withDeadline(answer, timeoutMs, context.progress);
    } catch (error) {
      return answers.answerError(error, { method: request.method, pathname: url.pathname, requestId, started, origin: request.headers.get("origin") });
    }
  };
}
