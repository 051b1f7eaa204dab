/**
 * IAM tokens: the account's API tokens (listed with the role, issuer and inverted deleted filters,
 * issued by Administrators, shown, revoked).
 */
import { iamTokensRoutes, ROLE_IDS, roleName, type ApiToken } from "@cloudplane/contract";
import { and, asc, eq, generateApiToken, ne, schema, type SQL } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import type { Caller } from "../auth.js";
import { ApiError, invalid, notFound } from "../errors.js";
import { iamTime } from "../format.js";
import type { RequestExtension, RouteDeps } from "../types.js";
import { served } from "../served.js";

const { apiTokens, users } = schema;

type TokenRow = typeof apiTokens.$inferSelect;
type UserRow = typeof users.$inferSelect;

/** An IAM route's path or body names an account: only the caller's own may be named. */
export function requireOwnAccount(clientId: number, caller: Caller): void {
  if (clientId !== caller.accountId)
    throw new ApiError("permission_denied", "The path names another account; a token sees only its own account.");
}

/** For what only Administrators may do: stricter than the routes' `write` access, which Engineers have too. */
export function requireAdministrator(caller: Caller, what: string): void {
  if (caller.roleId !== ROLE_IDS.administrators) throw new ApiError("permission_denied", `Only Administrators may ${what}.`);
}

/** Administrators reach every token of the account; everyone else only the tokens issued for themselves. */
function visibleTo(caller: Caller): SQL[] {
  const where = [eq(apiTokens.accountId, caller.accountId)];
  if (caller.roleId !== ROLE_IDS.administrators) where.push(eq(apiTokens.userId, caller.userId));
  return where;
}

const tokenUser = and(eq(users.accountId, apiTokens.accountId), eq(users.id, apiTokens.userId));

function apiTokenBody(token: TokenRow, user: UserRow, now = Date.now()): ApiToken {
  return {
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
  };
}

/** `exp_date` as stored: to the whole second, as the API shows it; it must still be in the future. */
function expiryOf(expDate: string | null | undefined): Date | null {
  if (expDate === null || expDate === undefined) return null;
  const expiry = new Date(Math.floor(Date.parse(expDate) / 1000) * 1000);
  if (expiry.getTime() <= Date.now()) throw invalid("exp_date", "Must be in the future.");
  return expiry;
}

export function iamTokens({ db, memory }: RouteDeps) {
  return tsr.routerWithMiddleware(served("iam", iamTokensRoutes))<RequestExtension>({
    listTokens: async ({ params, query }, { request: { caller } }) => {
      requireOwnAccount(params.clientId, caller);
      const where = visibleTo(caller);
      if (query.role !== undefined) where.push(eq(users.roleId, query.role));
      if (query.issued_by !== undefined) where.push(eq(apiTokens.userId, query.issued_by));
      if (query.not_issued_by !== undefined) where.push(ne(apiTokens.userId, query.not_issued_by));
      // Inverted, as the query's description says: deleted=true lists the tokens that are NOT deleted.
      if (query.deleted !== undefined) where.push(eq(apiTokens.deleted, !query.deleted));
      const rows = await db
        .select({ token: apiTokens, user: users })
        .from(apiTokens)
        .innerJoin(users, tokenUser)
        .where(and(...where))
        .orderBy(asc(apiTokens.id));
      const now = Date.now();
      return { status: 200, body: rows.map(({ token, user }) => apiTokenBody(token, user, now)) };
    },

    createToken: async ({ params, body }, { request: { caller } }) => {
      requireOwnAccount(params.clientId, caller);
      requireAdministrator(caller, "create API tokens");
      const expDate = expiryOf(body.exp_date);
      const userId = body.client_user?.user_id ?? caller.userId;
      const { token, tokenHash } = await generateApiToken();
      const created = await db.transaction(async (tx) => {
        // Shared lock: the user cannot be deleted or change role while its token is issued.
        const [user] = await tx
          .select()
          .from(users)
          .where(and(eq(users.accountId, caller.accountId), eq(users.id, userId), eq(users.deleted, false)))
          .for("share");
        if (!user) throw invalid("client_user.user_id", "Must be a user of the account that is not deleted.");
        const role = body.client_user?.role?.id;
        if (role !== undefined && role !== user.roleId)
          throw invalid(
            "client_user.role.id",
            `Must be the role of user ${user.id}, ${user.roleId} (${roleName(user.roleId)}): a token has its user's role.`,
          );
        const [row] = await tx
          .insert(apiTokens)
          .values({ accountId: caller.accountId, userId: user.id, name: body.name, description: body.description ?? "", tokenHash, expDate })
          .returning();
        return apiTokenBody(row!, user);
      });
      return { status: 201, body: { ...created, token } };
    },

    getToken: async ({ params }, { request: { caller } }) => {
      requireOwnAccount(params.clientId, caller);
      const [row] = await db
        .select({ token: apiTokens, user: users })
        .from(apiTokens)
        .innerJoin(users, tokenUser)
        .where(and(...visibleTo(caller), eq(apiTokens.id, params.tokenId)));
      if (!row) throw notFound(`API token ${params.tokenId}`);
      return { status: 200, body: apiTokenBody(row.token, row.user) };
    },

    deleteToken: async ({ params }, { request: { caller } }) => {
      requireOwnAccount(params.clientId, caller);
      // A revoked token stays revoked: revoking it again changes nothing and answers 204 again.
      const [row] = await db
        .update(apiTokens)
        .set({ deleted: true })
        .where(and(...visibleTo(caller), eq(apiTokens.id, params.tokenId)))
        .returning({ id: apiTokens.id });
      if (!row) throw notFound(`API token ${params.tokenId}`);
      // This handler's lookup of the token would let it through for up to authCacheMs more: drop it.
      memory.tokens.forget(row.id);
      return { status: 204, body: undefined };
    },
  });
}
