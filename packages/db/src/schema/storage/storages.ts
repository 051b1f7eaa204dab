/**
 * Object storage storages: the account's storages. Their relations are in buckets.ts, as they name the
 * buckets (this module cannot import that one, which builds on it).
 */
import { STORAGE_LOCATIONS, STORAGE_TYPES } from "@cloudplane/contract";
import { sql } from "drizzle-orm";
import { boolean, check, index, pgTable, text, unique, uniqueIndex } from "drizzle-orm/pg-core";
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
    /** An SFTP storage's password, encrypted with the secrets key (`encryptSecret`); null: no password, SSH keys only. */
    passwordEncrypted: text("password_encrypted"),
    /** Whether an SFTP storage's plain HTTP access is off (HTTPS only). */
    httpDisabled: boolean("http_disabled").notNull().default(false),
    /** Whether an SFTP storage uses a custom server configuration file. */
    customConfigFile: boolean("custom_config_file").notNull().default(false),
    created: timestamptz("created").notNull().defaultNow(),
    /** When the storage was deleted; null: it is not. A deleted storage can be restored for STORAGE_RESTORE_DAYS. */
    deleted: timestamptz("deleted"),
  },
  (t) => [
    unique("storages_account_id_id_unique").on(t.accountId, t.id),
    // The listings of one type (the v4 object and SFTP storage listings), in their order and counted from the index alone.
    index("storages_account_id_type_id_live_idx").on(t.accountId, t.type, t.id).where(sql`${t.deleted} is null`),
    // The listing newest (or oldest) first, `created_at` the v3 listing's most asked order after the id.
    index("storages_account_id_created_id_live_idx").on(t.accountId, t.created, t.id).where(sql`${t.deleted} is null`),
    // A name is the account's while its storage is not deleted; restoring a storage whose name was taken since is 409.
    uniqueIndex("storages_account_id_name_unique").on(t.accountId, t.name).where(sql`${t.deleted} is null`),
    unique("storages_server_alias_unique").on(t.serverAlias),
    check("storages_type_check", sql`${t.type} in (${sql.raw(sqlList(STORAGE_TYPES))})`),
    check("storages_location_check", sql`${t.location} in (${sql.raw(sqlList(STORAGE_LOCATIONS))})`),
    // Only SFTP storages expire or have a server alias.
    check("storages_sftp_settings_check", sql`${t.type} = 'sftp' or (${t.expires} is null and ${t.serverAlias} is null)`),
    check("storages_sftp_password_check", sql`${t.type} = 'sftp' or ${t.passwordEncrypted} is null`),
    check("storages_server_alias_lower_check", sql`${t.serverAlias} = lower(${t.serverAlias})`),
  ],
);
