/**
 * The answers: every error in the one envelope (405 with `Allow` for a path that has other methods),
 * CORS (ts-rest's `cors` option), HEAD answered without a body, the cost report's CSV, a POST's answer
 * kept under its idempotency key, and one log entry per request, for ts-rest's answers and for the errors the front raises before ts-rest sees a request.
 */
import { ERROR_STATUS } from "@cloudplane/contract";
import { settleAudit } from "./audit-log.js";
import { RequestValidationError, TsRestHttpError, TsRestResponse, type TsRestRequest } from "@ts-rest/serverless";
import type { FetchHandlerOptions } from "@ts-rest/serverless/fetch";
import { cors as ittyCors, type CorsOptions } from "itty-router";
import { isDatabaseUnavailable, isForeignKeyViolation } from "./database-errors.js";
import { addZodIssues, ApiError, conflict, envelope, errorReport, errorResponse, logErrorReport, unavailable, validationFailed, type ErrorReport } from "./errors.js";
import { noRoute, underBasePath, type PlatformContext } from "./front.js";
import { IDEMPOTENCY_KEY_HEADER, REPLAYED_HEADER, type Idempotency } from "./idempotency.js";
import { API_METHODS, pathMethods } from "./methods.js";
import type { HandlerOptions, RequestExtension, RequestLogEntry } from "./types.js";

/** Request headers a page on another origin may send (CORS), besides those every page may. */
const CORS_ALLOW_HEADERS = ["authorization", "content-type", "x-request-id", IDEMPOTENCY_KEY_HEADER];
/** Response headers a page on another origin may read, besides the basic ones: those clients read. */
const CORS_EXPOSE_HEADERS = ["x-request-id", "x-total-count", "retry-after", "allow", REPLAYED_HEADER];
/** How long a browser may reuse the answer to a preflight, in seconds (Chromium's ceiling). */
const CORS_MAX_AGE_SECONDS = 7200;

type ServerlessOptions = FetchHandlerOptions<PlatformContext, RequestExtension>;

/** What of ts-rest's options the answers set: CORS, the error handler and the response handler. */
export type AnswerOptions = Pick<ServerlessOptions, "cors" | "errorHandler" | "responseHandlers">;

/** A request the front refused, as its answer needs it. */
export interface FrontRequest {
  method: string;
  pathname: string;
  requestId: string;
  started: number;
  origin?: string | null;
}

export interface Answers {
  /** ts-rest's options for its answers. */
  serverless: AnswerOptions;
  /** The envelope of an error raised in front of ts-rest (the body limit, a deadline), logged, and with CORS headers for the request's `origin`, as ts-rest's answers are. */
  answerError(error: unknown, request: FrontRequest): Response;
}

/**
 * The `cors` option as itty-router's cors takes it (ts-rest's `cors` option is that one): the origins,
 * and what every request may send and read. Undefined when CORS is off.
 */
function corsOptions(cors: HandlerOptions["cors"]): CorsOptions | undefined {
  if (!cors) return undefined;
  const { origins } = cors;
  return {
    origin:
      typeof origins === "function"
        ? (origin: string | null) => (origin && origins(origin) ? origin : undefined)
        : origins === "*"
          ? "*"
          : [...origins],
    allowMethods: [...API_METHODS],
    allowHeaders: CORS_ALLOW_HEADERS,
    exposeHeaders: CORS_EXPOSE_HEADERS,
    maxAge: CORS_MAX_AGE_SECONDS,
  };
}

/** The answer to a HEAD request: the status and headers of the GET's, with its body's length but not the body. */
function withoutBody(response: TsRestResponse): TsRestResponse {
  const body: unknown = response.rawBody;
  const headers = new Headers(response.headers);
  headers.set("content-length", String(typeof body === "string" ? new TextEncoder().encode(body).byteLength : body instanceof Uint8Array ? body.byteLength : 0));
  return new TsRestResponse(null, { status: response.status, headers });
}

