/**
 * The front: what happens to a request before ts-rest reads it, on every runtime. It takes the request
 * id, keeps the base path, authenticates a request that comes with a body before reading it, refuses a
 * body over the limit, nested too deep or of a type its route does not take (415), reads the body once,
 * and holds the whole request to the handler's deadline.
 */
import { JSON_BODY, RAW_BODY, type BodyType } from "@cloudplane/contract";
import type { Caller } from "./auth.js";
import type { BodyTypeOf } from "./body-types.js";
import { addFieldError, ApiError, fieldErrors, newRequestId, unavailable, validationFailed } from "./errors.js";

/** Bodies over this many bytes answer 413. */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * JSON bodies nested deeper than this (arrays and objects within one another) answer 400 before they
 * are parsed. No body of the contract comes near it (a security field's value, the deepest, is at most
 * 8 levels inside 3); JSON.parse of 500,000 nested `[` held the event loop for up to half a second.
 */
export const MAX_JSON_DEPTH = 64;

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;
export const JSON_TYPE = /^application\/(?:[\w.+-]*\+)?json\s*(?:;|$)/i;
const RAW_TYPE = /^application\/octet-stream\s*(?:;|$)/i;

/** How far the reading of a request has come: `bodyRead` is false while a body is still being received. */
export interface RequestProgress {
  bodyRead?: boolean;
  /** Set when the body's JSON text was seen to hold no text the database cannot store (`storableJson`). */
  bodyStorable?: boolean;
  /** The body type of the route the request reaches (JSON, or raw bytes), looked up once by the front. */
  bodyType?: BodyType;
}

/** The parts of a request's URL the handler reads (a `URL` has them). */
export interface RequestUrl {
  readonly href: string;
  /** As `URL`'s: percent-encoded, from the first `/` after the host to the query. */
  readonly pathname: string;
  /** As `URL`'s: `?` and the query, or "" for none (an empty one too). */
  readonly search: string;
}

/**
 * The path and query of `href`, a request's URL as the runtime gives it: serialized (the Fetch standard's
 * `Request.url`, which every runtime's requests keep; Node's bridge passes a request target on as sent only
 * when it is already in that form, and serializes any other), so they are read off the text, as `new URL`
 * would give them, without parsing again what the runtime parsed (~0.4 µs, more under load). The one
 * difference: a `'` the bridge passed on in a query stays as sent, where `URL` writes `%27` (the same
 * text once decoded). A URL of another shape (a fragment, no path before the query) is parsed.
 */
export function requestUrl(href: string): RequestUrl {
  const host = href.indexOf("://") + 3;
  const path = host < 3 ? -1 : href.indexOf("/", host);
  const query = href.indexOf("?", host);
  if (path < 0 || (query >= 0 && query < path) || href.includes("#")) return new URL(href);
  if (query < 0) return { href, pathname: href.slice(path), search: "" };
  return { href, pathname: href.slice(path, query), search: query === href.length - 1 ? "" : href.slice(query) };
}

/** What the front passes to ts-rest with each request: when it arrived, its id, its URL (read once) and its progress. */
export interface PlatformContext {
  started: number;
  requestId: string;
  progress: RequestProgress;
  url: RequestUrl;
  /** The caller, when the front authenticated the request before reading its body. */
  caller?: Caller;
}

/** The request id a client sent, if it is one we echo (≤ 128 of `[A-Za-z0-9._-]`), or a new one. */
export function requestIdFrom(sent: string | null): string {
  return sent && REQUEST_ID.test(sent) ? sent : newRequestId();
}

/**
 * Where an adapter that may answer in the handler's place (the Node bridge, when a body stops coming)
 * puts the id it answers under, for the handler to log the request under the same one. A property, not
 * the request's X-Request-Id header: on Node, writing a header turns the bridge's light headers into a
 * whole `Headers` (about 10 µs a request).
 */
const GIVEN_REQUEST_ID = Symbol("cloudplane.requestId");

