/**
 * A handler whose setup (opening the database, importing the key) runs on the first request and is
 * shared by every later one, as serverless runtimes want. A failed setup answers in the error
 * envelope (503 when the database cannot be reached) and is tried again on the next request.
 */
import { isDatabaseUnavailable } from "./database-errors.js";
import { ApiError, errorReport, errorResponse, newRequestId, unavailable } from "./errors.js";
import type { Handler } from "./handler.js";

export function lazyHandler(
  create: () => Promise<Handler>,
  onError: (error: unknown) => void = (error) => console.error(JSON.stringify({ level: "error", ...errorReport(error) })),
): Handler {
  let ready: Promise<Handler> | undefined;
  return async (request) => {
    ready ??= create();
    let handler: Handler;
    try {
      handler = await ready;
    } catch (error) {
      ready = undefined;
      onError(error);
      const failure = isDatabaseUnavailable(error)
        ? unavailable()
        : new ApiError("internal", "The service is not configured correctly; its logs say why.");
      return errorResponse(failure, newRequestId());
    }
    return handler(request);
  };
}
