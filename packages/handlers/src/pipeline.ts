/**
 * What every route shares, as @ts-rest/serverless's request middleware, error handler and response
 * handlers, so the fetch handler and the Lambda handler built on the same options behave alike:
 * request ids, the body's type, authentication, the rate limit, roles, text the database cannot
 * store, the one error envelope (405 with `Allow` for a path that has other methods), CORS (ts-rest's
 * `cors` option), HEAD answered without a body, the cost report's CSV, and one log entry per request.
 */
import { ERROR_STATUS, isBytes, JSON_BODY, RAW_BODY, roleMayCall, type BodyType, type RouteAccess } from "@cloudplane/contract";
import { RequestValidationError, TsRestHttpError, TsRestResponse, type TsRestRequest } from "@ts-rest/serverless";
import type { FetchHandlerOptions } from "@ts-rest/serverless/fetch";
import { cors as ittyCors, type CorsOptions } from "itty-router";
import { createAuthenticator } from "./auth.js";
import { routeBodyTypes, type BodyTypeOf } from "./body-types.js";
import { isDatabaseUnavailable } from "./database-errors.js";
import {
  addFieldError,
  addZodIssues,
  ApiError,
  envelope,
  errorReport,
  errorResponse,
  fieldErrors,
  logErrorReport,
  newRequestId,
  problemCount,
  unavailable,
  validationFailed,
  type ErrorReport,
} from "./errors.js";
import { createHandlerMemory } from "./memory.js";
import { API_METHODS, pathMethods } from "./methods.js";
import { createRateLimiter, DEFAULT_RATE_LIMIT } from "./rate-limit.js";
import type { ApiRequest, HandlerMemory, HandlerOptions, RequestExtension, RequestLogEntry } from "./types.js";

/** Request headers a page on another origin may send (CORS), besides those every page may. */
const CORS_ALLOW_HEADERS = ["authorization", "content-type", "x-request-id"];
/** Response headers a page on another origin may read, besides the basic ones: those clients read. */
const CORS_EXPOSE_HEADERS = ["x-request-id", "x-total-count", "retry-after", "allow"];
/** How long a browser may reuse the answer to a preflight, in seconds (Chromium's ceiling). */
const CORS_MAX_AGE_SECONDS = 7200;

/** Bodies over this many bytes answer 413. */
export const MAX_BODY_BYTES = 1024 * 1024;

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;
const JSON_TYPE = /^application\/(?:[\w.+-]*\+)?json\s*(?:;|$)/i;
const RAW_TYPE = /^application\/octet-stream\s*(?:;|$)/i;

/** A NUL character, or a UTF-16 surrogate without its pair: text PostgreSQL can neither store nor compare. */
// eslint-disable-next-line no-control-regex -- the NUL character is what this looks for
const UNSTORABLE_TEXT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const UNSTORABLE_MESSAGE = "Must not contain a NUL character or an unpaired UTF-16 surrogate.";

/** How far the reading of a request has come: `bodyRead` is false while a body is still being received. */
export interface RequestProgress {
  bodyRead?: boolean;
  /** Set when the body's JSON text was seen to hold no text the database cannot store (`storableJson`). */
  bodyStorable?: boolean;
  /** The body type of the route the request reaches, when the fetch front looked it up to read the body by. */
  bodyType?: BodyType;
}

/**
 * Whether JSON text can only parse to text the database can store. JSON writes a NUL or an unpaired
 * surrogate only as an escape (`\u0000`, `\udXXX`): a raw NUL is not valid JSON, and decoded UTF-8 has no
 * unpaired surrogates. A false alarm (an escaped backslash before such letters) only costs a closer look.
 */
export function storableJson(text: string): boolean {
  return !/\\u(?:0000|d[89a-f])/i.test(text);
}

