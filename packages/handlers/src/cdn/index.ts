/**
 * CDN area: a file per resource (CDN resources and their shielding, the shielding POPs, the account's
 * features and settings, origin groups, the logs uploader's targets, policies and configs); this one
 * puts their routes together as the area's router.
 */
import type { Contract, PrimaryRoutes } from "@cloudplane/contract";
import type { RouteDeps } from "../types.js";
import { cdnClientSettings } from "./client-settings.js";
import { cdnFeatures } from "./features.js";
import { cdnLogsUploaderConfigs } from "./logs-uploader/configs.js";
import { cdnLogsUploaderPolicies } from "./logs-uploader/policies.js";
import { cdnLogsUploaderTargets } from "./logs-uploader/targets.js";
import { cdnOriginGroups } from "./origin-groups.js";
import { cdnPresets } from "./presets.js";
import { cdnResources } from "./resources.js";
import { cdnRulesRouter, cdnRuleTemplatesRouter } from "./rules.js";
import { cdnShieldingPops } from "./shielding-pops.js";
import { cdnCertificates } from "./certificates.js";
import { cdnTrustedCaCertificates } from "./trusted-ca-certificates.js";
import { cdnPurge } from "./purge.js";
import { cdnLimits } from "./limits.js";
import { cdnRegions } from "./regions.js";
import { cdnIpRanges } from "./ip-ranges.js";
import { cdnAuditLogEntries } from "./audit-log.js";
import { cdnLogs } from "./logs.js";
import { cdnMetrics } from "./metrics.js";
import { cdnStatistics } from "./statistics.js";

/** Every primary route of the cdn area with its implementation; a route left out fails to compile. */
export function cdnRoutes(deps: RouteDeps) {
  return {
    ...cdnLogsUploaderTargets(deps),
    ...cdnLogsUploaderPolicies(deps),
    ...cdnLogsUploaderConfigs(deps),
    ...cdnRuleTemplatesRouter(deps),
    ...cdnResources(deps),
    ...cdnRulesRouter(deps),
    ...cdnPresets(deps),
    ...cdnShieldingPops(deps),
    ...cdnFeatures(deps),
    ...cdnClientSettings(deps),
    ...cdnOriginGroups(deps),
    ...cdnCertificates(deps),
    ...cdnTrustedCaCertificates(deps),
    ...cdnPurge(deps),
    ...cdnLimits(deps),
    ...cdnRegions(deps),
    ...cdnIpRanges(deps),
    ...cdnStatistics(deps),
    ...cdnMetrics(deps),
    ...cdnLogs(deps),
    ...cdnAuditLogEntries(deps),
  } satisfies Record<keyof PrimaryRoutes<Contract["cdn"]>, unknown>;
}
