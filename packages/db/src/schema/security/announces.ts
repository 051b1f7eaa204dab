/**
 * BGP announces of the account's protected networks: whether each is announced. A network without a row
 * here follows its profiles' `options.bgp`; a toggle writes the row.
 */
import { boolean, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
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