/** Gives `request` the id it is answered and logged under: the client's, if it is one we echo, or a new one. */
export function giveRequestId(request: Request): string {
  return ((request as { [GIVEN_REQUEST_ID]?: string })[GIVEN_REQUEST_ID] = requestIdFrom(request.headers.get("x-request-id")));
}

/** The id `request` is answered under: the one an adapter gave it, else as `requestIdFrom` makes it. */
export function requestIdOf(request: Request): string {
  return (request as { [GIVEN_REQUEST_ID]?: string })[GIVEN_REQUEST_ID] ?? requestIdFrom(request.headers.get("x-request-id"));
}

/**
 * Whether `text` is text the database can store and compare: no NUL character and no UTF-16 surrogate
 * without its pair. Two native passes (`isWellFormed`, `includes`), where a regular expression with
 * lookarounds costs several times more on a body of a hundred thousand strings.
 */
export function storableText(text: string): boolean {
  return (text as WellFormedText).isWellFormed() && !text.includes("\0");
}

/** ES2024's well-formed strings, which every runtime the handlers serve on has (the packages are typed against ES2022's library). */
type WellFormedText = string & { isWellFormed(): boolean; toWellFormed(): string };

/** `text` as the database can store it: each NUL and each unpaired surrogate replaced by U+FFFD. */
export function madeStorable(text: string): string {
  const wellFormed = (text as WellFormedText).isWellFormed() ? text : (text as WellFormedText).toWellFormed();
  // The NULs replaced from one indexOf to the next: on short strings (a refused body may hold a hundred
  // thousand), a third of what `replaceAll`'s setup alone costs each call.
  let made = "";
  let from = 0;
  for (let at = wellFormed.indexOf("\0"); at !== -1; at = wellFormed.indexOf("\0", from)) {
    made += wellFormed.slice(from, at) + "\ufffd";
    from = at + 1;
  }
  return from === 0 ? wellFormed : made + wellFormed.slice(from);
}

/**
 * Whether JSON text can only parse to text the database can store. JSON writes a NUL or an unpaired
 * surrogate only as an escape (`\u0000`, `\udXXX`): a raw NUL is not valid JSON, and decoded UTF-8 has no
 * unpaired surrogates. A false alarm (an escaped backslash before such letters) only costs a closer look.
 */
export function storableJson(text: string): boolean {
  return !/\\u(?:0000|d[89a-f])/i.test(text);
}

/**
 * Whether JSON text nests arrays and objects no deeper than `max`: one pass over its characters,
 * brackets inside strings skipped, that stops at the first level too many. Malformed text is left to
 * JSON.parse.
 */
export function jsonDepthWithin(text: string, max: number): boolean {
  if (text.length <= max) return true;
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c) index++; // a backslash: the next character is escaped
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) {
      if (++depth > max) return false;
    } else if (code === 0x5d || code === 0x7d) depth--;
  }
  return true;
}

function tooDeep(): ApiError {
  const errors = fieldErrors();
  addFieldError(errors, "body", `Must not nest arrays and objects more than ${MAX_JSON_DEPTH} levels deep.`);
  return validationFailed(errors);
}

function tooLarge(): ApiError {
  return new ApiError("payload_too_large", `The body is over the limit of ${MAX_BODY_BYTES} bytes (1 MiB).`);
}

