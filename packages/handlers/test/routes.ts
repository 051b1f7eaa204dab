/**
 * One valid request for every route of the contract, on account 1's demo objects, and the same
 * request aimed at account 2's objects: the table the auth matrix, isolation, fuzz and soak tests
 * walk. Each route declares its case beside it in the contract, as the conformance suite reads them
 * too; the cases find their objects through the API's own read routes, here on a fresh demo database
 * (every one holds the same objects under the same ids) before the file's tests are collected.
 */
import { roleMayCall, routeCasePath, routeCases as contractRouteCases, type CaseSend, type RouteAccess, type RouteCase as SharedRouteCase, type RouteId } from "@cloudplane/contract";
import { startApi, type TestApi } from "./harness.js";
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
export const routeCases: RouteCase[] = (await preparedCases()).map((routeCase) => ({
  name: routeCase.id as RouteId,
  route: routeCase.route,
  path: routeCase.path(1),
  otherPath: routeCase.ownsObjects ? routeCase.path(2) : null,
  newPath: (account) => routeCase.path(routeCase.ownsObjects ? account : 1),
  madeFirst: routeCase.maker !== undefined,
  ...(routeCase.roleStatus ? { roleStatus: routeCase.roleStatus } : {}),
  pathOn: (api, account) => pathOn(api, routeCase, account),
  ...(routeCase.body ? { body: routeCase.body } : {}),
}));

/** The contract's cases with their objects found on a fresh demo database. */
export async function preparedCases(): Promise<SharedRouteCase[]> {
  const api = await startApi("pglite");
  try {
    const cases = await contractRouteCases(asAdministrator(api));
    if (api.errors.length) throw new Error(`Reading the route cases' objects made the handler report errors: ${String(api.errors[0])}`);
    return cases;
  } finally {
    await api.close();
  }
}

/** How the cases call `api`: as the administrator of the account they are aimed at. */
export function asAdministrator(api: TestApi): CaseSend {
  return (account, method, path, body) => api.call(method, path, { body, as: [account, "role-1-active"] });
}

function pathOn(api: TestApi, routeCase: SharedRouteCase, account: 1 | 2): Promise<string> {
  return routeCasePath(routeCase, account, asAdministrator(api));
}

export function isRead(route: AppRoute): boolean {
  return (route.metadata as { access: string }).access === "read";
}

/** Whether a token of `role` may call the route, by the contract's role table. */
export function mayCall(route: AppRoute, role: number): boolean {
  return roleMayCall(role, (route.metadata as { access: RouteAccess }).access);
}

/** Whether the route takes a body (a DELETE, like a GET, takes none: whatever is sent is not read). */
export function takesBody(route: AppRoute): boolean {
  return "body" in route;
}

export function successStatus(route: AppRoute): number {
  return Number(Object.keys(route.responses).find((status) => Number(status) < 300));
}
