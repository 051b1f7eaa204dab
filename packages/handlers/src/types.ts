/**
 * The types the handler, the routes and the adapters share: the handler's options, what the routes
 * get, and what the middleware adds to ts-rest's request. Types only; no module imports this one back.
 */
import type { Database } from "@cloudplane/db";
import type { TsRestRequest } from "@ts-rest/serverless";
import type { Caller, TokenCache } from "./auth.js";
import type { ErrorReport } from "./errors.js";
import type { Leases, RateLimit } from "./rate-limit.js";

export interface HandlerOptions {
  /** The database, from `createDatabase` of `@cloudplane/db`. */
  db: Database;
  /** The AES-GCM key that encrypts secrets at rest (`importSecretsKey` of `@cloudplane/db`). */
  secretsKey: CryptoKey;
  /** Serve the API under this path prefix (e.g. `/api`); other paths answer 404. Default: the root. */
  basePath?: string;
  /**
   * Requests a second per API token, and the burst allowed after idling; kept in the database so it
   * holds across instances, each taking a lease of up to a tenth of a second's worth at once
   * (rate-limit.ts). Default 50 a second, bursts of 100; `false` turns it off.
   */
  rateLimit?: RateLimit | false;
  /** Check every response against the contract (a failure answers 500 and is logged). For tests. */
  responseValidation?: boolean;
  /** Called once per request with a structured entry; never given a token or a secret. */
  onRequest?: (entry: RequestLogEntry) => void;
  /** Where unexpected errors are reported, without SQL parameters. Default: a JSON line on stderr. */
  onError?: (report: ErrorReport, requestId: string) => void;
  /**
   * How long a token's lookup is reused, in milliseconds: a token deleted or expired (or its user
   * deleted or given another role) in the database is refused from then on by every instance within
   * this time; its `exp_date` passing is seen at once. Default 1000; 0 looks up every request.
   */
  authCacheMs?: number;
  /**
   * What the handler keeps in memory between requests (token lookups, rate-limit leases), from
   * `createHandlerMemory`: several handlers may share one, or each would start empty.
   * `authCacheMs` is then the memory's own.
   */
  memory?: HandlerMemory;
  /** Answer 503 when a request takes longer than this many milliseconds (a database that hangs). Default 25 000. */
  timeoutMs?: number;
  /**
   * Let pages on other origins call the API from a browser (CORS): preflights are answered without
   * authentication, and answers to the origins allowed carry the CORS headers. Default: off.
   */
  cors?: CorsSettings | false;
}

/** Which pages may call the API from a browser. */
export interface CorsSettings {
  /**
   * `"*"` for any origin, the origins allowed as browsers send them (`https://app.example.com`,
   * `http://localhost:5173`: scheme, host and port, no path), or a test of the request's `Origin`.
   */
  origins: "*" | readonly string[] | ((origin: string) => boolean);
}

export interface RequestLogEntry {
  request_id: string;
  method: string;
  path: string;
  status: number;
  duration_ms: number;
}

/** One entry per request an adapter refused before the handler saw it (one the runtime could not read as HTTP): what a request log would hold. */
export interface ClientErrorEntry {
  request_id: string;
  status: number;
  code: string;
  message: string;
}

/** What a handler keeps in memory between requests: no I/O object, so it may outlive the request that made it. */
export interface HandlerMemory {
  tokens: TokenCache;
  leases: Leases;
}

/** What every route implementation gets besides its validated input and the request. */
export interface RouteDeps {
  db: Database;
  secretsKey: CryptoKey;
  /** The handler's memory: a revoked token's lookup is dropped from it. */
  memory: HandlerMemory;
}

/** A fetch handler: what every runtime serves. */
export type Handler = (request: Request) => Promise<Response>;

/** What the middleware adds to ts-rest's request before a route runs. */
export interface RequestExtension {
  /** The authenticated caller: every query is scoped to `caller.accountId`. */
  caller: Caller;
  /** A body that is not JSON (the cost report's CSV, a zip archive): sent as it is, instead of the route's JSON body; with `filename`, as an attachment of that name. */
  rawResponse?: { contentType: string; body: string | Uint8Array<ArrayBuffer>; filename?: string };
}

/** The request as the middleware and the routes see it. */
export type ApiRequest = TsRestRequest & RequestExtension;
