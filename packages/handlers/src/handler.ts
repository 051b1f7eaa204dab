/**
 * `createHandler`: the whole API as one fetch handler `(Request) => Promise<Response>`, built once.
 * The pipeline every route shares: request ids, the body limit and content type, authentication, the
 * rate limit, the route (router.ts), roles, validation against the contract, and the one error envelope.
 */
import { contract, roleMayCall } from "@cloudplane/contract";
import type { Database } from "@cloudplane/db";
import { checkZodSchema, validateResponse, type AppRoute } from "@ts-rest/core";
import { createAuthenticator, TokenCache } from "./auth.js";
import { cdnRoutes } from "./cdn.js";
import { cloudRoutes } from "./cloud.js";
import { edgeRoutes } from "./edge.js";
import { addZodIssues, ApiError, errorOutput, errorReport, newRequestId, unavailable, validationFailed, type ErrorReport } from "./errors.js";
import { iamRoutes } from "./iam.js";
import { securityRoutes } from "./security.js";
import { storageRoutes } from "./storage.js";
import { streamingRoutes } from "./streaming.js";
import { isDatabaseUnavailable } from "./database-errors.js";
import { createRateLimiter, DEFAULT_RATE_LIMIT, type Leases, type RateLimit } from "./rate-limit.js";
import { buildRoutes, matchRoute, type RouteContext } from "./router.js";

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
   * database so it holds across instances, each taking a lease of up to a tenth of a second's worth at
   * once (rate-limit.ts). Default 50 a second, bursts of 100; `false` turns it off.
   */
  rateLimit?: RateLimit | false;
  /** Check every response against the contract (a failure answers 500 and is logged). For tests. */
  responseValidation?: boolean;
  /** Called once per request with a structured entry; never given a token or a secret. */
  onRequest?: (entry: RequestLogEntry) => void;
  /** Where unexpected errors are reported, without SQL parameters. Default: a JSON line on stderr. */
  onError?: (report: ErrorReport, requestId: string) => void;
  /**
   * How long a token's lookup is reused, in milliseconds (decisions.md §2): a token deleted or expired
   * (or its user deleted or given another role) in the database is refused from then on by every
   * instance within this time; its `exp_date` passing is seen at once. Default 1000; 0 looks up every request.
   */
  authCacheMs?: number;
  /**
   * What the handler keeps in memory between requests (token lookups, rate-limit leases), from
   * `createHandlerMemory`: handlers built per request (Workers) share one, or each would start empty.
   * `authCacheMs` is then the memory's own.
   */
  memory?: HandlerMemory;
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

/** What a handler keeps in memory between requests: no I/O object, so it may outlive the request that made it. */
export interface HandlerMemory {
  tokens: TokenCache;
  leases: Leases;
}

export function createHandlerMemory(authCacheMs?: number): HandlerMemory {
  return { tokens: new TokenCache(authCacheMs), leases: new Map() };
}

/** What every route implementation gets besides its validated input. */
export interface RouteDeps {
  db: Database;
  secretsKey: CryptoKey;
}

/** A request as the pipeline reads it: adapters fill it from a fetch `Request`, or straight from `node:http`. */
export interface ApiInput {
  method: string;
  url: URL;
  /** A request header's value (names are lower case), or null. */
  header(name: string): string | null;
  /** The body as text; throws 413 past `MAX_BODY_BYTES`. Called once, and only for methods with a body. */
  readBody(): Promise<string>;
}

/** An answer as the pipeline makes it: always text (JSON, or the cost report's CSV). */
export interface ApiOutput {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: string;
}

export type Handler = (request: Request) => Promise<Response>;

/**
 * The pipeline behind a handler made by `createHandler`, for adapters of this package that can skip
 * the fetch `Request`/`Response` (Node, AWS Lambda). A registered symbol: each bundle of an entry
 * point may hold its own copy of this module.
 */
export const SERVE_API = Symbol.for("@cloudplane/handlers/serve-api");

