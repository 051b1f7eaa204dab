/**
 * How many rows a listing of an account holds, for the listings whose `count` would otherwise walk every
 * row of the account (tens of milliseconds at 100,000 rows): the listing reads one row instead.
 */
import { bigint, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { accountId } from "./iam/account.js";

/**
 * Kept by the database itself: statement-level triggers on each counted table
 * (drizzle/0034_listing_counts_triggers.sql, and 0039_storages_counts.sql for storages, whose soft delete and
 * restore are updates) add what each insert and delete changed, and a truncate empties the table's counts.
 * Nothing else writes it. A missing row is a count of 0.
 *
 * - `listing`: the counted table's name.
 * - `scope`: the part of the account's rows the listing shows, for listings narrower than the account
 *   (GPU images: `<project>/<region>/<cluster type>`; storages: the type, of the storages not deleted);
 *   `''` for a listing of the whole account.
 */
export const listingCounts = pgTable(
  "listing_counts",
  {
    accountId: accountId(),
    listing: text("listing").notNull(),
    scope: text("scope").notNull().default(""),
    rows: bigint("rows", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.listing, t.scope] })],
);
