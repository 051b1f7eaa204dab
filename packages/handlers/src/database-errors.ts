/**
 * Tells a database that cannot be reached (answer 503, retry later) and a reference that changed under a
 * write (409) from every other failure. Drizzle wraps driver errors, so the whole `cause` chain is looked at.
 */

/** Driver and socket error codes of a connection that failed or went away. */
const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "CONNECT_TIMEOUT",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
]);

/** SQLSTATEs of a server that is going away or refusing work: 08xxx connection exceptions, shutdowns, too many connections. */
function isUnavailableSqlState(code: string): boolean {
  return code.startsWith("08") || code === "57P01" || code === "57P02" || code === "57P03" || code === "53300";
}

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if (typeof current !== "object") return false;
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && (CONNECTION_CODES.has(code) || isUnavailableSqlState(code))) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** The SQLSTATE of a database error (e.g. 23505 unique violation), looking through wrappers. */
export function sqlState(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if (typeof current !== "object") return undefined;
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * A foreign key violation (23503): a row the write refers to was deleted under it, or a row it deletes
 * is still referred to. Writes lock what they refer to, so that a race answers as one order or the other
 * would; where one does not, this is the client's 409, never a 500 (the error handler maps it, once).
 */
export function isForeignKeyViolation(error: unknown): boolean {
  return sqlState(error) === "23503";
}
