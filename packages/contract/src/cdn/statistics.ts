/**
 * CDN statistics: the traffic of the account's CDN resources summed over a period or as time series, and
 * the usage of the paid features origin shielding and raw logs, at the platform's paths and with its
 * parameters; and what the statistics routes' queries share (the period, lists given as repeated or
 * comma-separated parameters).
 */
import { z } from "zod";
import { errorResponses, integer, listOf, stringEnum } from "../common.js";
import type { ClientMetadata } from "../client-names.js";
import { route } from "../route.js";
import { idListQuery } from "./logs-uploader/shared.js";
import { COUNTRY_CODES } from "../country-codes.js";
import { read } from "./shared.js";

/** The traffic metrics of the statistics routes. */
export const STATISTICS_METRICS = [
  "upstream_bytes",
  "sent_bytes",
  "shield_bytes",
  "backblaze_bytes",
  "total_bytes",
  "cdn_bytes",
  "requests",
  "responses_2xx",
  "responses_3xx",
  "responses_4xx",
  "responses_5xx",
  "responses_hit",
  "responses_miss",
  "response_types",
  "cache_hit_traffic_ratio",
  "cache_hit_requests_ratio",
  "shield_traffic_ratio",
  "image_processed",
  "request_time",
  "upstream_response_time",
  "95_percentile",
  "max_bandwidth",
  "min_bandwidth",
] as const;
export type StatisticsMetric = (typeof STATISTICS_METRICS)[number];
/** Metrics of the whole period only: the bandwidth of its 5-minute buckets. */
export const BANDWIDTH_METRICS = ["95_percentile", "max_bandwidth", "min_bandwidth"] as const satisfies readonly StatisticsMetric[];
/** Averages of times, which are asked for alone (each without any other metric). */
export const TIME_METRICS = ["request_time", "upstream_response_time"] as const satisfies readonly StatisticsMetric[];

export const STATISTICS_GROUPS = ["resource", "region", "country", "vhost", "client_country", "protocol"] as const;
export type StatisticsGroup = (typeof STATISTICS_GROUPS)[number];
export const STATISTICS_REGIONS = ["na", "eu", "cis", "asia", "au", "latam", "me", "africa", "sa"] as const;
export const STATISTICS_GRANULARITIES = ["1m", "5m", "15m", "1h", "1d"] as const;
export type StatisticsGranularity = (typeof STATISTICS_GRANULARITIES)[number];

/** The longest period of an aggregate, in days; a series has at most STATISTICS_MAX_POINTS points. */
export const STATISTICS_MAX_DAYS = 366;
export const STATISTICS_MAX_POINTS = 8928;

/**
 * A list in a query string: the parameter repeated (`group_by=resource&group_by=region`), given as a
 * comma-separated list (`group_by=resource,region`), or both; each item one of `values`.
 */
export function textListQuery<const T extends readonly [string, ...string[]]>(values: T, noun: string, description: string) {
  const list = listOf(stringEnum(values), { max: values.length, noun, description });
  const schema = z.preprocess((value: unknown): unknown => {
    const texts: unknown[] | undefined = typeof value === "string" ? [value] : Array.isArray(value) ? (value as unknown[]) : undefined;
    if (!texts) return value;
    return texts.flatMap((text): unknown[] => (typeof text === "string" ? text.split(",").map((item) => item.trim()) : [text]));
  }, list.refine((items) => new Set(items).size === items.length, `Must not name a ${noun.replace(/s$/, "")} twice.`));
  return schema as unknown as z.ZodType<T[number][], z.ZodTypeDef, T[number][]>;
}

/** Free text items in a query string, repeated or comma-separated, each 1 to `maxLength` characters. */
export function freeTextListQuery(noun: string, description: string, maxLength = 64) {
  const list = listOf(z.string().min(1, "Must not be empty.").max(maxLength, `Must be at most ${maxLength} characters.`), { max: 100, noun, description });
  const schema = z.preprocess((value: unknown): unknown => {
    const texts: unknown[] | undefined = typeof value === "string" ? [value] : Array.isArray(value) ? (value as unknown[]) : undefined;
    if (!texts) return value;
    return texts.flatMap((text): unknown[] => (typeof text === "string" ? text.split(",").map((item) => item.trim()) : [text]));
  }, list);
  return schema as unknown as z.ZodType<string[], z.ZodTypeDef, string[]>;
}

