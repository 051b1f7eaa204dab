/**
 * The client's view of the routes: route tables whose method and path the compiler checks against the
 * API's generated types (`Routes`, written from the contract), and the request and response types of
 * each route by id. The types are plain TypeScript, so the client needs neither zod nor the contract.
 */
import type { Routes } from "./api.generated.js";
import type { RequestOptions } from "./options.js";

/** `area.name` of every route: `"cdn.updateResource"`, `"edge.listApps"`, … */
export type RouteId = keyof Routes;

/** An area of the API: `iam`, `cdn`, `edge`, `streaming`, `cloud`, `security`, `storage`. */
export type AreaName = RouteId extends `${infer Area}.${string}` ? Area : never;

/** The name of a route of `Area` (`updateResource`, `listApps`, …). */
export type RouteName<Area extends AreaName> = RouteId extends infer Id ? (Id extends `${Area}.${infer Name}` ? Name : never) : never;

/** Any route: where it is in the API, its method and its path pattern. */
export interface RouteAddress {
  readonly id: string;
  readonly area: string;
  readonly name: string;
  readonly method: string;
  readonly path: string;
}

/** The route `Id` as the client calls it, with its method and path literals. */
export interface RouteDefinition<Id extends RouteId> extends RouteAddress {
  readonly id: Id;
  readonly method: Routes[Id]["method"];
  readonly path: Routes[Id]["path"];
}

/** Every route of one area; the API's method and path literals are the only values that compile. */
export type AreaRoutes<Area extends AreaName> = { readonly [Name in RouteName<Area>]: RouteDefinition<`${Area}.${Name}` & RouteId> };

type RouteTable<Area extends AreaName> = {
  readonly [Name in RouteName<Area>]: readonly [Routes[`${Area}.${Name}` & RouteId]["method"], Routes[`${Area}.${Name}` & RouteId]["path"]];
};

/**
 * The routes of `area`, one `[method, path]` per route: leaving one out, adding one the API does not
 * have, or a method or path that differs from it fails to compile. Callers mark the call `@__PURE__`,
 * so that bundlers drop the tables of areas an application does not use.
 */
export function defineRoutes<Area extends AreaName>(area: Area, table: RouteTable<Area>): AreaRoutes<Area> {
  const routes: Record<string, RouteAddress> = {};
  for (const [name, [method, path]] of Object.entries<readonly [string, string]>(table)) {
    routes[name] = { id: `${area}.${name}`, area, name, method, path };
  }
  return routes as unknown as AreaRoutes<Area>;
}

/** The path parameters of the route `Id`. */
export type PathParams<Id extends RouteId> = Routes[Id]["params"];
/** The path parameter `Name` of the route `Id`. */
export type PathParam<Id extends RouteId, Name extends string> = Name extends keyof PathParams<Id> ? PathParams<Id>[Name] : string;
/** The query of the route `Id`, as callers write it (defaults may be left out). */
export type Query<Id extends RouteId> = Routes[Id]["query"];
/** The request body of the route `Id`, as callers write it. */
export type Body<Id extends RouteId> = Routes[Id]["body"];
/** The body of the route's successful (200 or 201) response; undefined for a route that answers 204. */
export type Success<Id extends RouteId> = Routes[Id]["response"];

/** What a call of the route `Id` sends: its path parameters, query and body, each required exactly when the route has it. */
export type RequestInput<Id extends RouteId> = ([PathParams<Id>] extends [never] ? { params?: undefined } : { params: PathParams<Id> }) &
  ([Query<Id>] extends [never] ? { query?: undefined } : { query?: Query<Id> | undefined }) &
  ([Body<Id>] extends [never] ? { body?: undefined } : undefined extends Body<Id> ? { body?: Body<Id> } : { body: Body<Id> });

/** The body of the success response of the route `Id`. */
export type ResponseBody<Id extends RouteId> = Success<Id>;

/** The arguments after the id: the input may be left out when the route needs nothing in it. */
export type RequestArgs<Id extends RouteId> = object extends RequestInput<Id>
  ? [input?: RequestInput<Id>, options?: RequestOptions]
  : [input: RequestInput<Id>, options?: RequestOptions];
