/**
 * CDN metrics (the platform's advanced analytics: rates and counts of the account's CDN traffic per
 * interval, asked for with a POST) and the platform's network capacity by country.
 */
import { z } from "zod";
import { errorResponses, integer, listOf, strictObject, stringEnum, withBody } from "../common.js";
import type { ClientMetadata } from "../client-names.js";
import { route } from "../route.js";
import { read } from "./shared.js";
import { periodEnd } from "./statistics.js";

/** The metrics this service keeps; the platform's per-code status metrics (edge_status_200, origin_status_4xx, …) are not. */
export const CDN_METRICS = [
  "edge_bandwidth",
  "edge_requests",
  "edge_requests_total",
  "edge_status_2xx",
  "edge_status_3xx",
  "edge_status_4xx",
  "edge_status_5xx",
  "edge_hit_ratio",
  "edge_hit_bytes",
  "origin_bandwidth",
  "origin_requests",
  "edge_download_speed",
  "origin_download_speed",
] as const;
export type CdnMetric = (typeof CDN_METRICS)[number];
export const SPEED_METRICS = ["edge_download_speed", "origin_download_speed"] as const satisfies readonly CdnMetric[];
export const CDN_METRIC_GROUPS = ["resource", "cname", "region", "isp"] as const;
export const CDN_METRIC_FILTER_FIELDS = ["resource", "cname", "region", "isp"] as const;
export const CDN_METRIC_FILTER_OPS = ["in", "not_in", "gt", "gte", "lt", "lte", "eq", "ne", "like", "not_like"] as const;
/** The most points a series may have, and a series of speed metrics. */
export const CDN_METRICS_MAX_POINTS = 1440;
export const CDN_SPEED_MAX_POINTS = 72;

const filterStatementSchema = strictObject({
  field: stringEnum(CDN_METRIC_FILTER_FIELDS).describe("What is compared: resource (id), cname, region (speed metrics only) or isp (not kept: 400)."),
  op: stringEnum(CDN_METRIC_FILTER_OPS).describe("in, not_in, gt, gte, lt, lte, eq, ne, like, not_like (like: `%` any text, `_` one character)."),
  values: listOf(z.union([z.number(), z.string().max(255, "Must be at most 255 characters.")]), {
    max: 100,
    min: 1,
    noun: "values",
    description: "The values compared against: one for eq, ne, gt, gte, lt, lte, like and not_like; any number for in and not_in.",
  }),
}).describe("One filter statement.");

const metricsBodySchema = strictObject({
  from: periodEnd("Start of the period, included (ISO 8601 / RFC 3339)."),
  to: periodEnd("End of the period, excluded (ISO 8601 / RFC 3339)."),
  metrics: listOf(stringEnum(CDN_METRICS), {
    max: CDN_METRICS.length,
    min: 1,
    noun: "metrics",
    description:
      "The metrics: edge_bandwidth and origin_bandwidth (bit/s), edge_requests and origin_requests (requests/s), edge_requests_total, " +
      "edge_status_2xx…5xx (responses of the class), edge_hit_ratio (0.0 to 1.0), edge_hit_bytes, and edge_download_speed and " +
      "origin_download_speed (KB/s). The per-code status metrics of the platform (edge_status_200, origin_status_5xx, …) are not kept: 400.",
  }),
  granularity: z
    .string()
    .regex(/^P(?:\d+D)?(?:T(?:\d+H)?(?:\d+M)?)?$/, "Must be an ISO 8601 duration of days, hours and minutes, such as PT5M, PT1H or P1D.")
    .optional()
    .describe(`The length of each interval, an ISO 8601 duration that is a multiple of 5 minutes (PT5M, PT1H, P1D). Default PT5M. At most ${CDN_METRICS_MAX_POINTS} intervals (${CDN_SPEED_MAX_POINTS} with speed metrics).`),
  group_by: listOf(stringEnum(CDN_METRIC_GROUPS), { max: CDN_METRIC_GROUPS.length, noun: "groups", description: "Group by resource, cname, region (speed metrics only) or isp (not kept: 400), nested in this order." }).optional(),
  filter_by: listOf(filterStatementSchema, { max: 20, noun: "statements", description: "Filter statements, all of which must hold." }).optional(),
}).describe("The metrics to compute, over which period, in which intervals, grouped and filtered how.");
export interface CdnMetricsBodySchema extends CdnMetricsBodySchemaType {}
type CdnMetricsBodySchemaType = typeof metricsBodySchema;
export const cdnMetricsBody: CdnMetricsBodySchema = metricsBodySchema;
export type CdnMetricsBody = z.input<typeof cdnMetricsBody>;

