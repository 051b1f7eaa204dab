/**
 * The bare worker: the Workers baseline, bundled by esbuild (workerd.ts) and run in workerd by
 * Miniflare beside ours. It does for the benchmarked routes what the bare `node:http` baseline does
 * (baseline-core.ts: the very statements our handler sends, parameters built by hand, rows as plain
 * JSON; no auth, rate limit, validation, request id or error envelope), reaching PostgreSQL the way
 * our worker does: postgres.js over the Workers TCP socket (`cloudflare:sockets`, `nodejs_compat`),
 * one connection per request (max 1, no type lookup, statements sent unnamed), closed after the
 * response with `ctx.waitUntil`.
 *
 * Bindings: DATABASE_URL, and BENCH_STATEMENTS (JSON: the statements caught from our handler). A
 * request with an `x-bench-log` header is answered (HTTP 200) with `{ status, body, log }`, `log` being
 * every statement it sent, so the benchmark can check them against ours before any load.
 */
import postgres from "postgres";
import { baselineAnswer, postgresRawDatabase, recording } from "../baseline-core.js";
import type { CapturedStatement, RouteSql } from "../capture.js";

interface Env {
  DATABASE_URL: string;
  BENCH_STATEMENTS: string;
}

/** The part of a Workers `ExecutionContext` used here. */
interface ExecutionContext {
  waitUntil(promise: Promise<unknown>): void;
}

let statements: RouteSql | undefined;

export default {
  async fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
    statements ??= JSON.parse(env.BENCH_STATEMENTS) as RouteSql;
    const url = new URL(request.url);
    const text = request.body ? await request.text() : "";
    const db = postgresRawDatabase(
      postgres(env.DATABASE_URL, {
        max: 1,
        prepare: false,
        fetch_types: false,
        connect_timeout: 5,
        onnotice: () => undefined,
        connection: { application_name: "cloudplane-bench-bare" },
      }),
      false,
    );
    const log: CapturedStatement[] | undefined = request.headers.has("x-bench-log") ? [] : undefined;
    try {
      const answer = await baselineAnswer(log ? recording(db, log) : db, statements, request.method, url, text ? JSON.parse(text) : undefined);
      if (log) return Response.json({ ...answer, log });
      // A 204 has no body.
      return answer.body === undefined ? new Response(null, { status: answer.status }) : Response.json(answer.body, { status: answer.status });
    } catch (error) {
      console.error(error);
      return Response.json({ message: "internal" }, { status: 500 });
    } finally {
      ctx.waitUntil(db.close());
    }
  },
};
