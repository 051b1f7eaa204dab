/**
 * The CDN logs uploader: targets (where logs go; the secret key encrypted), policies (what is logged
 * and how) and configs (a policy and a target applied to CDN resources).
 */
import { LOGS_UPLOADER_CHECK_STATUSES, LOGS_UPLOADER_FORMAT_TYPES, LOGS_UPLOADER_STORAGE_TYPES } from "@cloudplane/contract";
import { sql } from "drizzle-orm";
import { boolean, check, doublePrecision, foreignKey, index, integer, jsonb, pgTable, primaryKey, text, unique } from "drizzle-orm/pg-core";
import { cdnResources } from "./cdn.js";
import { identityId, sqlList, timestamptz } from "./columns.js";
import { accountId } from "./iam/account.js";

/** The columns of the last check (`POST …/validate`) of a target or a config. */
const checkColumns = () => ({
  status: text("status", { enum: LOGS_UPLOADER_CHECK_STATUSES }).notNull().default("in_progress"),
  statusCode: integer("status_code").notNull().default(0),
  statusDetails: text("status_details").notNull().default(""),
  statusUpdated: timestamptz("status_updated").notNull().defaultNow(),
});

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

export const logsUploaderPolicies = pgTable(
  "logs_uploader_policies",
  {
    id: identityId(),
    accountId: accountId(),
    name: text("name").notNull(),
    description: text("description").notNull(),
    includeEmptyLogs: boolean("include_empty_logs").notNull(),
    includeShieldLogs: boolean("include_shield_logs").notNull(),
    escapeSpecialCharacters: boolean("escape_special_characters").notNull(),
    retryIntervalMinutes: integer("retry_interval_minutes").notNull(),
    rotateIntervalMinutes: integer("rotate_interval_minutes").notNull(),
    rotateThresholdMb: integer("rotate_threshold_mb"),
    rotateThresholdLines: integer("rotate_threshold_lines").notNull(),
    dateFormat: text("date_format").notNull(),
    fieldDelimiter: text("field_delimiter").notNull(),
    fieldSeparator: text("field_separator").notNull(),
    /** In the order the log lines hold them. */
    fields: text("fields").array().notNull(),
    fileNameTemplate: text("file_name_template").notNull(),
    formatType: text("format_type", { enum: LOGS_UPLOADER_FORMAT_TYPES }).notNull(),
    tags: jsonb("tags").$type<Record<string, string>>().notNull(),
    logSampleRate: doublePrecision("log_sample_rate").notNull(),
    created: timestamptz("created").notNull().defaultNow(),
    updated: timestamptz("updated").notNull().defaultNow(),
  },
  (t) => [
    unique("logs_uploader_policies_account_id_id_unique").on(t.accountId, t.id),
    check("logs_uploader_policies_format_type_check", sql`${t.formatType} in (${sql.raw(sqlList(LOGS_UPLOADER_FORMAT_TYPES))})`),
    check("logs_uploader_policies_log_sample_rate_check", sql`${t.logSampleRate} between 0 and 1`),
  ],
);

export const logsUploaderConfigs = pgTable(
  "logs_uploader_configs",
  {
    id: identityId(),
    accountId: accountId(),
    name: text("name").notNull(),
    enabled: boolean("enabled").notNull(),
    forAllResources: boolean("for_all_resources").notNull(),
    policyId: integer("policy_id").notNull(),
    targetId: integer("target_id").notNull(),
    ...checkColumns(),
    created: timestamptz("created").notNull().defaultNow(),
    updated: timestamptz("updated").notNull().defaultNow(),
  },
  (t) => [
    unique("logs_uploader_configs_account_id_id_unique").on(t.accountId, t.id),
    index("logs_uploader_configs_account_id_policy_id_idx").on(t.accountId, t.policyId),
    index("logs_uploader_configs_account_id_target_id_idx").on(t.accountId, t.targetId),
    check("logs_uploader_configs_status_check", sql`${t.status} in (${sql.raw(sqlList(LOGS_UPLOADER_CHECK_STATUSES))})`),
    // No cascade: a policy or target in use is not deleted (the routes answer 409 first).
    foreignKey({
      name: "logs_uploader_configs_policy_fk",
      columns: [t.accountId, t.policyId],
      foreignColumns: [logsUploaderPolicies.accountId, logsUploaderPolicies.id],
    }),
    foreignKey({
      name: "logs_uploader_configs_target_fk",
      columns: [t.accountId, t.targetId],
      foreignColumns: [logsUploaderTargets.accountId, logsUploaderTargets.id],
    }),
  ],
);

/** The CDN resources a config lists; a CDN resource's removal takes it off every list. */
export const logsUploaderConfigResources = pgTable(
  "logs_uploader_config_resources",
  {
    accountId: accountId(),
    configId: integer("config_id").notNull(),
    resourceId: integer("resource_id").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.configId, t.resourceId] }),
    index("logs_uploader_config_resources_account_id_resource_id_idx").on(t.accountId, t.resourceId),
    foreignKey({
      name: "logs_uploader_config_resources_config_fk",
      columns: [t.accountId, t.configId],
      foreignColumns: [logsUploaderConfigs.accountId, logsUploaderConfigs.id],
    }).onDelete("cascade"),
    foreignKey({
      name: "logs_uploader_config_resources_resource_fk",
      columns: [t.accountId, t.resourceId],
      foreignColumns: [cdnResources.accountId, cdnResources.id],
    }).onDelete("cascade"),
  ],
);
