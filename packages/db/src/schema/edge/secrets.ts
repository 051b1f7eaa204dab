/**
 * Edge app secrets and their encrypted slots. The secrets' relations name the apps' links to them, so
 * they are in apps.ts, which is built on this module.
 */
import { relations, sql } from "drizzle-orm";
import { check, foreignKey, integer, pgTable, primaryKey, text, unique } from "drizzle-orm/pg-core";
import { identityId, timestamptz } from "../columns.js";
import { accountId } from "../iam/account.js";

export const edgeSecrets = pgTable(
  "edge_secrets",
  {
    id: identityId(),
    accountId: accountId(),
    name: text("name").notNull(),
    comment: text("comment").notNull().default(""),
    created: timestamptz("created").notNull().defaultNow(),
    updated: timestamptz("updated").notNull().defaultNow(),
  },
  (t) => [
    unique("edge_secrets_account_id_id_unique").on(t.accountId, t.id),
    unique("edge_secrets_account_id_name_unique").on(t.accountId, t.name),
  ],
);

/** The slots of a secret: each value is AES-GCM ciphertext (crypto.ts), with the hex SHA-256 of the plaintext. */
export const edgeSecretSlots = pgTable(
  "edge_secret_slots",
  {
    accountId: accountId(),
    secretId: integer("secret_id").notNull(),
    slot: integer("slot").notNull(),
    valueEncrypted: text("value_encrypted").notNull(),
    checksum: text("checksum").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.secretId, t.slot] }),
    foreignKey({
      name: "edge_secret_slots_secret_fk",
      columns: [t.accountId, t.secretId],
      foreignColumns: [edgeSecrets.accountId, edgeSecrets.id],
    }).onDelete("cascade"),
    check("edge_secret_slots_slot_check", sql`${t.slot} >= 0`),
    check("edge_secret_slots_value_check", sql`${t.valueEncrypted} like 'v1.%'`),
    check("edge_secret_slots_checksum_check", sql`${t.checksum} ~ '^[0-9a-f]{64}$'`),
  ],
);

export const edgeSecretSlotsRelations = relations(edgeSecretSlots, ({ one }) => ({
  secret: one(edgeSecrets, { fields: [edgeSecretSlots.secretId], references: [edgeSecrets.id] }),
}));
