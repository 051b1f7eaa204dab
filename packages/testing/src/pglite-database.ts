/**
 * Drizzle over a PGlite the kit starts itself (from its image), set up as `createDatabase` of
 * @cloudplane/db sets up the PGlite it starts: Drizzle's parsers given to PGlite once, when it starts,
 * instead of with every query, where PGlite copies its whole parser table each time (about a third of a
 * small call's time here). A copy of database.ts's, until @cloudplane/db offers its own for a PGlite it
 * did not start.
 */
import type { PGlite, PGliteOptions } from "@electric-sql/pglite";
import { schema, type Database } from "@cloudplane/db";
import { drizzle } from "drizzle-orm/pglite";

/** The types Drizzle reads as text (dates, times, intervals, their arrays, numeric[]), by type OID. */
const keepText = (value: string) => value;
export const DRIZZLE_PARSERS: NonNullable<PGliteOptions["parsers"]> = Object.fromEntries(
  [1114, 1184, 1186, 1082, 1231, 1115, 1185, 1187, 1182].map((oid) => [oid, keepText]),
);

type QueryOptions = Record<string, unknown> | undefined;

function withoutParsers(options: QueryOptions): QueryOptions {
  if (!options?.parsers) return options;
  const { parsers: _given, ...rest } = options;
  return rest;
}

/** `client` whose queries, in the transactions it opens too, go without the `parsers` option. */
function withoutQueryParsers<C extends object>(client: C): C {
  return new Proxy(client, {
    get(target, property) {
      // Read with the client as `this`: PGlite's getters use private fields, which a proxy does not have.
      const value: unknown = Reflect.get(target, property);
      if (typeof value !== "function") return value;
      const method = value as (...args: unknown[]) => unknown;
      if (property === "query") return (text: unknown, params: unknown, options: QueryOptions) => method.call(target, text, params, withoutParsers(options));
      if (property === "transaction")
        return (work: (tx: object) => unknown) => method.call(target, (tx: object) => work(withoutQueryParsers(tx)));
      return method.bind(target);
    },
  });
}

/** A Drizzle database with the schema of @cloudplane/db over `client`, which was started with `DRIZZLE_PARSERS`. */
export function databaseOver(client: PGlite): Database {
  return drizzle(withoutQueryParsers(client), { schema });
}
