/**
 * The cloudplane API on a Node server, for production: `node dist/server.mjs` (one file; `pnpm --filter
 * @cloudplane/server build` makes it). It is configured by the environment every deployment reads
 * (DATABASE_URL and CLOUDPLANE_SECRETS_KEY, both required; CLOUDPLANE_BASE_PATH, CLOUDPLANE_RATE_LIMIT,
 * CLOUDPLANE_RATE_BURST, CLOUDPLANE_CORS_ORIGINS, CLOUDPLANE_REQUEST_LOG) and by PORT (8787), HOST (0.0.0.0: every interface, as a
 * container or a machine behind a load balancer needs), HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS,
 * SHUTDOWN_GRACE_MS and DATABASE_POOL_MAX (10 connections).
 *
 * As it starts it applies the migrations the database lacks (safe from many servers starting at once).
 * `GET /healthz` answers 200 `{"status":"ok"}` while the database answers, else 503 with Retry-After: for
 * a load balancer's or an orchestrator's health check. Requests are logged as JSON lines on stdout,
 * unexpected errors on stderr. SIGTERM or SIGINT stops it cleanly: no new connections, the requests in
 * flight answered (for SHUTDOWN_GRACE_MS at most), then the database closed and exit code 0.
 */
import type { CloudplaneDatabase } from "@cloudplane/db";
import { sql } from "@cloudplane/db";
import { createHandlerFromEnv, type Handler } from "@cloudplane/handlers";
import { serve, serveSettingsFromEnv, shutdown } from "@cloudplane/handlers/node";

function log(entry: Record<string, unknown>): void {
  const line = JSON.stringify({ time: new Date().toISOString(), ...entry });
  if (entry.level === "error") console.error(line);
  else console.log(line);
}

/** DATABASE_POOL_MAX: the connections the server may open; default 10. */
function poolMaxFrom(value: string | undefined): number {
  if (value === undefined || value === "") return 10;
  const max = Number(value);
  if (!Number.isInteger(max) || max < 1 || max > 1000) throw new Error(`DATABASE_POOL_MAX must be a number of connections (1 to 1000), not "${value}".`);
  return max;
}

/** The API, with `GET /healthz` in front of it: whether the database answers a query. */
function withHealthCheck(api: Handler, database: CloudplaneDatabase): Handler {
  return async (request) => {
    if (new URL(request.url).pathname !== "/healthz" || request.method !== "GET") return api(request);
    const headers = { "content-type": "application/json", "cache-control": "no-store" };
    try {
      await database.db.execute(sql`select 1`);
      return new Response(JSON.stringify({ status: "ok" }), { status: 200, headers });
    } catch {
      return new Response(JSON.stringify({ status: "unavailable" }), { status: 503, headers: { ...headers, "retry-after": "5" } });
    }
  };
}

async function main(): Promise<void> {
  const env = process.env;
  const settings = serveSettingsFromEnv(env, "0.0.0.0");
  if (!env.DATABASE_URL) throw new Error("DATABASE_URL is not set: the server runs on PostgreSQL (postgres://user:password@host:5432/db).");
  let database: CloudplaneDatabase | undefined;
  const api = await createHandlerFromEnv(env, {
    database: { max: poolMaxFrom(env.DATABASE_POOL_MAX) },
    onDatabase: (opened) => (database = opened),
    handler: {
      onRequest: (entry) => log({ level: "info", msg: "request", ...entry }),
      onError: (report, requestId) => log({ level: "error", msg: "unexpected error", request_id: requestId, error: report }),
    },
  });
  const server = await serve(withHealthCheck(api, database!), {
    port: settings.port,
    hostname: settings.hostname,
    headersTimeoutMs: settings.headersTimeoutMs,
    requestTimeoutMs: settings.requestTimeoutMs,
    onClientError: (entry) => log({ level: "info", msg: "client error", ...entry }),
  });
  const address = server.address();
  log({ level: "info", msg: "listening", port: typeof address === "object" && address ? address.port : settings.port, host: settings.hostname });

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log({ level: "info", msg: "shutting down", signal });
    shutdown(server, { graceMs: settings.shutdownGraceMs })
      .then(async ({ closedAtGrace }) => {
        if (closedAtGrace > 0) log({ level: "info", msg: "connections closed at the end of the shutdown grace period", connections: closedAtGrace });
        await database?.close();
        log({ level: "info", msg: "stopped" });
        process.exit(0);
      })
      .catch((error: unknown) => {
        log({ level: "error", msg: "shutdown failed", message: error instanceof Error ? error.message : String(error) });
        process.exit(1);
      });
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

main().catch((error: unknown) => {
  // The message only: an error of the database's connection names its host, never its URL or password.
  process.stderr.write(`cloudplane could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
