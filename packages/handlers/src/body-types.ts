/**
 * The body type of the route a request reaches, read off the contract (`bodyTypeOf`): JSON for every
 * route but those whose metadata says they take raw bytes. The requests are matched the way
 * @ts-rest/serverless matches them (an itty-router Router over the contract's routes, in its order, the
 * first match winning), so the type is the one of the route that will serve the request. A request no
 * route serves is held to JSON, as before there were raw routes. Asked before ts-rest reads the body:
 * by the front, once per request, to know how to read the body and to check its type; the router runs
 * only for a request a raw route's own pattern matches.
 */
import { bodyTypeOf, JSON_BODY, ROUTES, type BodyType } from "@cloudplane/contract";
import { Router, type IRequest } from "itty-router";
import type { RequestUrl } from "./front.js";

/** The body type of the route `method` and `url` reach. */
export type BodyTypeOf = (method: string, url: RequestUrl) => Promise<BodyType>;

/**
 * `BodyTypeOf` for a handler served under `basePath` ("" for the root). Only a request some route that
 * takes raw bytes could match needs the router's answer: the others are JSON whatever route serves them.
 * Those routes' own patterns (itty-router's, from a router of them alone) tell which requests those are,
 * one test of the path each, without parsing the URL again. The router of every route is built on the
 * first request that needs it, not with the handler.
 */
export function routeBodyTypes(basePath: string): BodyTypeOf {
  const rawPatterns = rawRoutePatterns(basePath);
  let router: ReturnType<typeof Router<IRequest>> | undefined;
  return async (method, url) => {
    if (!rawPatterns.get(method)?.some((pattern) => pattern.test(url.pathname))) return JSON_BODY;
    router ??= bodyTypeRouter(basePath, new Set(rawPatterns.keys()));
    const found = (await router.fetch({ method, url: url.href })) as BodyType | undefined;
    return found ?? JSON_BODY;
  };
}

/** The patterns itty-router matches the routes that take raw bytes with, by method. */
function rawRoutePatterns(basePath: string): Map<string, RegExp[]> {
  const router = Router<IRequest>({ base: basePath });
  const patterns = new Map<string, RegExp[]>();
  for (const { route } of ROUTES) {
    if (bodyTypeOf(route) === JSON_BODY) continue;
    router.all(route.path);
    const [, pattern] = router.routes.at(-1)!;
    patterns.set(route.method, [...(patterns.get(route.method) ?? []), pattern]);
  }
  return patterns;
}

/** The body type of every route of `methods` (those some raw route has), in the contract's order. */
function bodyTypeRouter(basePath: string, methods: ReadonlySet<string>) {
  // Every route of those methods, JSON ones too: a JSON route listed before a raw one that would match the same request wins, as in ts-rest.
  const router = Router<IRequest>({ base: basePath });
  for (const { route } of ROUTES) {
    if (!methods.has(route.method)) continue;
    const type = bodyTypeOf(route);
    router.all(route.path, (request: IRequest) => (request.method === route.method ? type : undefined));
  }
  return router;
}
