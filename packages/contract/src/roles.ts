/**
 * Roles (the platform's user group ids) and what each may call (the guide's Roles section). Every route carries
 * `metadata.access`, so the handlers and the docs read the same table.
 */

export const ROLE_IDS = {
  administrators: 1,
  users: 2,
  engineers: 5,
  purgeAndPrefetchApiAndWeb: 3009,
  purgeAndPrefetchApi: 3022,
} as const;

export type RoleId = (typeof ROLE_IDS)[keyof typeof ROLE_IDS];

export const ROLE_NAMES: Record<RoleId, string> = {
  1: "Administrators",
  2: "Users",
  5: "Engineers",
  3009: "Purge and Prefetch only (API and Web)",
  3022: "Purge and Prefetch only (API)",
};

/** The name of a role group id, e.g. "Administrators". */
export function roleName(role: number): string {
  return ROLE_NAMES[role as RoleId] ?? `Role ${role}`;
}

/**
 * `read`: GET routes and the reads asked for with a POST (the cost report, statistics); `purge`: purging and
 * prefetching a CDN resource's cache, what the Purge and Prefetch roles are for; `write`: every other route.
 */
export type RouteAccess = "read" | "purge" | "write";

export interface RouteMetadata {
  access: RouteAccess;
}

/** The metadata of a read route, a write route and a purge route: every module's routes share these. */
export const read: RouteMetadata = { access: "read" };
export const write: RouteMetadata = { access: "write" };
export const purge: RouteMetadata = { access: "purge" };

/**
 * May a token of `role` call a route of `access`? Administrators and Engineers may call every route,
 * Users only the read routes, the Purge and Prefetch roles only purge and prefetch.
 */
export function roleMayCall(role: number, access: RouteAccess): boolean {
  if (role === ROLE_IDS.administrators || role === ROLE_IDS.engineers) return true;
  if (role === ROLE_IDS.users) return access === "read";
  if (role === ROLE_IDS.purgeAndPrefetchApiAndWeb || role === ROLE_IDS.purgeAndPrefetchApi) return access === "purge";
  return false;
}

export const ROLE_TABLE_DESCRIPTION =
  "Roles: 1 Administrators and 5 Engineers may call every route; 2 Users may call GET routes and the " +
  "cost report; 3009 and 3022 (Purge and Prefetch only) may purge and prefetch a CDN resource's cache and nothing else (403). Creating " +
  "API tokens, and inviting, changing and deleting users, is for 1 Administrators alone.";
