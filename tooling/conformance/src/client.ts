/**
 * The suite's HTTP client: plain `fetch` against a base URL, with the tokens it is given, so it sees a
 * deployment exactly as any other client does.
 */

/** The two accounts the suite calls: 1, the account checked, and 2, another account of the same deployment. */
export type ConformanceAccount = 1 | 2;

/**
 * The tokens the suite calls with, named by role group id: an active token of each role (1
 * Administrators, 2 Users, 5 Engineers, 3009 and 3022 Purge and Prefetch), an expired Engineers token
 * and a revoked Users token. Account 2 needs only its administrator's.
 */
export const CONFORMANCE_TOKEN_NAMES = [
  "role-1-active",
  "role-2-active",
  "role-5-active",
  "role-3009-active",
  "role-3022-active",
  "role-5-expired",
  "role-2-deleted",
] as const;

export type ConformanceTokenName = (typeof CONFORMANCE_TOKEN_NAMES)[number];

/** The tokens' plaintexts, by account and name. */
export type ConformanceTokens = { 1: Record<ConformanceTokenName, string>; 2: Pick<Record<ConformanceTokenName, string>, "role-1-active"> & Partial<Record<ConformanceTokenName, string>> };

interface TokenRow {
  accountId: number;
  name: string;
  plaintext: string;
}

/**
 * The tokens of a JSON document: `{ "1": { "role-1-active": "…", … }, "2": { "role-1-active": "…" } }`,
 * or rows `{ accountId, name, plaintext }` (a list, or an object's `apiTokens` list, as the demo data's
 * file holds them), accounts 1 and 2. Names a missing token.
 */
export function conformanceTokens(document: unknown): ConformanceTokens {
  const rows = Array.isArray(document) ? document : (document as { apiTokens?: unknown } | null)?.apiTokens;
  const byAccount: Record<string, Record<string, unknown>> = Array.isArray(rows)
    ? Object.fromEntries(
        ["1", "2"].map((account) => [account, Object.fromEntries((rows as TokenRow[]).filter((row) => String(row.accountId) === account).map((row) => [row.name, row.plaintext]))]),
      )
    : ((document ?? {}) as Record<string, Record<string, unknown>>);
  const missing = [
    ...CONFORMANCE_TOKEN_NAMES.filter((name) => typeof byAccount["1"]?.[name] !== "string").map((name) => `1 ${name}`),
    ...(typeof byAccount["2"]?.["role-1-active"] === "string" ? [] : ["2 role-1-active"]),
  ];
  if (missing.length) throw new Error(`The tokens lack ${missing.join(", ")} (account and name).`);
  return byAccount as unknown as ConformanceTokens;
}

export interface CallOptions {
  /** Whose token: [account, token name]. Default: account 1's administrator. */
  as?: [ConformanceAccount, ConformanceTokenName];
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
  /** The body's length in bytes (a zip archive's bytes are not text: `text` decodes them with replacement characters). */
  size: number;
  /** The parsed JSON body; undefined when the reply is not JSON. */
  body: unknown;
}

export interface ConformanceClient {
  baseUrl: string;
  /** The Authorization header of a token: `apikey <token>`. */
  apikey(as: [ConformanceAccount, ConformanceTokenName]): string;
  call(method: string, path: string, options?: CallOptions): Promise<Reply>;
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

export function createClient(baseUrl: string, tokens: ConformanceTokens): ConformanceClient {
  const base = new URL(baseUrl).toString().replace(/\/+$/, "");
  const apikey = ([account, name]: [ConformanceAccount, ConformanceTokenName]) => {
    const token = tokens[account][name];
    if (token === undefined) throw new Error(`The suite was given no token ${name} of account ${account}.`);
    return `apikey ${token}`;
  };
  return {
    baseUrl: base,
    apikey,
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
      const bytes = new Uint8Array(await response.arrayBuffer());
      const text = new TextDecoder().decode(bytes);
      let parsed: unknown;
      // A HEAD answer names the GET's content type and has no body.
      if (method !== "HEAD" && /\bjson\b/i.test(response.headers.get("content-type") ?? "")) {
        try {
          parsed = JSON.parse(text);
        } catch {
          throw new Error(`${method} ${path} answered ${response.status} with a JSON content type but a body that is not JSON: ${text.slice(0, 200)}`);
        }
      }
      return { method, path, status: response.status, headers: response.headers, text, size: bytes.byteLength, body: parsed };
    },
  };
}
