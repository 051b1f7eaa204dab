/**
 * The one place requests are made: URL and headers, each attempt under its timeout and the caller's
 * AbortSignal, retries, the typed body or the typed error, and paged lists on top.
 */
import { APIPromise, type APIResponse } from "./api-promise.js";
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIResponseValidationError,
  APIUserAbortError,
  CloudplaneError,
  errorFromResponse,
  type FieldErrors,
} from "./errors.js";
import {
  checkRequestOptions,
  resolveOptions,
  type ClientOptions,
  type HeadersOption,
  type LogFields,
  type RequestOptions,
  type ResolvedOptions,
} from "./options.js";
import { loadPage, type PagePromise, type Paging } from "./pagination.js";
import { isRetryableStatus, isRetryableWithoutResponse, retryDelayMs, sleep } from "./retries.js";
import type { Query, RequestInput, RouteAddress, RouteDefinition, RouteId, Success } from "./routes.js";
import { CLIENT_VERSION } from "./routes.generated.js";

interface SendInput {
  params?: Record<string, unknown> | undefined;
  query?: Record<string, unknown> | undefined;
  body?: unknown;
}

interface Exchange {
  response: Response;
  text: string;
}

interface SchemaLike {
  safeParse(value: unknown):
    | { success: true; data: unknown }
    | { success: false; error: { issues: { path: (string | number)[]; message: string }[] } };
}

/** setTimeout fires at once for delays over 2^31 − 1 ms; longer timeouts wait that long instead. */
const MAX_TIMER_MS = 2_147_483_647;

/** What the client calls itself in the User-Agent header: its name and version. */
export const USER_AGENT = `cloudplane-client/${CLIENT_VERSION}`;
const IN_BROWSER = typeof (globalThis as { document?: unknown }).document !== "undefined";

/** The header of a POST's idempotency key. */
const IDEMPOTENCY_KEY = "idempotency-key";

/** A new idempotency key: `cp-` and a random UUID. */
function newIdempotencyKey(): string {
  return `cp-${crypto.randomUUID()}`;
}

/** Whether the call's or the client's headers remove `Idempotency-Key` (a `null` value), the call's first. */
function hasNullHeader(...sources: Array<HeadersOption | undefined>): boolean {
  for (const source of sources) {
    for (const [name, value] of Object.entries(source ?? {})) if (name.toLowerCase() === IDEMPOTENCY_KEY && value !== undefined) return value === null;
  }
  return false;
}

/** A body sent as raw bytes (a route that takes them, such as an edge binary's upload), not as JSON. */
export type RawBody = Uint8Array | ArrayBuffer | Blob;

/** Whether `body` is raw bytes: sent as it is, with Content-Type: application/octet-stream. */
export function isRawBody(body: unknown): body is RawBody {
  return (
    body instanceof Uint8Array ||
    body instanceof ArrayBuffer ||
    (typeof Blob !== "undefined" && body instanceof Blob) ||
    ["[object Uint8Array]", "[object ArrayBuffer]"].includes(Object.prototype.toString.call(body))
  );
}

function isSchema(value: unknown): value is SchemaLike {
  return typeof (value as Partial<SchemaLike> | undefined)?.safeParse === "function";
}