/** What the platform passes along with a request: the fetch entry says when it arrived, its id and its progress. */
export interface PlatformContext {
  started?: number;
  requestId?: string;
  progress?: RequestProgress;
  /** The request's URL, parsed once by the fetch entry. */
  url?: URL;
  /** Whatever else the runtime passes (the Lambda event and context). */
  [key: string]: unknown;
}

/** The options of ts-rest's fetch and Lambda handlers, with what the pipeline adds to the request. */
export type ServerlessOptions = FetchHandlerOptions<PlatformContext, RequestExtension>;

/** What the pipeline keeps per request, on the request itself. */
interface RequestState {
  requestId: string;
  started: number;
  /** Set once ts-rest has parsed the body: a SyntaxError before that is malformed JSON. */
  bodyParsed: boolean;
}

const STATE = Symbol("cloudplane.request");

type StatefulRequest = TsRestRequest & { [STATE]?: RequestState };

/** The request id a client sent, if it is one we echo (≤ 128 of `[A-Za-z0-9._-]`), or a new one. */
export function requestIdFrom(sent: string | null): string {
  return sent && REQUEST_ID.test(sent) ? sent : newRequestId();
}

/** The request's URL: the one the fetch entry parsed, or (the Lambda entry's request) parsed here. */
function urlOf(request: TsRestRequest, context?: PlatformContext): URL {
  return context?.url ?? new URL(request.url);
}

function stateOf(request: TsRestRequest, context?: PlatformContext): RequestState {
  const stateful = request as StatefulRequest;
  return (stateful[STATE] ??= {
    requestId: context?.requestId ?? requestIdFrom(request.headers.get("x-request-id")),
    started: context?.started ?? performance.now(),
    bodyParsed: false,
  });
}

export function tooLarge(): ApiError {
  return new ApiError("payload_too_large", `The body is over the limit of ${MAX_BODY_BYTES} bytes (1 MiB).`);
}

/** A Content-Length over the limit: refused before anything is read. */
export function refuseDeclaredTooLarge(headers: Headers): void {
  if (Number(headers.get("content-length") ?? "0") > MAX_BODY_BYTES) throw tooLarge();
}

/** 415 for a body that is not sent as JSON. */
export function refuseNonJsonBody(headers: Headers): void {
  refuseOtherBodyType(headers, JSON_BODY);
}

/** 415 for a body that is not sent as the route's body type says: JSON, or raw bytes for the routes that take them. */
export function refuseOtherBodyType(headers: Headers, bodyType: BodyType): void {
  const type = headers.get("content-type");
  if (bodyType === RAW_BODY) {
    if (!(type && RAW_TYPE.test(type)))
      throw new ApiError("unsupported_media_type", `This route takes raw bytes, not JSON: send the body with Content-Type: ${RAW_BODY}.`);
  } else if (!(type && JSON_TYPE.test(type)))
    throw new ApiError("unsupported_media_type", "The body must be JSON, sent with Content-Type: application/json.");
}

export function noRoute(method: string, pathname: string): ApiError {
  return new ApiError("not_found", `No route matches ${method} ${pathname}.`);
}

/** Does `pathname` lie under `basePath` ("" serves everything)? */
export function underBasePath(basePath: string, pathname: string): boolean {
  return !basePath || pathname === basePath || pathname.startsWith(`${basePath}/`);
}

/**
 * Refuses (400) a query or JSON body with text the database cannot take, naming each place (at most
 * MAX_REPORTED_PROBLEMS of them, through addFieldError), instead of letting the database fail (500).
 * Walked without recursion, container by container, and no deeper than any schema of the contract takes
 * (deeper values fail validation anyway): a body may be nested deeper than the stack. A path is written
 * out only for a problem or a container, so a list of a million numbers costs one pass over it.
 */
