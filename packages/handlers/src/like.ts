/**
 * Substring matching in SQL: a pattern for LIKE / ILIKE in which `%`, `_` and a backslash match themselves.
 */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}
