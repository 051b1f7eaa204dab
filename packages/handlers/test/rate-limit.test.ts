/**
 * The per-token rate limit (the guide's Rate limits): 429 with Retry-After once the burst is spent, refilled
 * over time, per token, and one budget across handler instances that share a database.
 */
import { createDatabase, demoToken, sql } from "@cloudplane/db";
import { selectRows } from "@cloudplane/db/testing";
import { describe, expect, it } from "vitest";
import { leaseSize } from "../src/rate-limit.js";
import { engines, expectEnvelope, useApi, type Handler } from "./harness.js";

describe.each(engines())("rate limit on %s", (engine) => {
  const api = useApi(engine);
  const get = (handler: Handler, token: string) => api.call("GET", "/cdn/clients/me/features", { handler, authorization: `apikey ${token}` });

  it("answers 429 with Retry-After once a token's burst is spent, and refills", async () => {
    const handler = api.createHandler({ rateLimit: { rate: 0.5, burst: 5 } });
    const token = demoToken(1, "role-5-active").plaintext;
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await get(handler, token)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    // The refill (one request every 2 s) cannot have added a whole request yet.
    const refused = await get(handler, token);
    expectEnvelope(refused, 429, "rate_limited");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    // Another token of the same account has its own budget.
    expect((await get(handler, demoToken(1, "role-1-ci").plaintext)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 2100));
    expect((await get(handler, token)).status).toBe(200);
  });

  it("holds one budget across two handler instances that share the database", async () => {
    // On PostgreSQL the second instance has connections of its own, as a second serverless instance would.
    const second = api.database.url ? await createDatabase({ url: api.database.url, max: 4, migrate: false }) : undefined;
    const limit = { rate: 1, burst: 20 };
    const a = api.createHandler({ rateLimit: limit });
    const b = api.createHandler({ db: second?.db ?? api.database.db, rateLimit: limit });
    const token = demoToken(2, "role-1-active").plaintext;
    const started = performance.now();
    const replies = await Promise.all(Array.from({ length: 60 }, (_, i) => get(i % 2 ? a : b, token)));
    const seconds = (performance.now() - started) / 1000;
    await second?.close();
    const allowed = replies.filter((reply) => reply.status === 200).length;
    const refused = replies.filter((reply) => reply.status === 429).length;
    const budget = limit.burst + Math.ceil(seconds * limit.rate);
    console.log(`rate limit (${engine}): 60 requests over two instances in ${seconds.toFixed(2)} s: ${allowed} allowed, ${refused} refused, budget ${budget}`);
    expect(allowed + refused).toBe(60);
    expect(allowed).toBeGreaterThanOrEqual(limit.burst);
    expect(allowed).toBeLessThanOrEqual(budget);
  });

  it("hands an instance a lease of requests with one write, never more than the bucket holds", async () => {
    // 400 a second: a tenth of a second's worth is 40 requests a take; the burst of 30 caps the first one.
    const limit = { rate: 400, burst: 30 };
    expect(leaseSize(limit)).toBe(30);
    const second = api.database.url ? await createDatabase({ url: api.database.url, max: 4, migrate: false }) : undefined;
    const a = api.createHandler({ rateLimit: limit });
    const b = api.createHandler({ db: second?.db ?? api.database.db, rateLimit: limit });
    const token = demoToken(2, "role-2-active");
    expect((await get(a, token.plaintext)).status).toBe(200);
    // The first take handed the whole burst to instance a at once: the bucket is empty, one write made.
    const [bucket] = await selectRows<{ tokens: number; granted: number }>(api.database.db, sql`select tokens, granted from rate_limit_buckets where token_id = ${token.id}`);
    expect(bucket).toMatchObject({ granted: 30 });
    expect(bucket!.tokens).toBeLessThan(1);
    const started = performance.now();
    const replies = await Promise.all(Array.from({ length: 120 }, (_, i) => get(i % 2 ? a : b, token.plaintext)));
    const seconds = (performance.now() - started) / 1000;
    await second?.close();
    const allowed = replies.filter((reply) => reply.status === 200).length + 1;
    const budget = limit.burst + Math.ceil(seconds * limit.rate);
    console.log(`rate limit leases (${engine}): 121 requests over two instances in ${seconds.toFixed(2)} s: ${allowed} allowed, budget ${budget}`);
    expect(replies.every((reply) => reply.status === 200 || reply.status === 429)).toBe(true);
    expect(allowed).toBeLessThanOrEqual(budget);
  });

  it("sizes leases as a tenth of a second of the rate, from 1 to 64 and at most the burst", () => {
    expect(leaseSize({ rate: 50, burst: 100 })).toBe(5);
    expect(leaseSize({ rate: 0.5, burst: 5 })).toBe(1);
    expect(leaseSize({ rate: 1e9, burst: 1e9 })).toBe(64);
    expect(leaseSize({ rate: 1000, burst: 10 })).toBe(10);
  });
});
