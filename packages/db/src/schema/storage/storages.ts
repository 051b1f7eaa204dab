/**
 * Object storage storages: the account's storages. Their relations are in buckets.ts, as they name the
 * buckets (this module cannot import that one, which builds on it).
 */
import { STORAGE_LOCATIONS, STORAGE_TYPES } from "@cloudplane/contract";
import { sql } from "drizzle-orm";
import { check, pgTable, text, unique } from "drizzle-orm/pg-core";
import { identityId, sqlList, timestamptz } from "../columns.js";
import { accountId } from "../iam/account.js";

export const storages = pgTable(
  "storages",
  {
    id: identityId(),
    accountId: accountId(),
    name: text("name").notNull(),
    type: text("type").notNull().default("s3"),
    location: text("location").notNull(),
    /** When an SFTP storage expires; null: never. */
    expires: timestamptz("expires"),
    /** An SFTP storage's custom host name, lower case, unique on the platform; null: none. */
    serverAlias: text("server_alias"),
    created: timestamptz("created").notNull().defaultNow(),
  },
  (t) => [
    unique("storages_account_id_id_unique").on(t.accountId, t.id),
    unique("storages_account_id_name_unique").on(t.accountId, t.name),
    unique("storages_server_alias_unique").on(t.serverAlias),
    check("storages_type_check", sql`${t.type} in (${sql.raw(sqlList(STORAGE_TYPES))})`),
    check("storages_location_check", sql`${t.location} in (${sql.raw(sqlList(STORAGE_LOCATIONS))})`),
    // Only SFTP storages expire or have a server alias.
    check("storages_sftp_settings_check", sql`${t.type} = 'sftp' or (${t.expires} is null and ${t.serverAlias} is null)`),
    check("storages_server_alias_lower_check", sql`${t.serverAlias} = lower(${t.serverAlias})`),
  ],
);
