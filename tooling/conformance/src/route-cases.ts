/**
 * One valid request for every route of the contract on account 1's demo objects, and the same request
 * aimed at account 2's objects. The table is shared with the handlers' own tests: it lives in
 * `@cloudplane/db/testing`, keyed by route id, so a route without a case fails to compile there.
 */
export { routeCasePath, routeCases, uniqueName, type RouteCase } from "@cloudplane/db/testing";
