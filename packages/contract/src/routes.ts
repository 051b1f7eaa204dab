/**
 * The one list of the contract's routes: each with its area, its name in the area and who may call
 * it, in the contract's order. Everything that needs the routes (the handlers' wiring, the docs, the
 * client, the conformance suite, the tests) reads this list instead of walking the contract itself.
 */
import { isAppRoute, type AppRoute, type AppRouter } from "@ts-rest/core";
import { aliasOf, type AliasNames } from "./alias.js";
import { contract, type Contract } from "./contract.js";
import type { RouteAccess, RouteMetadata } from "./roles.js";

export type Area = keyof Contract;

/** `area.name` of every route: `"cdn.updateResource"`, `"edge.listApps"`, … */
export type RouteId = { [A in Area]: `${A}.${keyof Contract[A] & string}` }[Area];

/** The id of every route that is not an alias: the operations an area implements and documents once. */
export type PrimaryRouteId = { [A in Area]: `${A}.${Exclude<keyof Contract[A], AliasNames<Contract[A]>> & string}` }[Area];

export interface ContractRoute<A extends Area = Area> {
  /** The area: the first path segment of the route, and the key of its router in `contract`. */
  area: A;
  /** The route's key in its area (also its OpenAPI operationId): `updateResource`. */
  name: string;
  /** `area.name`. */
  id: RouteId;
  /** The route as the contract defines it: method, path, schemas, summary and description. */
  route: AppRoute;
  /** Who may call it: `read` routes are open to every role that reads, `write` routes are not. */
  access: RouteAccess;
  /** For an alias (the platform's current path of an operation): the primary route it is served by. */
  aliasOf?: PrimaryRouteId;
}

/** The routes of `router`, depth first in the contract's order, with their key paths. */
function walk(router: AppRouter, keys: string[] = []): Array<[string[], AppRoute]> {
  return Object.entries(router).flatMap(([key, value]) =>
    isAppRoute(value) ? [[[...keys, key], value] as [string[], AppRoute]] : walk(value, [...keys, key]),
  );
}

/** Every route of the contract, in its order. */
export const ROUTES: readonly ContractRoute[] = walk(contract).map(([keys, route]) => {
  const [area, name] = keys as [Area, string];
  const access = (route.metadata as RouteMetadata | undefined)?.access;
  if (keys.length !== 2 || (access !== "read" && access !== "purge" && access !== "write"))
    throw new Error(`The contract's route ${keys.join(".")} must sit directly in an area and say its access in metadata.`);
  const primary = aliasOf(route);
  return { area, name, id: `${area}.${name}` as RouteId, route, access, ...(primary ? { aliasOf: `${area}.${primary}` as PrimaryRouteId } : {}) };
});

/** The route `area.name`. */
export function routeById(id: RouteId): ContractRoute {
  const found = ROUTES.find((entry) => entry.id === id);
  if (!found) throw new Error(`The contract has no route ${id}.`);
  return found;
}