/** A moment of a period: ISO 8601 / RFC 3339 with a time zone (`2026-11-01T00:00:00Z`, `2026-11-01T00:00:00.000+00:00`). */
export function periodEnd(description: string) {
  return z.string().datetime({ offset: true, message: "Must be an ISO 8601 date and time with a time zone, such as 2026-11-01T00:00:00Z." }).describe(description);
}

const from = periodEnd("Start of the period, included (ISO 8601 / RFC 3339, e.g. 2026-11-01T00:00:00Z). Must be before `to`.");
const to = periodEnd("End of the period, excluded (ISO 8601 / RFC 3339, e.g. 2026-11-02T00:00:00Z).");
const resource = idListQuery(
  "CDN resource ids: only their statistics (repeat the parameter, `resource=1&resource=3`, or separate them with commas). " +
    "Default: every resource of the account. An id of no resource of the account adds nothing.",
);
const flat = z
  .preprocess((value) => (value === "true" ? true : value === "false" ? false : value), z.boolean({ invalid_type_error: "Must be true or false." }))
  .describe("true: the groups as `rows`, one per group naming each of its `group_by` values; false (default): groups nested in the order of `group_by`.") as unknown as z.ZodType<boolean, z.ZodTypeDef, boolean>;

const metricsList = textListQuery(
  STATISTICS_METRICS,
  "metrics",
  "The metrics (repeated or comma-separated): bytes (upstream_bytes, sent_bytes, shield_bytes, backblaze_bytes, total_bytes = " +
    "shield + upstream + sent, cdn_bytes = sent + shield), requests and responses (requests, responses_2xx…5xx, responses_hit, " +
    "responses_miss, response_types: responses by MIME type), ratios (cache_hit_traffic_ratio = 1 − upstream/sent, " +
    "cache_hit_requests_ratio = hits/requests, shield_traffic_ratio = (shield − upstream)/shield), image_processed, the average " +
    "request_time and upstream_response_time in milliseconds (each asked for alone), and for an aggregate the bandwidth of the " +
    "period's 5-minute buckets in bytes a second (95_percentile, max_bandwidth, min_bandwidth).",
);
const groupBy = textListQuery(
  STATISTICS_GROUPS,
  "groups",
  "Group by resource (its id), region (of the edge servers), country (of the edge servers, ISO 3166 alpha-2 code), vhost (the " +
    "resource's CNAME), client_country (of the users, alpha-2 code) or protocol (HTTP/1.1, HTTP/2, HTTP/3); repeated or " +
    "comma-separated, nested in the order given.",
);
const regions = textListQuery(STATISTICS_REGIONS, "regions", "Only the traffic of edge servers in these regions: na, eu, cis, asia, au, latam, me, africa, sa.");
const countries = freeTextListQuery(
  "countries",
  "Only the traffic of edge servers in these countries: English short names (france, united states) or ISO 3166 alpha-2 codes (FR, US), in any case.",
);
const service = stringEnum(["CDN"] as const).describe("The service: CDN.");

const statisticsQuerySchema = z.object({ from, to, metrics: metricsList, service, group_by: groupBy.optional(), regions: regions.optional(), countries: countries.optional(), resource: resource.optional(), flat: flat.optional() });
export interface StatisticsQuerySchema extends StatisticsQuerySchemaType {}
type StatisticsQuerySchemaType = typeof statisticsQuerySchema;
export const statisticsQuery: StatisticsQuerySchema = statisticsQuerySchema;
export type StatisticsQuery = z.infer<typeof statisticsQuery>;

const granularity = stringEnum(STATISTICS_GRANULARITIES).describe(
  "The length of each point: 5m, 15m, 1h or 1d (UTC days). Usage is kept in 5-minute buckets: 1m is refused (400). " +
    `A series has at most ${STATISTICS_MAX_POINTS} points (31 days of 5-minute points).`,
);
const seriesQuerySchema = z.object({ from, to, granularity, metrics: metricsList, service, group_by: groupBy.optional(), regions: regions.optional(), countries: countries.optional(), resource: resource.optional() });
export interface StatisticsSeriesQuerySchema extends StatisticsSeriesQuerySchemaType {}
type StatisticsSeriesQuerySchemaType = typeof seriesQuerySchema;
export const statisticsSeriesQuery: StatisticsSeriesQuerySchema = seriesQuerySchema;
export type StatisticsSeriesQuery = z.infer<typeof statisticsSeriesQuery>;

