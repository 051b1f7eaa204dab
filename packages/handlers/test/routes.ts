/**
 * One valid request for every route of the contract, on account 1's demo objects, and the same
 * request aimed at account 2's objects: the table the auth matrix, isolation, fuzz and soak tests
 * walk. It is the route-case table the conformance suite walks too (`@cloudplane/db/testing`), keyed
 * by route id there, so a route without a case fails to compile.
 */
import type { RouteId } from "@cloudplane/contract";
import { demoFixture } from "@cloudplane/db";
import { routeCasePath, routeCases as sharedRouteCases, type RouteCase as SharedRouteCase } from "@cloudplane/db/testing";
import type { TestApi } from "./harness.js";
import type { AppRoute } from "@ts-rest/core";

export interface RouteCase {
  /** `area.route`: the route's id in ROUTES. */
  name: RouteId;
  route: AppRoute;
  /**
   * The path on account 1's objects. For a route that uses its object up (`madeFirst`), it names an id
   * no object has: `pathOn` makes one first.
   */
  path: string;
  /** The path on account 2's objects: 404 for account 1 (403 where the path names an account); null if the route takes no id. */
  otherPath: string | null;
  /** The path on `account`'s objects made anew: a name that must be unique (a bucket's, in its path) is a new one each time. */
  newPath: (account: 1 | 2) => string;
  /** What a role's call answers where the route's access does not say it all. */
  roleStatus?: Partial<Record<number, number>>;
  /** Whether the route uses its object up (a delete), so that each successful call needs one made first. */
  madeFirst: boolean;
  /** The path on `account`'s objects, with a fresh object made first (as that account's administrator) when `madeFirst`. */
  pathOn: (api: TestApi, account: 1 | 2) => Promise<string>;
  /** A fresh valid body for each call on the given account's objects (names that must be unique are made unique). */
  body?: (account: 1 | 2) => unknown;
}

/** Every route of the contract, in ROUTES' order, with its case on the demo data the test databases hold. */
export const routeCases: RouteCase[] = sharedRouteCases(demoFixture).map((routeCase) => ({
  name: routeCase.id,
  route: routeCase.route,
  path: routeCase.path(1),
  otherPath: routeCase.ownsObjects ? routeCase.path(2) : null,
  newPath: (account) => routeCase.path(routeCase.ownsObjects ? account : 1),
  madeFirst: routeCase.maker !== undefined,
  ...(routeCase.roleStatus ? { roleStatus: routeCase.roleStatus } : {}),
  pathOn: (api, account) => pathOn(api, routeCase, account),
  ...(routeCase.body ? { body: routeCase.body } : {}),
}));

function pathOn(api: TestApi, routeCase: SharedRouteCase, account: 1 | 2): Promise<string> {
  return routeCasePath(routeCase, account, (method, path, body) => api.call(method, path, { body, as: [account, "role-1-active"] }));
}

export function isRead(route: AppRoute): boolean {
  return (route.metadata as { access: string }).access === "read";
}

/** Whether the route takes a body (a DELETE, like a GET, takes none: whatever is sent is not read). */
export function takesBody(route: AppRoute): boolean {
  return "body" in route;
}

export function successStatus(route: AppRoute): number {
  return Number(Object.keys(route.responses).find((status) => Number(status) < 300));
}
