/**
 * The bridge between the contract and the client: route tables whose method and path the compiler
 * checks against the contract, and the request and response types of each route read from its
 * zod schemas. Only types come from the contract, so zod is not bundled.
 */
import type { Contract } from "@cloudplane/contract";
import type { z } from "zod";
import type { RequestOptions } from "./options.js";

/** An area of the API: `iam`, `cdn`, `edge`, `streaming`, `cloud`, `security`, `storage`. */
export type AreaName = keyof Contract;

/** The name of a route of `Area` in the contract (`updateResource`, `listApps`, …). */
export type RouteName<Area extends AreaName> = keyof Contract[Area] & string;

/** The contract's definition of a route. */
export type ContractRoute<Area extends AreaName, Name extends RouteName<Area>> = Contract[Area][Name];

type MethodOf<Route> = Route extends { method: infer Method extends string } ? Method : never;
type PathOf<Route> = Route extends { path: infer Path extends string } ? Path : never;

/** Any route: where it is in the contract, its method and its path pattern. */
export interface RouteAddress {
  readonly area: string;
  readonly name: string;
  readonly method: string;
  readonly path: string;
}

/** A route as the client calls it, with the contract's method and path literals. */
export interface RouteDefinition<Area extends AreaName, Name extends RouteName<Area>> extends RouteAddress {
  readonly area: Area;
  readonly name: Name;
  readonly method: MethodOf<ContractRoute<Area, Name>>;
  readonly path: PathOf<ContractRoute<Area, Name>>;
}

/** Every route of one area; the contract's method and path literals are the only values that compile. */
export type AreaRoutes<Area extends AreaName> = { readonly [Name in RouteName<Area>]: RouteDefinition<Area, Name> };

type RouteTable<Area extends AreaName> = {
  readonly [Name in RouteName<Area>]: readonly [MethodOf<ContractRoute<Area, Name>>, PathOf<ContractRoute<Area, Name>>];
};

/**
 * The routes of `area`, one `[method, path]` per route of the contract: leaving one out, adding one
 * the contract does not have, or a method or path that differs from the contract fails to compile.
 * Callers mark the call `@__PURE__`, so that bundlers drop the tables of areas an application does not use.
 */
export function defineRoutes<Area extends AreaName>(area: Area, table: RouteTable<Area>): AreaRoutes<Area> {
  const routes: Record<string, RouteAddress> = {};
  for (const [name, [method, path]] of Object.entries<readonly [string, string]>(table)) {
    routes[name] = { area, name, method, path };
  }
  return routes as unknown as AreaRoutes<Area>;
}

/** The path parameters of a route, as the contract types them. */
export type PathParams<Route> = Route extends { pathParams: infer Schema extends z.ZodTypeAny } ? z.input<Schema> : never;
/** The path parameter `Name` of a route, as the contract types it (a string where the route has no schema of its parameters). */
export type PathParam<Route, Name extends string> = Route extends { pathParams: infer Schema extends z.ZodTypeAny }
  ? Name extends keyof z.input<Schema>
    ? z.input<Schema>[Name]
    : string
  : string;
/** The query of a route, as callers write it (defaults may be left out). */
export type Query<Route> = Route extends { query: infer Schema extends z.ZodTypeAny } ? z.input<Schema> : never;
/** The request body of a route, as callers write it. */
export type Body<Route> = Route extends { body: infer Schema extends z.ZodTypeAny } ? z.input<Schema> : never;

type SuccessSchema<Responses> = Responses extends { 200: infer Schema extends z.ZodTypeAny }
  ? Schema
  : Responses extends { 201: infer Schema extends z.ZodTypeAny }
    ? Schema
    : never;

/** The body of a route's successful (200 or 201) response; undefined for a route that answers 204. */
export type Success<Route> = Route extends { responses: infer Responses }
  ? [SuccessSchema<Responses>] extends [never]
    ? undefined
    : z.output<SuccessSchema<Responses>>
  : never;

/** What a call of `Route` sends: its path parameters, query and body, each required exactly when the route has it. */
export type RouteInput<Route> = Route extends unknown // one route at a time: for a union, no cross product of the three parts
  ? (Route extends { pathParams: z.ZodTypeAny } ? { params: PathParams<Route> } : { params?: undefined }) &
      (Route extends { query: z.ZodTypeAny } ? { query?: Query<Route> | undefined } : { query?: undefined }) &
      (Route extends { body: z.ZodTypeAny } ? { body: Body<Route> } : { body?: undefined })
  : never;

/** `area.name` of every route of the contract: `"cdn.updateResource"`, `"edge.listApps"`, … */
export type RouteId = { [Area in AreaName]: `${Area}.${RouteName<Area>}` }[AreaName];

/** The contract's definition of the route `Id`. */
export type RouteById<Id extends RouteId> = Id extends `${infer Area extends AreaName}.${infer Name}`
  ? Name extends RouteName<Area>
    ? ContractRoute<Area, Name>
    : never
  : never;

/** What `client.request(id, input)` sends for the route `Id`: `{ params, query, body }` as the route has them. */
export type RequestInput<Id extends RouteId> = RouteInput<RouteById<Id>>;

/** The body of the success response of the route `Id`. */
export type ResponseBody<Id extends RouteId> = Success<RouteById<Id>>;

/** The arguments after the id: the input may be left out when the route needs nothing in it. */
export type RequestArgs<Id extends RouteId> = object extends RequestInput<Id>
  ? [input?: RequestInput<Id>, options?: RequestOptions]
  : [input: RequestInput<Id>, options?: RequestOptions];
