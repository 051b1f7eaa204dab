/**
 * IAM routes: the account's API tokens, with the role, issuer and (inverted) deleted filters.
 */
import { contract, ROLE_IDS, roleName, type ApiToken } from "@cloudplane/contract";
import { and, asc, eq, ne, schema, type SQL } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { ApiError } from "./errors.js";
import { iamTime } from "./format.js";
import type { RequestExtension, RouteDeps } from "./types.js";

const { apiTokens, users } = schema;

export function iamRoutes({ db }: RouteDeps) {
  return tsr.routerWithMiddleware(contract.iam)<RequestExtension>({
    listTokens: async ({ params, query }, { request: { caller } }) => {
      if (params.clientId !== caller.accountId)
        throw new ApiError("permission_denied", "The path names another account; a token sees only its own account.");
      const where: SQL[] = [eq(apiTokens.accountId, caller.accountId)];
      // Administrators see every token of the account; everyone else only the tokens issued for themselves.
      if (caller.roleId !== ROLE_IDS.administrators) where.push(eq(apiTokens.userId, caller.userId));
      if (query.role !== undefined) where.push(eq(users.roleId, query.role));
      if (query.issued_by !== undefined) where.push(eq(apiTokens.userId, query.issued_by));
      if (query.not_issued_by !== undefined) where.push(ne(apiTokens.userId, query.not_issued_by));
      // Inverted, as the query's description says: deleted=true lists the tokens that are NOT deleted.
      if (query.deleted !== undefined) where.push(eq(apiTokens.deleted, !query.deleted));
      const rows = await db
        .select({ token: apiTokens, user: users })
        .from(apiTokens)
        .innerJoin(users, and(eq(users.accountId, apiTokens.accountId), eq(users.id, apiTokens.userId)))
        .where(and(...where))
        .orderBy(asc(apiTokens.id));
      const now = Date.now();
      const body: ApiToken[] = rows.map(({ token, user }) => ({
        id: token.id,
        name: token.name,
        description: token.description,
        exp_date: token.expDate ? iamTime(token.expDate) : null,
        created: iamTime(token.created),
        last_usage: token.lastUsage ? iamTime(token.lastUsage) : null,
        deleted: token.deleted,
        expired: token.expDate !== null && token.expDate.getTime() <= now,
        client_user: {
          role: { id: user.roleId, name: roleName(user.roleId) },
          deleted: user.deleted,
          user_id: user.id,
          user_name: user.name,
          user_email: user.email,
          client_id: user.accountId,
        },
      }));
      return { status: 200, body };
    },
  });
}
