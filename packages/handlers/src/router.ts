/**
 * The contract's routes as a table, built once: each route's method, a matcher for its path, who may
 * call it, and its implementation. The area files implement their part of the contract through
 * `implementArea`, typed by the contract, so a route whose input or answer drifts from it fails to compile.
 */
import type { RouteAccess } from "@cloudplane/contract";
import { isAppRoute, type AppRoute, type AppRouter, type ServerInferRequest, type ServerInferResponses } from "@ts-rest/core";
import type { Caller } from "./auth.js";

/** What an implementation gets besides its validated input. */
export interface RouteContext {
  /** The authenticated caller: every query is scoped to `caller.accountId`. */
  caller: Caller;
  /** Headers added to the route's answer (lower-case names). */
  responseHeaders: Record<string, string>;
  /** A body that is not JSON (the cost report's CSV): sent as it is, instead of the route's JSON body. */
  rawResponse?: { contentType: string; body: string };
}

export type RouteImplementation<R extends AppRoute> = (input: ServerInferRequest<R>, context: RouteContext) => Promise<ServerInferResponses<R>>;

/** One implementation per route of an area of the contract. */
export type AreaImplementation<T extends AppRouter> = { [K in keyof T]: T[K] extends AppRoute ? RouteImplementation<T[K]> : never };

/** Checks an area's implementations against the contract (at compile time; it returns them as they are). */
export function implementArea<T extends AppRouter>(_area: T, routes: AreaImplementation<T>): AreaImplementation<T> {
  return routes;
}

/** What the router runs for a matched route: its input as parsed from the request, not yet validated. */
export type AnyRouteImplementation = (input: { params: unknown; query: unknown; body: unknown; headers: unknown }, context: RouteContext) => Promise<{ status: number; body: unknown }>;

export interface Route {
  appRoute: AppRoute;
  access: RouteAccess;
  implementation: AnyRouteImplementation;
  pattern: RegExp;
}

export interface RouteMatch {
  route: Route;
  /** Path parameters as they appear in the path (not decoded), by name. */
  params: Record<string, string>;
}

/** `/cdn/resources/:resource_id` → a RegExp with one named group per parameter; trailing slashes are allowed. */
function pathPattern(path: string): RegExp {
  const source = path
    .split("/")
    .map((segment) => (segment.startsWith(":") ? `(?<${segment.slice(1)}>[^/]+)` : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("/");
  return new RegExp(`^${source}/*$`);
}

/** The route table of `contract` served by `implementation` (an object of the same shape), in the contract's order. */
export function buildRoutes(contract: AppRouter, implementation: Record<string, unknown>, basePath: string): Map<string, Route[]> {
  const byMethod = new Map<string, Route[]>();
  const visit = (router: AppRouter, implemented: Record<string, unknown>) => {
    for (const [key, value] of Object.entries(router)) {
      if (!isAppRoute(value)) {
        visit(value, implemented[key] as Record<string, unknown>);
        continue;
      }
      const route: Route = {
        appRoute: value,
        access: (value.metadata as { access: RouteAccess }).access,
        implementation: implemented[key] as AnyRouteImplementation,
        pattern: pathPattern(`${basePath}${value.path}`),
      };
      const list = byMethod.get(value.method) ?? [];
      list.push(route);
      byMethod.set(value.method, list);
    }
  };
  visit(contract, implementation);
  return byMethod;
}

/** The first route of `method` whose path matches `pathname`. */
export function matchRoute(routes: Map<string, Route[]>, method: string, pathname: string): RouteMatch | undefined {
  for (const route of routes.get(method) ?? []) {
    const match = route.pattern.exec(pathname);
    if (match) return { route, params: { ...match.groups } };
  }
  return undefined;
}
