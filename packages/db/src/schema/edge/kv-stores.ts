/**
 * Edge KV stores: the account's key-value stores that its apps read (an app names each in its `stores`),
 * kept by the platform or, with BYOD settings, in a database of the account's own.
 */
import { sql } from "drizzle-orm";
import { check, integer, pgTable, text, unique } from "drizzle-orm/pg-core";
import { identityId, timestamptz } from "../columns.js";
import { accountId } from "../iam/account.js";

export const edgeKvStores = pgTable(
  "edge_kv_stores",
  {
    id: identityId(),
    accountId: accountId(),
    name: text("name").notNull(),
    comment: text("comment").notNull().default(""),
    /** BYOD (bring your own data): the key prefix and the URL of the account's own store; both null for a store the platform keeps. */
    byodPrefix: text("byod_prefix"),
    byodUrl: text("byod_url"),
    /** The store's revision: 1 when made, one more at each change of its settings. */
    revision: integer("revision").notNull().default(1),
    /** The bytes the store holds (0 for a BYOD store, whose data lies elsewhere). */
    size: integer("size").notNull().default(0),
    created: timestamptz("created").notNull().defaultNow(),
    updated: timestamptz("updated").notNull().defaultNow(),
  },
  (t) => [
    unique("edge_kv_stores_account_id_id_unique").on(t.accountId, t.id),
    unique("edge_kv_stores_account_id_name_unique").on(t.accountId, t.name),
    check("edge_kv_stores_byod_check", sql`(${t.byodPrefix} is null) = (${t.byodUrl} is null)`),
    check("edge_kv_stores_size_check", sql`${t.size} >= 0`),
  ],
);