export interface ApiHandler extends Handler {
  [SERVE_API]: (input: ApiInput) => Promise<ApiOutput>;
}

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
function refuseUnstorableText(query: unknown, content: unknown): void {
  // No prototype: a field named "__proto__" is a key like any other.
  const errors = Object.create(null) as Record<string, string[]>;
  const pending: [unknown, string][] = [[query, "query"], [content, ""]];
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

/** Query parameters by name; a name given more than once has all its values, in order. */
function parseQuery(url: URL): Record<string, string | string[]> {
  // No prototype: a parameter named "__proto__" is a parameter like any other.
  const query = Object.create(null) as Record<string, string | string[]>;
  for (const [name, value] of url.searchParams) {
    const seen = query[name];
    query[name] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return query;
}

/** Checks the request's path parameters, query and body against the route; 400 naming every failing field. */
function validateInput(appRoute: AppRoute, params: Record<string, string>, query: unknown, content: unknown) {
  const paramsResult = checkZodSchema(params, appRoute.pathParams, { passThroughExtraKeys: true });
  const queryResult = checkZodSchema(query, appRoute.query);
  const bodyResult = checkZodSchema(content, "body" in appRoute ? appRoute.body : null);
  if (paramsResult.success && queryResult.success && bodyResult.success)
    return { params: paramsResult.data, query: queryResult.data, body: bodyResult.data };
  const errors: Record<string, string[]> = {};
  if (!paramsResult.success) addZodIssues(errors, paramsResult.error, "path");
  if (!queryResult.success) addZodIssues(errors, queryResult.error, "query");
  if (!bodyResult.success) addZodIssues(errors, bodyResult.error, "");
  throw validationFailed(errors);
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
async function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
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

export function tooLarge(): ApiError {
  return new ApiError("payload_too_large", `The body is over the limit of ${MAX_BODY_BYTES} bytes (1 MiB).`);
}

/** Maps anything thrown while serving a request onto the envelope's terms. */
function toApiError(error: unknown, report: (error: unknown) => void): ApiError {
  if (error instanceof ApiError) return error;
  if (isDatabaseUnavailable(error)) {
    report(error);
    return unavailable();
  }
  report(error);
  return new ApiError("internal", "Something went wrong on our side. The request id identifies it in our logs.");
}

export function createHandler(options: HandlerOptions): ApiHandler {
  const deps: RouteDeps = { db: options.db, secretsKey: options.secretsKey };
  const basePath = (options.basePath ?? "").replace(/\/+$/, "");
  const rateLimit = options.rateLimit === undefined ? DEFAULT_RATE_LIMIT : options.rateLimit;
  const report = options.onError ?? ((entry: ErrorReport, requestId: string) => console.error(JSON.stringify({ level: "error", request_id: requestId, ...entry })));
  const timeoutMs = options.timeoutMs ?? 25_000;
  const responseValidation = options.responseValidation ?? false;
  const memory = options.memory ?? createHandlerMemory(options.authCacheMs);
  const takeRequest = rateLimit ? createRateLimiter(options.db, rateLimit, memory.leases) : undefined;
  const authenticator = createAuthenticator(options.db, memory.tokens);

  const routes = buildRoutes(
    contract,
    {
      iam: iamRoutes(deps),
      cdn: cdnRoutes(deps),
      edge: edgeRoutes(deps),
      streaming: streamingRoutes(deps),
      cloud: cloudRoutes(deps),
      security: securityRoutes(deps),
      storage: storageRoutes(deps),
    },
    basePath,
  );

  /** Everything after the request id: the answer to a request that passed every check, or the error thrown. */
  async function answer(input: ApiInput, pathname: string, requestId: string): Promise<ApiOutput> {
    let content: unknown;
    if (input.method !== "GET" && input.method !== "HEAD") {
      const body = await input.readBody();
      if (body.length > 0) {
        const type = input.header("content-type");
        if (!(type && JSON_TYPE.test(type)))
          throw new ApiError("unsupported_media_type", "The body must be JSON, sent with Content-Type: application/json.");
        try {
          content = JSON.parse(body);
        } catch {
          throw new ApiError("malformed_json", "The body is not valid JSON.");
        }
      }
    }
    const authorization = input.header("authorization");
    const caller = await authenticator(authorization);
    if (takeRequest) await takeRequest(caller.tokenId);
    const match = matchRoute(routes, input.method, pathname);
    if (!match) throw new ApiError("not_found", `No route matches ${input.method} ${pathname}.`);
    const { appRoute, access, implementation } = match.route;
    if (!roleMayCall(caller.roleId, access))
      throw new ApiError("permission_denied", `Your role (${caller.roleName}) may not call this route.`);
    const query = parseQuery(input.url);
    refuseUnstorableText(query, content);
    const valid = validateInput(appRoute, match.params, query, content);
    const context: RouteContext = { caller, responseHeaders: {} };
    const result = await implementation({ ...valid, headers: { authorization } }, context);
    const status = Number(result.status);
    let body = result.body;
    if (responseValidation) body = validateResponse({ appRoute, response: { status, body } }).body;
    const headers: Record<string, string> = { ...context.responseHeaders, "x-request-id": requestId };
    const raw = context.rawResponse;
    if (raw && status < 300) return { status, headers: { ...headers, "content-type": raw.contentType }, body: raw.body };
    return { status, headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify(body) };
  }

  async function serveApi(input: ApiInput): Promise<ApiOutput> {
    const started = performance.now();
    const sent = input.header("x-request-id");
    const requestId = sent && REQUEST_ID.test(sent) ? sent : newRequestId();
    const { pathname } = input.url;
    let output: ApiOutput;
    try {
      if (basePath && pathname !== basePath && !pathname.startsWith(`${basePath}/`))
        throw new ApiError("not_found", `No route matches ${input.method} ${pathname}.`);
      output = await withDeadline(answer(input, pathname, requestId), timeoutMs);
    } catch (error) {
      output = errorOutput(
        toApiError(error, (cause) => report(errorReport(cause), requestId)),
        requestId,
      );
    }
    options.onRequest?.({
      request_id: requestId,
      method: input.method,
      path: pathname,
      status: output.status,
      duration_ms: Math.round((performance.now() - started) * 100) / 100,
    });
    return output;
  }

  const handler = async (request: Request): Promise<Response> => {
    const output = await serveApi({
      method: request.method,
      url: new URL(request.url),
      header: (name) => request.headers.get(name),
      readBody: () => readBody(request),
    });
    return new Response(output.body, { status: output.status, headers: output.headers });
  };
  return Object.assign(handler, { [SERVE_API]: serveApi }) satisfies ApiHandler;
}
