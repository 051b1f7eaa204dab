/**
 * Logs uploader targets: where CDN logs go (the secret access key encrypted).
 */
import { LOGS_UPLOADER_CHECK_STATUSES, LOGS_UPLOADER_STORAGE_TYPES } from "@cloudplane/contract";
import { sql } from "drizzle-orm";
import { boolean, check, pgTable, text, unique } from "drizzle-orm/pg-core";
import { identityId, sqlList, timestamptz } from "../../columns.js";
import { accountId } from "../../iam/account.js";
import { checkColumns } from "./shared.js";

export const logsUploaderTargets = pgTable(
  "logs_uploader_targets",
  {
    id: identityId(),
    accountId: accountId(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    storageType: text("storage_type", { enum: LOGS_UPLOADER_STORAGE_TYPES }).notNull(),
    accessKeyId: text("access_key_id").notNull(),
    /** AES-GCM ciphertext of the secret access key (crypto.ts); never the plaintext. */
    secretAccessKeyEncrypted: text("secret_access_key_encrypted").notNull(),
    region: text("region").notNull(),
    bucketName: text("bucket_name").notNull(),
    directory: text("directory"),
    endpoint: text("endpoint"),
    usePathStyle: boolean("use_path_style").notNull().default(false),
    ...checkColumns(),
    created: timestamptz("created").notNull().defaultNow(),
    updated: timestamptz("updated").notNull().defaultNow(),
  },
  (t) => [
    unique("logs_uploader_targets_account_id_id_unique").on(t.accountId, t.id),
    check("logs_uploader_targets_storage_type_check", sql`${t.storageType} in (${sql.raw(sqlList(LOGS_UPLOADER_STORAGE_TYPES))})`),
    check("logs_uploader_targets_secret_check", sql`${t.secretAccessKeyEncrypted} like 'v1.%'`),
    check("logs_uploader_targets_status_check", sql`${t.status} in (${sql.raw(sqlList(LOGS_UPLOADER_CHECK_STATUSES))})`),
  ],
);
