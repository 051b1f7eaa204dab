/**
 * The per-token request rate (the guide's Rate limits section): a token bucket kept in the database, refilled at
 * `rate` requests a second up to `burst`, so every handler instance sharing the database enforces
 * one budget. An instance takes requests from the bucket a lease at a time (one atomic upsert hands
 * out up to a tenth of a second's worth, at most 64) and spends the lease locally: a busy token costs
 * one database write per lease instead of one per request. Requests are taken from the bucket before
 * they are served, so instances together never exceed the budget; a lease left unspent for a tenth of
 * a second lapses (at worst, one lease per instance goes unused).
 */
import { schema, sql, type Database } from "@cloudplane/db";
import { ApiError } from "./errors.js";
import { preparedOnce } from "./prepared.js";

const { rateLimitBuckets } = schema;

export interface RateLimit {
  /** Requests a second a token may make on average. */
  rate: number;
  /** Requests a token may make at once after being idle. */
  burst: number;
}

export const DEFAULT_RATE_LIMIT: RateLimit = { rate: 50, burst: 100 };

/** How long a lease lasts, and so how much of the rate one take hands out. */
const LEASE_MS = 100;
const MAX_LEASE = 64;
/** Tokens whose lease is kept at once; past this the oldest is dropped (it lapses early). */
const LEASE_ENTRIES = 10_000;

/** Requests to take at once: a lease's worth of the rate, at least 1, at most `MAX_LEASE` and the burst. */
export function leaseSize(limit: RateLimit): number {
  return Math.max(1, Math.min(MAX_LEASE, Math.floor(limit.burst), Math.floor((limit.rate * LEASE_MS) / 1000)));
}

/** The bucket upsert (up to `want` requests), with the limit as placeholders: prepared once per database. */
function prepareTake(db: Database) {
  const rate = sql`${sql.placeholder("rate")}::double precision`;
  const burst = sql`${sql.placeholder("burst")}::double precision`;
  const want = sql`${sql.placeholder("want")}::double precision`;
  const refilled = sql`least(${burst}, ${rateLimitBuckets.tokens} + extract(epoch from clock_timestamp() - ${rateLimitBuckets.updated})::double precision * ${rate})`;
  // Compared as double precision before the cast: a bucket may hold more than an integer can.
  const granted = sql`(case when ${refilled} >= 1 then least(${want}, floor(${refilled}))::integer else 0 end)`;
  const firstGrant = sql`least(${want}, floor(${burst}))::integer`;
  return db
    .insert(rateLimitBuckets)
    .values({ tokenId: sql.placeholder("tokenId"), tokens: sql`${burst} - ${firstGrant}`, updated: sql`clock_timestamp()`, granted: firstGrant })
    .onConflictDoUpdate({
      target: rateLimitBuckets.tokenId,
      set: { tokens: sql`${refilled} - ${granted}`, granted, updated: sql`clock_timestamp()` },
    })
    .returning({ tokens: rateLimitBuckets.tokens, granted: rateLimitBuckets.granted })
    .prepare("take_requests");
}

interface Lease {
  left: number;
  until: number;
}

/** The leases an instance holds, by token id: one per instance, shared by its handlers. */
export type Leases = Map<number, Lease>;

/** The limiter of one handler: takes one request for a token, or throws 429 with how long to wait. */
export function createRateLimiter(db: Database, limit: RateLimit, leases: Leases): (tokenId: number) => Promise<void> {
  const take = preparedOnce(() => prepareTake(db));
  const want = leaseSize(limit);
  return async (tokenId) => {
    const now = Date.now();
    const lease = leases.get(tokenId);
    if (lease && lease.left > 0 && lease.until > now) {
      lease.left--;
      return;
    }
    const [bucket] = await take().execute({ tokenId, want, rate: limit.rate, burst: limit.burst });
    if (bucket && bucket.granted > 0) {
      if (bucket.granted > 1) {
        // Concurrent requests may each have taken a lease: what is left of the others is kept too.
        const current = leases.get(tokenId);
        const kept = current && current.until > Date.now() ? current.left : 0;
        leases.delete(tokenId);
        if (leases.size >= LEASE_ENTRIES) leases.delete(leases.keys().next().value!);
        leases.set(tokenId, { left: kept + bucket.granted - 1, until: Date.now() + LEASE_MS });
      }
      return;
    }
    const wait = Math.max(1, Math.ceil((1 - (bucket?.tokens ?? 0)) / limit.rate));
    throw new ApiError(
      "rate_limited",
      `Too many requests for this API token: the limit is ${limit.rate} a second (bursts of ${limit.burst}). Retry after ${wait} s.`,
      undefined,
      { "retry-after": String(wait) },
    );
  };
}
