/**
 * IAM account: the caller's account and its users.
 */
import { iamAccountRoutes, ROLE_IDS, roleName } from "@cloudplane/contract";
import { asc, eq, schema } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { notFound } from "../errors.js";
import type { RequestExtension, RouteDeps } from "../types.js";
import { served } from "../served.js";

const { accounts, users } = schema;

export function iamAccount({ db }: RouteDeps) {
  return tsr.routerWithMiddleware(served("iam", iamAccountRoutes))<RequestExtension>({
    getAccount: async (_input, { request: { caller } }) => {
      const [account] = await db.select().from(accounts).where(eq(accounts.id, caller.accountId));
      // The caller's token was just looked up through this account: it exists.
      if (!account) throw notFound(`Account ${caller.accountId}`);
      const members = await db.select().from(users).where(eq(users.accountId, caller.accountId)).orderBy(asc(users.id));
      return {
        status: 200,
        body: {
          id: account.id,
          companyName: account.name,
          currentUser: caller.userId,
          email: null,
          deleted: false,
          status: "active",
          has_active_admin: members.some((user) => user.roleId === ROLE_IDS.administrators && !user.deleted),
          users: members.map((user) => ({
            id: user.id,
            name: user.name,
            email: user.email,
            deleted: user.deleted,
            client: user.accountId,
            groups: [{ id: user.roleId, name: roleName(user.roleId) }],
          })),
        },
      };
    },
  });
}
