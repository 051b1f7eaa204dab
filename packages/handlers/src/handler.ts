/**
 * `createHandler`: the whole API as one fetch handler `(Request) => Promise<Response>`, built once.
 * Around ts-rest it adds what every route shares: request ids, the body limit and content type,
 * authentication and roles, and the one error envelope for every failure.
 */
import { contract, roleMayCall, type RouteAccess } from "@cloudplane/contract";
import type { Database } from "@cloudplane/db";
import { isAppRoute, type AppRoute, type AppRouter } from "@ts-rest/core";
import { RequestValidationError, TsRestHttpError, TsRestResponse, type TsRestRequest } from "@ts-rest/serverless";
import { createFetchHandler } from "@ts-rest/serverless/fetch";
import { authenticate, type Caller } from "./auth.js";
import { cdnRoutes } from "./cdn.js";
import { cloudRoutes } from "./cloud.js";
import { edgeRoutes } from "./edge.js";
import { addZodIssues, ApiError, envelope, errorReport, errorResponse, newRequestId, unavailable, validationFailed, type ErrorReport } from "./errors.js";
import { iamRoutes } from "./iam.js";
import { securityRoutes } from "./security.js";
import { storageRoutes } from "./storage.js";
import { streamingRoutes } from "./streaming.js";
import { isDatabaseUnavailable } from "./database-errors.js";
import { DEFAULT_RATE_LIMIT, takeRequest, type RateLimit } from "./rate-limit.js";

/** Bodies over this many bytes answer 413 (decisions.md §5). */
export const MAX_BODY_BYTES = 1024 * 1024;

export interface HandlerOptions {
  /** The database, from `createDatabase` of `@cloudplane/db`. */
  db: Database;
  /** The AES-GCM key that encrypts secrets at rest (`importSecretsKey` of `@cloudplane/db`). */
  secretsKey: CryptoKey;
  /** Serve the API under this path prefix (e.g. `/api`); other paths answer 404. Default: the root. */
  basePath?: string;
  /**
   * Requests a second per API token, and the burst allowed after idling (decisions.md §5); kept in the
   * database so it holds across instances. Default 50 a second, bursts of 100; `false` turns it off.
   */
  rateLimit?: RateLimit | false;
  /** Check every response against the contract (a failure answers 500 and is logged). For tests. */
  responseValidation?: boolean;
  /** Called once per request with a structured entry; never given a token or a secret. */
  onRequest?: (entry: RequestLogEntry) => void;
  /** Where unexpected errors are reported, without SQL parameters. Default: a JSON line on stderr. */
  onError?: (report: ErrorReport, requestId: string) => void;
  /** Answer 503 when a request takes longer than this many milliseconds (a database that hangs). Default 25 000. */
  timeoutMs?: number;
}

export interface RequestLogEntry {
  request_id: string;
  method: string;
  path: string;
  status: number;
  duration_ms: number;
}

/** What every route implementation gets besides its validated input. */
export interface RouteDeps {
  db: Database;
  secretsKey: CryptoKey;
}

/** What our middleware and routes add to ts-rest's request. */
export interface ApiRequestExtension {
  /** The authenticated caller. */
  caller: Caller;
  /** Set once ts-rest has parsed the body: a SyntaxError before that is malformed JSON. */
  bodyParsed?: boolean;
  /** A body that is not JSON (the cost report's CSV); sent as it is instead of the route's JSON body. */
  rawResponse?: { contentType: string; body: string };
}

/** The request as route implementations see it. */
export type ApiRequest = TsRestRequest & ApiRequestExtension;

export type Handler = (request: Request) => Promise<Response>;

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;
const JSON_TYPE = /^application\/(?:[\w.+-]*\+)?json\s*(?:;|$)/i;

