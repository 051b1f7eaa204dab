/**
 * A handler whose setup (opening the database, importing the key) runs on the first request and is
 * shared by every later one, as serverless runtimes want. A failed setup answers in the error
 * envelope (503 when the database cannot be reached) and is tried again on the next request.
 */
import { isDatabaseUnavailable } from "./database-errors.js";
import { ApiError, errorOutput, errorReport, errorResponse, newRequestId, unavailable } from "./errors.js";
import { SERVE_API, type ApiHandler, type ApiInput, type ApiOutput } from "./handler.js";

export function lazyHandler(
  create: () => Promise<ApiHandler>,
  onError: (error: unknown) => void = (error) => console.error(JSON.stringify({ level: "error", ...errorReport(error) })),
): ApiHandler {
  let ready: Promise<ApiHandler> | undefined;
  /** The handler, or the error that answers instead of it. */
  async function created(): Promise<ApiHandler | ApiError> {
    ready ??= create();
    try {
      return await ready;
    } catch (error) {
      ready = undefined;
      onError(error);
      return isDatabaseUnavailable(error) ? unavailable() : new ApiError("internal", "The service is not configured correctly; its logs say why.");
    }
  }
  const handler = async (request: Request): Promise<Response> => {
    const served = await created();
    return served instanceof ApiError ? errorResponse(served, newRequestId()) : served(request);
  };
  // The adapters that skip the fetch Request (Node, AWS Lambda) do so through a lazy handler too.
  return Object.assign(handler, {
    [SERVE_API]: async (input: ApiInput): Promise<ApiOutput> => {
      const served = await created();
      return served instanceof ApiError ? errorOutput(served, newRequestId()) : served[SERVE_API](input);
    },
  });
}