function refuseUnstorableText(request: TsRestRequest, context?: PlatformContext): void {
  // JSON.stringify writes a NUL as \u0000 and an unpaired surrogate as \udXXX, keys included: one native
  // pass over its text clears most requests without the walk (a false alarm only costs the walk). A body
  // whose own text the fetch front already cleared is not written out again. A body nested deeper than
  // the stack cannot be written out, and is walked.
  // Raw bytes (a route that takes them) hold no text.
  const content: unknown = isBytes(request.content) ? undefined : request.content;
  let text: string | undefined;
  try {
    text = JSON.stringify(context?.progress?.bodyStorable || content === undefined ? [request.query] : [request.query, content]);
  } catch {
    text = undefined;
  }
  if (text !== undefined && storableJson(text)) return;
  const maxDepth = 64;
  const errors = fieldErrors();
  const pending: [unknown, string, number][] = [[content, "", 0], [request.query, "query", 0]];
  while (pending.length) {
    const [value, path, depth] = pending.pop()!;
    if (typeof value === "string") {
      if (UNSTORABLE_TEXT.test(value)) addFieldError(errors, path || "body", UNSTORABLE_MESSAGE);
      continue;
    }
    if (depth >= maxDepth || typeof value !== "object" || value === null) continue;
    const at = (key: string | number) => (path ? `${path}.${key}` : String(key));
    const inner: [unknown, string, number][] = [];
    const look = (item: unknown, key: string | number) => {
      if (typeof item === "string") {
        if (UNSTORABLE_TEXT.test(item)) addFieldError(errors, at(key), UNSTORABLE_MESSAGE);
      } else if (typeof item === "object" && item !== null) inner.push([item, at(key), depth + 1]);
    };
    if (Array.isArray(value)) for (let index = 0; index < value.length; index++) look(value[index], index);
    else
      for (const key in value)
        if (Object.hasOwn(value, key)) {
          if (UNSTORABLE_TEXT.test(key)) addFieldError(errors, at(key), UNSTORABLE_MESSAGE);
          look((value as Record<string, unknown>)[key], key);
        }
    for (let index = inner.length - 1; index >= 0; index--) pending.push(inner[index]!);
  }
  if (problemCount(errors)) throw validationFailed(errors);
}

/**
 * Query parameters by name; a name given more than once has all its values, in order (itty-router's
 * own parsing drops the first of them when it is empty, so `?name=&name=x` would pass as one value).
 */
