/**
 * Idempotency keys: a POST sent with an `Idempotency-Key` header is done once. Its answer is stored
 * (encrypted) for 24 hours under the key, per user; the same key with the same request (method, path,
 * query and body) answers the stored answer again, marked `Idempotent-Replayed: true`, without doing the
 * work again, so a client may retry a create after a dropped connection without making two objects.
 *
 * - The same key with another request in those 24 hours: 422 `unprocessable`.
 * - The same key while its first request is still being served: 409 `conflict`, with `Retry-After`.
 * - An answer of 429, or of 500 and above, is not kept: the request did no work, or its transaction
 *   rolled back, so the key is free for the retry. A first request that never finished (its server
 *   stopped while serving it) frees its key after 10 minutes.
 * - PUT, PATCH, DELETE and GET are idempotent by themselves; the header is ignored on them.
 *
 * The key is claimed in the request middleware, after authentication and the rate limit (a replay counts
 * as a request), and settled by the last response handler, which sees the final answer.
 */
import { IDEMPOTENCY, isBytes } from "@cloudplane/contract";
import { and, decryptSecret, encryptSecret, eq, lt, schema, sql, type Database } from "@cloudplane/db";
import { TsRestResponse, type TsRestRequest } from "@ts-rest/serverless";
import { ApiError, conflict, invalid } from "./errors.js";
import type { PlatformContext, RequestUrl } from "./front.js";
import type { ApiRequest } from "./types.js";

/** The header a client sends its key in. */
export const IDEMPOTENCY_KEY_HEADER = IDEMPOTENCY.header.toLowerCase();
/** The header a replayed answer carries. */
export const REPLAYED_HEADER = IDEMPOTENCY.replayedHeader.toLowerCase();
const KEY = new RegExp(IDEMPOTENCY.pattern);
const KEPT = sql.raw(`interval '${IDEMPOTENCY.keptHours} hours'`);
/** How long a first request that never finished holds its key. */
const ABANDONED = sql.raw(`interval '${IDEMPOTENCY.abandonedMinutes} minutes'`);

const { idempotencyKeys } = schema;

interface Claim {
  accountId: number;
  userId: number;
  key: string;
}

interface StoredAnswer {
  status: number;
  type: string | null;
  body: string | null;
}

const CLAIM = Symbol("cloudplane.idempotency");
type ClaimingRequest = TsRestRequest & { [CLAIM]?: Claim };

async function sha256(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** What makes two requests the same request: method, path, query and body (as parsed, or its bytes). */
async function fingerprintOf(request: TsRestRequest, url: RequestUrl): Promise<string> {
  const content: unknown = request.content;
  const body = isBytes(content) ? `bytes:${await sha256(new Uint8Array(content))}` : `json:${JSON.stringify(content) ?? ""}`;
  return sha256(new TextEncoder().encode(JSON.stringify([request.method, url.pathname, url.search, body])));
}

export type Idempotency = ReturnType<typeof createIdempotency>;

export function createIdempotency(db: Database, secretsKey: CryptoKey) {
  const where = (claim: Claim) =>
    and(eq(idempotencyKeys.accountId, claim.accountId), eq(idempotencyKeys.userId, claim.userId), eq(idempotencyKeys.key, claim.key));

  /** Claims the request's key, or answers from it: the stored answer, 409 while it is being served, 422 for another request. */
  async function claim(request: ApiRequest, context: PlatformContext): Promise<TsRestResponse | undefined> {
    if (request.method !== "POST") return undefined;
    const key = request.headers.get(IDEMPOTENCY_KEY_HEADER);
    if (key === null) return undefined;
    if (!KEY.test(key)) throw invalid(`header.${IDEMPOTENCY.header}`, "Must be 1 to 255 visible ASCII characters, e.g. a UUID.");
    const owner: Claim = { accountId: request.caller.accountId, userId: request.caller.userId, key };
    const fingerprint = await fingerprintOf(request, context.url);
    // The user's expired keys go first, so the table holds a day of keys.
    await db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.accountId, owner.accountId), eq(idempotencyKeys.userId, owner.userId), lt(idempotencyKeys.created, sql`now() - ${KEPT}`)));
    const claimed = await db
      .insert(idempotencyKeys)
      .values({ ...owner, fingerprint })
      .onConflictDoUpdate({
        target: [idempotencyKeys.accountId, idempotencyKeys.userId, idempotencyKeys.key],
        set: { fingerprint, answer: null, created: sql`now()` },
        setWhere: sql`${idempotencyKeys.created} < now() - ${KEPT} or (${idempotencyKeys.answer} is null and ${idempotencyKeys.created} < now() - ${ABANDONED})`,
      })
      .returning({ key: idempotencyKeys.key });
    if (claimed.length > 0) {
      (request as ClaimingRequest)[CLAIM] = owner;
      return undefined;
    }
    const [held] = await db.select({ fingerprint: idempotencyKeys.fingerprint, answer: idempotencyKeys.answer }).from(idempotencyKeys).where(where(owner));
    if (held !== undefined && held.fingerprint !== fingerprint)
      throw new ApiError(
        "unprocessable",
        "This Idempotency-Key was sent with another request (method, path, query or body) in the last 24 hours: send a new key with a new request.",
      );
    if (held?.answer == null) {
      const busy = conflict("A request with this Idempotency-Key is still being served: retry it shortly, with the same key.");
      throw new ApiError(busy.code, busy.message, undefined, { "retry-after": "1" });
    }
    const stored = JSON.parse(await decryptSecret(secretsKey, held.answer)) as StoredAnswer;
    const headers = new Headers({ [REPLAYED_HEADER]: "true" });
    if (stored.type !== null) headers.set("content-type", stored.type);
    // A 204's answer has no body, and a Response of that status may not be given one.
    return new TsRestResponse(stored.body, { status: stored.status, headers });
  }

  /** Keeps the answer of a request that claimed its key, or frees the key when the request did nothing. */
  async function settle(response: Response, request: TsRestRequest): Promise<void> {
    const owner = (request as ClaimingRequest)[CLAIM];
    if (owner === undefined) return;
    if (response.status === 429 || response.status >= 500) {
      await db.delete(idempotencyKeys).where(and(where(owner), sql`${idempotencyKeys.answer} is null`));
      return;
    }
    const raw: unknown = response instanceof TsRestResponse ? response.rawBody : undefined;
    const body = typeof raw === "string" ? raw : raw == null ? null : await response.clone().text();
    const stored: StoredAnswer = { status: response.status, type: response.headers.get("content-type"), body };
    await db.update(idempotencyKeys).set({ answer: await encryptSecret(secretsKey, JSON.stringify(stored)) }).where(where(owner));
  }

  return { claim, settle };
}
