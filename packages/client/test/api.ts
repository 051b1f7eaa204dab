/**
 * The client on the handlers' test harness (`@cloudplane/handlers/testing`): clients whose fetch is
 * the harness's handler, on a fresh, seeded database (PGlite, or PostgreSQL when DATABASE_URL is set),
 * with response validation on and every reply recorded for the secrets scan.
 */
import { demoToken, type DemoAccountId, type DemoTokenName, type Engine } from "@cloudplane/db";
import { BASE, engines, useApi, type HandlerOverrides, type TestApi } from "@cloudplane/handlers/testing";
import { createClient, type ClientOptions, type CloudplaneClient } from "../src/index.js";

export { engines };

export interface ClientApi extends TestApi {
  /** The client of account 1's administrator. */
  client: CloudplaneClient;
  /** A client with another demo token, or other options. */
  clientFor(as: [DemoAccountId, DemoTokenName], options?: ClientOptions): CloudplaneClient;
}

/** `api` with clients whose fetch is its handler. */
function withClients(api: TestApi): ClientApi {
  const clientFor = (as: [DemoAccountId, DemoTokenName], options: ClientOptions = {}) =>
    createClient({
      apiKey: demoToken(as[0], as[1]).plaintext,
      baseUrl: BASE,
      fetch: (input, init) => api.handler(new Request(input, init)),
      ...options,
    });
  const client = clientFor([1, "role-1-active"]);
  return new Proxy(api, {
    get: (target, key) => (key === "client" ? client : key === "clientFor" ? clientFor : Reflect.get(target, key)),
  }) as ClientApi;
}

/**
 * The suite's API and clients of it, in one line (the harness's `useApi`: started before the suite,
 * checked for unexpected errors and closed after it). The rate limit is out of the way unless
 * `handler` sets one, so that tests can count the requests they make.
 */
export function useClientApi(engine: Engine, handler: HandlerOverrides = {}): ClientApi {
  return withClients(useApi(engine, { handler }));
}
