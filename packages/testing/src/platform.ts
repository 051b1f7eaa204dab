/**
 * `createTestPlatform`: the real API (the handler of @cloudplane/handlers) on an in-memory PGlite,
 * inside the test process, with a client bound to it, builders, `reset()` and faults.
 */
import type { Server } from "node:http";
import type { PGlite } from "@electric-sql/pglite";
import { createClient, type ClientOptions, type CloudplaneClient, type Fetch } from "@cloudplane/client";
import type { RouteId } from "@cloudplane/contract";
import { aiTasks, and, apiTokens, eq, hashToken, importSecretsKey, isNotNull, pgliteDatabase, sql, streams, videos, type Database } from "@cloudplane/db";
import { createHandler, createHandlerMemory, type Handler, type HandlerOptions, type RateLimit } from "@cloudplane/handlers";
import { serve, shutdown } from "@cloudplane/handlers/node";
import { Builders } from "./builders.js";
import { FaultTable, PlatformClosedError, type FaultKind, type TokenRef } from "./faults.js";
import { defaultCacheDirectory, imageOf, poolDatabase, takeDatabase, type Image } from "./image.js";
import type { Preset, SeededAdministrator } from "./presets.js";
import { routeOf } from "./route-match.js";
import { resetToSnapshot, takeSnapshot } from "./snapshot.js";

/** The base URL of the platform in the process: its `fetch` answers it (and any other host); nothing listens there. */
export const IN_PROCESS_BASE_URL = "http://cloudplane.test";

export interface ListenOptions {
  /** Default 0: any free port. */
  port?: number;
  /** Default 127.0.0.1. */
  hostname?: string;
}

export interface TestPlatformOptions {
  /**
   * What the platform holds at the start and after every `reset()`: `"empty"` (default), one account
   * (its Administrator is the client's caller) and the platform's catalog (shielding POPs, edge plans,
   * public edge templates, inference models, regions, common security profile templates); or `"demo"`,
   * the demo data of `pnpm start`, calling as demo account 1's Administrator.
   */
  preset?: Preset;
  /**
   * Objects every test starts with, made once with the builders or the client; `reset()` returns to the
   * state after it. (A platform with its own seed does not go back to the pool of started databases.)
   */
  seed?: (platform: TestPlatform) => Promise<void>;
  /** Start the loopback HTTP server at once (see `listen()`): `true`, or where to listen. Default: none. */
  listen?: boolean | ListenOptions;
  /** The API's per-token rate limit. Default off (`false`), so only a fault answers 429. */
  rateLimit?: RateLimit | false;
  /** Check every answer of the API against the contract (a mismatch answers 500). Default false. */
  responseValidation?: boolean;
  /** Where the migrated and seeded database image is cached between test processes; `false` for nowhere. Default `node_modules/.cache/cloudplane-testing`. */
  cacheDirectory?: string | false;
  /** The API's unexpected errors (500s). Default: a JSON line on stderr, as the API logs them. */
  onError?: HandlerOptions["onError"];
}

/** The ingest region a stream put on the air by `setStreamLive` is received in. */
const STREAM_INGEST_REGION = "eu-west";

/** A call the platform answered (or is holding, for a timeout fault). */
export interface PlatformCall {
  /** The route it was for, or null for a path and method the contract does not have. */
  route: RouteId | null;
  method: string;
  /** The path with the query. */
  path: string;
  /** The answer's status; null while a timeout fault holds it, and for good once its caller gave up. */
  status: number | null;
  /** The fault that answered it, if one did. */
  fault: FaultKind | null;
}

/** What `createClient` of @cloudplane/client needs to call the platform: `createClient(platform.clientOptions)`. */
export interface PlatformClientOptions {
  apiKey: string;
  baseUrl: string;
  fetch: Fetch;
}

