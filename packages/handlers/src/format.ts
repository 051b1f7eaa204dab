/**
 * The timestamp formats of the API's areas, as the contract's time fields describe them: the CDN area's with microseconds,
 * the IAM area's to the second, ISO 8601 UTC everywhere else.
 */

function datePart(date: Date): string {
  return date.toISOString().slice(0, 19).replace("T", " ");
}

/** `YYYY-MM-DD HH:MM:SS.ffffff+00:00` (a Date holds milliseconds; the last three digits are 0). */
export function cdnTime(date: Date): string {
  return `${datePart(date)}.${String(date.getUTCMilliseconds()).padStart(3, "0")}000+00:00`;
}

/** `YYYY-MM-DD HH:MM:SS+00:00`. */
export function iamTime(date: Date): string {
  return `${datePart(date)}+00:00`;
}

/** ISO 8601 UTC, e.g. `2026-03-01T12:00:00.000Z`. */
export function isoTime(date: Date): string {
  return date.toISOString();
}
