/** The rows of `db.execute`, on either driver (postgres.js answers an array, PGlite `{ rows }`). */
export function rowsOf<R = Record<string, unknown>>(result: unknown): R[] {
  return (Array.isArray(result) ? result : (result as { rows: R[] }).rows) as R[];
}
