/**
 * The test harness: the real handler on a fresh, seeded database (PGlite, or PostgreSQL when
 * DATABASE_URL is set), with response validation on, called through its fetch interface the way a
 * client calls it. Every handler it builds is recorded for the secrets scan (test/secrets-scan.ts,
 * run by test/global-setup.ts); unexpected errors the handlers report are collected and must be none
 * when the suite ends.
 *
 *   describe.each(engines())("CDN routes on %s", (engine) => {
 *     const api = useApi(engine);                      // a database and a handler for this suite
 *     it("…", async () => expectEnvelope(await api.call("GET", "/cdn/nothing"), 404, "not_found"));
 *   });
 */
import { demoToken, type DemoAccountId, type DemoTokenName, type Engine } from "@cloudplane/db";
import { createTestDatabase, engines, type CreateTestDatabaseOptions, type TestDatabase } from "@cloudplane/db/testing";
import { afterAll, beforeAll, expect, inject } from "vitest";
import { createRecordedHandler, recordedOptions, RunRecorder, type Handler, type HandlerOptions, type RequestLogEntry } from "./recorded-handler.js";
import { replyOf, type Reply } from "./envelope.js";

export { engines };
export { expectEnvelope, expectSomeEnvelope, replyOf, type ExpectedErrors, type Reply } from "./envelope.js";
export type { Handler, HandlerOptions, RequestLogEntry };

export const BASE = "http://api.test";

/** Options of `createHandler` a test may set; `db` and `secretsKey` default to the suite's database. */
export type HandlerOverrides = Partial<HandlerOptions>;

export interface ApiOptions {
  /** Options of the suite's handler, over the harness's defaults (response validation on, a rate limit no suite reaches). */
  handler?: HandlerOverrides;
  /** How the database is made (default: migrated and seeded). */
  database?: Omit<CreateTestDatabaseOptions, "engine">;
}

export interface CallOptions {
  /** Whose token: [account, token name]. Default: account 1's administrator. */
  as?: [DemoAccountId, DemoTokenName];
  /** The whole Authorization header instead (null: none). */
  authorization?: string | null;
  /** A JSON body; a Uint8Array is sent as it is, as application/octet-stream (a route that takes raw bytes). */
  body?: unknown;
  /** A body sent as it is, e.g. malformed JSON. */
  rawBody?: string | Uint8Array<ArrayBuffer>;
  headers?: Record<string, string>;
  /** Another handler of the harness (`api.createHandler(…)`) to call instead of the suite's. */
  handler?: Handler;
}

export interface TestApi {
  engine: Engine;
  database: TestDatabase;
  /** The suite's handler, as a fetch handler (`Request` in, `Response` out); give it to adapters as it is. */
  handler: Handler;
  /** Errors the handlers reported as unexpected. Must be empty when the suite ends; see `takeErrors`. */
  errors: unknown[];
  /** One entry per request the handlers served. */
  logs: RequestLogEntry[];
  /**
   * Another handler, recorded like the suite's: on the suite's database unless `db` is given, with the
   * harness's defaults unless overridden (a key set to undefined takes createHandler's own default).
   */
  createHandler(overrides?: HandlerOverrides): Handler;
  /**
   * The options `createHandler` gets here, for an adapter that builds its handler itself: error reports
   * and log entries are recorded and collected; record its replies with `recordReply`.
   */
  handlerOptions(overrides?: HandlerOverrides): HandlerOptions;
  /** A reply served by a handler the harness did not build (an adapter's own), for the secrets scan. */
  recordReply(reply: { method: string; path: string; status: number; headers: Record<string, string>; body: string }): void;
  /** A request to the suite's handler (or `options.handler`), read into a `Reply`. */
  call(method: string, path: string, options?: CallOptions): Promise<Reply>;
  /** The errors reported so far, which a test expected; the list is emptied. */
  takeErrors(): unknown[];
  close(): Promise<void>;
}

/** The Authorization header of a demo token. */
export function authorization(as: [DemoAccountId, DemoTokenName]): string {
  return `apikey ${demoToken(as[0], as[1]).plaintext}`;
}

/** The request `api.call` sends. */
export function buildRequest(method: string, path: string, options: CallOptions = {}): Request {
  const headers = new Headers(options.headers);
  const auth = options.authorization === undefined ? authorization(options.as ?? [1, "role-1-active"]) : options.authorization;
  if (auth !== null && !headers.has("authorization")) headers.set("authorization", auth);
  let body: string | Uint8Array<ArrayBuffer> | undefined = options.rawBody;
  if (options.body instanceof Uint8Array) {
    body = options.body as Uint8Array<ArrayBuffer>;
    if (!headers.has("content-type")) headers.set("content-type", "application/octet-stream");
  } else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  return new Request(`${BASE}${path}`, { method, headers, body });
}

/** The run's folder for the secrets scan; a harness outside a run with the scan's global setup is refused. */
export function secretsScanDirectory(): string {
  const directory = inject("secretsScanDirectory");
  if (!directory)
    throw new Error("The harness records for the secrets scan: add the scan's global setup (secretsScanSetup) to this package's vitest config.");
  return directory;
}

/** The handler on a fresh database. The caller closes it; `useApi` does that for a suite. */
export async function startApi(engine: Engine, options: ApiOptions = {}): Promise<TestApi> {
  const recorder = new RunRecorder(secretsScanDirectory());
  const database = await createTestDatabase({ ...options.database, engine });
  const sinks = { errors: [] as unknown[], logs: [] as RequestLogEntry[] };
  const defaults: HandlerOptions = {
    db: database.db,
    secretsKey: database.secretsKey,
    responseValidation: true,
    // The limiter runs on every request, with a budget no suite reaches; rate-limit.test.ts tests the real one.
    rateLimit: { rate: 100_000, burst: 100_000 },
  };
  const createHandler = (overrides: HandlerOverrides = {}) => createRecordedHandler({ ...defaults, ...options.handler, ...overrides }, recorder, sinks);
  const handlerOptions = (overrides: HandlerOverrides = {}) => recordedOptions({ ...defaults, ...options.handler, ...overrides }, recorder, sinks);
  const handler = createHandler();
  return {
    engine,
    database,
    handler,
    errors: sinks.errors,
    logs: sinks.logs,
    createHandler,
    handlerOptions,
    recordReply: (reply) => recorder.record({ kind: "reply", ...reply }),
    call: async (method, path, callOptions = {}) => replyOf(await (callOptions.handler ?? handler)(buildRequest(method, path, callOptions))),
    takeErrors: () => sinks.errors.splice(0),
    close: async () => {
      recorder.flush();
      await database.close();
    },
  };
}

/**
 * The suite's API, in one line: starts it before the suite's tests (`startApi`), and after them
 * checks that no handler reported an unexpected error and closes it. The returned object is usable
 * from the suite's hooks and tests on.
 */
export function useApi(engine: Engine, options: ApiOptions = {}): TestApi {
  let api: TestApi | undefined;
  beforeAll(async () => {
    api = await startApi(engine, options);
  });
  afterAll(async () => {
    if (!api) return;
    const started = api;
    api = undefined;
    try {
      expect(started.errors, "errors the handlers reported as unexpected").toEqual([]);
    } finally {
      await started.close();
    }
  });
  return new Proxy({} as TestApi, {
    get(_target, key) {
      if (!api) throw new Error(`The suite's API is used before it started or after it closed (reading ${String(key)}).`);
      return Reflect.get(api, key);
    },
  });
}
