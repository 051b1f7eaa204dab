/**
 * BGP announces of the account's protected networks: whether each is announced. A network without a row
 * here follows its profiles' `options.bgp`; a toggle writes the row.
 */
import { boolean, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { timestamptz } from "../columns.js";
import { accountId } from "../iam/account.js";

export const securityBgpAnnounces = pgTable(
  "security_bgp_announces",
  {
    accountId: accountId(),
    /** The network, in CIDR form (an address's /32 or /128). */
    network: text("network").notNull(),
    enabled: boolean("enabled").notNull(),
    updated: timestamptz("updated").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.network] })],
);

/**
 * The version of each account's announces: a new one whenever a statement changes what they answer (a
 * profile's address, site, options or deletion; a toggle). A server keeps the announces it computed with
 * the version it read before computing them, and answers them again while the version is the same, so an
 * account with 100,000 networks is not read and rebuilt on every request, and every server that shares the
 * database sees every write at once.
 *
 * Kept by the database itself: statement-level triggers on `security_profiles` and
 * `security_bgp_announces` (drizzle/0038_security_announce_versions_triggers.sql) give the accounts a
 * statement changed a new random UUID (not a sequence's next value: a database restored from a backup, or a
 * test's snapshot put back with its sequences, would give a value again, for other announces); a truncate
 * of either table empties this table. Nothing else writes it. An account without a row (none of its
 * announces written since the table was made empty) is never kept: its announces are computed on every
 * request until a write gives it a version.
 */
export const securityAnnounceVersions = pgTable("security_announce_versions", {
  accountId: accountId().primaryKey(),
  version: uuid("version").notNull(),
});
