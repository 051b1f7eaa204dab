/**
 * A resource's routes (`edgeAppsRoutes`, `cdnResourcesRoutes`, …) as the contract serves them: the
 * entries of `contract.<area>` of the same names, with the base headers and the strict status codes the
 * whole contract applies, which the resource module's own object has not. Each resource's implementation
 * is typed against these, so one that answers a status its route does not declare fails to compile.
 */
import { contract, type Area, type Contract } from "@cloudplane/contract";

export function served<A extends Area, Name extends keyof Contract[A]>(area: A, routes: Record<Name, unknown>): Pick<Contract[A], Name> {
  const served = contract[area];
  return Object.fromEntries(Object.keys(routes).map((name) => [name, served[name as Name]])) as Pick<Contract[A], Name>;
}