function parseQuery(url: URL): Record<string, string | string[]> {
  // No prototype: a parameter named "__proto__" is a parameter like any other.
  const query = Object.create(null) as Record<string, string | string[]>;
  for (const [name, value] of url.searchParams) {
    const seen = query[name];
    query[name] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return query;
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
  headers.set("content-length", String(typeof body === "string" ? new TextEncoder().encode(body).byteLength : 0));
  return new TsRestResponse(null, { status: response.status, headers });
}

/** The middleware every route runs after it matched, before its input is validated: the role, then storable text. */
export function routeMiddleware(access: RouteAccess) {
  return [
    (request: ApiRequest) => {
      if (!roleMayCall(request.caller.roleId, access))
        throw new ApiError("permission_denied", `Your role (${request.caller.roleName}) may not call this route.`);
    },
    refuseUnstorableText,
  ];
}

/** The pipeline of one handler: ts-rest's options, and how an error that escaped them is answered. */
export interface Pipeline {
  basePath: string;
  /** What the handler keeps between requests; the routes get it too (a revoked token's lookup is dropped from it). */
  memory: HandlerMemory;
  /** The body type of the route a request reaches (JSON, or raw bytes), for the fetch front to read the body by. */
  bodyTypeOf: BodyTypeOf;
  timeoutMs: number;
  serverless: ServerlessOptions;
  /**
   * The envelope of an error raised in front of ts-rest (the body limit, a deadline), logged, and with
   * CORS headers for the request's `origin`, as ts-rest's answers are.
   */
  answerError(error: unknown, request: { method: string; pathname: string; requestId: string; started: number; origin?: string | null }): Response;
}

export function createPipeline(options: HandlerOptions): Pipeline {
  const basePath = (options.basePath ?? "").replace(/\/+$/, "");
  const rateLimit = options.rateLimit === undefined ? DEFAULT_RATE_LIMIT : options.rateLimit;
  const report = options.onError ?? ((entry: ErrorReport, requestId: string) => logErrorReport("unexpected error", entry, { request_id: requestId }));
  const cors = corsOptions(options.cors);
  const corsify = cors && ittyCors(cors).corsify;
  const methodsOf = pathMethods(basePath, cors ? ["OPTIONS"] : []);
  const memory = options.memory ?? createHandlerMemory(options.authCacheMs);
  const takeRequest = rateLimit ? createRateLimiter(options.db, rateLimit, memory.leases) : undefined;
  const authenticate = createAuthenticator(options.db, memory.tokens);
  const bodyTypeOf = routeBodyTypes(basePath);

  /** Maps anything thrown while serving a request onto the envelope's terms; unexpected errors are reported. */
  function toApiError(error: unknown, method: string, pathname: string, state: RequestState): ApiError {
    if (error instanceof ApiError) return error;
    if (error instanceof RequestValidationError) {
      const errors: Record<string, string[]> = {};
      if (error.pathParamsError) addZodIssues(errors, error.pathParamsError, "path");
      if (error.queryError) addZodIssues(errors, error.queryError, "query");
      if (error.headersError) addZodIssues(errors, error.headersError, "header");
      if (error.bodyError) addZodIssues(errors, error.bodyError, "");
      return validationFailed(errors);
    }
    // ts-rest's own 404, and its base path check, which throws a plain Error for paths outside it.
    if ((error instanceof TsRestHttpError && error.statusCode === ERROR_STATUS.not_found) || !underBasePath(basePath, pathname))
      return noRoute(method, pathname);
    // ts-rest parses a JSON body before any of our middleware runs; a syntax error there is the client's.
    if (error instanceof SyntaxError && !state.bodyParsed) return new ApiError("malformed_json", "The body is not valid JSON.");
    report(errorReport(error), state.requestId);
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

  function log(method: string, pathname: string, status: number, state: Pick<RequestState, "requestId" | "started">): void {
    const entry: RequestLogEntry = {
      request_id: state.requestId,
      method,
      path: pathname,
      status,
      duration_ms: Math.round((performance.now() - state.started) * 100) / 100,
    };
    options.onRequest?.(entry);
  }

  const serverless: ServerlessOptions = {
    basePath: basePath || undefined,
    responseValidation: options.responseValidation ?? false,
    // Preflights are answered before any middleware (no authentication); every answer gets the origin's headers.
    cors: cors ?? false,
    requestMiddleware: [
      async (request, context) => {
        const hasBody = request.method !== "GET" && request.method !== "HEAD" && request.headers.get("content-length") !== "0" && Boolean(request.body);
        if ((context?.progress?.bodyType ?? (await bodyTypeOf(request.method, request.url))) === RAW_BODY) {
          // A route that takes raw bytes: ts-rest reads no body of this type, so the bytes are read here (the
          // fetch front passed them on as they came; ts-rest's Lambda handler decoded a base64 body) and given
          // to the route's schema as they are. No body at all is no bytes.
          stateOf(request, context).bodyParsed = true;
          const url = urlOf(request, context);
          if (url.search) request.query = parseQuery(url);
          refuseDeclaredTooLarge(request.headers);
          if (hasBody) refuseOtherBodyType(request.headers, RAW_BODY);
          const bytes = hasBody ? new Uint8Array(await request.arrayBuffer()) : new Uint8Array(0);
          if (bytes.byteLength > MAX_BODY_BYTES) throw tooLarge();
          request.content = bytes;
          return;
        }
        // ts-rest reads a JSON body only when its content type says `json` in lower case; a media type is
        // case-insensitive, so `APPLICATION/JSON` is read here (a route whose body may be left out would
        // otherwise take such a body as absent). Invalid JSON is still malformed_json: bodyParsed is set after.
        const type = request.headers.get("content-type");
        if (request.content === undefined && type && JSON_TYPE.test(type) && !type.includes("json") && request.body)
          request.content = (await request.json()) as unknown;
        stateOf(request, context).bodyParsed = true;
        // JSON null is no body of this API (every body is an object), and not the same as sending none.
        // itty-router's request proxy shows a null content as undefined: a JSON body read to nothing was null.
        if (request.content === undefined && type && JSON_TYPE.test(type) && request.body && request.headers.get("content-length") !== "0") {
          const errors = fieldErrors();
          addFieldError(errors, "body", "Must be a JSON object, or no body at all where the route takes none.");
          throw validationFailed(errors);
        }
        const url = urlOf(request, context);
        if (url.search) request.query = parseQuery(url);
        // The fetch entry checked these before the body was read; the Lambda entry gets the body with the event.
        refuseDeclaredTooLarge(request.headers);
        if (hasBody) refuseNonJsonBody(request.headers);
      },
      async (request) => {
        request.caller = await authenticate(request.headers.get("authorization"));
      },
      ...(takeRequest ? [(request: ApiRequest) => takeRequest(request.caller.tokenId)] : []),
    ],
    errorHandler: async (error, request) => {
      const state = stateOf(request);
      const pathname = new URL(request.url).pathname;
      const apiError = (await methodNotAllowed(error, request, pathname)) ?? toApiError(error, request.method, pathname, state);
      return TsRestResponse.fromJson(envelope(apiError, state.requestId), { status: apiError.status, headers: apiError.headers });
    },
    responseHandlers: [
      async (response, request, context) => {
        const state = stateOf(request, context);
        const raw = request.rawResponse;
        let answer: TsRestResponse;
        if (raw && response.status < 300) {
          answer = new TsRestResponse(raw.body, { status: response.status, headers: response.headers });
          answer.headers.set("content-type", raw.contentType);
        } else if (response instanceof TsRestResponse) answer = response;
        else {
          // itty-router's corsify (ts-rest's cors option) answers in a plain copy, typed as ts-rest's: ts-rest's Lambda handler cannot read it.
          const copy: Response = response;
          answer = new TsRestResponse(copy.body === null ? null : await copy.text(), copy);
        }
        answer.headers.set("x-request-id", state.requestId);
        exposeHeaders(answer);
        if (request.method === "HEAD") answer = withoutBody(answer);
        log(request.method, urlOf(request, context).pathname, answer.status, state);
        return answer;
      },
    ],
  };

  return {
    basePath,
    memory,
    bodyTypeOf,
    timeoutMs: options.timeoutMs ?? 25_000,
    serverless,
    answerError(error, request) {
      const state = { ...request, bodyParsed: true };
      const apiError = toApiError(error, request.method, request.pathname, state);
      let response = errorResponse(apiError, state.requestId);
      if (corsify) {
        // itty-router's corsify reads the request's Origin only.
        response = corsify(response, { headers: new Headers(request.origin ? { origin: request.origin } : {}) } as Request);
        if (cors.origin !== "*") response.headers.append("vary", "Origin");
        exposeHeaders(response);
      }
      if (request.method === "HEAD") response = new Response(null, { status: response.status, headers: response.headers });
      log(request.method, request.pathname, response.status, state);
      return response;
    },
  };
}

/**
 * The request's answer once `ms` have passed: 408 while its body is still being received (the client is
 * too slow), else 503 (the work goes on, but the client is not kept waiting).
 */
export async function withDeadline<T>(work: Promise<T>, ms: number, progress: RequestProgress = {}): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          progress.bodyRead === false
            ? new ApiError("request_timeout", `The request's body was not received within ${ms / 1000} s.`, undefined, { connection: "close" })
            : unavailable(`The request took longer than ${ms / 1000} s; try again shortly.`),
        ),
      ms,
    );
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
