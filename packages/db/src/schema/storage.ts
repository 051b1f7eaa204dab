/**
 * Object storage area: the account's storages and their S3 buckets, with each bucket's CORS origins.
 */
import { STORAGE_LOCATIONS, STORAGE_TYPES } from "@cloudplane/contract";
import { relations, sql } from "drizzle-orm";
import { boolean, check, foreignKey, integer, pgTable, text, unique } from "drizzle-orm/pg-core";
import { identityId, sqlList, timestamptz } from "./columns.js";
import { accountId, accounts } from "./iam.js";

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

export const buckets = pgTable(
  "buckets",
  {
    id: identityId(),
    accountId: accountId(),
    storageId: integer("storage_id").notNull(),
    name: text("name").notNull(),
    /** The bucket's CORS: origins allowed to call it from browsers (`*` for any). */
    allowedOrigins: text("allowed_origins").array().notNull().default(sql`'{}'::text[]`),
    /** The bucket's lifecycle: days after which its objects expire; null: none. */
    lifecycleDays: integer("lifecycle_days"),
    /** The bucket's policy: whether anyone may read its objects over HTTP without credentials. */
    public: boolean("public").notNull().default(false),
    created: timestamptz("created").notNull().defaultNow(),
  },
  (t) => [
    unique("buckets_storage_id_name_unique").on(t.storageId, t.name),
    check("buckets_lifecycle_days_check", sql`${t.lifecycleDays} > 0`),
    foreignKey({
      name: "buckets_storage_fk",
      columns: [t.accountId, t.storageId],
      foreignColumns: [storages.accountId, storages.id],
    }).onDelete("cascade"),
  ],
);

export const storagesRelations = relations(storages, ({ one, many }) => ({
  account: one(accounts, { fields: [storages.accountId], references: [accounts.id] }),
  buckets: many(buckets),
}));

export const bucketsRelations = relations(buckets, ({ one }) => ({
  storage: one(storages, { fields: [buckets.storageId], references: [storages.id] }),
}));
