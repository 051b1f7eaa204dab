/**
 * Logs uploader configs: a policy and a target applied to CDN resources, and the CDN resources each lists.
 */
import { LOGS_UPLOADER_CHECK_STATUSES } from "@cloudplane/contract";
import { sql } from "drizzle-orm";
import { boolean, check, foreignKey, index, integer, pgTable, primaryKey, text, unique } from "drizzle-orm/pg-core";
import { identityId, sqlList, timestamptz } from "../../columns.js";
import { accountId } from "../../iam/account.js";
import { cdnResources } from "../resources.js";
import { logsUploaderPolicies } from "./policies.js";
import { checkColumns } from "./shared.js";
import { logsUploaderTargets } from "./targets.js";

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
