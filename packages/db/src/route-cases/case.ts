/**
 * What a route case is, and what each area's table of them (route-cases/<area>.ts) is built from.
 */
import type { Area, PrimaryRouteId, RoleId } from "@cloudplane/contract";
import type { DemoAccountId } from "../demo-fixture.js";

/** The answer of the route that made the object a case uses (see `makes`). */
export interface MadeObject {
  id: number | string;
  [field: string]: unknown;
}

/** How to call one route on the given account's objects. */
export interface RouteCaseRequest {
  /**
   * The path (with any query) on the given account's objects. For a case that `makes` its object,
   * `made` is the answer that made it; without one, the path names an id no object has.
   */
  path: (account: DemoAccountId, made?: MadeObject) => string;
  /**
   * Whether the path names objects (or the account) of its own, so that another account's path must
   * not reach them: 404, or 403 where the path names the account.
   */
  ownsObjects: boolean;
  /**
   * A fresh valid body for a call on the given account's objects, for routes that take one: a JSON value,
   * or, for a route that takes raw bytes (`bodyTypeOf`), a Uint8Array, sent as it is with
   * `Content-Type: application/octet-stream`.
   */
  body?: (account: DemoAccountId) => unknown;
  /**
   * For a route that uses its object up (a delete): the route whose case makes a fresh object first,
   * as the account's administrator, before each call; its answer is given to `path`.
   */
  makes?: PrimaryRouteId;
  /**
   * What a role's call answers where the route's access does not say it all (its success status, or
   * 403 or 404): token creation is for Administrators alone, and other roles see only their own tokens.
   */
  roleStatus?: Partial<Record<RoleId, number>>;
}

/** A case for every route but the aliases (which take their primary's): leaving one out fails to compile. */
export type RouteCaseTable = { readonly [Id in PrimaryRouteId]: RouteCaseRequest };

/** Cases of some routes of area `A`: each area's file holds one such table. */
export type AreaRouteCases<A extends Area> = Partial<Pick<RouteCaseTable, Extract<PrimaryRouteId, `${A}.${string}`>>>;

/** A name no earlier run used: the requests may be sent many times to one database. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

/** The first of `items` that matches, or an error naming what the demo fixture lacks. */
export function first<T>(items: T[], what: string, matches: (item: T) => boolean): T {
  const found = items.find(matches);
  if (!found) throw new Error(`The demo fixture has no ${what}; the route cases need one.`);
  return found;
}
