/**
 * The type of an example call of a route: path parameters, query, body and success response, each
 * present exactly when the route has them.
 */
import type { z } from "zod";
import type { Contract } from "../contract.js";
import type { Area, PrimaryRouteId, RouteId } from "../routes.js";

/** The contract's definition of the route `Id`. */
export type RouteOf<Id extends RouteId> = Id extends `${infer A extends Area}.${infer Name}`
  ? Name extends keyof Contract[A]
    ? Contract[A][Name]
    : never
  : never;

/** The `:name` parameters of a path pattern. */
type PathParamNames<Path extends string> = Path extends `${string}:${infer Param}/${infer Rest}`
  ? Param | PathParamNames<`/${Rest}`>
  : Path extends `${string}:${infer Param}`
    ? Param
    : never;

type SuccessSchema<Responses> = Responses extends { 200: infer Schema extends z.ZodTypeAny }
  ? Schema
  : Responses extends { 201: infer Schema extends z.ZodTypeAny }
    ? Schema
    : never;

/** A response header the docs describe beside `x-request-id`. */
export interface ExampleResponseHeader {
  description: string;
  example: string | number;
  type: "integer" | "string";
}

/**
 * An example call of a route: each part present exactly when the route has it. Path and query values
 * are written as they appear in a URL (strings or numbers, booleans in queries) and parse with the
 * route's schemas once turned into text.
 */
export type RouteExample<Route> = (Route extends { path: infer Path extends string }
  ? [PathParamNames<Path>] extends [never]
    ? { pathParams?: undefined }
    : { pathParams: Record<PathParamNames<Path>, string | number> }
  : never) &
  (Route extends { query: infer Query extends z.ZodTypeAny }
    ? { query?: { [Key in keyof z.output<Query>]?: string | number | boolean } }
    : { query?: undefined }) &
  (Route extends { body: infer Body extends z.ZodTypeAny } ? { body: z.input<Body> } : { body?: undefined }) &
  // The body of the success response; none for a route that answers 204.
  (Route extends { responses: infer Responses }
    ? [SuccessSchema<Responses>] extends [never]
      ? { response?: undefined }
      : { response: z.output<SuccessSchema<Responses>> }
    : never) & {
    /** Headers of the success response besides `x-request-id`, with what they carry. */
    responseHeaders?: Record<string, ExampleResponseHeader>;
  };

/** An example of every route of the contract but the aliases (which show their primary's), by id. */
export type RouteExamples = { readonly [Id in PrimaryRouteId]: RouteExample<RouteOf<Id>> };

/**
 * Examples of some routes of area `A`: each area's file holds one such table, which the compiler
 * checks entry by entry against its routes.
 */
export type AreaRouteExamples<A extends Area> = { readonly [Id in Extract<PrimaryRouteId, `${A}.${string}`>]?: RouteExample<RouteOf<Id>> };
