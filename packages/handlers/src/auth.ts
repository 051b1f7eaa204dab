/**
 * Authentication (the guide's Authentication section): `Authorization: apikey <token>`, looked up by its SHA-256 hash;
 * the token's user decides the account and the role.
 */
import { roleName } from "@cloudplane/contract";
import { and, eq, hashToken, isNull, lt, or, schema, sql, type Database } from "@cloudplane/db";
import { ApiError } from "./errors.js";
import { preparedOnce } from "./prepared.js";

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
/** Tokens whose lookup is kept at once; past this the oldest lookup is dropped. */
const CACHE_ENTRIES = 10_000;
export const DEFAULT_AUTH_CACHE_MS = 1000;

interface CachedLookup {
  caller: Caller;
  /** When the token expires (ms since the epoch), or null. */
  expires: number | null;
  /** Until when the lookup may be reused. */
  until: number;
}

/**
 * Token lookups kept for reuse, by token (the token itself is the key: the cache lives only in this
 * process's memory, as the request header does). One per handler by default; several handlers may
 * share one (`memory`), so a busy token costs one database round trip a second instead of one a request.
 */
export class TokenCache {
  readonly #lookups = new Map<string, CachedLookup>();

  constructor(readonly ms = DEFAULT_AUTH_CACHE_MS) {}

  /** The token's caller while its lookup may be reused; throws 401 once its `exp_date` has passed. */
  get(token: string, now: number): Caller | undefined {
    const cached = this.#lookups.get(token);
    if (!cached) return undefined;
    if (cached.until <= now) {
      this.#lookups.delete(token);
      return undefined;
    }
    if (cached.expires !== null && cached.expires <= now) throw expired();
    return cached.caller;
  }

  /** Drops every lookup of the token `tokenId`, so that its revocation is seen by the next request. */
  forget(tokenId: number): void {
    for (const [token, cached] of this.#lookups) if (cached.caller.tokenId === tokenId) this.#lookups.delete(token);
  }

  /** Drops every lookup of the user `userId`'s tokens, so that the user's deletion is seen by the next request. */
  forgetUser(userId: number): void {
    for (const [token, cached] of this.#lookups) if (cached.caller.userId === userId) this.#lookups.delete(token);
  }

  set(token: string, caller: Caller, expires: number | null, now: number): void {
    if (this.ms <= 0) return;
    if (this.#lookups.size >= CACHE_ENTRIES) this.#lookups.delete(this.#lookups.keys().next().value!);
    this.#lookups.set(token, { caller, expires, until: now + this.ms });
  }
}

function expired(): ApiError {
  return new ApiError("token_not_valid", "The API token has expired.");
}

/** The token lookup and the `last_usage` write, prepared on first use. */
function tokenStatements(db: Database) {
  const lookup = db
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
    .where(eq(apiTokens.tokenHash, sql.placeholder("hash")))
    .limit(1)
    .prepare("authenticate");
  const touch = db
    .update(apiTokens)
    .set({ lastUsage: sql`now()` })
    // At most one write a minute per token; the condition keeps concurrent requests from writing twice.
    .where(and(eq(apiTokens.id, sql.placeholder("id")), or(isNull(apiTokens.lastUsage), lt(apiTokens.lastUsage, sql`now() - interval '1 minute'`))))
    .prepare("touch_token");
  return { lookup, touch };
}

/** Authentication for one handler: `Authorization` → the caller, or 401. */
export function createAuthenticator(db: Database, cache: TokenCache): (header: string | null) => Promise<Caller> {
  const statements = preparedOnce(() => tokenStatements(db));
  return async (header) => {
    if (header === null || header.trim() === "")
      throw new ApiError("not_authenticated", "Authentication credentials were not provided.");
    const match = SCHEME.exec(header.trim());
    if (!match) throw new ApiError("token_not_valid", "The Authorization header must be `apikey <API token>`.");
    const token = match[1]!;
    const now = Date.now();
    const cached = cache.get(token, now);
    if (cached) return cached;
    const [row] = await statements().lookup.execute({ hash: await hashToken(token) });
    if (!row) throw new ApiError("token_not_valid", "The API token is not valid.");
    if (row.deleted || row.userDeleted) throw new ApiError("token_not_valid", "The API token was revoked.");
    if (row.expDate && row.expDate.getTime() <= now) throw expired();
    if (!row.lastUsage || now - row.lastUsage.getTime() >= LAST_USAGE_STEP_MS) await statements().touch.execute({ id: row.id });
    const caller: Caller = {
      accountId: row.accountId,
      userId: row.userId,
      roleId: row.roleId,
      roleName: roleName(row.roleId),
      tokenId: row.id,
    };
    cache.set(token, caller, row.expDate?.getTime() ?? null, now);
    return caller;
  };
}