const featureQuerySchema = z.object({
  from,
  to,
  group_by: textListQuery(["resource"] as const, "groups", "resource: one value per CDN resource.").optional(),
  resource: resource.optional(),
  flat: flat.optional(),
});
export interface FeatureUsageQuerySchema extends FeatureUsageQuerySchemaType {}
type FeatureUsageQuerySchemaType = typeof featureQuerySchema;
export const featureUsageQuery: FeatureUsageQuerySchema = featureQuerySchema;
export type FeatureUsageQuery = z.infer<typeof featureUsageQuery>;

const featureSeriesQuerySchema = z.object({ from, to, resource: resource.optional() });
export interface FeatureSeriesQuerySchema extends FeatureSeriesQuerySchemaType {}
type FeatureSeriesQuerySchemaType = typeof featureSeriesQuerySchema;
export const featureSeriesQuery: FeatureSeriesQuerySchema = featureSeriesQuerySchema;

/** A metric's value: a number, or for response_types the responses by MIME type. */
const metricValue = z.union([z.number(), z.record(z.number())]);
const metricValues = z.record(metricValue).describe("The metrics asked for, by name.");
/** A group's values, and the groups nested in it (by the next `group_by`), by the group's value. */
const groupNode = z.object({ metrics: metricValues }).catchall(z.unknown()).describe("One group: its `metrics`, and the groups of the next `group_by` inside it.");
const groupMap = z.record(groupNode);
const groupMaps = Object.fromEntries(STATISTICS_GROUPS.map((group) => [group, groupMap.optional().describe(`The groups by ${group}, when ${group} is the first of \`group_by\`.`)])) as Record<StatisticsGroup, z.ZodOptional<typeof groupMap>>;

/** Each metric asked for, also by its name at the top level, over every group. */
const topMetrics = Object.fromEntries(STATISTICS_METRICS.map((metric) => [metric, metricValue.optional().describe(`${metric} over every group, when asked for.`)])) as Record<StatisticsMetric, z.ZodOptional<typeof metricValue>>;

const flatRow = z
  .object({
    metrics: metricValues.describe("The group's metrics."),
    resource: integer().optional().describe("The resource's id (group_by resource)."),
    region: z.string().optional().describe("The region (group_by region)."),
    country: z.string().optional().describe("The edge servers' country, alpha-2 code (group_by country)."),
    vhost: z.string().optional().describe("The resource's CNAME (group_by vhost)."),
    client_country: z.string().optional().describe("The users' country, alpha-2 code (group_by client_country)."),
    protocol: z.string().optional().describe("The HTTP protocol (group_by protocol)."),
  })
  .strict()
  .describe("One group (flat): the value of each `group_by` and its metrics.");

const aggregatedStatsSchema = z
  .object({
    metrics: metricValues.describe("The metrics asked for, over every group."),
    ...topMetrics,
    ...groupMaps,
    rows: z.array(flatRow).optional().describe("With flat=true, in the place of the nested groups: one row per group."),
  })
  .strict()
  .describe(
    "The metrics over the whole period: under `metrics` and also each at the top level by its name, over everything that " +
      "matched; and, with `group_by`, the groups by the first of its values (a resource's id, a region, …), each with its " +
      "`metrics` and the groups of the next value of `group_by` inside it.",
  );
const resourceAggregatedSchema = aggregatedStatsSchema;
export interface ResourceAggregatedStatsSchema extends ResourceAggregatedStatsSchemaType {}
type ResourceAggregatedStatsSchemaType = typeof resourceAggregatedSchema;
export const resourceAggregatedStats: ResourceAggregatedStatsSchema = resourceAggregatedSchema;
export type ResourceAggregatedStats = z.infer<typeof resourceAggregatedStats>;