export function createAnswers(options: HandlerOptions, basePath: string, idempotency: Idempotency): Answers {
  const report = options.onError ?? ((entry: ErrorReport, requestId: string) => logErrorReport("unexpected error", entry, { request_id: requestId }));
  const cors = corsOptions(options.cors);
  const corsify = cors && ittyCors(cors).corsify;
  const methodsOf = pathMethods(basePath, cors ? ["OPTIONS"] : []);

  /** Maps anything thrown while serving a request onto the envelope's terms; unexpected errors are reported. */
  function toApiError(error: unknown, method: string, pathname: string, requestId: string): ApiError {
    if (error instanceof ApiError) return error;
    if (error instanceof RequestValidationError) {
      const errors: Record<string, string[]> = {};
      if (error.pathParamsError) addZodIssues(errors, error.pathParamsError, "path");
      if (error.queryError) addZodIssues(errors, error.queryError, "query");
      if (error.bodyError) addZodIssues(errors, error.bodyError, "");
      return validationFailed(errors);
    }
    // ts-rest's own 404, and its base path check, which throws a plain Error for paths outside it.
    if ((error instanceof TsRestHttpError && error.statusCode === ERROR_STATUS.not_found) || !underBasePath(basePath, pathname))
      return noRoute(method, pathname);
    if (isForeignKeyViolation(error))
      return conflict("An object this request refers to, or one that refers to what it deletes, was changed by another request at the same time: read them again and retry.");
    report(errorReport(error), requestId);
    if (isDatabaseUnavailable(error)) return unavailable();
    return new ApiError("internal", "Something went wrong on our side. The request id identifies it in our logs.");
  }

  /** 405 with `Allow` for ts-rest's 404 of a path the API has with other methods; undefined otherwise. */
  async function methodNotAllowed(error: unknown, request: TsRestRequest, pathname: string): Promise<ApiError | undefined> {
    if (!(error instanceof TsRestHttpError && error.statusCode === ERROR_STATUS.not_found)) return undefined;
    const allowed = await methodsOf(request.url);
    if (!allowed.length) return undefined;
    const list = allowed.join(", ");
    return new ApiError("method_not_allowed", `${pathname} cannot be called with ${request.method}; it takes ${list}.`, undefined, { allow: list });
  }

  /** A page on another origin may read the headers clients read (itty-router's corsify allows the origin only). */
  function exposeHeaders(response: Response): void {
    if (cors && response.headers.has("access-control-allow-origin")) response.headers.set("access-control-expose-headers", CORS_EXPOSE_HEADERS.join(","));
  }

  function log(method: string, pathname: string, status: number, state: Pick<PlatformContext, "requestId" | "started">): void {
    // Without a listener there is no entry to build (nor a clock to read).
    if (!options.onRequest) return;
    const entry: RequestLogEntry = {
      request_id: state.requestId,
      method,
      path: pathname,
      status,
      duration_ms: Math.round((performance.now() - state.started) * 100) / 100,
    };
    options.onRequest(entry);
  }

  return {
    serverless: {
      // Preflights are answered before any middleware (no authentication); every answer gets the origin's headers.
      cors: cors ?? false,
      errorHandler: async (error, request, context) => {
        const pathname = context.url.pathname;
        const apiError = (await methodNotAllowed(error, request, pathname)) ?? toApiError(error, request.method, pathname, context.requestId);
        return TsRestResponse.fromJson(envelope(apiError, context.requestId), { status: apiError.status, headers: apiError.headers });
      },
      responseHandlers: [
        async (response, request, context) => {
          const raw = request.rawResponse;
          let answer: TsRestResponse;
          if (raw && response.status < 300) {
            // Bytes (a zip archive) are a body like text; ts-rest types its constructor with its own BodyInit.
            answer = new TsRestResponse(raw.body as string, { status: response.status, headers: response.headers });
            answer.headers.set("content-type", raw.contentType);
            if (raw.filename) answer.headers.set("content-disposition", `attachment; filename="${raw.filename}"`);
          }
          // Every answer is ts-rest's own (our routes, middleware and errors make TsRestResponses, and its
          // cors option keeps them so since our patch, patches/), so its raw body is at hand for HEAD and the key.
          else answer = response;
          answer.headers.set("x-request-id", context.requestId);
          exposeHeaders(answer);
          if (request.method === "HEAD") answer = withoutBody(answer);
          try {
            await idempotency.settle(answer, request);
          } catch (error) {
            // The answer stands; its key stays claimed until it is abandoned (idempotency.ts).
            report(errorReport(error), context.requestId);
          }
          try {
            await settleAudit(options.db, answer, request);
          } catch (error) {
            // The answer stands; the entry of a write that committed its transaction is already written.
            report(errorReport(error), context.requestId);
          }
          log(request.method, context.url.pathname, answer.status, context);
          return answer;
        },
      ],
    },
    answerError(error, request) {
      const apiError = toApiError(error, request.method, request.pathname, request.requestId);
      let response = errorResponse(apiError, request.requestId);
      if (corsify) {
        // itty-router's corsify reads the request's Origin only.
        response = corsify(response, { headers: new Headers(request.origin ? { origin: request.origin } : {}) } as Request);
        if (cors.origin !== "*") response.headers.append("vary", "Origin");
        exposeHeaders(response);
      }
      if (request.method === "HEAD") response = new Response(null, { status: response.status, headers: response.headers });
      log(request.method, request.pathname, response.status, request);
      return response;
    },
  };
}
