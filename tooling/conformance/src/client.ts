/**
 * The suite's HTTP client: plain `fetch` against a base URL, with the demo fixture's tokens, so it
 * sees a deployment exactly as any other client does.
 */
import { demoToken, type DemoAccountId, type DemoTokenName } from "@cloudplane/db";

export interface CallOptions {
  /** Whose token: [account, token name]. Default: account 1's administrator. */
  as?: [DemoAccountId, DemoTokenName];
  /** The whole Authorization header instead (null: none). */
  authorization?: string | null;
  /** A JSON body; a Uint8Array is sent as it is, as application/octet-stream (a route that takes raw bytes). */
  body?: unknown;
  /** A body sent as it is, e.g. malformed JSON, or a stream sent as it comes (give its content-length). */
  rawBody?: string | Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array>;
  headers?: Record<string, string>;
}

export interface Reply {
  method: string;
  path: string;
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body; undefined when the reply is not JSON. */
  body: unknown;
}

export interface ConformanceClient {
  baseUrl: string;
  call(method: string, path: string, options?: CallOptions): Promise<Reply>;
}

export function apikey(as: [DemoAccountId, DemoTokenName]): string {
  return `apikey ${demoToken(as[0], as[1]).plaintext}`;
}

/** How many times a call answered 429 is sent again, after the Retry-After it names. */
const RATE_LIMIT_RETRIES = 5;

/** Replies whose body never came back in time are failures, not hangs. */
const TIMEOUT_MS = 30_000;

/**
 * fetch, but the way any polite client meets a rate limit: the suite sends more requests a second than a
 * deployment's rate limit lets one token make, so a 429 is sent again after the Retry-After it names (when
 * the body can be resent). Every reply has TIMEOUT_MS to come back.
 */
export async function politeFetch(url: string, init: RequestInit): Promise<Response> {
  const send = () => fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
  let response = await send();
  const resendable = typeof init.body !== "object" || init.body instanceof Uint8Array;
  for (let retry = 0; response.status === 429 && resendable && retry < RATE_LIMIT_RETRIES; retry++) {
    await response.arrayBuffer();
    await new Promise((resolve) => setTimeout(resolve, 1000 * Number(response.headers.get("retry-after") ?? 1)));
    response = await send();
  }
  return response;
}

export function createClient(baseUrl: string): ConformanceClient {
  const base = new URL(baseUrl).toString().replace(/\/+$/, "");
  return {
    baseUrl: base,
    async call(method, path, options = {}) {
      const headers = new Headers(options.headers);
      const authorization = options.authorization === undefined ? apikey(options.as ?? [1, "role-1-active"]) : options.authorization;
      if (authorization !== null && !headers.has("authorization")) headers.set("authorization", authorization);
      let body = options.rawBody;
      if (options.body instanceof Uint8Array) {
        body = options.body as Uint8Array<ArrayBuffer>;
        if (!headers.has("content-type")) headers.set("content-type", "application/octet-stream");
      } else if (options.body !== undefined) {
        body = JSON.stringify(options.body);
        if (!headers.has("content-type")) headers.set("content-type", "application/json");
      }
      // Node's fetch sends a stream only when told that the reply may come before the body is sent.
      const streamed = body instanceof ReadableStream ? { duplex: "half" } : {};
      const response = await politeFetch(`${base}${path}`, { method, headers, body, ...streamed });
      const text = await response.text();
      let parsed: unknown;
      if (/\bjson\b/i.test(response.headers.get("content-type") ?? "")) {
        try {
          parsed = JSON.parse(text);
        } catch {
          throw new Error(`${method} ${path} answered ${response.status} with a JSON content type but a body that is not JSON: ${text.slice(0, 200)}`);
        }
      }
      return { method, path, status: response.status, headers: response.headers, text, body: parsed };
    },
  };
}