const point = z.array(metricValue).min(2).max(2).describe("A point of two values: the Unix time its period starts, and the value over it.");
const seriesValues = z.record(z.array(point)).describe("Each metric's points, by name, oldest first.");
const seriesNode = z.object({ metrics: seriesValues }).catchall(z.unknown()).describe("One group: its `metrics` series, and the groups of the next `group_by` inside it.");
const seriesMaps = Object.fromEntries(STATISTICS_GROUPS.map((group) => [group, z.record(seriesNode).optional().describe(`The groups by ${group}, when ${group} is the first of \`group_by\`.`)])) as Record<StatisticsGroup, z.ZodOptional<z.ZodRecord<z.ZodString, typeof seriesNode>>>;
const resourceUsageSchema = z
  .object({ metrics: seriesValues.describe("Each metric's points over everything that matched."), ...seriesMaps })
  .strict()
  .describe(
    "The metrics as series: a point per `granularity` from `from` (rounded down to the granularity) to `to`, zero where " +
      "there was no traffic; with `group_by`, the groups by its first value, each with its `metrics` and the next groups inside.",
  );
export interface ResourceUsageStatsSchema extends ResourceUsageStatsSchemaType {}
type ResourceUsageStatsSchemaType = typeof resourceUsageSchema;
export const resourceUsageStats: ResourceUsageStatsSchema = resourceUsageSchema;
export type ResourceUsageStats = z.infer<typeof resourceUsageStats>;

function featureAggregated<const Name extends "shield_usage" | "raw_logs_usage">(name: Name, what: string) {
  const count = (description: string) => ({ [name]: integer().describe(description) }) as { [Key in Name]: z.ZodNumber };
  const values = z.object(count("The number of resources.")).strict();
  return z
    .object({
      ...count(`The number of CDN resources that had ${what} on at any time in the period.`),
      metrics: values.describe("The same number, as the statistics routes give their metrics."),
      resource: z.record(z.object({ metrics: values.describe("1: the resource had it on.") }).strict()).optional().describe("With group_by=resource: 1 for each resource that had it on, by id."),
      rows: z
        .array(z.object({ metrics: values.describe("The row's number of resources."), resource: integer().optional().describe("The resource's id (group_by=resource).") }).strict())
        .optional()
        .describe("With flat=true, in the place of `resource`: a row per resource (with group_by=resource), or one row."),
    })
    .strict()
    .describe(`How many of the account's CDN resources had ${what} on in the period.`);
}

const shieldAggregatedSchema = featureAggregated("shield_usage", "origin shielding");
export interface ShieldAggregatedStatsSchema extends ShieldAggregatedStatsSchemaType {}
type ShieldAggregatedStatsSchemaType = typeof shieldAggregatedSchema;
export const shieldAggregatedStats: ShieldAggregatedStatsSchema = shieldAggregatedSchema;

const logsAggregatedSchema = featureAggregated("raw_logs_usage", "raw logs (an enabled logs uploader config naming them)");
export interface LogsAggregatedStatsSchema extends LogsAggregatedStatsSchemaType {}
type LogsAggregatedStatsSchemaType = typeof logsAggregatedSchema;
export const logsAggregatedStats: LogsAggregatedStatsSchema = logsAggregatedSchema;

const usagePeriodSchema = z
  .object({
    id: integer().describe("The period's id."),
    client_id: integer().describe("The account id."),
    resource_id: integer().describe("The CDN resource's id."),
    cname: z.string().nullable().describe("The resource's CNAME; null once the resource is deleted."),
    active_from: z.string().describe("When the feature was switched on (ISO 8601, UTC)."),
    active_to: z.string().nullable().describe("When it was switched off (ISO 8601, UTC); null while it is on."),
  })
  .strict()
  .describe("A period during which a CDN resource had the paid feature on.");
const usageSeriesSchema = z.array(usagePeriodSchema).describe("The periods that overlap the requested one, by start, then id.");
export interface UsageSeriesStatsSchema extends UsageSeriesStatsSchemaType {}
type UsageSeriesStatsSchemaType = typeof usageSeriesSchema;
export const usageSeriesStats: UsageSeriesStatsSchema = usageSeriesSchema;
export type UsageSeriesStats = z.infer<typeof usageSeriesStats>;

const PERIOD_RULES =
  "`from` must be before `to` (400 naming `query.to` otherwise). The demo data holds traffic from 2026-11-01 to 2026-11-04 " +
  "(UTC) for its active resources. A read: Users may call it.";

