/**
 * The test harness: the real handler on a fresh, seeded database (PGlite, or PostgreSQL when
 * DATABASE_URL is set), with response validation on, called in-process the way a client calls it.
 */
import { demoToken, type DemoAccountId, type DemoTokenName } from "@cloudplane/db";
import { createTestDatabase, engines, type TestDatabase } from "@cloudplane/db/testing";
import type { Engine } from "@cloudplane/db";
import { createHandler, type Handler, type RequestLogEntry } from "../src/index.js";

export { engines };

export const BASE = "http://api.test";

export interface CallOptions {
  /** Whose token: [account, token name]. Default: account 1's administrator. */
  as?: [DemoAccountId, DemoTokenName];
  /** The whole Authorization header instead (null: none). */
  authorization?: string | null;
  /** A JSON body. */
  body?: unknown;
  /** A body sent as it is, e.g. malformed JSON. */
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body (undefined when the body is not JSON). */
  body: any;
}

export interface TestApi {
  engine: Engine;
  database: TestDatabase;
  handler: Handler;
  /** Errors the handler reported as unexpected; every suite checks this stays empty. */
  errors: unknown[];
  logs: RequestLogEntry[];
  call(method: string, path: string, options?: CallOptions): Promise<Reply>;
  close(): Promise<void>;
}

export function authorization(as: [DemoAccountId, DemoTokenName]): string {
  return `apikey ${demoToken(as[0], as[1]).plaintext}`;
}

export async function startApi(engine: Engine): Promise<TestApi> {
  const database = await createTestDatabase({ engine });
  const errors: unknown[] = [];
  const logs: RequestLogEntry[] = [];
  const handler = createHandler({
    db: database.db,
    secretsKey: database.secretsKey,
    responseValidation: true,
    // The limiter runs on every request, with a budget no suite reaches; rate-limit.test.ts tests the real one.
    rateLimit: { rate: 100_000, burst: 100_000 },
    onError: (error) => errors.push(error),
    onRequest: (entry) => logs.push(entry),
  });
  return {
    engine,
    database,
    handler,
    errors,
    logs,
    async call(method, path, options = {}) {
      const headers = new Headers(options.headers);
      const auth = options.authorization === undefined ? authorization(options.as ?? [1, "role-1-active"]) : options.authorization;
      if (auth !== null && !headers.has("authorization")) headers.set("authorization", auth);
      let body: string | undefined = options.rawBody;
      if (options.body !== undefined) {
        body = JSON.stringify(options.body);
        if (!headers.has("content-type")) headers.set("content-type", "application/json");
      }
      const response = await handler(new Request(`${BASE}${path}`, { method, headers, body }));
      const text = await response.text();
      let parsed: unknown;
      if (response.headers.get("content-type")?.includes("json")) parsed = JSON.parse(text);
      return { status: response.status, headers: response.headers, text, body: parsed };
    },
    close: () => database.close(),
  };
}
