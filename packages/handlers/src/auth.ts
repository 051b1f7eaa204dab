/**
 * Authentication (decisions.md §2): `Authorization: apikey <token>`, looked up by its SHA-256 hash;
 * the token's user decides the account and the role.
 */
import { roleName } from "@cloudplane/contract";
import { and, eq, hashToken, isNull, lt, or, schema, sql } from "@cloudplane/db";
import { ApiError } from "./errors.js";
import type { ApiRequest, RouteDeps } from "./handler.js";

const { apiTokens, users } = schema;

/** Who is calling: the account every query is scoped to, and the role that decides what may be called. */
export interface Caller {
  accountId: number;
  userId: number;
  roleId: number;
  roleName: string;
  tokenId: number;
}

const SCHEME = /^apikey +(\S+)$/i;
const LAST_USAGE_STEP_MS = 60_000;

export async function authenticate({ db }: RouteDeps, request: ApiRequest): Promise<void> {
  const header = request.headers.get("authorization");
  if (header === null || header.trim() === "")
    throw new ApiError("not_authenticated", "Authentication credentials were not provided.");
  const match = SCHEME.exec(header.trim());
  if (!match)
    throw new ApiError("token_not_valid", "The Authorization header must be `apikey <API token>`.");
  const [row] = await db
    .select({
      id: apiTokens.id,
      accountId: apiTokens.accountId,
      userId: apiTokens.userId,
      expDate: apiTokens.expDate,
      lastUsage: apiTokens.lastUsage,
      deleted: apiTokens.deleted,
      roleId: users.roleId,
      userDeleted: users.deleted,
    })
    .from(apiTokens)
    .innerJoin(users, and(eq(users.accountId, apiTokens.accountId), eq(users.id, apiTokens.userId)))
    .where(eq(apiTokens.tokenHash, await hashToken(match[1]!)))
    .limit(1);
  if (!row) throw new ApiError("token_not_valid", "The API token is not valid.");
  if (row.deleted || row.userDeleted) throw new ApiError("token_not_valid", "The API token was revoked.");
  const now = Date.now();
  if (row.expDate && row.expDate.getTime() <= now) throw new ApiError("token_not_valid", "The API token has expired.");
  if (!row.lastUsage || now - row.lastUsage.getTime() >= LAST_USAGE_STEP_MS) {
    // At most one write a minute per token; the condition keeps concurrent requests from writing twice.
    await db
      .update(apiTokens)
      .set({ lastUsage: sql`now()` })
      .where(
        and(
          eq(apiTokens.id, row.id),
          or(isNull(apiTokens.lastUsage), lt(apiTokens.lastUsage, sql`now() - interval '1 minute'`)),
        ),
      );
  }
  request.caller = {
    accountId: row.accountId,
    userId: row.userId,
    roleId: row.roleId,
    roleName: roleName(row.roleId),
    tokenId: row.id,
  };
}
