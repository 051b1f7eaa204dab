/**
 * @cloudplane/handlers: the cloud platform API as one fetch handler. Runtime entry points:
 * `@cloudplane/handlers/fetch`, `@cloudplane/handlers/lambda`, `@cloudplane/handlers/node`.
 */
export {
  createHandler,
  createHandlerMemory,
  MAX_BODY_BYTES,
  type ApiHandler,
  type Handler,
  type HandlerMemory,
  type HandlerOptions,
  type RequestLogEntry,
} from "./handler.js";
export { createHandlerFromEnv, rateLimitFromEnv, type Env } from "./from-env.js";
export { lazyHandler } from "./lazy.js";
export { ApiError, type ErrorReport } from "./errors.js";
export { DEFAULT_RATE_LIMIT, type RateLimit } from "./rate-limit.js";
export type { Caller } from "./auth.js";
