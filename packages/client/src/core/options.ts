/**
 * The options of a client and of a single call, and how the client's are completed from the
 * environment (CLOUDPLANE_API_KEY, CLOUDPLANE_BASE_URL) where the runtime has one.
 */
import { CloudplaneError } from "./errors.js";

/** A fetch function: the runtime's own, or any `(input, init) => Promise<Response>` (a test handler, a proxy). */
export type Fetch = (input: string, init: RequestInit) => Promise<Response>;

/** Headers to send; a `null` value removes a header the client would otherwise send. */
export type HeadersOption = Record<string, string | null | undefined>;

/** The schemas responses are checked against: pass `contract` from @cloudplane/contract. */
export interface ResponseSchemas {
  readonly [area: string]: { readonly [route: string]: { readonly responses: Readonly<Record<number, unknown>> } };
}

/** Where the client reports what it does: any object with these methods (`console` is one). */
export interface Logger {
  debug(message: string, fields: LogFields): void;
  info(message: string, fields: LogFields): void;
  warn(message: string, fields: LogFields): void;
  error(message: string, fields: LogFields): void;
}

/** What a log entry says of its call: never the API key, a header's value or a body. */
export interface LogFields {
  method: string;
  /** The path called, without the base URL and the query. */
  path: string;
  /** The attempt, from 1. */
  attempt: number;
  status?: number | undefined;
  code?: string | undefined;
  requestId?: string | undefined;
  durationMs?: number | undefined;
  retryInMs?: number | undefined;
}

/** How much the logger is told: `debug` each attempt, `info` each answer, `warn` each retry, `error` each failed call. */
export type LogLevel = "off" | "error" | "warn" | "info" | "debug";

export interface ClientOptions {
  /** The API token, sent as `Authorization: apikey <token>`. Default: the CLOUDPLANE_API_KEY environment variable. */
  apiKey?: string | undefined;
  /** The API's address, e.g. `https://api.example.com`. Default: the CLOUDPLANE_BASE_URL environment variable. */
  baseUrl?: string | undefined;
  /** The fetch to send requests with. Default: the runtime's global fetch. */
  fetch?: Fetch | undefined;
  /** Milliseconds each attempt may take, body included, before it fails with APIConnectionTimeoutError. Default 60 000. */
  timeout?: number | undefined;
  /** How many times a failed call is retried (see the README for which failures are). Default 2. */
  maxRetries?: number | undefined;
  /** Headers sent with every call. */
  headers?: HeadersOption | undefined;
  /**
   * Check every successful response against the contract's schema and throw APIResponseValidationError
   * when one does not match: `validateResponses: contract` (this bundles zod and the contract). Default: off.
   */
  validateResponses?: ResponseSchemas | undefined;
  /** Where to report each attempt, answer, retry and failure (see `logLevel`). Default: none. */
  logger?: Logger | undefined;
  /** How much the logger is told. Default `info` when a logger is given. */
  logLevel?: LogLevel | undefined;
}

/** Options of one call; each overrides the client's. */
export interface RequestOptions {
  timeout?: number | undefined;
  maxRetries?: number | undefined;
  /** Aborts the call (and its retries) with APIUserAbortError. */
  signal?: AbortSignal | null | undefined;
  headers?: HeadersOption | undefined;
  /**
   * The `Idempotency-Key` of a POST: the server does the request once for each key (for 24 hours) and
   * answers a repeat with the first answer. Default: a new random key for each call, sent with every
   * attempt of it. A `null` `Idempotency-Key` in `headers` sends none.
   */
  idempotencyKey?: string | undefined;
}

export const DEFAULT_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_RETRIES = 2;

/** A variable of the runtime's environment: `process.env` (Node, Bun) or `Deno.env`; undefined elsewhere. */
export function readEnv(name: string): string | undefined {
  const runtime = globalThis as {
    process?: { env?: Record<string, string | undefined> };
    Deno?: { env?: { get?: (name: string) => string | undefined } };
  };
  try {
    const value = runtime.process?.env?.[name] ?? runtime.Deno?.env?.get?.(name);
    return value?.trim() || undefined;
  } catch {
    // Deno without --allow-env throws; that is the same as not set.
    return undefined;
  }
}

export interface ResolvedOptions {
  apiKey: string;
  baseUrl: string;
  fetch: Fetch;
  timeout: number;
  maxRetries: number;
  headers: HeadersOption;
  validateResponses: ResponseSchemas | undefined;
  /** The logger's methods the level lets through; the others are absent. */
  log: Partial<Logger>;
}

const LEVELS = ["error", "warn", "info", "debug"] as const;

/** The methods of `logger` that `level` lets through, bound to it. */
function levelled(logger: Logger | undefined, level: LogLevel): Partial<Logger> {
  if (logger === undefined || level === "off") return {};
  if (!LEVELS.includes(level)) throw new CloudplaneError(`logLevel must be one of off, ${LEVELS.join(", ")}; got ${String(level)}.`);
  const log: Partial<Logger> = {};
  for (const name of LEVELS.slice(0, LEVELS.indexOf(level) + 1)) log[name] = logger[name].bind(logger);
  return log;
}

function checkCount(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 0) throw new CloudplaneError(`${name} must be an integer of 0 or more; got ${value}.`);
  return value;
}

function checkTimeout(value: number): number {
  if (!(value > 0)) throw new CloudplaneError(`timeout must be a number of milliseconds over 0; got ${value}.`);
  return value;
}

function isAbsoluteUrl(value: string): boolean {
  // Not URL.canParse: older browsers still in use lack it.
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

export function checkRequestOptions(options: RequestOptions): void {
  if (options.timeout !== undefined) checkTimeout(options.timeout);
  if (options.maxRetries !== undefined) checkCount("maxRetries", options.maxRetries);
  if (options.idempotencyKey !== undefined && !/^[\x21-\x7e]{1,255}$/.test(options.idempotencyKey))
    throw new CloudplaneError("idempotencyKey must be 1 to 255 visible ASCII characters, e.g. a UUID.");
}

/** The client's options with the defaults and environment filled in; throws when the key or address is missing. */
export function resolveOptions(options: ClientOptions): ResolvedOptions {
  const apiKey = options.apiKey ?? readEnv("CLOUDPLANE_API_KEY");
  if (!apiKey) throw new CloudplaneError("The API key is missing: pass apiKey to createClient or set CLOUDPLANE_API_KEY.");
  const baseUrl = options.baseUrl ?? readEnv("CLOUDPLANE_BASE_URL");
  if (!baseUrl) throw new CloudplaneError("The API address is missing: pass baseUrl to createClient or set CLOUDPLANE_BASE_URL.");
  if (!isAbsoluteUrl(baseUrl)) throw new CloudplaneError(`baseUrl must be an absolute URL such as https://api.example.com; got ${baseUrl}.`);
  // Called as a plain function: browsers and Workers reject a global fetch called on another object.
  const runtimeFetch: Fetch = (input, init) => fetch(input, init);
  return {
    apiKey,
    baseUrl: baseUrl.replace(/\/+$/, ""),
    fetch: options.fetch ?? runtimeFetch,
    timeout: checkTimeout(options.timeout ?? DEFAULT_TIMEOUT_MS),
    maxRetries: checkCount("maxRetries", options.maxRetries ?? DEFAULT_MAX_RETRIES),
    headers: options.headers ?? {},
    validateResponses: options.validateResponses,
    log: levelled(options.logger, options.logLevel ?? "info"),
  };
}
