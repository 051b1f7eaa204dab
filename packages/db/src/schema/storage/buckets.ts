/**
 * Object storage buckets: the S3 buckets of the account's storages, with each bucket's CORS origins,
 * lifecycle and policy; with their relations and the storages'.
 */
import { relations, sql } from "drizzle-orm";
import { boolean, check, foreignKey, integer, pgTable, text, unique } from "drizzle-orm/pg-core";
import { identityId, timestamptz } from "../columns.js";
import { accountId, accounts } from "../iam/account.js";
import { storages } from "./storages.js";

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
