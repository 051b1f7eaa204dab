/**
 * `route(definition, { example, case })`: a route of the contract with what everything else derives
 * from it beside it: the example call the docs show (typed by the route: a path parameter the path
 * lacks, or a body of the wrong shape, fails to compile) and the case the walks and the conformance
 * suite call it with. Both travel in the route's metadata (`metadata.example`, `metadata.case`); the
 * route's type is the definition's own, so the contract's types carry neither.
 */
import type { AppRoute } from "@ts-rest/core";
import type { RouteExample } from "./route-example.js";
import type { RouteCaseSpec } from "./route-case.js";

/** What a route declares beside its definition. */
export interface RouteExtras<Route> {
  /** One example call: path parameters, query, body and success response, on the demo data's account 1. */
  example: RouteExample<Route>;
  /** How the walks call it on any deployment's objects. */
  case: RouteCaseSpec;
}

export function route<const Route extends AppRoute>(definition: Route, extras: NoInfer<RouteExtras<Route>>): Route {
  return { ...definition, metadata: { ...(definition.metadata as object), example: extras.example, case: extras.case } };
}
