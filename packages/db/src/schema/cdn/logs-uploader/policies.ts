/**
 * Logs uploader policies: what is logged and how.
 */
import { LOGS_UPLOADER_FORMAT_TYPES } from "@cloudplane/contract";
import { sql } from "drizzle-orm";
import { boolean, check, doublePrecision, integer, jsonb, pgTable, text, unique } from "drizzle-orm/pg-core";
import { identityId, sqlList, timestamptz } from "../../columns.js";
import { accountId } from "../../iam/account.js";

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