/** A NUL character, or a UTF-16 surrogate without its pair: text PostgreSQL can neither store nor compare. */
// eslint-disable-next-line no-control-regex -- the NUL character is what this looks for
const UNSTORABLE_TEXT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const UNSTORABLE_MESSAGE = "Must not contain a NUL character or an unpaired UTF-16 surrogate.";

/**
 * Refuses (400) a query or JSON body with text the database cannot take, naming each place, instead of
 * letting the database fail (500). Walked without recursion: a body may be nested deeper than the stack.
 */
function refuseUnstorableText(request: ApiRequest): void {
  // No prototype: a field named "__proto__" is a key like any other.
  const errors = Object.create(null) as Record<string, string[]>;
  const pending: [unknown, string][] = [[request.query, "query"], [request.content, ""]];
  while (pending.length) {
    const [value, path] = pending.pop()!;
    const at = (key: string | number) => (path ? `${path}.${key}` : String(key));
    if (typeof value === "string") {
      if (UNSTORABLE_TEXT.test(value)) errors[path || "body"] = [UNSTORABLE_MESSAGE];
    } else if (Array.isArray(value)) value.forEach((item, index) => pending.push([item, at(index)]));
    else if (value && typeof value === "object")
      for (const [key, item] of Object.entries(value)) {
        if (UNSTORABLE_TEXT.test(key)) errors[at(key)] = [UNSTORABLE_MESSAGE];
        pending.push([item, at(key)]);
      }
  }
  if (Object.keys(errors).length) throw validationFailed(errors);
}

/** Wraps every route of `implementation` so that the caller's role is checked before validation. */
function withAccessControl<T extends AppRouter>(router: T, implementation: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(router).map(([key, value]) => {
      const implemented = implementation[key];
      if (!isAppRoute(value)) return [key, withAccessControl(value, implemented as Record<string, unknown>)];
      const access = (value as AppRoute & { metadata: { access: RouteAccess } }).metadata.access;
      const authorize = (request: ApiRequest) => {
        if (!roleMayCall(request.caller.roleId, access))
          throw new ApiError("permission_denied", `Your role (${request.caller.roleName}) may not call this route.`);
      };
      return [key, { middleware: [authorize, refuseUnstorableText], handler: implemented }];
    }),
  );
}

/** Reads a request body up to `MAX_BODY_BYTES`; larger ones are refused without reading them whole. */
async function readBody(request: Request): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES || !request.body) {
    if (declared > MAX_BODY_BYTES) throw tooLarge();
    return "";
  }
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

/** The request's answer, or 503 once `ms` have passed (the work goes on, but the client is not kept waiting). */
async function withDeadline(work: Promise<Response>, ms: number): Promise<Response> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(unavailable(`The request took longer than ${ms / 1000} s; try again shortly.`)),
      ms,
    );
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

function tooLarge(): ApiError {
  return new ApiError("payload_too_large", `The body is over the limit of ${MAX_BODY_BYTES} bytes (1 MiB).`);
}

/** Maps anything thrown while serving a request onto the envelope's terms. */
function toApiError(error: unknown, request: Request | undefined, report: (error: unknown) => void): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof RequestValidationError) {
    const errors: Record<string, string[]> = {};
    if (error.pathParamsError) addZodIssues(errors, error.pathParamsError, "path");
    if (error.queryError) addZodIssues(errors, error.queryError, "query");
    if (error.headersError) addZodIssues(errors, error.headersError, "header");
    if (error.bodyError) addZodIssues(errors, error.bodyError, "");
    return validationFailed(errors);
  }
  if (error instanceof TsRestHttpError && error.statusCode === 404 && request) {
    return new ApiError("not_found", `No route matches ${request.method} ${new URL(request.url).pathname}.`);
  }
  // ts-rest parses the JSON body before any of our middleware runs; a syntax error there is the client's.
  if (error instanceof SyntaxError && request && !(request as Partial<ApiRequest>).bodyParsed) {
    return new ApiError("malformed_json", "The body is not valid JSON.");
  }
  if (isDatabaseUnavailable(error)) {
    report(error);
    return unavailable();
  }
  report(error);
  return new ApiError("internal", "Something went wrong on our side. The request id identifies it in our logs.");
}

