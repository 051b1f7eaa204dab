/**
 * The peer as a worker: the same Hono app as on Node (../peer-core.ts), bundled by esbuild (workerd.ts)
 * and run in workerd by Miniflare beside ours and the bare worker. It reaches PostgreSQL as they do:
 * postgres.js over the Workers TCP socket, one connection per request (max 1, no type lookup,
 * statements sent unnamed), closed after the response with `waitUntil`; the token lookup is kept for
 * the isolate's life (up to a second per token), as ours keeps it.
 *
 * Bindings: DATABASE_URL, and BENCH_STATEMENTS (JSON: the statements caught from our handler). A
 * request with an `x-bench-log` header is answered (HTTP 200) with `{ status, body, log }`, `log` being
 * every statement it sent, so the benchmark can check them against ours before any load.
 */
import type { ExecutionContext } from "hono";
import postgres from "postgres";
import { postgresRawDatabase, recording } from "../baseline-core.js";
import type { CapturedStatement, RouteSql } from "../capture.js";
import { createPeerApp } from "../peer-core.js";

interface Env {
  DATABASE_URL: string;
  BENCH_STATEMENTS: string;
  /** Set by this file's fetch for a request that asks for its statements. */
  BENCH_LOG?: CapturedStatement[];
}

let statements: RouteSql | undefined;

const app = createPeerApp({
  connect(bindings) {
    const env = bindings as unknown as Env;
    statements ??= JSON.parse(env.BENCH_STATEMENTS) as RouteSql;
    const db = postgresRawDatabase(
      postgres(env.DATABASE_URL, {
        max: 1,
        prepare: false,
        fetch_types: false,
        connect_timeout: 5,
        onnotice: () => undefined,
        connection: { application_name: "cloudplane-bench-peer" },
      }),
      false,
    );
    return { db: env.BENCH_LOG ? recording(db, env.BENCH_LOG) : db, statements, close: () => db.close() };
  },
});

export default {
  async fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
    if (!request.headers.has("x-bench-log")) return app.fetch(request, env, ctx);
    const log: CapturedStatement[] = [];
    const response = await app.fetch(request, { ...env, BENCH_LOG: log }, ctx);
    const text = await response.text();
    let body: unknown;
    try {
      body = text ? (JSON.parse(text) as unknown) : undefined;
    } catch {
      body = text;
    }
    return Response.json({ status: response.status, body, log });
  },
};
