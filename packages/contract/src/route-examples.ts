/**
 * The example call and the case of every route, read from the route itself: each route of the contract
 * declares both beside its definition (`route(definition, { example, case })`), and an alias shows its
 * primary route's.
 */
import { prepareRouteCases, type CaseSend, type RouteCase } from "./route-case.js";
import type { ExampleResponseHeader, NewAccountAnswer } from "./route-example.js";
import { ROUTES, routeById, type RouteId } from "./routes.js";

/** An example as code that handles any route sees it (the union of every route's is too large to name). */
export interface AnyRouteExample {
  pathParams?: Record<string, string | number>;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  response?: unknown;
  responseHeaders?: Record<string, ExampleResponseHeader>;
  newAccount?: NewAccountAnswer;
}

/** The example of a route (an alias's is its primary's), or undefined for a route that declares none. */
export function routeExample(id: RouteId): AnyRouteExample | undefined {
  const entry = routeById(id);
  const primary = entry.aliasOf ? routeById(entry.aliasOf) : entry;
  return (primary.route.metadata as { example?: AnyRouteExample } | undefined)?.example;
}

/**
 * Every route of the contract (in ROUTES' order) with its case, ready to call: the reads the cases make
 * to find their objects are sent through `send`, as each account's administrator, before this resolves.
 */
export function routeCases(send: CaseSend): Promise<RouteCase[]> {
  return prepareRouteCases(ROUTES, send);
}
