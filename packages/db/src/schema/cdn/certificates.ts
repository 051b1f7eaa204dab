/**
 * The private keys of the account's uploaded SSL certificates (the certificates themselves are in
 * resources.ts, which CDN resources refer to): encrypted at rest, never answered.
 */
import { foreignKey, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { accountId } from "../iam/account.js";
import { certificates } from "./resources.js";

export const certificateKeys = pgTable(
  "certificate_keys",
  {
    accountId: accountId(),
    certificateId: integer("certificate_id").notNull(),
    /** The PEM private key, AES-GCM encrypted with the secrets key (encryptSecret). */
    privateKeyEncrypted: text("private_key_encrypted").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.certificateId] }),
    foreignKey({
      name: "certificate_keys_certificate_fk",
      columns: [t.accountId, t.certificateId],
      foreignColumns: [certificates.accountId, certificates.id],
    }).onDelete("cascade"),
  ],
);
