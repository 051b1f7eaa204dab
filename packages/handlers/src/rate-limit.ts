/**
 * The per-token request rate (decisions.md §5): a token bucket kept in the database, refilled at
 * `rate` requests a second up to `burst`, so every handler instance sharing the database enforces
 * one budget. One atomic upsert per request; the bucket row serializes a token's concurrent requests.
 */
import { schema, sql, type Database } from "@cloudplane/db";
import { ApiError } from "./errors.js";

const { rateLimitBuckets } = schema;

export interface RateLimit {
  /** Requests a second a token may make on average. */
  rate: number;
  /** Requests a token may make at once after being idle. */
  burst: number;
}

export const DEFAULT_RATE_LIMIT: RateLimit = { rate: 50, burst: 100 };

/** The bucket upsert, the rate and burst as placeholders: prepared once per database. */
function prepareTake(db: Database) {
  const rate = sql`${sql.placeholder("rate")}::double precision`;
  const burst = sql`${sql.placeholder("burst")}::double precision`;
  const refilled = sql`least(${burst}, ${rateLimitBuckets.tokens} + extract(epoch from clock_timestamp() - ${rateLimitBuckets.updated})::double precision * ${rate})`;
  return db
    .insert(rateLimitBuckets)
    .values({ tokenId: sql.placeholder("tokenId"), tokens: sql.placeholder("initialTokens"), updated: sql`clock_timestamp()`, allowed: true })
    .onConflictDoUpdate({
      target: rateLimitBuckets.tokenId,
      set: {
        tokens: sql`case when ${refilled} >= 1 then ${refilled} - 1 else ${refilled} end`,
        allowed: sql`${refilled} >= 1`,
        updated: sql`clock_timestamp()`,
      },
    })
    .returning({ tokens: rateLimitBuckets.tokens, allowed: rateLimitBuckets.allowed })
    .prepare("take_request");
}

/** The upsert of each database, made on its first request (`createHandler` passes its database to every call). */
const takes = new WeakMap<Database, ReturnType<typeof prepareTake>>();

/** Takes one request from the token's bucket, or throws 429 with how long to wait. */
export async function takeRequest(db: Database, tokenId: number, limit: RateLimit): Promise<void> {
  let take = takes.get(db);
  if (!take) takes.set(db, (take = prepareTake(db)));
  const [bucket] = await take.execute({ tokenId, initialTokens: limit.burst - 1, rate: limit.rate, burst: limit.burst });
  if (bucket && !bucket.allowed) {
    const wait = Math.max(1, Math.ceil((1 - bucket.tokens) / limit.rate));
    throw new ApiError(
      "rate_limited",
      `Too many requests for this API token: the limit is ${limit.rate} a second (bursts of ${limit.burst}). Retry after ${wait} s.`,
      undefined,
      { "retry-after": String(wait) },
    );
  }
}
