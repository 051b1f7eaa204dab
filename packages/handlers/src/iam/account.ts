/**
 * IAM account: the caller's account, its services and features, and its users.
 */
import { iamAccountRoutes, PLATFORM_SERVICES, ROLE_IDS, SERVED_SERVICES, type PlatformService } from "@cloudplane/contract";
import { asc, eq, schema } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { notFound } from "../errors.js";
import { cdnTime } from "../format.js";
import type { RequestExtension, RouteDeps } from "../types.js";
import { served } from "../served.js";
import { userBody } from "./users.js";

const { accounts, cdnFeatures, users } = schema;

/** `value(service)` for each of the platform's services. */
function byService<T>(value: (service: PlatformService) => T): Record<PlatformService, T> {
  return Object.fromEntries(PLATFORM_SERVICES.map((service) => [service, value(service)])) as Record<PlatformService, T>;
}

export function iamAccount({ db }: RouteDeps) {
  return tsr.routerWithMiddleware(served("iam", iamAccountRoutes))<RequestExtension>({
    getAccount: async (_input, { request: { caller } }) => {
      const [[account], members, features] = await Promise.all([
        db.select().from(accounts).where(eq(accounts.id, caller.accountId)),
        db.select().from(users).where(eq(users.accountId, caller.accountId)).orderBy(asc(users.id)),
        db.select().from(cdnFeatures).where(eq(cdnFeatures.accountId, caller.accountId)).orderBy(asc(cdnFeatures.id)),
      ]);
      // The caller's token was just looked up through this account: it exists.
      if (!account) throw notFound(`Account ${caller.accountId}`);
      // Who registered the account: its first Administrator.
      const registrant = members.find((member) => member.roleId === ROLE_IDS.administrators);
      const feature = (row: (typeof features)[number]) => ({ feature_id: row.featureId, name: row.name, create_date: cdnTime(row.created), service: "CDN" as const });
      return {
        status: 200,
        body: {
          id: account.id,
          companyName: account.name,
          name: registrant?.name ?? null,
          phone: registrant?.phone ?? null,
          email: registrant?.email ?? null,
          website: null,
          country_code: null,
          custom_id: null,
          signup_process: null,
          entryBaseDomain: null,
          currentUser: caller.userId,
          deleted: false,
          status: "active",
          is_test: false,
          bill_type: "postpay",
          has_active_admin: members.some((member) => member.roleId === ROLE_IDS.administrators && !member.deleted),
          capabilities: [...SERVED_SERVICES],
          serviceStatuses: byService((service) =>
            service === "CDN"
              ? { enabled: account.cdnServiceEnabled, status: account.cdnServiceStatus }
              : SERVED_SERVICES.includes(service)
                ? { enabled: true, status: "active" }
                : { enabled: false, status: "new" },
          ),
          paidFeatures: byService((service) =>
            service === "CDN" ? features.filter((row) => row.paid).map((row) => ({ ...feature(row), paid_feature_id: row.id })) : [],
          ),
          freeFeatures: byService((service) =>
            service === "CDN" ? features.filter((row) => !row.paid).map((row) => ({ ...feature(row), free_feature_id: row.id })) : [],
          ),
          users: members.map((member) => userBody(member, account.name)),
        },
      };
    },
  });
}
