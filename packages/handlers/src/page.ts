/**
 * A listing's page chosen by key first, for listings that skip far (`offset` in the thousands) or
 * join other tables to each row.
 */
import { inArray, type Database, type PgColumn, type Placeholder, type SQL } from "@cloudplane/db";

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
