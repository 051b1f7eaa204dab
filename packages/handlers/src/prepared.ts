/**
 * Statements built once and run many times, for the hot routes: Drizzle's `.prepare(name)` with
 * `sql.placeholder(…)` skips building the SQL on every request, and on PostgreSQL (postgres.js) the
 * statement is also prepared on the server, once per connection.
 */
import { type DatabaseTransaction, type DriverValueEncoder, sql, type SQL } from "@cloudplane/db";
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
 * serve. Where each request has a database of its own (Workers, request-database.ts), they are built per
 * request's database, and a request builds only what it runs.
 */
export function preparedOnce<S>(build: () => S): () => S {
  let statements: S | undefined;
  const perRequest = new WeakMap<object, S>();
  return () => {
    const db = currentRequestDatabase();
    if (!db) return (statements ??= build());
    let own = perRequest.get(db);
    if (own === undefined) perRequest.set(db, (own = build()));
    return own;
  };
}

/**
 * One statement whose SQL takes a few shapes (which filters are given, the order asked for): each
 * shape is prepared the first time it is asked for and reused after. `shape` must name everything the
 * SQL depends on, and callers must have a fixed number of shapes: the statements are kept for good.
 */
export function preparedPerShape<R>(name: string): (shape: string, build: () => PreparableQuery<R>) => Statement<R> {
  const shapes = preparedOnce(() => new Map<string, Statement<R>>());
  return (shape, build) => {
    const prepared = shapes();
    let statement = prepared.get(shape);
    if (statement) return statement;
    statement = build().prepare(`${name}:${shape}`);
    prepared.set(shape, statement);
    return statement;
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
 * `statement` (prepared once on the database) run inside the transaction `tx`. Drizzle ties a prepared
 * statement to the connection it was prepared on, and a transaction runs on one connection of its own:
 * this is the same statement on the transaction's connection, so its locks and writes stay inside it.
 * It relies on both engines' Drizzle sessions and prepared statements keeping that connection in a
 * `client` field; checked here, so that a Drizzle that changes this fails loudly rather than running
 * the statement outside the transaction.
 */
export function inTransaction<S extends Statement<unknown>>(statement: S, tx: DatabaseTransaction): S {
  const { client } = tx._.session as unknown as { client?: unknown };
  if (client === undefined || !("client" in statement))
    throw new Error("This drizzle-orm keeps a transaction's connection elsewhere: prepared.ts `inTransaction` needs updating.");
  return Object.create(statement, { client: { value: client } }) as S;
}

