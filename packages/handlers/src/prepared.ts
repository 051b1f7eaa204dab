/**
 * Statements built once and run many times, for the hot routes: Drizzle's `.prepare(name)` with
 * `sql.placeholder(…)` skips building the SQL on every request, and on PostgreSQL (postgres.js) the
 * statement is also prepared on the server, once per connection.
 */
import { type Database, type DatabaseTransaction, type DriverValueEncoder, sql, type SQL } from "@cloudplane/db";
import { currentRequestDatabase } from "./request-database.js";

/** Values for a statement's placeholders, by placeholder name. */
export type PlaceholderValues = Record<string, unknown>;

/** What both a prepared statement and a query builder with placeholders can do. */
export interface Statement<R> {
  execute(values?: PlaceholderValues): Promise<R>;
}

/** A query builder with placeholders, not yet prepared. */
export interface PreparableQuery<R> extends Statement<R> {
  prepare(name: string): Statement<R>;
}

/**
 * Statements built the first time they are needed, so a cold start does not pay for routes it does not
 * serve. Where each request has a database of its own (Workers, request-database.ts), they are still
 * built once, and each request runs them on its own connection (`onConnectionOf`).
 */
export function preparedOnce<S>(build: () => S): () => S {
  let statements: S | undefined;
  const perRequest = new WeakMap<object, S>();
  return () => {
    statements ??= build();
    const db = currentRequestDatabase();
    if (!db) return statements;
    let own = perRequest.get(db);
    if (own === undefined) perRequest.set(db, (own = onConnectionOf(statements, db)));
    return own;
  };
}

/**
 * One statement whose SQL takes a few shapes (which filters are given, the order asked for): each
 * shape is prepared the first time it is asked for and reused after. `shape` must name everything the
 * SQL depends on, and callers must have a fixed number of shapes: the statements are kept for good.
 */
export function preparedPerShape<R>(name: string): (shape: string, build: () => PreparableQuery<R>) => Statement<R> {
  const shapes = new Map<string, () => Statement<R>>();
  return (shape, build) => {
    let statement = shapes.get(shape);
    if (!statement) shapes.set(shape, (statement = preparedOnce(() => build().prepare(`${name}:${shape}`))));
    return statement();
  };
}

/**
 * A placeholder for a value written to `column`, for `.set()` of a prepared update (whose types take no
 * bare placeholder): the value is encoded as the column encodes it (jsonb as JSON text, a Date as ISO text).
 */
export function columnPlaceholder(name: string, column: DriverValueEncoder<unknown, unknown>): SQL {
  return sql`${sql.param(sql.placeholder(name), column)}`;
}

/**
 * The connection a database or a transaction runs its statements on. Drizzle ties a prepared statement
 * to the connection it was prepared on, and keeps it, in both engines' sessions and prepared statements,
 * in a `client` field; checked here, so that a Drizzle that changes this fails loudly rather than running
 * a statement on another connection.
 */
function connectionOf(db: Database | DatabaseTransaction): unknown {
  const { client } = db._.session as unknown as { client?: unknown };
  if (client === undefined) throw new Error("This drizzle-orm keeps a session's connection elsewhere: prepared.ts `connectionOf` needs updating.");
  return client;
}

/** `statement` on the connection `client` instead of the one it was prepared on. */
function onConnection<S>(statement: S, client: unknown): S {
  if (typeof statement !== "object" || statement === null || !("client" in statement))
    throw new Error(
      "Not a prepared statement that keeps its connection in `client`: preparedOnce takes statements (or an object of them), " +
        "and if this drizzle-orm keeps the connection elsewhere, prepared.ts `onConnection` needs updating.",
    );
  // A plain assignment (an own field shadowing the prototype's): Object.create with a property descriptor
  // made a slow object each time (0.6–0.9 µs, against ~0.05 µs so), and a write route binds several.
  const bound = Object.create(statement) as { client: unknown };
  bound.client = client;
  return bound as S;
}

/**
 * `statements` (one prepared statement, or an object of them, as `preparedOnce` builds them) on the
 * connection of the request's database `db`: the SQL built once, run on each request's own connection.
 */
function onConnectionOf<S>(statements: S, db: Database): S {
  const client = connectionOf(db);
  if (typeof statements === "object" && statements !== null && !("client" in statements) && Object.getPrototypeOf(statements) === Object.prototype)
    return Object.fromEntries(Object.entries(statements).map(([key, statement]) => [key, onConnection(statement, client)])) as S;
  return onConnection(statements, client);
}

/**
 * `statement` (prepared once on the database) run inside the transaction `tx`: a transaction runs on
 * one connection of its own, and this is the same statement on it, so its locks and writes stay inside it.
 */
export function inTransaction<S extends Statement<unknown>>(statement: S, tx: DatabaseTransaction): S {
  return onConnection(statement, connectionOf(tx));
}