/** The URL of a route: path parameters filled in (each encoded as one segment) and the query appended. */
export function routeUrl(baseUrl: string, path: string, params?: Record<string, unknown>, query?: Record<string, unknown>): string {
  const filled = path.replace(/:([A-Za-z_]\w*)/g, (_match, name: string) => {
    const value = params?.[name];
    const text = typeof value === "number" || typeof value === "string" ? String(value) : "";
    // "." and ".." would be read as dot segments and reach another path.
    if (text === "" || text === "." || text === "..")
      throw new CloudplaneError(`The path parameter ${name} must be a number or a non-empty name; got ${String(value)}.`);
    return encodeURIComponent(text);
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    for (const item of Array.isArray(value) ? (value as unknown[]) : [value]) {
      if (item !== undefined && item !== null) search.append(key, typeof item === "string" ? item : JSON.stringify(item));
    }
  }
  const queryString = search.toString();
  return `${baseUrl}${filled}${queryString ? `?${queryString}` : ""}`;
}

function reasonOf(cause: unknown): string {
  const reason = cause instanceof Error ? ((cause.cause instanceof Error ? cause.cause.message : "") || cause.message) : String(cause);
  return reason ? `: ${reason}` : ".";
}

export class Transport {
  /** The options the client was made with, before defaults, for `withOptions`. */
  readonly clientOptions: ClientOptions;
  readonly #options: ResolvedOptions;

  constructor(options: ClientOptions = {}) {
    this.clientOptions = options;
    this.#options = resolveOptions(options);
  }

  /** Calls `route` and resolves to its typed body. */
  request<Id extends RouteId>(route: RouteDefinition<Id>, input: RequestInput<Id>, options?: RequestOptions): APIPromise<Success<Id>> {
    return new APIPromise(this.#send(route, input as unknown as SendInput, options ?? {}));
  }

  /** Calls a paged `route` and resolves to its first page (the one `input.query` asks for). */
  list<Id extends RouteId, Item>(
    route: RouteDefinition<Id>,
    input: RequestInput<Id>,
    options: RequestOptions | undefined,
    paging: Paging<Item, Success<Id>, Query<Id>>,
  ): PagePromise<Item, Success<Id>> {
    const { query, ...rest } = input as unknown as SendInput;
    return loadPage(
      (pageQuery) => this.#send(route, { ...rest, query: pageQuery as Record<string, unknown> }, options ?? {}),
      paging,
      (query ?? {}) as Query<Id>,
    );
  }

  #headers(extra: HeadersOption | undefined, contentType: string | undefined): Headers {
    const headers = new Headers({ accept: "application/json", authorization: `apikey ${this.#options.apiKey}` });
    // Browsers send their own User-Agent; a page setting one would need the API's CORS to allow it.
    if (!IN_BROWSER) headers.set("user-agent", USER_AGENT);
    if (contentType) headers.set("content-type", contentType);
    for (const source of [this.#options.headers, extra]) {
      for (const [name, value] of Object.entries(source ?? {})) {
        if (value === null) headers.delete(name);
        else if (value !== undefined) headers.set(name, value);
      }
    }
    return headers;
  }

  async #send<T>(route: RouteAddress, input: SendInput, options: RequestOptions): Promise<APIResponse<T>> {
    checkRequestOptions(options);
    const url = routeUrl(this.#options.baseUrl, route.path, input.params, input.query);
    const maxRetries = options.maxRetries ?? this.#options.maxRetries;
    const timeout = options.timeout ?? this.#options.timeout;
    // Raw bytes go as they are (each attempt sends the same bytes again); anything else as JSON.
    const raw = isRawBody(input.body);
    const body = input.body === undefined ? undefined : raw ? (input.body as BodyInit) : JSON.stringify(input.body);
    const headers = this.#headers(options.headers, body === undefined ? undefined : raw ? "application/octet-stream" : "application/json");
    // A POST carries one idempotency key for all its attempts, so that the server does it once however
    // many of them reach it (a header of `null` sends none).
    if (route.method === "POST" && options.idempotencyKey !== undefined) headers.set(IDEMPOTENCY_KEY, options.idempotencyKey);
    else if (route.method === "POST" && !headers.has(IDEMPOTENCY_KEY) && !hasNullHeader(options.headers, this.#options.headers)) headers.set(IDEMPOTENCY_KEY, newIdempotencyKey());
    const idempotent = headers.has(IDEMPOTENCY_KEY);
    const init: RequestInit = { method: route.method, headers, ...(body === undefined ? {} : { body }) };

    const log = this.#options.log;
    const path = new URL(url).pathname;
    const failed = (error: unknown, fields: LogFields) => {
      if (error instanceof APIError)
        log.error?.(`${route.method} ${path} failed: ${error.message}`, { ...fields, status: error.status, code: error.code, requestId: error.requestId });
      return error;
    };
    for (let retry = 0; ; retry++) {
      const fields: LogFields = { method: route.method, path, attempt: retry + 1 };
      let error: APIError;
      let retryable: boolean;
      log.debug?.(`${route.method} ${path}`, fields);
      const started = performance.now();
      try {
        const exchange = await this.#attempt(url, init, timeout, options.signal);
        const { response } = exchange;
        const requestId = response.headers.get("x-request-id") ?? undefined;
        log.info?.(`${route.method} ${path}: ${response.status}`, { ...fields, status: response.status, requestId, durationMs: Math.round(performance.now() - started) });
        const body = parseBody(exchange);
        if (response.ok) return this.#success<T>(route, exchange, body);
        error = errorFromResponse(response.status, body, response.headers);
        retryable = isRetryableStatus(route.method, response.status, idempotent);
      } catch (caught) {
        // Aborts and unreadable bodies are final; only a missing response may be worth another try.
        if (!(caught instanceof APIConnectionError)) throw failed(caught, fields);
        error = caught;
        retryable = isRetryableWithoutResponse(route.method, idempotent);
      }
      const delay = retryable && retry < maxRetries ? retryDelayMs(retry, error.headers) : undefined;
      if (delay === undefined) throw failed(error, fields);
      log.warn?.(`${route.method} ${path}: retrying in ${Math.round(delay)} ms (${error.code ?? error.status ?? error.name})`, {
        ...fields,
        status: error.status,
        code: error.code,
        requestId: error.requestId,
        retryInMs: Math.round(delay),
      });
      await sleep(delay, options.signal);
    }
  }

  /** One request and its body, failing with the client's errors on abort, timeout or a broken connection. */
  async #attempt(url: string, init: RequestInit, timeout: number, signal: AbortSignal | null | undefined): Promise<Exchange> {
    const requestId = new Headers(init.headers).get("x-request-id") ?? undefined;
    if (signal?.aborted) throw new APIUserAbortError({ cause: signal.reason, requestId });
    const controller = new AbortController();
    // Settles the attempt even when a custom fetch ignores the signal and never settles.
    let abandon: (error: APIError) => void = () => undefined;
    const abandoned = new Promise<never>((_resolve, reject) => {
      abandon = reject;
    });
    const onAbort = () => {
      controller.abort(signal?.reason);
      abandon(new APIUserAbortError({ cause: signal?.reason, requestId }));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    const timer = setTimeout(() => {
      controller.abort();
      abandon(new APIConnectionTimeoutError({ message: `The request timed out after ${timeout} ms.`, requestId }));
    }, Math.min(timeout, MAX_TIMER_MS));
    const fetch = this.#options.fetch;
    const exchange = (async (): Promise<Exchange> => {
      const response = await fetch(url, { ...init, signal: controller.signal });
      return { response, text: await response.text() };
    })();
    try {
      return await Promise.race([exchange, abandoned]);
    } catch (error) {
      if (error instanceof APIError) throw error;
      throw new APIConnectionError({ message: `The connection to the API failed${reasonOf(error)}`, cause: error, requestId });
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    }
  }

  #success<T>(route: RouteAddress, { response }: Exchange, body: unknown): APIResponse<T> {
    const requestId = response.headers.get("x-request-id") ?? undefined;
    const schemas = this.#options.validateResponses;
    if (schemas) {
      const schema = schemas[route.area]?.[route.name]?.responses[response.status];
      const failure = (message: string, errors?: FieldErrors) =>
        new APIResponseValidationError({
          status: response.status,
          code: "response_validation",
          message,
          errors,
          headers: response.headers,
          requestId,
          body,
        });
      // ts-rest marks a response without a body (a 204) with a symbol, not a schema.
      if (typeof schema === "symbol") {
        if (body !== undefined) throw failure(`The ${response.status} response of ${route.area}.${route.name} has a body; the contract defines none.`);
        return { body: body as T, status: response.status, headers: response.headers, requestId, response };
      }
      if (!isSchema(schema)) throw failure(`The contract defines no ${response.status} response for ${route.area}.${route.name}.`);
      const result = schema.safeParse(body);
      if (!result.success) {
        const errors: FieldErrors = {};
        for (const issue of result.error.issues) (errors[issue.path.join(".") || "body"] ??= []).push(issue.message);
        throw failure(`The ${response.status} response of ${route.area}.${route.name} does not match the contract: see errors.`, errors);
      }
      body = result.data;
    }
    return { body: body as T, status: response.status, headers: response.headers, requestId, response };
  }
}

/** The body as JSON when the response says it is JSON, else as text; an empty body is undefined. */
function parseBody({ response, text }: Exchange): unknown {
  if (text === "") return undefined;
  if (!/[/+]json\b/i.test(response.headers.get("content-type") ?? "")) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch (cause) {
    // An error status stays the error it is; its unreadable body is kept as text.
    if (!response.ok) return text;
    throw new APIError({
      status: response.status,
      code: "invalid_response",
      message: "The API answered with a body that is not valid JSON.",
      headers: response.headers,
      requestId: response.headers.get("x-request-id") ?? undefined,
      body: text,
      cause,
    });
  }
}