const demoPeriod = { from: "2026-11-01T00:00:00Z", to: "2026-11-02T00:00:00Z" };

const statistics = (method: string) => ({ ...read, client: { resource: "statistics", method } }) satisfies ClientMetadata;

export const cdnStatisticsRoutes = {
  getResourceUsageAggregated: route({
    method: "GET",
    path: "/cdn/statistics/aggregate/stats",
    query: statisticsQuery,
    responses: { 200: resourceAggregatedStats, ...errorResponses() },
    summary: "Get CDN traffic over a period",
    description:
      "Sums the traffic of the account's CDN resources from `from` to `to` (kept in 5-minute buckets; a bucket counts when it " +
      "starts in the period), filtered by `resource`, `regions` and `countries`, and grouped by `group_by`. Ratios and " +
      "averages are computed from the sums; 95_percentile, max_bandwidth and min_bandwidth from the period's buckets that " +
      `have traffic. The period is at most ${STATISTICS_MAX_DAYS} days. An unknown metric, group or region is 400 naming it; ` +
      `request_time and upstream_response_time are each asked for alone. ${PERIOD_RULES}`,
    metadata: statistics("getResourceUsageAggregated"),
  }, {
    example: {
      query: { ...demoPeriod, metrics: "sent_bytes,requests", service: "CDN", group_by: "resource", resource: 1 },
      response: { metrics: { sent_bytes: 10_919_210_094, requests: 336_762 }, resource: { "1": { metrics: { sent_bytes: 10_919_210_094, requests: 336_762 } } }, sent_bytes: 10_919_210_094, requests: 336_762 },
    },
    case: { path: () => "/cdn/statistics/aggregate/stats?from=2026-11-01T00:00:00Z&to=2026-11-02T00:00:00Z&metrics=sent_bytes&service=CDN&group_by=resource", ownsObjects: false },
  }),
  getResourceUsageSeries: route({
    method: "GET",
    path: "/cdn/statistics/series",
    query: statisticsSeriesQuery,
    responses: { 200: resourceUsageStats, ...errorResponses() },
    summary: "Get CDN traffic as time series",
    description:
      "The traffic of the account's CDN resources as a series of points of `granularity`, from `from` (rounded down to the " +
      "granularity, UTC) to `to`, filtered and grouped as the aggregate is. A metric of the whole period (95_percentile, " +
      `max_bandwidth, min_bandwidth) is 400 here; so is 1m, finer than the 5-minute buckets kept. ${PERIOD_RULES}`,
    metadata: statistics("getResourceUsageSeries"),
  }, {
    example: {
      query: { from: "2026-11-01T00:00:00Z", to: "2026-11-01T02:00:00Z", granularity: "1h", metrics: "sent_bytes", service: "CDN" },
      response: { metrics: { sent_bytes: [[1_793_491_200, 430_733_628], [1_793_494_800, 454_965_228]] } },
    },
    case: { path: () => "/cdn/statistics/series?from=2026-11-01T00:00:00Z&to=2026-11-01T06:00:00Z&granularity=1h&metrics=requests&service=CDN", ownsObjects: false },
  }),
  getShieldUsageAggregated: route({
    method: "GET",
    path: "/cdn/statistics/shield_usage/aggregated",
    query: featureUsageQuery,
    responses: { 200: shieldAggregatedStats, ...errorResponses() },
    summary: "Get origin shielding usage over a period",
    description:
      "How many of the account's CDN resources (those of `resource`, or all) had origin shielding on at any time from `from` to " +
      "`to`, by group_by=resource one per resource. Shielding is on while the resource has a shielding POP; the periods are " +
      `written as resources change. ${PERIOD_RULES}`,
    metadata: statistics("getShieldUsageAggregated"),
  }, {
    example: {
      query: { ...demoPeriod, group_by: "resource" },
      response: { shield_usage: 2, metrics: { shield_usage: 2 }, resource: { "1": { metrics: { shield_usage: 1 } }, "5": { metrics: { shield_usage: 1 } } } },
    },
    case: { path: () => "/cdn/statistics/shield_usage/aggregated?from=2026-11-01T00:00:00Z&to=2026-11-02T00:00:00Z", ownsObjects: false },
  }),
  getShieldUsageSeries: route({
    method: "GET",
    path: "/cdn/statistics/shield_usage/series",
    query: featureSeriesQuery,
    responses: { 200: usageSeriesStats, ...errorResponses() },
    summary: "List origin shielding periods",
    description: `The periods during which the account's CDN resources (those of \`resource\`, or all) had origin shielding on that overlap \`from\` to \`to\`. ${PERIOD_RULES}`,
    metadata: statistics("getShieldUsageSeries"),
  }, {
    example: {
      query: { ...demoPeriod, resource: 1 },
      response: [{ id: 1, client_id: 1, resource_id: 1, cname: "cdn.acme.example", active_from: "2026-01-21T09:00:00.000Z", active_to: null }],
    },
    case: { path: () => "/cdn/statistics/shield_usage/series?from=2026-11-01T00:00:00Z&to=2026-11-02T00:00:00Z", ownsObjects: false },
  }),
  getLogsUsageAggregated: route({
    method: "GET",
    path: "/cdn/statistics/raw_logs_usage/aggregated",
    query: featureUsageQuery,
    responses: { 200: logsAggregatedStats, ...errorResponses() },
    summary: "Get raw logs usage over a period",
    description:
      "How many of the account's CDN resources (those of `resource`, or all) had raw logs on at any time from `from` to `to`, " +
      "by group_by=resource one per resource. Raw logs are on while an enabled logs uploader config names the resource (or " +
      `covers all of them); the periods are written as configs change. ${PERIOD_RULES}`,
    metadata: statistics("getLogsUsageAggregated"),
  }, {
    example: {
      query: { ...demoPeriod, group_by: "resource" },
      response: {
        raw_logs_usage: 4,
        metrics: { raw_logs_usage: 4 },
        resource: { "1": { metrics: { raw_logs_usage: 1 } }, "3": { metrics: { raw_logs_usage: 1 } }, "5": { metrics: { raw_logs_usage: 1 } }, "7": { metrics: { raw_logs_usage: 1 } } },
      },
    },
    case: { path: () => "/cdn/statistics/raw_logs_usage/aggregated?from=2026-11-01T00:00:00Z&to=2026-11-02T00:00:00Z", ownsObjects: false },
  }),
  getLogsUsageSeries: route({
    method: "GET",
    path: "/cdn/statistics/raw_logs_usage/series",
    query: featureSeriesQuery,
    responses: { 200: usageSeriesStats, ...errorResponses() },
    summary: "List raw logs periods",
    description: `The periods during which the account's CDN resources (those of \`resource\`, or all) had raw logs on that overlap \`from\` to \`to\`. ${PERIOD_RULES}`,
    metadata: statistics("getLogsUsageSeries"),
  }, {
    example: {
      query: { ...demoPeriod, resource: 1 },
      response: [{ id: 4, client_id: 1, resource_id: 1, cname: "cdn.acme.example", active_from: "2026-03-07T09:00:00.000Z", active_to: null }],
    },
    case: { path: () => "/cdn/statistics/raw_logs_usage/series?from=2026-11-01T00:00:00Z&to=2026-11-02T00:00:00Z", ownsObjects: false },
  }),
} as const;

let countryNames: Map<string, string> | undefined;
let displayNames: Intl.DisplayNames | undefined;

/** The English short name of a country by its ISO 3166 alpha-2 code (the code itself for an unknown one). */
export function countryNameOf(code: string): string {
  displayNames ??= new Intl.DisplayNames(["en"], { type: "region" });
  return COUNTRY_CODES.has(code) ? (displayNames.of(code) ?? code) : code;
}

/**
 * The ISO 3166 alpha-2 code of a country given by its code or its English short name (either in any case,
 * a leading "the" dropped), or undefined for neither.
 */
export function countryCodeOf(text: string): string | undefined {
  const wanted = text.trim().toLowerCase().replace(/^the /, "");
  if (COUNTRY_CODES.has(wanted.toUpperCase())) return wanted.toUpperCase();
  if (!countryNames) {
    countryNames = new Map([...COUNTRY_CODES].map((code) => [countryNameOf(code).toLowerCase(), code]));
  }
  return countryNames.get(wanted);
}
