/**
 * The example call of a route, declared beside it (`route(definition, { example, case })`): path
 * parameters, query, body and success response, each present exactly when the route has them. The docs
 * show it (curl, the client and the reference's Test Request); it names the demo data's objects of
 * account 1, so each runs against `pnpm start` with the demo administrator's key. The contract's tests
 * parse every example with the route's own schemas.
 */
import type { z } from "zod";

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
    /**
     * For the rare example that cannot succeed on a newly provisioned account however its ids are moved onto
     * that account's objects (it needs something only the platform's service brings about, such as a stream
     * that is live): the status it answers there, and why. The route's description says so as well.
     */
    newAccount?: NewAccountAnswer;
  };

/** What an example answers on a newly provisioned account instead of its success status, and why. */
export interface NewAccountAnswer {
  status: number;
  because: string;
}