const valueItem = z
  .object({ timestamp: integer({ column: "bigint" }).describe("The Unix time the interval starts.") })
  .catchall(z.number().optional())
  .describe("One interval: its start, and each metric asked for by name.");
const metricsSchema = z
  .object({
    data: z
      .union([z.array(valueItem), z.record(z.unknown())])
      .describe("Without group_by, the intervals' values, oldest first; with it, an object whose keys are the first group's values, each holding the next group's object or, at the last, the intervals."),
  })
  .strict()
  .describe("The metrics, per interval.");
export interface CdnMetricsSchema extends CdnMetricsSchemaType {}
type CdnMetricsSchemaType = typeof metricsSchema;
export const cdnMetrics: CdnMetricsSchema = metricsSchema;
export type CdnMetrics = z.infer<typeof cdnMetrics>;

/** The platform's network capacity by country, in Gbit/s: catalogue data, the same for every account. */
export const NETWORK_CAPACITY = [
  { country: "Australia", country_code: "AU", capacity: 400 },
  { country: "Brazil", country_code: "BR", capacity: 600 },
  { country: "Germany", country_code: "DE", capacity: 4200 },
  { country: "Japan", country_code: "JP", capacity: 900 },
  { country: "Kazakhstan", country_code: "KZ", capacity: 300 },
  { country: "Netherlands", country_code: "NL", capacity: 3100 },
  { country: "Singapore", country_code: "SG", capacity: 1500 },
  { country: "South Africa", country_code: "ZA", capacity: 250 },
  { country: "United Arab Emirates", country_code: "AE", capacity: 350 },
  { country: "United States", country_code: "US", capacity: 5200 },
] as const;

const networkCapacitySchema = z
  .array(
    z
      .object({
        country: z.string().describe("The country's English short name."),
        country_code: z.string().describe("The country's ISO 3166 alpha-2 code."),
        capacity: z.number().describe("The network capacity of the platform's edge servers in the country, in Gbit/s."),
      })
      .strict(),
  )
  .describe("The platform's network capacity, by country.");
export interface NetworkCapacitySchema extends NetworkCapacitySchemaType {}
type NetworkCapacitySchemaType = typeof networkCapacitySchema;
export const networkCapacity: NetworkCapacitySchema = networkCapacitySchema;

export const cdnMetricsRoutes = {
  listMetrics: route({
    method: "POST",
    path: "/cdn/advanced/v1/metrics",
    body: cdnMetricsBody,
    responses: { 200: cdnMetrics, ...errorResponses(withBody) },
    summary: "Get CDN metrics",
    description:
      "Computes the metrics of the account's CDN traffic (kept in 5-minute buckets) per interval of `granularity`, from `from` " +
      "(rounded down to the granularity, UTC) to `to`, every interval present (zero without traffic). Rates divide by the " +
      "interval's seconds; speeds are bytes over the requests' times. `filter_by` and `group_by` as their fields say; region " +
      "only with speed metrics, isp not at all (400: not kept). `from` must be before `to`, and the intervals at most " +
      `${CDN_METRICS_MAX_POINTS} (${CDN_SPEED_MAX_POINTS} with a speed metric): 400 naming the field otherwise. A read, asked with a POST: Users may call it.`,
    metadata: { ...read, client: { resource: "metrics", method: "list" } } satisfies ClientMetadata,
  }, {
    example: {
      body: { from: "2026-11-01T12:00:00Z", to: "2026-11-01T13:00:00Z", metrics: ["edge_requests_total", "edge_hit_ratio"], granularity: "PT1H", filter_by: [{ field: "resource", op: "eq", values: [1] }] },
      response: { data: [{ timestamp: 1_793_534_400, edge_requests_total: 20_520, edge_hit_ratio: 0.8106 }] },
    },
    case: {
      path: () => "/cdn/advanced/v1/metrics",
      ownsObjects: false,
      body: () => ({ from: "2026-11-01T00:00:00Z", to: "2026-11-01T06:00:00Z", metrics: ["edge_bandwidth", "edge_requests"], granularity: "PT1H", group_by: ["resource"] }),
    },
  }),
  listNetworkCapacity: route({
    method: "GET",
    path: "/cdn/advanced/v1/capacity",
    responses: { 200: networkCapacity, ...errorResponses() },
    summary: "Get the network capacity",
    description: "The network capacity of the platform's edge servers in each country where it has them, in Gbit/s: the same for every account. A read: Users may call it.",
    metadata: { ...read, client: { resource: "networkCapacity", method: "list" } } satisfies ClientMetadata,
  }, {
    example: { response: NETWORK_CAPACITY.map((item) => ({ ...item })) },
    case: { path: () => "/cdn/advanced/v1/capacity", ownsObjects: false },
  }),
} as const;
