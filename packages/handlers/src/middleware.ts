/**
 * The middleware ts-rest runs for every request once the front has read it (`requestMiddleware`: the
 * caller authenticated, the rate limit, the idempotency key) and for each route
 * once it has matched (`routeMiddleware`: the caller's role, then text the database cannot store).
 */
import { isBytes, roleMayCall, type RouteAccess } from "@cloudplane/contract";
import type { TsRestRequest } from "@ts-rest/serverless";
import type { Caller } from "./auth.js";
import { addFieldError, ApiError, fieldErrors, problemCount, validationFailed } from "./errors.js";
import { storableText, type PlatformContext } from "./front.js";
import type { Idempotency } from "./idempotency.js";
import { createRateLimiter, DEFAULT_RATE_LIMIT } from "./rate-limit.js";
import type { ApiRequest, HandlerMemory, HandlerOptions } from "./types.js";

const UNSTORABLE_MESSAGE = "Must not contain a NUL character or an unpaired UTF-16 surrogate.";

/**
 * The middleware every request runs before it is routed: the caller (authenticated by the front already
 * when the request came with a body), the rate limit, then a POST's idempotency key (idempotency.ts),
 * which may answer from the key's stored answer. The body is the front's (front.ts: read, held to the
 * limit and to its route's type, handed over as the request's `content`); the query is itty-router's
 * (`request.query`: a name given more than once has all its values, in order). One step, in that
 * order: itty-router awaits each middleware of its list in turn, a turn of the event loop's microtasks
 * each, so the steps of every request are one entry of it.
 */
export function requestMiddleware(options: HandlerOptions, memory: HandlerMemory, authenticate: (header: string | null) => Promise<Caller>, idempotency: Idempotency) {
  const rateLimit = options.rateLimit === undefined ? DEFAULT_RATE_LIMIT : options.rateLimit;
  const takeRequest = rateLimit ? createRateLimiter(options.db, rateLimit, memory.leases) : undefined;
  return [
    async (request: ApiRequest, context: PlatformContext) => {
      request.caller = context.caller ?? (await authenticate(request.headers.get("authorization")));
      if (takeRequest) await takeRequest(request.caller.tokenId);
      // Awaited, not returned: an async function that returns a promise settles two turns after it.
      return await idempotency.claim(request, context);
    },
  ];
}

/**
 * Refuses (400) a query or JSON body with text the database cannot take, naming each place (at most
 * MAX_REPORTED_PROBLEMS of them, through addFieldError), instead of letting the database fail (500).
 * Walked without recursion, container by container, and no deeper than any schema of the contract takes
 * (deeper values fail validation anyway): a body may be nested deeper than the stack. A path is written
 * out only for a problem or a container, so a list of a million numbers costs one pass over it.
 */
function refuseUnstorableText(request: TsRestRequest, context: PlatformContext): void {
  // Raw bytes (a route that takes them) hold no text.
  const content: unknown = isBytes(request.content) ? undefined : request.content;
  // The query is decoded from the URL's search, which every runtime hands over percent-encoded ASCII: a
  // NUL can only come as %00, and decoding replaces malformed UTF-8, so it makes no unpaired surrogate.
  const queryStorable = !context.url.search.includes("%00");
  // The front looked at the body's JSON text (storableJson), where such text can only be an escape.
  const bodyStorable = context.progress.bodyStorable || content === undefined;
  // Nothing to look at (most requests): neither the query nor the body (none, or one whose text the front cleared) can hold such text.
  if (queryStorable && bodyStorable) return;
  // Otherwise the walk, over what may hold it: where it is, it names each place (a false alarm of the
  // front's, an escaped backslash before such letters, costs one pass and finds nothing).
  const maxDepth = 64;
  const errors = fieldErrors();
  const pending: [unknown, string, number][] = [];
  if (!bodyStorable) pending.push([content, "", 0]);
  if (!queryStorable) pending.push([request.query, "query", 0]);
  while (pending.length) {
    const [value, path, depth] = pending.pop()!;
    if (typeof value === "string") {
      if (!storableText(value)) addFieldError(errors, path || "body", UNSTORABLE_MESSAGE);
      continue;
    }
    if (depth >= maxDepth || typeof value !== "object" || value === null) continue;
    const inner: [unknown, string, number][] = [];
    const look = (item: unknown, key: string | number) => {
      if (typeof item === "string") {
        if (!storableText(item)) addFieldError(errors, path, UNSTORABLE_MESSAGE, key);
      } else if (typeof item === "object" && item !== null) inner.push([item, path ? `${path}.${key}` : String(key), depth + 1]);
    };
    if (Array.isArray(value)) for (let index = 0; index < value.length; index++) look(value[index], index);
    else
      for (const key in value)
        if (Object.hasOwn(value, key)) {
          if (!storableText(key)) addFieldError(errors, path, UNSTORABLE_MESSAGE, key);
          look((value as Record<string, unknown>)[key], key);
        }
    for (let index = inner.length - 1; index >= 0; index--) pending.push(inner[index]!);
  }
  if (problemCount(errors)) throw validationFailed(errors);
}

/** The middleware every route runs after it matched, before its input is validated: the role, then storable text (one step, as above). */
export function routeMiddleware(access: RouteAccess) {
  return [
    (request: ApiRequest, context: PlatformContext) => {
      if (!roleMayCall(request.caller.roleId, access))
        throw new ApiError("permission_denied", `Your role (${request.caller.roleName}) may not call this route.`);
      refuseUnstorableText(request, context);
    },
  ];
}
