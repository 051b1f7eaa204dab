/**
 * The account's CDN limits (`/cdn/clients/me/limits`): the plan's fixed limits and the account's own, and
 * its route.
 */
import { z } from "zod";
import type { ClientMetadata } from "../client-names.js";
import { errorResponses, integer } from "../common.js";
import { route } from "../route.js";
import { PURGE_LIMITS } from "./purge.js";
import { read } from "./shared.js";

/** The plan's fixed limits: how many CDN resources an account may have, sources in an origin group, secondary host names. */
export const CDN_PLAN_LIMITS = { resources: 500, originsInGroup: 20, secondaryHostnames: 10 } as const;

/** The platform's request rates for purges and prefetches, per CDN resource, as it writes them. */
export const CDN_REQUEST_RATES = { purgeByUrls: "2/min", purge: "1/min", prefetch: "1/min" } as const;

const cdnAccountLimitsSchema = z
  .object({
    id: integer().describe("The account id."),
    resources_limit: integer().describe("How many CDN resources the account may have: the plan's limit."),
    rules_limit: integer().describe("How many rules a CDN resource may have: the account's `cdn_resources_rules_max_count`."),
    origins_in_group_limit: integer().describe("How many sources an origin group may have."),
    secondary_hostnames_limit: integer().describe("How many secondary host names a CDN resource may have."),
    purge_max_urls_limit: integer().describe("How many URLs one purge by URL may name."),
    purge_pattern_limit: integer().describe("How many patterns one purge by pattern may name."),
    prefetch_pattern_limit: integer().describe("How many paths one prefetch may name."),
    purge_by_urls_request_limit: z.string().describe("The platform's rate of purges by URL per resource."),
    purge_request_limit: z.string().describe("The platform's rate of purges by pattern and of purges of all per resource."),
    prefetch_request_limit: z.string().describe("The platform's rate of prefetches per resource."),
  })
  .strict()
  .describe("The account's CDN limits.");
export interface CdnAccountLimitsSchema extends CdnAccountLimitsSchemaType {}
type CdnAccountLimitsSchemaType = typeof cdnAccountLimitsSchema;
export const cdnAccountLimits: CdnAccountLimitsSchema = cdnAccountLimitsSchema;

export type CdnAccountLimits = z.infer<typeof cdnAccountLimits>;

/** The account's CDN limits' route. */
export const cdnLimitsRoutes = {
  getClientLimits: route({
    method: "GET",
    path: "/cdn/clients/me/limits",
    responses: { 200: cdnAccountLimits, ...errorResponses() },
    summary: "Get the account's CDN limits",
    description:
      "The limits of the caller's account: the plan's (CDN resources, sources in an origin group, secondary host names), the " +
      "account's rules per resource (its CDN settings' `cdn_resources_rules_max_count`), and what one purge or prefetch may " +
      "name (more is 400). The per-minute request rates are the platform's, shown as it writes them; here the token's request " +
      "rate applies instead.",
    // The account's CDN limits, which the path files under `clients/me`.
    metadata: { ...read, client: { resource: "limits", method: "get" } } satisfies ClientMetadata,
  }, {
    example: {
      response: {
        id: 1,
        resources_limit: CDN_PLAN_LIMITS.resources,
        rules_limit: 50,
        origins_in_group_limit: CDN_PLAN_LIMITS.originsInGroup,
        secondary_hostnames_limit: CDN_PLAN_LIMITS.secondaryHostnames,
        purge_max_urls_limit: PURGE_LIMITS.urls,
        purge_pattern_limit: PURGE_LIMITS.patterns,
        prefetch_pattern_limit: PURGE_LIMITS.prefetchPaths,
        purge_by_urls_request_limit: CDN_REQUEST_RATES.purgeByUrls,
        purge_request_limit: CDN_REQUEST_RATES.purge,
        prefetch_request_limit: CDN_REQUEST_RATES.prefetch,
      },
    },
    case: { path: () => "/cdn/clients/me/limits", ownsObjects: false },
  }),
} as const;
