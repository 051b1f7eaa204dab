/**
 * Object storage access keys: the S3 key pairs of the account's S3 storages, each secret key encrypted
 * at rest (shown once, when the key is made, and never again).
 */
import { foreignKey, integer, pgTable, text, unique } from "drizzle-orm/pg-core";
import { identityId, timestamptz } from "../columns.js";
import { accountId } from "../iam/account.js";
import { storages } from "./storages.js";

export const storageAccessKeys = pgTable(
  "storage_access_keys",
  {
    id: identityId(),
    accountId: accountId(),
    storageId: integer("storage_id").notNull(),
    /** The access key id: the S3 user name, unique on the platform. */
    accessKey: text("access_key").notNull(),
    /** The secret key, encrypted with the secrets key (`encryptSecret`). */
    secretKeyEncrypted: text("secret_key_encrypted").notNull(),
    created: timestamptz("created").notNull().defaultNow(),
  },
  (t) => [
    unique("storage_access_keys_access_key_unique").on(t.accessKey),
    foreignKey({
      name: "storage_access_keys_storage_fk",
      columns: [t.accountId, t.storageId],
      foreignColumns: [storages.accountId, storages.id],
    }).onDelete("cascade"),
  ],
);
