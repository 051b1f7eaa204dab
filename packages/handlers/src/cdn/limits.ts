/**
 * The account's CDN limits: the plan's fixed limits, the account's rules per resource, and what one purge or
 * prefetch may name.
 */
import { CDN_PLAN_LIMITS, CDN_REQUEST_RATES, cdnLimitsRoutes, PURGE_LIMITS } from "@cloudplane/contract";
import { eq, schema } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import type { RequestExtension, RouteDeps } from "../types.js";
import { served } from "../served.js";

const { accounts } = schema;

/** The route of the account's CDN limits. */
export function cdnLimits({ db }: RouteDeps) {
  return tsr.routerWithMiddleware(served("cdn", cdnLimitsRoutes))<RequestExtension>({
    getClientLimits: async (_input, { request: { caller } }) => {
      const [account] = await db.select({ rules: accounts.cdnResourcesRulesMaxCount }).from(accounts).where(eq(accounts.id, caller.accountId));
      return {
        status: 200,
        body: {
          id: caller.accountId,
          resources_limit: CDN_PLAN_LIMITS.resources,
          rules_limit: account?.rules ?? 0,
          origins_in_group_limit: CDN_PLAN_LIMITS.originsInGroup,
          secondary_hostnames_limit: CDN_PLAN_LIMITS.secondaryHostnames,
          purge_max_urls_limit: PURGE_LIMITS.urls,
          purge_pattern_limit: PURGE_LIMITS.patterns,
          prefetch_pattern_limit: PURGE_LIMITS.prefetchPaths,
          purge_by_urls_request_limit: CDN_REQUEST_RATES.purgeByUrls,
          purge_request_limit: CDN_REQUEST_RATES.purge,
          prefetch_request_limit: CDN_REQUEST_RATES.prefetch,
        },
      };
    },
  });
}