/** `fetch` as the platform answers it: any URL's path (a path alone is taken as the platform's), no network. */
export type PlatformFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface TestPlatform {
  /** A client of the API, calling as the seeded Administrator, in the process (no network). */
  readonly client: CloudplaneClient;
  /** A fetch for code that makes its own client or uses another HTTP library. */
  readonly fetch: PlatformFetch;
  /** The platform's URL: the loopback server's once listening, else `IN_PROCESS_BASE_URL` (only `fetch` answers it). */
  readonly baseUrl: string;
  /** What `createClient` of @cloudplane/client needs to call the platform as its Administrator: `createClient(platform.clientOptions)`. */
  readonly clientOptions: PlatformClientOptions;
  /** The account and token `client` calls with. */
  readonly administrator: SeededAdministrator;
  /** Typed builders: accounts and tokens of a role, streams, edge apps, usage lines, … */
  readonly build: Builders;
  /** Failure injection: 429, 503 or no answer for the next calls of a route; an expired or revoked token. */
  readonly faults: FaultTable;
  /** Every call the platform got since it started or was last reset, in order. */
  readonly calls: readonly PlatformCall[];
  /** The platform's database (Drizzle, with the schema of @cloudplane/db), to look at what is stored. */
  readonly db: Database;
  /** A client calling with another token (a builder's). */
  clientFor(token: string, options?: ClientOptions): CloudplaneClient;
  /** Serves the platform on a loopback HTTP server too (once; later calls answer the same URL) and answers its base URL. */
  listen(options?: ListenOptions): Promise<string>;
  /**
   * Moves the platform's media pipeline on by `seconds`, as if that much time had passed for it: videos'
   * transcoding (`pending` → `viewable` → `ready`), AI tasks (`PENDING` → `STARTED` → `SUCCESS`) and the
   * streams' recordings under way (`recording_duration`, and the length of the video a stop keeps), which the
   * API reads from the time.
   */
  advanceMedia(seconds: number): Promise<void>;
  /**
   * Puts a stream of the administrator's account on the air (`live` true), or takes it off, as a broadcast
   * arriving at or leaving its primary RTMP ingest would: its `live`, `started_at_primary` or
   * `finished_at_primary`, `stream_source_type` and `active_ingest_region_primary` follow. No request of
   * the API makes a stream live; this lets a test cut clips from one and record it. A recording under way
   * goes on until it is stopped. Throws for a stream the account does not have.
   */
  setStreamLive(streamId: number, live: boolean): Promise<void>;
  /** Back to the seeded state: every table, every id sequence; faults cleared, the call log emptied. */
  reset(): Promise<void>;
  /** Stops the loopback server, fails calls a timeout fault still holds, and frees the database. */
  close(): Promise<void>;
}

/** A Request for what the platform's `fetch` was given; a bare path is the platform's. */
function requestOf(input: string | URL | Request, init?: RequestInit): Request {
  if (typeof input === "string" && input.startsWith("/")) return new Request(`${IN_PROCESS_BASE_URL}${input}`, init);
  return new Request(input, init);
}

class Platform implements TestPlatform {
  readonly client: CloudplaneClient;
  readonly fetch: PlatformFetch;
  readonly clientOptions: PlatformClientOptions;
  readonly administrator: SeededAdministrator;
  readonly build: Builders;
  readonly faults: FaultTable;
  readonly calls: PlatformCall[] = [];
  readonly db: Database;
  readonly #image: Image;
  readonly #database: PGlite;
  readonly #handlerOptions: HandlerOptions;
  #handler: Handler;
  /** Whether the database's snapshot is the image's (no seed of its own), so that it may be pooled. */
  readonly #imageState: boolean;
  #server: Promise<Server> | undefined;
  #baseUrl = IN_PROCESS_BASE_URL;
  #closed: Promise<void> | undefined;

