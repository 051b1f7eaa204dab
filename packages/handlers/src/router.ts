/**
 * The composition root of the routes, and the only importer of the area files: every route of the
 * contract (`ROUTES`) with its implementation, behind the middleware every route runs once it has
 * matched (the caller's role, then text the database cannot store), as @ts-rest/serverless serves it.
 * Each GET route is served for HEAD too: ts-rest registers a route under its contract's method, so
 * `servedContract` holds a HEAD twin of each (answers.ts answers HEAD without the body). An alias
 * (`metadata.aliasOf`) is served by its primary route's implementation.
 */
import { authorizationHeaders, contract, ROUTES, type Area, type Contract } from "@cloudplane/contract";
import type { AppRoute } from "@ts-rest/core";
import type { CompleteRouter } from "@ts-rest/serverless";
import type { createFetchHandler } from "@ts-rest/serverless/fetch";
import { auditedDatabase, auditMark, auditScoped } from "./audit-log.js";
import { cdnRoutes } from "./cdn/index.js";
import { cloudRoutes } from "./cloud/index.js";
import { edgeRoutes } from "./edge/index.js";
import { iamRoutes } from "./iam/index.js";
import type { PlatformContext } from "./front.js";
import { routeMiddleware } from "./middleware.js";
import { securityRoutes } from "./security/index.js";
import { storageRoutes } from "./storage/index.js";
import { streamingRoutes } from "./streaming/index.js";
import type { RequestExtension, RouteDeps } from "./types.js";

/** The whole contract implemented, as ts-rest's fetch and Lambda handlers take it. */
export type ApiRouter = Exclude<
  Parameters<typeof createFetchHandler<Contract, RequestExtension, PlatformContext>>[1],
  CompleteRouter<Contract, PlatformContext, RequestExtension>
>;

/** Where the HEAD twins sit in `servedContract` and the router: a key no area has. */
const HEAD_TWINS = "head";

const GET_ROUTES = ROUTES.filter(({ route }) => route.method === "GET");

/**
 * A route as ts-rest is given it: without the Authorization header the contract declares on every
 * route (`authorizationHeaders`, for the docs and the client). The request middleware answers a request
 * without a valid one 401 before any route is matched, so ts-rest's own check of it could never fail,
 * and it cost every request a copy of all its headers into an object and a zod parse of it. A route
 * that declared headers of its own would keep them (ts-rest merges them into a schema of their own).
 */
function served(route: AppRoute): AppRoute {
  return route.headers === authorizationHeaders ? { ...route, headers: undefined } : route;
}

/**
 * The contract as ts-rest is given it: every route (`served`), in the contract's order, and under
 * `HEAD_TWINS` a copy of each GET route with the method HEAD, registered after all the others. Typed as
 * the contract, whose routes it holds.
 */
export const servedContract = {
  ...Object.fromEntries(
    Object.entries(contract as Record<string, Record<string, AppRoute>>).map(([area, routes]) => [
      area,
      Object.fromEntries(Object.entries(routes).map(([name, route]) => [name, served(route)])),
    ]),
  ),
  [HEAD_TWINS]: Object.fromEntries(GET_ROUTES.map(({ id, route }) => [id, { ...served(route), method: "HEAD" }])),
} as unknown as Contract;

export function createRouter(deps: RouteDeps): ApiRouter {
  // Each area is typed against its part of the contract by tsr.routerWithMiddleware: a route left out,
  // or one whose input or answer drifts from the contract, fails to compile.
  const areas = {
    iam: iamRoutes(deps),
    // The CDN area's writes are logged in its audit log (audit-log.ts), in their own transactions.
    cdn: cdnRoutes({ ...deps, db: auditedDatabase(deps.db) }),
    edge: edgeRoutes(deps),
    streaming: streamingRoutes(deps),
    cloud: cloudRoutes(deps),
    security: securityRoutes(deps),
    storage: storageRoutes(deps),
  } satisfies Record<Area, unknown>;
  const router: Record<string, Record<string, unknown>> = {};
  for (const { area, name, access, aliasOf, route } of ROUTES) {
    // An alias is served by its primary route's implementation (the area implements primaries only).
    const handler = (areas[area] as Record<string, unknown>)[aliasOf ? aliasOf.slice(area.length + 1) : name];
    if (area === "cdn" && access !== "read") {
      const successStatus = Number(Object.keys(route.responses).find((status) => status.startsWith("2")));
      (router[area] ??= {})[name] = { middleware: [auditMark(successStatus), ...routeMiddleware(access)], handler: auditScoped(handler as never) };
      continue;
    }
    (router[area] ??= {})[name] = { middleware: routeMiddleware(access), handler };
  }
  // The twins share the GET routes' implementations; each has a middleware list of its own, which ts-rest appends to.
  router[HEAD_TWINS] = {};
  for (const { area, name, id, access } of GET_ROUTES) router[HEAD_TWINS][id] = { ...router[area]![name]!, middleware: routeMiddleware(access) };
  return router as ApiRouter;
}
