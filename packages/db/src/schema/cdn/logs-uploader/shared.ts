/**
 * What the logs uploader's tables share: the columns of the last check of a target or a config.
 */
import { LOGS_UPLOADER_CHECK_STATUSES } from "@cloudplane/contract";
import { integer, text } from "drizzle-orm/pg-core";
import { timestamptz } from "../../columns.js";

/** The columns of the last check (`POST …/validate`) of a target or a config. */
export const checkColumns = () => ({
  status: text("status", { enum: LOGS_UPLOADER_CHECK_STATUSES }).notNull().default("in_progress"),
  statusCode: integer("status_code").notNull().default(0),
  statusDetails: text("status_details").notNull().default(""),
  statusUpdated: timestamptz("status_updated").notNull().defaultNow(),
});
