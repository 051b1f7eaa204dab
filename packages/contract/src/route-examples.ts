/**
 * One example call of every route, keyed by its id: the path parameters, the query worth showing, the
 * body and the success response. Each area's examples sit in route-examples/<area>.ts; the table is
 * typed from the contract (a route without an entry, a path parameter the path lacks or a body of the
 * wrong shape fails to compile), and the contract's tests parse every example with the route's own
 * schemas. An alias shows its primary route's example. The docs show these examples (curl, the client
 * and the reference's Test Request); they name the demo data's objects of account 1, so each runs
 * against `pnpm start` with the demo administrator's key, which apps/local's tests check.
 */
import { ROUTES, type PrimaryRouteId, type RouteId } from "./routes.js";
import type { ExampleResponseHeader, RouteExamples } from "./route-examples/example.js";
import { iamRouteExamples } from "./route-examples/iam.js";
import { cdnRouteExamples } from "./route-examples/cdn.js";
import { logsUploaderRouteExamples } from "./route-examples/logs-uploader.js";
import { edgeRouteExamples } from "./route-examples/edge.js";
import { streamingRouteExamples } from "./route-examples/streaming.js";
import { cloudRouteExamples } from "./route-examples/cloud.js";
import { securityRouteExamples } from "./route-examples/security.js";
import { storageRouteExamples } from "./route-examples/storage.js";

export type { AreaRouteExamples, ExampleResponseHeader, RouteExample, RouteExamples, RouteOf } from "./route-examples/example.js";

/**
 * The areas' tables as one: each area's file checks its entries against their routes, and this checks
 * that no primary route is left without one (a whole-table type check is too deep for the compiler).
 */
function everyRoute<Examples extends { readonly [Id in PrimaryRouteId]: unknown }>(examples: Examples): RouteExamples {
  return examples as unknown as RouteExamples;
}

export const ROUTE_EXAMPLES: RouteExamples = everyRoute({
  ...iamRouteExamples,
  ...cdnRouteExamples,
  ...logsUploaderRouteExamples,
  ...edgeRouteExamples,
  ...streamingRouteExamples,
  ...cloudRouteExamples,
  ...securityRouteExamples,
  ...storageRouteExamples,
});

/** An example as code that handles any route sees it (the union of every route's is too large to name). */
export interface AnyRouteExample {
  pathParams?: Record<string, string | number>;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  response?: unknown;
  responseHeaders?: Record<string, ExampleResponseHeader>;
}

/** The example of a route (an alias's is its primary's), or undefined for a route that has none. */
export function routeExample(id: RouteId): AnyRouteExample | undefined {
  const primary = ROUTES.find((entry) => entry.id === id)?.aliasOf ?? id;
  return (ROUTE_EXAMPLES as unknown as Partial<Record<RouteId, AnyRouteExample>>)[primary];
}
