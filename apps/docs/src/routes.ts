/** Every route of the contract with its area, its name and its docs row, in the contract's order. */
import { ROLE_IDS, contract, roleMayCall, roleName, type Area, type RouteAccess } from "@cloudplane/contract";
import { isAppRoute, type AppRoute, type AppRouter } from "@ts-rest/core";
import { OPERATIONS, type OperationDocs } from "./operations.js";

export interface DocumentedRoute {
  area: Area;
  /** The route's name in its area, also its operationId: `updateResource`. */
  name: string;
  route: AppRoute;
  access: RouteAccess;
  docs: OperationDocs;
}

function routesOf(router: AppRouter, prefix: string[] = []): Array<[string[], AppRoute]> {
  return Object.entries(router).flatMap(([name, value]) =>
    isAppRoute(value) ? [[[...prefix, name], value] as [string[], AppRoute]] : routesOf(value, [...prefix, name]),
  );
}

/** The contract's routes, each with its row of OPERATIONS. */
export const ROUTES: DocumentedRoute[] = routesOf(contract).map(([[area, name], route]) => {
  const docs = (OPERATIONS as unknown as Record<string, Record<string, OperationDocs | undefined>>)[area!]?.[name!];
  if (!docs || !name) throw new Error(`OPERATIONS has no row for ${String(area)}.${String(name)}`);
  return { area: area as Area, name, route, access: (route.metadata as { access: RouteAccess }).access, docs };
});

/** The route as api.md writes it: `PATCH /cdn/resources/{resource_id}`. */
export function methodAndPath(route: AppRoute): string {
  return `${route.method} ${route.path.replace(/:(\w+)/g, "{$1}")}`;
}

/** Who may call a route of this access, in words: "Administrators (1), Users (2), Engineers (5)". */
export function rolesThatMayCall(access: RouteAccess): string {
  return Object.values(ROLE_IDS)
    .filter((role) => roleMayCall(role, access))
    .sort((a, b) => a - b)
    .map((role) => `${roleName(role)} (${role})`)
    .join(", ");
}