  constructor(image: Image, database: PGlite, db: Database, secretsKey: CryptoKey, options: TestPlatformOptions) {
    this.#image = image;
    this.#database = database;
    this.#imageState = !options.seed;
    this.administrator = image.administrator;
    this.db = db;
    this.#handlerOptions = {
      db: this.db,
      secretsKey,
      rateLimit: options.rateLimit ?? false,
      responseValidation: options.responseValidation ?? false,
      ...(options.onError ? { onError: options.onError } : {}),
    };
    this.#handler = this.#newHandler();
    this.faults = new FaultTable({ expire: (token) => this.#changeToken(token, "expire"), revoke: (token) => this.#changeToken(token, "revoke") });
    this.fetch = (input, init) => this.#serve(requestOf(input, init));
    this.clientOptions = { apiKey: image.administrator.token, baseUrl: IN_PROCESS_BASE_URL, fetch: (input, init) => this.fetch(input, init) };
    this.client = createClient(this.clientOptions);
    this.build = new Builders({
      db: this.db,
      secretsKey,
      accountId: image.administrator.accountId,
      client: this.client,
      clientFor: (token) => this.clientFor(token),
    });
  }

  /**
   * The API as deployed, reusing a token's lookup for up to a second (a lookup costs as much as the rest of
   * a small call), with memory of its own: the handler is made anew, its lookups forgotten, whenever the
   * kit changes tokens behind the API's back (a token fault, a reset), so that the next call sees it.
   */
  #newHandler(): Handler {
    return createHandler({ ...this.#handlerOptions, memory: createHandlerMemory() });
  }

  get baseUrl(): string {
    return this.#baseUrl;
  }

  clientFor(token: string, options: ClientOptions = {}): CloudplaneClient {
    return createClient({ ...this.clientOptions, ...options, apiKey: token });
  }

  async #serve(request: Request): Promise<Response> {
    if (this.#closed) throw new Error("The test platform is closed.");
    const url = new URL(request.url);
    const route = routeOf(request.method, url.pathname);
    const fault = this.faults.take(route);
    const call: PlatformCall = { route: route?.id ?? null, method: request.method, path: `${url.pathname}${url.search}`, status: null, fault: fault?.kind ?? null };
    this.calls.push(call);
    const response = await (fault ? this.faults.answer(fault, request) : this.#handler(request));
    call.status = response.status;
    return response;
  }

  /**
   * A call over the loopback server: a call a timeout fault held ends without an answer to send (its
   * client left, or the platform closed), which is no error of the server's to log.
   */
  async #serveOverHttp(request: Request): Promise<Response> {
    try {
      return await this.#serve(request);
    } catch (error) {
      if (request.signal.aborted || error instanceof PlatformClosedError) return new Response(null, { status: 503 });
      throw error;
    }
  }

  async #changeToken(token: TokenRef | undefined, change: "expire" | "revoke"): Promise<void> {
    const given = token ?? this.administrator.token;
    const which =
      typeof given === "string"
        ? eq(apiTokens.tokenHash, await hashToken(given))
        : eq(apiTokens.id, typeof given === "number" ? given : given.id);
    const changed = await this.db
      .update(apiTokens)
      .set(change === "expire" ? { expDate: sql`now() - interval '1 second'` } : { deleted: true })
      .where(which)
      .returning({ id: apiTokens.id });
    if (changed.length === 0) throw new Error(`The platform has no such token to ${change}.`);
    this.#handler = this.#newHandler();
  }

  listen(options: ListenOptions = {}): Promise<string> {
    if (this.#closed) return Promise.reject(new Error("The test platform is closed."));
    this.#server ??= serve((request) => this.#serveOverHttp(request), { port: options.port ?? 0, hostname: options.hostname ?? "127.0.0.1" });
    return this.#server.then((server) => {
      const address = server.address();
      if (address === null || typeof address === "string") throw new Error("The loopback server has no TCP address.");
      const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
      this.#baseUrl = `http://${host}:${address.port}`;
      return this.#baseUrl;
    });
  }

