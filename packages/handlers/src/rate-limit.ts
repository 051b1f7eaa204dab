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

/** Takes one request from the token's bucket, or throws 429 with how long to wait. */
export async function takeRequest(db: Database, tokenId: number, limit: RateLimit): Promise<void> {
  const burst = sql`${limit.burst}::double precision`;
  const refilled = sql`least(${burst}, ${rateLimitBuckets.tokens} + extract(epoch from clock_timestamp() - ${rateLimitBuckets.updated})::double precision * ${limit.rate}::double precision)`;
  const [bucket] = await db
    .insert(rateLimitBuckets)
    .values({ tokenId, tokens: limit.burst - 1, updated: sql`clock_timestamp()`, allowed: true })
    .onConflictDoUpdate({
      target: rateLimitBuckets.tokenId,
      set: {
        tokens: sql`case when ${refilled} >= 1 then ${refilled} - 1 else ${refilled} end`,
        allowed: sql`${refilled} >= 1`,
        updated: sql`clock_timestamp()`,
      },
    })
    .returning({ tokens: rateLimitBuckets.tokens, allowed: rateLimitBuckets.allowed });
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
