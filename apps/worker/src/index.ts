/**
 * The cloudplane API on Cloudflare Workers: the handlers' fetch entry, which opens one PostgreSQL
 * connection per request (postgres.js over cloudflare:sockets, or through Hyperdrive) and closes it
 * after the response. Migrations are not run here: the deployment applies them beforehand
 * (`pnpm --filter @cloudplane/worker migrate`).
 */
export { default } from "@cloudplane/handlers/fetch";
