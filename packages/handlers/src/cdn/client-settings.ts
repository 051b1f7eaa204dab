/**
 * The account-level CDN settings (`/cdn/clients/me`), columns of the account: get and change (the PATCH
 * alias is served by the change).
 */
import { cdnClientSettingsRoutes, type CdnClientSettings } from "@cloudplane/contract";
import { eq, schema } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { notFound } from "../errors.js";
import { cdnTime } from "../format.js";
import type { RequestExtension, RouteDeps } from "../types.js";
import { served } from "../served.js";

const { accounts } = schema;

function settingsOf(account: typeof accounts.$inferSelect): CdnClientSettings {
  return {
    id: account.id,
    created: cdnTime(account.created),
    updated: cdnTime(account.updated),
    service: { enabled: account.cdnServiceEnabled, status: account.cdnServiceStatus, updated: cdnTime(account.cdnServiceUpdated) },
    utilization_level: account.utilizationLevel,
    cname: account.cname,
    use_balancer: account.useBalancer,
    auto_suspend_enabled: account.autoSuspendEnabled,
    cdn_resources_rules_max_count: account.cdnResourcesRulesMaxCount,
  };
}

/** The routes of the account's CDN settings. */
export function cdnClientSettings(deps: RouteDeps) {
  const { db } = deps;

  return tsr.routerWithMiddleware(served("cdn", cdnClientSettingsRoutes))<RequestExtension>({
    getClientSettings: async (_args, { request: { caller } }) => {
      const [account] = await db.select().from(accounts).where(eq(accounts.id, caller.accountId));
      if (!account) throw notFound(`Account ${caller.accountId}`);
      return { status: 200, body: settingsOf(account) };
    },

    updateClientSettings: async ({ body }, { request: { caller } }) => {
      const [account] = await db
        .update(accounts)
        .set({ utilizationLevel: body.utilization_level, updated: new Date() })
        .where(eq(accounts.id, caller.accountId))
        .returning();
      return { status: 200, body: settingsOf(account!) };
    },
  });
}
