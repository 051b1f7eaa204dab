/**
 * The retry policy on its own: which statuses and methods are retried, how `Retry-After` is read,
 * and the backoff's bounds.
 */
import { describe, expect, it } from "vitest";
import { backoffMs, isRetryableStatus, isRetryableWithoutResponse, retryAfterMs, retryDelayMs, sleep } from "./retries.js";
import { APIUserAbortError } from "./errors.js";

describe("the retry policy", () => {
  it("retries idempotent methods on 408, 409, 429 and 5xx, and POST only on 429 and 503", () => {
    const statuses = [400, 401, 403, 404, 408, 409, 413, 422, 429, 500, 502, 503, 504];
    const retried = (method: string) => statuses.filter((status) => isRetryableStatus(method, status));
    for (const method of ["GET", "PUT", "PATCH"]) expect(retried(method)).toEqual([408, 409, 429, 500, 502, 503, 504]);
    expect(retried("POST")).toEqual([429, 503]);
    expect(["GET", "PUT", "PATCH", "POST"].filter((method) => isRetryableWithoutResponse(method))).toEqual(["GET", "PUT", "PATCH"]);
  });

  it("retries a POST sent with an idempotency key as an idempotent method", () => {
    const statuses = [400, 401, 403, 404, 408, 409, 413, 422, 429, 500, 502, 503, 504];
    expect(statuses.filter((status) => isRetryableStatus("POST", status, true))).toEqual([408, 409, 429, 500, 502, 503, 504]);
    expect(isRetryableWithoutResponse("POST", true)).toBe(true);
  });

  it("reads Retry-After in seconds, as an HTTP date, and retry-after-ms", () => {
    expect(retryAfterMs(new Headers({ "retry-after": "2" }))).toBe(2000);
    expect(retryAfterMs(new Headers({ "retry-after": "0.5" }))).toBe(500);
    expect(retryAfterMs(new Headers({ "retry-after-ms": "150", "retry-after": "9" }))).toBe(150);
    const inTenSeconds = retryAfterMs(new Headers({ "retry-after": new Date(Date.now() + 10_000).toUTCString() }))!;
    expect(inTenSeconds).toBeGreaterThan(8_000);
    expect(inTenSeconds).toBeLessThanOrEqual(10_000);
    expect(retryAfterMs(new Headers({ "retry-after": "Mon, 01 Jan 2001 00:00:00 GMT" }))).toBe(0);
    expect(retryAfterMs(new Headers({ "retry-after": "soon" }))).toBeUndefined();
    expect(retryAfterMs(new Headers())).toBeUndefined();
    expect(retryAfterMs(undefined)).toBeUndefined();
  });

  it("backs off from 0.5 s, doubling up to 8 s, with up to 25 % jitter", () => {
    const bounds = [500, 1000, 2000, 4000, 8000, 8000, 8000];
    bounds.forEach((bound, retry) => {
      for (let sample = 0; sample < 50; sample++) {
        const delay = backoffMs(retry);
        expect(delay).toBeLessThanOrEqual(bound);
        expect(delay).toBeGreaterThanOrEqual(bound * 0.75);
      }
    });
  });

  it("waits what the server asks up to a minute, and gives up beyond", () => {
    expect(retryDelayMs(0, new Headers({ "retry-after": "3" }))).toBe(3000);
    expect(retryDelayMs(0, new Headers({ "retry-after": "60" }))).toBe(60_000);
    expect(retryDelayMs(0, new Headers({ "retry-after": "61" }))).toBeUndefined();
    expect(retryDelayMs(3, undefined)).toBeGreaterThanOrEqual(3000);
  });

  it("sleeps until aborted", async () => {
    const controller = new AbortController();
    const started = performance.now();
    const sleeping = sleep(10_000, controller.signal);
    setTimeout(() => controller.abort(), 20);
    await expect(sleeping).rejects.toBeInstanceOf(APIUserAbortError);
    expect(performance.now() - started).toBeLessThan(1000);
    await expect(sleep(10, AbortSignal.abort())).rejects.toBeInstanceOf(APIUserAbortError);
    await expect(sleep(10)).resolves.toBeUndefined();
  });
});
