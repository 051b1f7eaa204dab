/**
 * Object storage SSH keys: the account's public keys, and the SFTP storages each lets in. A key an SFTP
 * storage refers to cannot be deleted (the link's foreign key restricts it); a storage's links go with it.
 */
import { foreignKey, integer, pgTable, primaryKey, text, unique } from "drizzle-orm/pg-core";
import { identityId, timestamptz } from "../columns.js";
import { accountId } from "../iam/account.js";
import { storages } from "./storages.js";

export const storageSshKeys = pgTable(
  "storage_ssh_keys",
  {
    id: identityId(),
    accountId: accountId(),
    name: text("name").notNull(),
    /** The public key as sent, in OpenSSH form (`ssh-ed25519 AAAA… comment`). */
    publicKey: text("public_key").notNull(),
    created: timestamptz("created").notNull().defaultNow(),
  },
  (t) => [unique("storage_ssh_keys_account_id_id_unique").on(t.accountId, t.id), unique("storage_ssh_keys_account_id_name_unique").on(t.accountId, t.name)],
);

export const storageSshKeyLinks = pgTable(
  "storage_ssh_key_links",
  {
    accountId: accountId(),
    storageId: integer("storage_id").notNull(),
    sshKeyId: integer("ssh_key_id").notNull(),
  },
  (t) => [
    primaryKey({ name: "storage_ssh_key_links_pk", columns: [t.storageId, t.sshKeyId] }),
    foreignKey({
      name: "storage_ssh_key_links_storage_fk",
      columns: [t.accountId, t.storageId],
      foreignColumns: [storages.accountId, storages.id],
    }).onDelete("cascade"),
    foreignKey({
      name: "storage_ssh_key_links_ssh_key_fk",
      columns: [t.accountId, t.sshKeyId],
      foreignColumns: [storageSshKeys.accountId, storageSshKeys.id],
    }),
  ],
);
