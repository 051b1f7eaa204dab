/**
 * A handler whose setup (opening the database, importing the key) runs on the first request and is
 * shared by every later one, as serverless runtimes want. A failed setup answers in the error
 * envelope (503 when the database cannot be reached) and is tried again on the next request.
 */
import { isDatabaseUnavailable } from "./database-errors.js";
import { ApiError, errorReport, errorResponse, logErrorReport, newRequestId, unavailable } from "./errors.js";
import type { Handler } from "./types.js";

/** What answers when a setup failed: 503 for an unreachable database, else 500 (the logs say why). */
function setupFailed(error: unknown): ApiError {
  return isDatabaseUnavailable(error) ? unavailable() : new ApiError("internal", "The service is not configured correctly; its logs say why.");
}

/** The default report of a failed setup: a JSON line on stderr, as every unexpected error is logged. */
export function logSetupError(error: unknown): void {
  logErrorReport("the handler could not start", errorReport(error));
}

/** `create()` once, on first use; a failed one is forgotten so the next use tries again. */
export function lazily<T>(create: () => Promise<T>, onError: (error: unknown) => void): () => Promise<T | ApiError> {
  let ready: Promise<T> | undefined;
  return async () => {
    ready ??= create();
    try {
      return await ready;
    } catch (error) {
      ready = undefined;
      onError(error);
      return setupFailed(error);
    }
  };
}

/** A handler made on its first request, or before it by `warm()`. */
export interface LazyHandler extends Handler {
  /** Makes the handler now instead of on the first request; never rejects (a failed setup is reported, and tried again by the next request). */
  warm(): Promise<void>;
}

export function lazyHandler(create: () => Promise<Handler>, onError: (error: unknown) => void = logSetupError): LazyHandler {
  const created = lazily(create, onError);
  const handler: Handler = async (request) => {
    const served = await created();
    return served instanceof ApiError ? errorResponse(served, newRequestId()) : served(request);
  };
  return Object.assign(handler, { warm: async () => void (await created()) });
}
