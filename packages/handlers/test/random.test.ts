/**
 * The API's random ids, keys and secrets (src/random.ts): drawn from the platform's cryptographic source
 * a pool at a time, each byte handed out once, across the pool's refills.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { newRequestId } from "../src/errors.js";
import { randomBytes, randomHex } from "../src/random.js";

describe("random ids and secrets", () => {
  afterEach(() => vi.restoreAllMocks());

  it("draw from the cryptographic source a pool at a time, not once per id", () => {
    const draws = vi.spyOn(crypto, "getRandomValues");
    const keys = Array.from({ length: 200 }, () => randomHex(12));
    // 200 keys of 6 bytes are 1,200 bytes: one pool of 4 KiB, drawn at most once (or not at all, when enough is left).
    expect(draws.mock.calls.length).toBeLessThanOrEqual(1);
    expect(new Set(keys).size).toBe(200);
    for (const key of keys) expect(key).toMatch(/^[0-9a-f]{12}$/);
  });

  it("hand out every byte once, across refills, as hex of any length and as bytes of their own", () => {
    // 3,000 request ids are 48,000 bytes: a dozen refills of the pool.
    const ids = Array.from({ length: 3000 }, () => newRequestId());
    expect(new Set(ids).size).toBe(3000);
    for (const id of ids) expect(id).toMatch(/^req_[0-9a-f]{32}$/);
    for (let position = 4; position < 36; position++) expect(new Set(ids.map((id) => id[position])).size).toBe(16);
    for (const length of [1, 7, 16, 33]) expect(randomHex(length)).toMatch(new RegExp(`^[0-9a-f]{${length}}$`));
    expect(randomHex(5000)).toMatch(/^[0-9a-f]{5000}$/);

    const first = randomBytes(32);
    const kept = Array.from(first);
    const chunks = Array.from({ length: 1000 }, () => Array.from(randomBytes(32)).join());
    expect(new Set([kept.join(), ...chunks]).size).toBe(1001);
    // A copy of its own: later draws and refills leave it as it was.
    expect(Array.from(first)).toEqual(kept);
    expect(randomBytes(2000)).toHaveLength(2000);
  });
});
