/**
 * The SQL our handler runs for each benchmarked route, caught by serving one request in-process on a
 * Drizzle database with a query logger: the baseline runs these very statements, and the scale part
 * EXPLAINs them.
 */
import { importSecretsKey, schema, type Database } from "@cloudplane/db";
import { createHandler } from "@cloudplane/handlers";
import { variantKey } from "./baseline.js";
import type { DatabaseLocation } from "./databases.js";
import { answeredId, AUTHORIZATION, requestPath, type BenchRequest } from "./scenario.js";

export interface CapturedStatement {
  sql: string;
  params: unknown[];
  /** Of a request with `made` (a create, or what follows from it): the id of the object ours made, which its parameters may hold. */
  madeId?: number;
}

/** Per request variant (baseline.ts `variantKey`), the route's own statements in the order they were sent. */
export type RouteSql = Record<string, CapturedStatement[]>;

/** Statements of the request pipeline rather than of the route. */
const PIPELINE_TABLES = ['"api_tokens"', '"rate_limit_buckets"'];

async function loggingDatabase(location: DatabaseLocation, statements: CapturedStatement[]): Promise<{ db: Database; close: () => Promise<void> }> {
  const logger = { logQuery: (sql: string, params: unknown[]) => statements.push({ sql, params }) };
  if (location.engine === "postgres") {
    const [{ default: postgres }, { drizzle }] = await Promise.all([import("postgres"), import("drizzle-orm/postgres-js")]);
    const client = postgres(location.url, { max: 2, onnotice: () => undefined });
    return { db: drizzle(client, { schema, logger }), close: () => client.end({ timeout: 5 }) };
  }
  const [{ PGlite }, { drizzle }] = await Promise.all([import("@electric-sql/pglite"), import("drizzle-orm/pglite")]);
  const client = await PGlite.create(`${location.dataDir}/pglite`);
  return { db: drizzle(client, { schema, logger }), close: () => client.close() };
}

/** The SQL of every route without the parameters it was caught with (the baseline and the peers make their own). */
export function sqlOnly(statements: RouteSql): RouteSql {
  return Object.fromEntries(Object.entries(statements).map(([key, list]) => [key, list.map(({ sql }) => ({ sql, params: [] }))]));
}

/**
 * Serves each request once through `createHandler`, in turn (a path may follow from the answer before),
 * and returns the statements each one ran, without those of authentication and the rate limit, under the
 * key `keyOf` gives it (by default the baseline's variant of the request).
 */
export async function captureRouteSql(
  location: DatabaseLocation,
  requests: BenchRequest[],
  keyOf: (method: string, url: URL, body: unknown) => string | undefined = variantKey,
): Promise<RouteSql> {
  const statements: CapturedStatement[] = [];
  const { db, close } = await loggingDatabase(location, statements);
  try {
    const handler = createHandler({ db, secretsKey: await importSecretsKey(location.secretsKeyBase64), rateLimit: false });
    const captured: RouteSql = {};
    let previous: unknown;
    let madeId: number | undefined;
    for (const request of requests) {
      const url = new URL(requestPath(request, previous), "http://bench.local");
      const key = keyOf(request.method, url, request.body);
      if (!key) throw new Error(`The baseline does not know ${request.method} ${url.pathname}`);
      statements.length = 0;
      const response = await handler(
        new Request(url, {
          method: request.method,
          headers: { authorization: AUTHORIZATION, ...(request.body === undefined ? {} : { "content-type": "application/json" }) },
          body: request.body === undefined ? undefined : JSON.stringify(request.body),
        }),
      );
      const text = await response.text();
      if (!response.ok) throw new Error(`${request.method} ${url.pathname} answered ${response.status}: ${text}`);
      previous = text ? (JSON.parse(text) as unknown) : undefined;
      madeId = request.made ? (answeredId(previous) ?? madeId) : undefined;
      captured[key] = statements
        .filter((statement) => !PIPELINE_TABLES.some((table) => statement.sql.includes(table)))
        .map((statement) => (madeId === undefined ? statement : { ...statement, madeId }));
    }
    return captured;
  } finally {
    await close();
  }
}
