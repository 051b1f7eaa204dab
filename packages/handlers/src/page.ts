/**
 * A listing's page: chosen by key first, for listings that skip far (`offset` in the thousands) or join
 * other tables to each row; counted from the rows' count kept by the database, for the largest listings;
 * read from the nearer end when the count is known.
 */
import { and, eq, inArray, type Database, listingCounts, type PgColumn, type Placeholder, sql, type SQL } from "@cloudplane/db";
import { preparedOnce } from "./prepared.js";

/**
 * The condition that keeps a select to one page of `key`'s table: `key in (select key … where … order by
 * … limit … offset …)`. The page's keys are read from an index alone, which PostgreSQL walks over the rows
 * skipped without reading them; only the page's rows are then read and joined. A LIMIT/OFFSET on the
 * whole select reads (and joins) every row it skips, and the planner may walk the primary key past rows
 * the filters drop. The select that uses it orders its rows by `order` again.
 */
export function onPage(db: Pick<Database, "select">, key: PgColumn, where: SQL | undefined, order: SQL[], limit: number | Placeholder, offset: number | Placeholder): SQL {
  return inArray(key, db.select({ key }).from(key.table).where(where).orderBy(...order).limit(limit).offset(offset));
}

/**
 * The number of rows of a counted listing (a table with `listing_counts` triggers, see @cloudplane/db's
 * `listingCounts`): one row read, whatever the number of rows. `scope` as the table's triggers write it.
 */
export function listingCount(db: Database, listing: "cdn_resources" | "origin_groups" | "gpu_images"): (accountId: number, scope?: string) => Promise<number> {
  const statement = preparedOnce(() =>
    db
      .select({ rows: listingCounts.rows })
      .from(listingCounts)
      .where(
        and(
          eq(listingCounts.accountId, sql.placeholder("accountId")),
          eq(listingCounts.listing, listing),
          eq(listingCounts.scope, sql.placeholder("scope")),
        ),
      )
      .prepare(`listing_count:${listing}`),
  );
  return async (accountId, scope = "") => Number((await statement().execute({ accountId, scope }))[0]?.rows ?? 0);
}

/**
 * Where a page of a listing of `total` rows is read from: its own end when the page lies in the first
 * half, the other end when it lies in the second (`reversed`: the listing's order reversed, `limit`
 * and `offset` counted from the last row), so that a page near the end skips as few rows as one near
 * the start. The rows are the same; the select that reads them orders them the listing's way again.
 */
export function nearerEnd(total: number, limit: number, offset: number): { reversed: boolean; limit: number; offset: number } {
  if (offset * 2 <= total) return { reversed: false, limit, offset };
  const end = Math.min(total, offset + limit);
  return { reversed: true, limit: Math.max(0, end - offset), offset: total - end };
}
