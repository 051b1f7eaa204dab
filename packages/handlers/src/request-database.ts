/**
 * A database per request behind one handler. On Workers a connection opened for one request cannot
 * serve another, so each request opens its own; the handler (middleware, routes, ts-rest's router) is
 * still built once per isolate, on `requestDatabase`, which stands for the database of the request
 * being served (`onRequestDatabase`). Statements prepared on it (prepared.ts) are built once and run
 * on each request's own connection.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { Database } from "@cloudplane/db";

const current = new AsyncLocalStorage<Database>();

/** Runs `serve` with `db` as the database of the request it serves. */
export function onRequestDatabase<T>(db: Database, serve: () => T): T {
  return current.run(db, serve);
}

/** The database of the request being served, when requests have their own (see `onRequestDatabase`); else undefined. */
export function currentRequestDatabase(): Database | undefined {
  return current.getStore();
}

function served(): Database {
  const db = current.getStore();
  if (!db) throw new Error("requestDatabase was used outside onRequestDatabase: no request's database to run on.");
  return db;
}

/**
 * The database of whichever request is being served: every property is the current request's
 * database's own, its methods bound to it.
 */
export const requestDatabase = new Proxy({} as Database, {
  get(_, key) {
    const db = served();
    const value: unknown = Reflect.get(db, key, db);
    // The constructor is left unbound: drizzle's `is()` reads its static entity kind.
    return typeof value === "function" && key !== "constructor" ? (value as (...args: unknown[]) => unknown).bind(db) : value;
  },
  has: (_, key) => Reflect.has(served(), key),
  getPrototypeOf: () => Reflect.getPrototypeOf(served()),
});
