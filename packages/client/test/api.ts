/**
 * The test harness: a client whose fetch is the real handler on a fresh, seeded database (PGlite, or
 * PostgreSQL when DATABASE_URL is set), with response validation on.
 */
import { demoToken, type DemoAccountId, type DemoTokenName, type Engine } from "@cloudplane/db";
import { createTestDatabase, engines, type TestDatabase } from "@cloudplane/db/testing";
import { createHandler, type Handler, type HandlerOptions, type RequestLogEntry } from "@cloudplane/handlers";
import { createClient, type ClientOptions, type CloudplaneClient } from "../src/index.js";

export { engines };

export const BASE_URL = "http://api.test";

export interface ClientApi {
  engine: Engine;
  database: TestDatabase;
  handler: Handler;
  /** The client of account 1's administrator. */
  client: CloudplaneClient;
  /** A client with another demo token, or other options. */
  clientFor(as: [DemoAccountId, DemoTokenName], options?: ClientOptions): CloudplaneClient;
  /** Errors the handler reported as unexpected; every suite checks this stays empty. */
  errors: unknown[];
  /** One entry per request the handler served. */
  logs: RequestLogEntry[];
  close(): Promise<void>;
}

/**
 * The handler on a fresh database and clients of it. The rate limit is out of the way unless
 * `handlerOptions` sets one, so that tests can count the requests they make.
 */
export async function startClientApi(engine: Engine, handlerOptions: Partial<HandlerOptions> = {}): Promise<ClientApi> {
  const database = await createTestDatabase({ engine });
  const errors: unknown[] = [];
  const logs: RequestLogEntry[] = [];
  const handler = createHandler({
    db: database.db,
    secretsKey: database.secretsKey,
    responseValidation: true,
    onError: (error) => errors.push(error),
    onRequest: (entry) => logs.push(entry),
    rateLimit: { rate: 100_000, burst: 100_000 },
    ...handlerOptions,
  });
  const clientFor = (as: [DemoAccountId, DemoTokenName], options: ClientOptions = {}) =>
    createClient({
      apiKey: demoToken(as[0], as[1]).plaintext,
      baseUrl: BASE_URL,
      fetch: (input, init) => handler(new Request(input, init)),
      ...options,
    });
  return {
    engine,
    database,
    handler,
    client: clientFor([1, "role-1-active"]),
    clientFor,
    errors,
    logs,
    close: () => database.close(),
  };
}
