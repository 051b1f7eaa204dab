/** Every route of the contract (its `ROUTES`) with its docs, in the contract's order. */
import { ROLE_IDS, ROUTES as CONTRACT_ROUTES, roleMayCall, roleName, type ContractRoute, type RouteAccess } from "@cloudplane/contract";
import type { AppRoute } from "@ts-rest/core";
import { operationDocs, type OperationDocs } from "./operations.js";

export interface DocumentedRoute extends ContractRoute {
  docs: OperationDocs;
}

/** The contract's routes, each with its docs. */
export const ROUTES: DocumentedRoute[] = CONTRACT_ROUTES.map((entry) => ({ ...entry, docs: operationDocs(entry) }));

/** The route as the docs write it, with OpenAPI's path parameters: `PATCH /cdn/resources/{resource_id}`. */
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