export function createHandler(options: HandlerOptions): Handler {
  const deps: RouteDeps = { db: options.db, secretsKey: options.secretsKey };
  const basePath = (options.basePath ?? "").replace(/\/+$/, "");
  const rateLimit = options.rateLimit === undefined ? DEFAULT_RATE_LIMIT : options.rateLimit;
  const report = options.onError ?? ((entry: ErrorReport, requestId: string) => console.error(JSON.stringify({ level: "error", request_id: requestId, ...entry })));
  const onError = (error: unknown, requestId: string) => report(errorReport(error), requestId);
  const timeoutMs = options.timeoutMs ?? 25_000;

  const implementation = {
    iam: iamRoutes(deps),
    cdn: cdnRoutes(deps),
    edge: edgeRoutes(deps),
    streaming: streamingRoutes(deps),
    cloud: cloudRoutes(deps),
    security: securityRoutes(deps),
    storage: storageRoutes(deps),
  };

  const serve = createFetchHandler(
    contract,
    // The wrapped implementation has the same shape; ts-rest's types cannot follow the wrapping.
    withAccessControl(contract, implementation) as unknown as typeof implementation,
    {
      basePath: basePath || undefined,
      responseValidation: options.responseValidation ?? false,
      requestMiddleware: [
        (request: ApiRequest) => {
          request.bodyParsed = true;
        },
        (request: ApiRequest) => authenticate(deps, request),
        ...(rateLimit ? [(request: ApiRequest) => takeRequest(deps.db, request.caller.tokenId, rateLimit)] : []),
      ],
      errorHandler: (error, request) => {
        const requestId = request.headers.get("x-request-id") ?? newRequestId();
        const apiError = toApiError(error, request, (cause) => onError(cause, requestId));
        return TsRestResponse.fromJson(envelope(apiError, requestId), { status: apiError.status, headers: apiError.headers });
      },
      responseHandlers: [
        (response, request: ApiRequest) => {
          const raw = request.rawResponse;
          if (!raw || response.status >= 300) return;
          const headers = new Headers(response.headers);
          headers.set("content-type", raw.contentType);
          return new TsRestResponse(raw.body, { status: response.status, headers });
        },
      ],
    },
  ) as (request: Request) => Promise<Response>;

  return async (request: Request): Promise<Response> => {
    const started = performance.now();
    const sent = request.headers.get("x-request-id");
    const requestId = sent && REQUEST_ID.test(sent) ? sent : newRequestId();
    const url = new URL(request.url);
    let response: Response;
    try {
      if (basePath && url.pathname !== basePath && !url.pathname.startsWith(`${basePath}/`))
        throw new ApiError("not_found", `No route matches ${request.method} ${url.pathname}.`);
      const headers = new Headers(request.headers);
      headers.set("x-request-id", requestId);
      let body: string | undefined;
      if (request.method !== "GET" && request.method !== "HEAD") {
        body = await readBody(request);
        const type = headers.get("content-type");
        if (body.length > 0 && !(type && JSON_TYPE.test(type)))
          throw new ApiError("unsupported_media_type", "The body must be JSON, sent with Content-Type: application/json.");
        if (body.length === 0) headers.delete("content-type");
      }
      response = await withDeadline(serve(new Request(url, { method: request.method, headers, body: body || undefined })), timeoutMs);
      response.headers.set("x-request-id", requestId);
    } catch (error) {
      response = errorResponse(
        toApiError(error, undefined, (cause) => onError(cause, requestId)),
        requestId,
      );
    }
    options.onRequest?.({
      request_id: requestId,
      method: request.method,
      path: url.pathname,
      status: response.status,
      duration_ms: Math.round((performance.now() - started) * 100) / 100,
    });
    return response;
  };
}