/** 415 for a body that is not sent as the route's body type says: JSON, or raw bytes for the routes that take them. */
function refuseOtherBodyType(headers: Headers, bodyType: BodyType): void {
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

const UTF8 = new TextDecoder();

/** Reads a body of unknown length up to `MAX_BODY_BYTES`; a larger one is refused without reading it whole. */
async function readLimited(body: ReadableStream<Uint8Array>): Promise<Uint8Array<ArrayBuffer>> {
  const reader = body.getReader();
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
  return bytes;
}

/** Does the request come with a body? (Asked of the headers first: a Node request makes its body stream only when asked.) */
export function hasBody(request: Request): boolean {
  if (request.method === "GET" || request.method === "HEAD") return false;
  return request.headers.has("content-length") || request.headers.has("transfer-encoding") || request.body !== null;
}

/**
 * The request ts-rest is given, with its body read: within the limit and only if it has the type the
 * route takes (`bodyTypeOf`). A body with a Content-Length is as long as it says (every runtime holds it
 * to that), so it is read at once (as text, for a route that takes JSON); one without is read chunk by
 * chunk and refused past the limit. A body that decodes to no text is no body, whatever its headers say
 * (the platform's SDKs send `Content-Type: application/json` on every request, an empty DELETE included).
 * `progress` says while it is being received. What was read is handed over as the request's `content`:
 * JSON parsed here (malformed JSON is 400 malformed_json), raw bytes for a route that takes them, as they
 * came. ts-rest (patched, patches/) reads no body of a request whose content is set, and routes the
 * request it is given: the request goes on as the runtime made it, never copied (on Node, the server's
 * light request is never made a full one).
 */
export async function servable(request: Request, url: RequestUrl, progress: RequestProgress, bodyTypeOf: BodyTypeOf): Promise<Request> {
  const headers = request.headers;
  let content: unknown;
  progress.bodyType = await bodyTypeOf(request.method, url);
  if (hasBody(request)) {
    if (Number(headers.get("content-length") ?? "0") > MAX_BODY_BYTES) throw tooLarge();
    progress.bodyRead = false;
    let bytes: Uint8Array<ArrayBuffer> | undefined;
    let text: string | undefined;
    try {
      if (!headers.has("content-length")) bytes = await readLimited(request.body!);
      else if (progress.bodyType === RAW_BODY) bytes = new Uint8Array(await request.arrayBuffer());
      // Text at once: the runtime decodes the bytes it received (on Node, without copying them first).
      else text = await request.text();
    } catch (error) {
      if (error instanceof ApiError) throw error;
      throw new ApiError("bad_request", "The request's body could not be read to its end: the client stopped sending it.");
    }
    progress.bodyRead = true;
    if (bytes && progress.bodyType === RAW_BODY && bytes.byteLength > 0) {
      refuseOtherBodyType(headers, RAW_BODY);
      content = bytes;
    } else {
      // As fetch's `text()` decodes: UTF-8, a leading byte order mark dropped, malformed bytes replaced.
      text ??= UTF8.decode(bytes);
      progress.bodyStorable = storableJson(text);
      // A body that decodes to no text (none, or a byte order mark alone) is no body.
      if (text.length > 0) {
        refuseOtherBodyType(headers, JSON_BODY);
        if (!jsonDepthWithin(text, MAX_JSON_DEPTH)) throw tooDeep();
        try {
          content = JSON.parse(text);
        } catch {
          throw new ApiError("malformed_json", "The body is not valid JSON.");
        }
        // JSON null is no body of this API (every body is an object), and not the same as sending none.
        // A preflight's body is never read by a route: the preflight answers it as before.
        if (content === null && request.method !== "OPTIONS") {
          const errors = fieldErrors();
          addFieldError(errors, "body", "Must be a JSON object, or no body at all where the route takes none.");
          throw validationFailed(errors);
        }
      }
    }
  }
  if (request.method === "GET" || request.method === "HEAD") return request;
  // A route that takes raw bytes gets them empty when none came.
  (request as Request & { content?: unknown }).content = content === undefined && progress.bodyType === RAW_BODY ? new Uint8Array(0) : content;
  return request;
}

/**
 * The request's answer once `ms` have passed: 408 while its body is still being received (the client is
 * too slow), else 503 (the work goes on, but the client is not kept waiting).
 */
export function withDeadline<T>(work: Promise<T>, ms: number, progress: RequestProgress = {}): Promise<T> {
  // One promise settled by whichever comes first (Promise.race would add one for the deadline and one of its own).
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () =>
        reject(
          progress.bodyRead === false
            ? new ApiError("request_timeout", `The request's body was not received within ${ms / 1000} s.`, undefined, { connection: "close" })
            : unavailable(`The request took longer than ${ms / 1000} s; try again shortly.`),
        ),
      ms,
    );
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: Error) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
