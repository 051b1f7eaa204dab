/**
 * Random bytes for the API's ids, keys and secrets, from the platform's cryptographic source, drawn
 * 4 KiB at a time and each handed out once. A draw (`crypto.getRandomValues`) costs about the same
 * whatever its size (~2 µs on Node 22, and more under load), and a request may want several (a new
 * stream's key, its request id); Node's own `randomUUID` keeps such a cache the same way. The pool is
 * first filled in a request, not at start-up: Workers refuse randomness outside one.
 */

const POOL_BYTES = 4096;
const pool = new Uint8Array(POOL_BYTES);
let next = POOL_BYTES;

/** The most bytes taken from the pool at once; more are drawn on their own. */
const MAX_POOLED = POOL_BYTES / 4;

/** Where `count` (at most `MAX_POOLED`) fresh bytes begin in the pool, drawing a new pool when too few are left. */
function take(count: number): number {
  if (next + count > POOL_BYTES) {
    crypto.getRandomValues(pool);
    next = 0;
  }
  const at = next;
  next += count;
  return at;
}

/** `count` random bytes, a copy of its own. */
export function randomBytes(count: number): Uint8Array<ArrayBuffer> {
  if (count > MAX_POOLED) return crypto.getRandomValues(new Uint8Array(count));
  const at = take(count);
  return pool.slice(at, at + count);
}

const HEX_OF_BYTE = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));

/** `length` hex digits of randomness (4 bits each), read from the pool in place. */
export function randomHex(length: number): string {
  const count = Math.ceil(length / 2);
  const [bytes, start] = count > MAX_POOLED ? [randomBytes(count), 0] : [pool, take(count)];
  let hex = "";
  for (let at = start; at < start + count; at++) hex += HEX_OF_BYTE[bytes[at]!]!;
  return length % 2 === 0 ? hex : hex.slice(0, length);
}
