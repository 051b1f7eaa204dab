/**
 * @cloudplane/handlers: the cloud platform API as one fetch handler. Runtime entry points:
 * `@cloudplane/handlers/fetch`, `@cloudplane/handlers/lambda`, `@cloudplane/handlers/node`.
 */
export { createHandler } from "./handler.js";
export { createHandlerMemory } from "./memory.js";
export { MAX_BODY_BYTES } from "./front.js";
export type { CorsSettings, Handler, HandlerMemory, HandlerOptions, RequestLogEntry } from "./types.js";
export { corsFromEnv, createHandlerFromEnv, handlerOptionsFromEnv, rateLimitFromEnv, requestLogFromEnv, type Env, type FromEnvOptions } from "./from-env.js";
export { lazyHandler } from "./lazy.js";
export { ApiError, errorReport, type ErrorReport } from "./errors.js";
export { DEFAULT_RATE_LIMIT, type RateLimit } from "./rate-limit.js";
export type { Caller } from "./auth.js";