  async advanceMedia(seconds: number): Promise<void> {
    if (!Number.isFinite(seconds) || seconds < 0) throw new RangeError(`advanceMedia takes a number of seconds, 0 or more; got ${seconds}.`);
    const earlier = (column: typeof videos.sourceAt | typeof aiTasks.createdAt | typeof aiTasks.cancelledAt | typeof streams.recordingStartedAt) =>
      sql`${column} - make_interval(secs => ${seconds})`;
    // The times the statuses are read from, moved back together (a cancelled task stays cancelled when it was).
    await this.db.transaction(async (tx) => {
      await tx.update(videos).set({ sourceAt: earlier(videos.sourceAt) }).where(isNotNull(videos.sourceAt));
      await tx.update(aiTasks).set({ createdAt: earlier(aiTasks.createdAt), cancelledAt: earlier(aiTasks.cancelledAt) });
      await tx.update(streams).set({ recordingStartedAt: earlier(streams.recordingStartedAt) }).where(isNotNull(streams.recordingStartedAt));
    });
  }

  async setStreamLive(streamId: number, live: boolean): Promise<void> {
    const changed = await this.db
      .update(streams)
      .set(
        live
          ? { live: true, startedAtPrimary: sql`now()`, finishedAtPrimary: null, streamSourceType: "rtmp", ingestRegionPrimary: STREAM_INGEST_REGION }
          : { live: false, finishedAtPrimary: sql`now()`, streamSourceType: null, ingestRegionPrimary: null },
      )
      .where(and(eq(streams.accountId, this.administrator.accountId), eq(streams.id, streamId)))
      .returning({ id: streams.id });
    if (changed.length === 0) throw new RangeError(`The account ${this.administrator.accountId} has no stream ${streamId}.`);
  }

  async reset(): Promise<void> {
    if (this.#closed) throw new Error("The test platform is closed.");
    this.faults.clear();
    this.calls.length = 0;
    await resetToSnapshot(this.#database);
    this.#handler = this.#newHandler();
  }

  /** Makes the state as it is now the one `reset` returns to. */
  async snapshot(): Promise<void> {
    await takeSnapshot(this.#database);
  }

  close(): Promise<void> {
    this.#closed ??= (async () => {
      this.faults.clear();
      this.faults.releaseWaiting();
      if (this.#server) await shutdown(await this.#server, { graceMs: 1000 });
      if (this.#imageState) {
        await resetToSnapshot(this.#database);
        if (poolDatabase(this.#image, this.#database)) return;
      }
      await this.#database.close();
    })();
    return this.#closed;
  }
}

/**
 * Starts the platform: the API's real handler on an in-memory PGlite database in this process, ready to
 * call through `client`, `fetch` or (after `listen()`) HTTP. The first platform of a process (or of a
 * test file, where the runner gives each its own) starts from the image cached on disk, or makes it
 * (migrations and preset: a few seconds, once); later ones start from the image in memory, or from a
 * closed platform's database.
 */
export async function createTestPlatform(options: TestPlatformOptions = {}): Promise<TestPlatform> {
  const preset = options.preset ?? "empty";
  if (preset !== "empty" && preset !== "demo") throw new TypeError(`preset must be "empty" or "demo", not ${JSON.stringify(preset)}.`);
  const image = await imageOf(preset, options.cacheDirectory ?? defaultCacheDirectory());
  const starting = takeDatabase(image);
  const [database, db, secretsKey] = await Promise.all([starting, pgliteDatabase(starting), importSecretsKey(image.secretsKeyBase64)]);
  const platform = new Platform(image, database, db, secretsKey, options);
  try {
    if (options.seed) {
      await options.seed(platform);
      await platform.snapshot();
      platform.calls.length = 0;
    }
    if (options.listen) await platform.listen(options.listen === true ? {} : options.listen);
  } catch (error) {
    await platform.close();
    throw error;
  }
  return platform;
}
