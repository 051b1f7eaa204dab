/**
 * When a failed call is tried again, and after how long: never in a way that could apply a write
 * twice, with exponential backoff and jitter, and never sooner than the server's `Retry-After`.
 */
import { APIUserAbortError } from "./errors.js";

/** The first backoff delay; each retry doubles it up to `MAX_RETRY_DELAY_MS`. */
export const INITIAL_RETRY_DELAY_MS = 500;
export const MAX_RETRY_DELAY_MS = 8_000;
/** A `Retry-After` longer than this is not waited for: the error goes to the caller instead. */
export const MAX_RETRY_AFTER_MS = 60_000;

/**
 * Whether a response with `status` may be retried. GET, PUT and PATCH are idempotent, and so is a
 * POST sent with an idempotency key (the server answers a repeat with the first answer), so any
 * transient failure may be retried. A POST without a key may have been applied before a 5xx or 409 was
 * sent, so it is retried only when the server says it did not process it: 429 (rate limited) and 503
 * (unavailable, refused before any work).
 */
export function isRetryableStatus(method: string, status: number, idempotencyKey = false): boolean {
  if (method === "POST" && !idempotencyKey) return status === 429 || status === 503;
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** Whether a request that got no response (connection error or timeout) may be retried. */
export function isRetryableWithoutResponse(method: string, idempotencyKey = false): boolean {
  return method !== "POST" || idempotencyKey;
}

/**
 * How long the server asked us to wait, in milliseconds: `retry-after-ms`, or `Retry-After` in
 * seconds or as an HTTP date. Undefined when neither is there or readable.
 */
export function retryAfterMs(headers: Headers | undefined): number | undefined {
  const milliseconds = Number.parseFloat(headers?.get("retry-after-ms") ?? "");
  if (Number.isFinite(milliseconds) && milliseconds >= 0) return milliseconds;
  const value = headers?.get("retry-after")?.trim();
  if (!value) return undefined;
  if (/^\d+(?:\.\d+)?$/.test(value)) return Number.parseFloat(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** Exponential backoff for retry number `retry` (0 for the first): 0.5 s doubling up to 8 s, less up to 25 % jitter. */
export function backoffMs(retry: number): number {
  const delay = Math.min(INITIAL_RETRY_DELAY_MS * 2 ** retry, MAX_RETRY_DELAY_MS);
  return delay * (1 - Math.random() * 0.25);
}

/**
 * The wait before retry number `retry`: the server's `Retry-After` when it gave one, else the
 * backoff. Undefined when the server asked for a wait over `MAX_RETRY_AFTER_MS`, so the caller
 * hears about it instead of being held up.
 */
export function retryDelayMs(retry: number, headers: Headers | undefined): number | undefined {
  const asked = retryAfterMs(headers);
  if (asked === undefined) return backoffMs(retry);
  return asked <= MAX_RETRY_AFTER_MS ? asked : undefined;
}

/** Waits `ms`, or rejects with APIUserAbortError as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new APIUserAbortError({ cause: signal.reason }));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(new APIUserAbortError({ cause: signal?.reason }));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
