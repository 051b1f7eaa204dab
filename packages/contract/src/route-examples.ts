/**
 * One example call of every route, keyed by its id: the path parameters, the query worth showing, the
 * body and the success response. The table is typed from the contract (a route without an entry, a
 * path parameter the path lacks or a body of the wrong shape fails to compile), and the contract's
 * tests parse every example with the route's own schemas. The docs show these examples (curl, the
 * client and the reference's Test Request); they name the demo data's objects of account 1, so each
 * runs against `pnpm start` with the demo administrator's key, which apps/local's tests check.
 */
import type { z } from "zod";
import type { Contract } from "./contract.js";
import * as examples from "./examples.js";
import type { Area, RouteId } from "./routes.js";

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
  (Route extends { body: infer Body extends z.ZodTypeAny } ? { body: z.input<Body> } : { body?: undefined }) & {
    /** The body of the success response. */
    response: Route extends { responses: infer Responses } ? z.output<SuccessSchema<Responses>> : never;
    /** Headers of the success response besides `x-request-id`, with what they carry. */
    responseHeaders?: Record<string, ExampleResponseHeader>;
  };

/** An example of every route of the contract, by id. */
export type RouteExamples = { readonly [Id in RouteId]: RouteExample<RouteOf<Id>> };

export const ROUTE_EXAMPLES: RouteExamples = {
  "iam.listTokens": {
    pathParams: { clientId: examples.apiTokenExample.client_user.client_id },
    query: { role: examples.apiTokenExample.client_user.role.id, deleted: true },
    response: [examples.apiTokenExample],
  },
  "cdn.updateResource": {
    pathParams: { resource_id: examples.cdnResourceExample.id },
    body: examples.updateCdnResourceExample,
    response: examples.cdnResourceExample,
  },
  "cdn.replaceResource": {
    pathParams: { resource_id: examples.cdnResourceExample.id },
    body: examples.replaceCdnResourceExample,
    response: examples.cdnResourceExample,
  },
  "cdn.updateResourceShielding": {
    pathParams: { resource_id: examples.cdnResourceExample.id },
    body: examples.shieldingSettingExample,
    response: examples.shieldingSettingExample,
  },
  "cdn.createLogsUploaderTarget": {
    body: examples.createLogsUploaderTargetExample,
    response: examples.logsUploaderTargetExample,
  },
  "cdn.getClientFeatures": { response: examples.cdnFeaturesExample },
  "cdn.updateClientSettings": {
    body: { utilization_level: examples.cdnClientSettingsExample.utilization_level },
    response: examples.cdnClientSettingsExample,
  },
  "cdn.getOriginGroup": {
    pathParams: { origin_group_id: examples.originGroupExample.id },
    response: examples.originGroupExample,
  },
  "edge.listApps": {
    query: { name: "image", status: examples.edgeAppExample.status, limit: 25, offset: 0, ordering: "name" },
    response: { apps: [examples.edgeAppExample], count: 1 },
  },
  "edge.updateApp": {
    pathParams: { id: examples.edgeAppExample.id },
    body: examples.updateEdgeAppExample,
    response: { ...examples.edgeAppExample, status: examples.updateEdgeAppExample.status! },
  },
  "edge.getTemplate": {
    pathParams: { id: examples.edgeAppTemplateExample.id },
    response: examples.edgeAppTemplateExample,
  },
  "edge.createSecret": {
    body: examples.createEdgeAppSecretExample,
    response: examples.edgeAppSecretExample,
  },
  "streaming.listStreams": {
    query: { page: 1 },
    response: [examples.streamExample],
    responseHeaders: {
      "X-Total-Count": { description: "The total number of the account's streams, on every page.", example: 1, type: "integer" },
    },
  },
  "streaming.getStream": {
    pathParams: { stream_id: examples.streamExample.id },
    response: examples.streamExample,
  },
  "streaming.createClipRecording": {
    pathParams: { stream_id: examples.streamExample.id },
    body: examples.createClipRecordingExample,
    response: examples.clipRecordingExample,
  },
  "cloud.listInferenceModels": {
    query: { limit: 100, offset: 0, order_by: "name.asc" },
    response: { count: 1, results: [examples.inferenceModelExample] },
  },
  "cloud.listGpuImages": {
    // Project 1 ("production") of the demo data; region 1 is the region of the cost report example.
    pathParams: { project_id: 1, region_id: examples.costReportTotalsExample.results[0]!.region_id },
    response: { count: 1, results: [examples.gpuImageExample] },
  },
  "cloud.getReservationCostReportTotals": {
    body: examples.costReportTotalsRequestExample,
    response: examples.costReportTotalsExample,
  },
  "security.updateProfile": {
    pathParams: { id: examples.securityProfileExample.id },
    body: examples.updateSecurityProfileExample,
    response: examples.securityProfileExample,
  },
  "storage.getBucketCors": {
    // Storage 1 of the demo data and its bucket media-assets, whose CORS origins bucketCorsExample shows.
    pathParams: { id: 1, name: "media-assets" },
    response: examples.bucketCorsExample,
  },
};

/** The example of a route, or undefined for a route that has none yet (callers fall back to showing less). */
export function routeExample(id: RouteId): Partial<RouteExample<RouteOf<RouteId>>> | undefined {
  return (ROUTE_EXAMPLES as Partial<Record<RouteId, Partial<RouteExample<RouteOf<RouteId>>>>>)[id];
}
