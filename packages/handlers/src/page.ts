/**
 * A listing's page: chosen by key first, for listings that skip far (`offset` in the thousands) or join
 * other tables to each row; with its count, kept by the database for the largest listings, and then read
 * from the nearer end.
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
export function listingCount(db: Database, listing: "cdn_resources" | "origin_groups" | "gpu_images" | "storages"): (accountId: number, scope?: string) => Promise<number> {
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
 * A page of a listing and the listing's count. With the count kept by the database (`count.kept`, see
 * `listingCount`), the count comes first and the page is read from its nearer end: in the listing's order
 * when it lies in the first half, in the reverse order (`read(true, …)`, `limit` and `offset` counted from
 * the last row) when it lies in the second, so that the last page of 90,000 skips no row instead of
 * 89,975. `read` answers the rows in the listing's order either way. Otherwise the page and the count
 * (`count.counted`) are read at once.
 */
export async function pageAndCount<R>(
  page: { limit: number; offset: number },
  read: (reversed: boolean, limit: number, offset: number) => Promise<R[]>,
  count: { kept: () => Promise<number> } | { counted: () => Promise<number> },
): Promise<{ rows: R[]; total: number }> {
  if ("counted" in count) {
    const [rows, total] = await Promise.all([read(false, page.limit, page.offset), count.counted()]);
    return { rows, total };
  }
  const total = await count.kept();
  if (page.offset * 2 <= total) return { rows: await read(false, page.limit, page.offset), total };
  const end = Math.min(total, page.offset + page.limit);
  return { rows: end <= page.offset ? [] : await read(true, end - page.offset, total - end), total };
}
