/**
 * The cloudplane API on Cloudflare Workers: the handlers' fetch entry, which opens one PostgreSQL
 * connection per request (postgres.js over cloudflare:sockets, or through Hyperdrive) and closes it
 * after the response. The handler itself is built once per isolate, as the worker loads, from the
 * environment Workers give the module. Migrations are not run here: the deployment applies them
 * beforehand (`pnpm --filter @cloudplane/worker migrate`).
 */
import { env } from "cloudflare:workers";
import { prepareIsolate, workersFetch } from "@cloudplane/handlers/fetch";

prepareIsolate(env);

// The Workers path alone: the bundle leaves out the other runtimes' (which opens a database and migrates it).
export default { fetch: workersFetch };
