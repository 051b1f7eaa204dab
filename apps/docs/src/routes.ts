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

/** The operations a reader looks up: every route but the aliases, which the docs name under their primary. */
export const PRIMARY_ROUTES: DocumentedRoute[] = ROUTES.filter((entry) => !entry.aliasOf);

/** The aliases of a primary route: the same operation at the other paths the platform serves it under. */
export function aliasesOf(primary: DocumentedRoute): DocumentedRoute[] {
  return ROUTES.filter((entry) => entry.aliasOf === primary.id);
}

/** Where else an operation is served, in a sentence for its description; "" when it has no alias. */
export function alsoServedAt(primary: DocumentedRoute): string {
  const aliases = aliasesOf(primary);
  if (aliases.length === 0) return "";
  const paths = aliases.map(({ route }) => `\`${methodAndPath(route)}\``).join(", ");
  return `**Also served at** ${paths}: ${aliases.length === 1 ? "an alias" : "aliases"} at the path${aliases.length === 1 ? "" : "s"} the platform serves it under too, with the same parameters, body and answers.`;
}
