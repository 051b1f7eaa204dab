/**
 * CDN area: CDN resources and their options, shielding, logs uploader targets, policies and configs,
 * the account's CDN client settings and features, and origin groups. A file per resource; this one
 * builds the area's router from their routes, in the order of `ROUTES`, with the area's aliases.
 */
import { initContract } from "@ts-rest/core";
import { alias } from "../alias.js";
import { cdnClientSettingsRoutes } from "./client-settings.js";
import { cdnFeaturesRoutes } from "./features.js";
import { cdnLogsUploaderConfigsRoutes } from "./logs-uploader/configs.js";
import { cdnLogsUploaderPoliciesRoutes } from "./logs-uploader/policies.js";
import { cdnLogsUploaderTargetsRoutes } from "./logs-uploader/targets.js";
import { cdnOriginGroupsRoutes } from "./origin-groups.js";
import { cdnPresetsRoutes } from "./presets.js";
import { cdnResourcesRoutes } from "./resources.js";
import { cdnRulesRoutes, cdnRuleTemplatesRoutes } from "./rules.js";
import { cdnShieldingPopsRoutes } from "./shielding-pops.js";
import { cdnCertificatesRoutes } from "./certificates.js";
import { cdnTrustedCaCertificatesRoutes } from "./trusted-ca-certificates.js";
import { cdnPurgeRoutes } from "./purge.js";
import { cdnLimitsRoutes } from "./limits.js";
import { cdnRegionsRoutes } from "./regions.js";
import { cdnIpRangesRoutes } from "./ip-ranges.js";
import { cdnAuditLogRoutes } from "./audit-log.js";
import { cdnLogsRoutes } from "./logs.js";
import { cdnMetricsRoutes } from "./metrics.js";
import { cdnStatisticsRoutes } from "./statistics.js";

export * from "./options.js";
export { CDN_PAGE_MAX, isOriginSource } from "./shared.js";
export * from "./resources.js";
export * from "./shielding-pops.js";
export * from "./features.js";
export * from "./client-settings.js";
export * from "./origin-groups.js";
export * from "./certificates.js";
export * from "./trusted-ca-certificates.js";
export * from "./purge.js";
export * from "./limits.js";
export * from "./regions.js";
export * from "./ip-ranges.js";
export * from "./demo-certificates.js";
export * from "./rules.js";
export * from "./presets.js";
export * from "./statistics.js";
export * from "./metrics.js";
export * from "./logs.js";
export * from "./audit-log.js";
export {
  LOGS_UPLOADER_CHECK_CODES,
  LOGS_UPLOADER_CHECK_STATUSES,
  LOGS_UPLOADER_PAGE,
  logsUploaderValidation,
  type LogsUploaderValidation,
  type LogsUploaderValidationSchema,
} from "./logs-uploader/shared.js";
export * from "./logs-uploader/targets.js";
export * from "./logs-uploader/policies.js";
export * from "./logs-uploader/configs.js";

const c = initContract();

/** The logs uploader's routes (targets, policies and configs), spread into the cdn area's router. */
export const logsUploaderContract = c.router({
  ...cdnLogsUploaderTargetsRoutes,
  ...cdnLogsUploaderPoliciesRoutes,
  ...cdnLogsUploaderConfigsRoutes,
});

export const cdnContract = c.router({
  ...logsUploaderContract,
  // Before the resources': `/cdn/resources/rule_templates` is not a resource's id.
  ...cdnRuleTemplatesRoutes,
  ...cdnResourcesRoutes,
  ...cdnRulesRoutes,
  ...cdnPresetsRoutes,
  ...cdnShieldingPopsRoutes,
  ...cdnFeaturesRoutes,
  ...cdnClientSettingsRoutes,
  ...cdnOriginGroupsRoutes,
  ...cdnCertificatesRoutes,
  ...cdnTrustedCaCertificatesRoutes,
  ...cdnPurgeRoutes,
  ...cdnLimitsRoutes,
  ...cdnRegionsRoutes,
  ...cdnIpRangesRoutes,
  ...cdnStatisticsRoutes,
  ...cdnMetricsRoutes,
  ...cdnLogsRoutes,
  ...cdnAuditLogRoutes,
  patchClientSettings: alias(cdnClientSettingsRoutes, "updateClientSettings", { path: "/cdn/clients/me", method: "PATCH" }),
});
