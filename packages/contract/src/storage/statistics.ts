/**
 * Object storage statistics: what the account's storages held and served, totalled over a period or in
 * series, from the hourly usage rows the database holds; their schemas and routes.
 */
import { z } from "zod";
import { errorResponses, integer, listOf, strictObject, stringEnum, withBody } from "../common.js";
import { route } from "../route.js";

/** The lengths of a series' periods, in hours by name. */
export const USAGE_GRANULARITIES = { "1h": 1, "12h": 12, "24h": 24 } as const;
/** The longest period a statistics request covers, in days. */
export const USAGE_PERIOD_MAX_DAYS = 366;
/** The period a request covers when it names no start: this many days before its end. */
export const USAGE_DEFAULT_DAYS = 30;

/** The names of the total metrics, each a whole number. */
export const USAGE_METRICS = [
  "file_quantity_sum_max",
  "requests_in_sum",
  "requests_out_edges_sum",
  "requests_out_wo_edges_sum",
  "requests_sum",
  "size_sum_bytes_hour",
  "size_sum_max",
  "size_sum_mean",
  "traffic_in_sum",
  "traffic_out_edges_sum",
  "traffic_out_wo_edges_sum",
  "traffic_sum",
] as const;

/** The series of a storage, each `[[time, value], …]`, one point per period. */
export const USAGE_SERIES = [
  "requests_in_series",
  "requests_out_edges_series",
  "requests_out_wo_edges_series",
  "requests_series",
  "size_bytes_hour_series",
  "size_max_series",
  "size_mean_series",
  "traffic_in_series",
  "traffic_out_edges_series",
  "traffic_out_wo_edges_series",
  "traffic_series",
] as const;

const METRIC_DESCRIPTIONS: Record<(typeof USAGE_METRICS)[number], string> = {
  file_quantity_sum_max: "The most files stored at once in the period (the hourly file counts summed over the storages, then their maximum).",
  requests_in_sum: "Requests that sent data in (uploads).",
  requests_out_edges_sum: "Requests that read data through the CDN's edges.",
  requests_out_wo_edges_sum: "Requests that read data directly, not through the CDN's edges.",
  requests_sum: "All requests: in, out through edges and out directly.",
  size_sum_bytes_hour: "Byte-hours stored: the hourly sizes summed over the hours (what storage is billed by).",
  size_sum_max: "The most bytes stored at once in the period (the hourly sizes summed over the storages, then their maximum).",
  size_sum_mean: "The mean of the hourly stored bytes (summed over the storages) over the hours that have usage, rounded down.",
  traffic_in_sum: "Bytes sent in.",
  traffic_out_edges_sum: "Bytes read through the CDN's edges.",
  traffic_out_wo_edges_sum: "Bytes read directly, not through the CDN's edges.",
  traffic_sum: "All bytes: in, out through edges and out directly.",
};

function metricsShape() {
  return Object.fromEntries(USAGE_METRICS.map((name) => [name, integer({ column: "bigint" }).describe(METRIC_DESCRIPTIONS[name])])) as Record<
    (typeof USAGE_METRICS)[number],
    z.ZodNumber
  >;
}

const usageMetricsSchema = z.object(metricsShape()).strict().describe("Usage totalled over a period.");
export interface UsageMetricsSchema extends UsageMetricsSchemaType {}
type UsageMetricsSchemaType = typeof usageMetricsSchema;
export const usageMetrics: UsageMetricsSchema = usageMetricsSchema;

export type UsageMetrics = z.infer<typeof usageMetrics>;

const usageTotalSchema = z
  .object({
    data: z
      .array(z.object({ metrics: usageMetrics }).strict().describe("The totals of the storages and period asked for."))
      .describe("One element: the totals over every storage and hour that match."),
  })
  .strict()
  .describe("The account's storage usage totalled over a period.");
export interface UsageTotalSchema extends UsageTotalSchemaType {}
type UsageTotalSchemaType = typeof usageTotalSchema;
export const usageTotal: UsageTotalSchema = usageTotalSchema;

export type UsageTotal = z.infer<typeof usageTotal>;

/** A point of a series: `[time, value]`, the time in Unix seconds or, with `ts_string`, an RFC 3339 string. */
const point = z
  .array(z.union([integer({ column: "bigint" }), z.string()]))
  .length(2)
  .describe("`[time, value]`: the start of the period (Unix seconds, or RFC 3339 with `ts_string`) and the value.");
const series = (what: string) => z.array(point).describe(`${what}: [[start of the period, value], …], one point per period, oldest first.`);

const storageSeriesSchema = z
  .object({
    name: z.string().describe("The storage name."),
    ...metricsShape(),
    buckets_series: z
      .record(z.array(point))
      .describe("File counts by bucket; empty: the usage rows are kept per storage, not per bucket (the storage's counts are in file_quantity_sum_max)."),
    requests_in_series: series("Requests in"),
    requests_out_edges_series: series("Requests out through edges"),
    requests_out_wo_edges_series: series("Requests out directly"),
    requests_series: series("All requests"),
    size_bytes_hour_series: series("Byte-hours stored"),
    size_max_series: series("The most bytes stored at once"),
    size_mean_series: series("The mean of the hourly stored bytes"),
    traffic_in_series: series("Bytes in"),
    traffic_out_edges_series: series("Bytes out through edges"),
    traffic_out_wo_edges_series: series("Bytes out directly"),
    traffic_series: series("All bytes"),
  })
  .strict()
  .describe("A storage's usage over the period: its totals and its series.");

const locationSeriesSchema = z
  .object({
    name: z.string().describe("The location's code."),
    ...metricsShape(),
    storages: z.record(storageSeriesSchema).describe("The location's storages, by name."),
  })
  .strict()
  .describe("A location's usage over the period: its totals and its storages'.");

const clientSeriesSchema = z
  .object({
    id: integer().describe("The account id."),
    ...metricsShape(),
    locations: z.record(locationSeriesSchema).describe("The account's locations with usage, by code."),
  })
  .strict()
  .describe("The account's usage over the period: its totals and its locations'.");

const usageSeriesSchema = z
  .object({
    data: z
      .object({ clients: z.record(clientSeriesSchema).describe("The caller's account, by id: the only one a token sees.") })
      .strict()
      .describe("The usage, grouped by account, location and storage."),
  })
  .strict()
  .describe("The account's storage usage in series, grouped by location and storage.");
export interface UsageSeriesSchema extends UsageSeriesSchemaType {}
type UsageSeriesSchemaType = typeof usageSeriesSchema;
export const usageSeries: UsageSeriesSchema = usageSeriesSchema;

export type UsageSeries = z.infer<typeof usageSeries>;

const DATE_OR_TIME = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2}))?$/;

/** A `from` or `to` as a time: a date is its midnight UTC; undefined when the text is no real date or time. */
export function usageTime(value: string): Date | undefined {
  if (!DATE_OR_TIME.test(value)) return undefined;
  const [year, month, day] = value.slice(0, 10).split("-").map(Number) as [number, number, number];
  const calendar = new Date(Date.UTC(year, month - 1, day));
  if (calendar.getUTCMonth() !== month - 1 || calendar.getUTCDate() !== day) return undefined;
  const time = value.length === 10 ? calendar.getTime() : Date.parse(value.replace(" ", "T"));
  return Number.isNaN(time) ? undefined : new Date(time);
}

const timeField = (what: string) =>
  z
    .string()
    .max(64, "At most 64 characters.")
    .refine((value) => usageTime(value) !== undefined, { message: "Must be a date (2026-01-31) or a time with its offset (2026-01-31T12:00:00Z)." })
    .optional()
    .describe(what);

const commonFields = {
  from: timeField(`The start of the period, included: a date (its midnight UTC) or a time with its offset. Default: ${USAGE_DEFAULT_DAYS} days before \`to\`.`),
  to: timeField(`The end of the period, excluded: a date (its midnight UTC) or a time with its offset. Default: now. The period is at most ${USAGE_PERIOD_MAX_DAYS} days and must not end before it starts.`),
  locations: listOf(z.string().max(64, "At most 64 characters."), { max: 100, noun: "locations", description: "Only storages in these locations (codes); left out or empty: every location." }).optional(),
  storages: listOf(z.string().max(255, "At most 255 characters."), { max: 1000, noun: "storages", description: "Only the storages with these names; left out or empty: every storage of the account." }).optional(),
};

function checkPeriod(body: { from?: string; to?: string }, ctx: z.RefinementCtx) {
  const to = body.to === undefined ? undefined : usageTime(body.to);
  const from = body.from === undefined ? undefined : usageTime(body.from);
  if (from && to && from.getTime() > to.getTime()) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["to"], message: "Must not be before from." });
  else if (from && to && to.getTime() - from.getTime() > USAGE_PERIOD_MAX_DAYS * 86_400_000)
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["from"], message: `The period must be at most ${USAGE_PERIOD_MAX_DAYS} days.` });
}

const usageTotalBodySchema = strictObject(commonFields).superRefine(checkPeriod).describe("The storages and period to total.");
export interface UsageTotalBodySchema extends UsageTotalBodySchemaType {}
type UsageTotalBodySchemaType = typeof usageTotalBodySchema;
export const usageTotalBody: UsageTotalBodySchema = usageTotalBodySchema;

export type UsageTotalBody = z.output<typeof usageTotalBody>;

const usageSeriesBodySchema = strictObject({
  ...commonFields,
  granularity: stringEnum(Object.keys(USAGE_GRANULARITIES) as ["1h", "12h", "24h"])
    .optional()
    .describe("The length of each period of the series: `1h`, `12h` or `24h` (default), counted from midnight UTC."),
  source: integer({ min: 0 }).optional().describe("Deprecated by the platform; taken and ignored."),
  ts_string: z.boolean().optional().describe("true: each point's time as an RFC 3339 string (`2026-01-31T00:00:00Z`); false (default): as Unix seconds."),
})
  .superRefine(checkPeriod)
  .describe("The storages, period and granularity of the series.");
export interface UsageSeriesBodySchema extends UsageSeriesBodySchemaType {}
type UsageSeriesBodySchemaType = typeof usageSeriesBodySchema;
export const usageSeriesBody: UsageSeriesBodySchema = usageSeriesBodySchema;

export type UsageSeriesBody = z.output<typeof usageSeriesBody>;

/** The demo data's storage 1 on 2026-01-22 (UTC), its first day of generated usage. */
const luxFirstDay: UsageMetrics = {
  file_quantity_sum_max: 1069,
  requests_in_sum: 834,
  requests_out_edges_sum: 11_640,
  requests_out_wo_edges_sum: 1464,
  requests_sum: 13_938,
  size_sum_bytes_hour: 26_025_848_832,
  size_sum_max: 1_168_820_736,
  size_sum_mean: 1_084_410_368,
  traffic_in_sum: 167_634_000,
  traffic_out_edges_sum: 1_746_000_000,
  traffic_out_wo_edges_sum: 175_680_000,
  traffic_sum: 2_089_314_000,
};

/** The same storage's first hour, 2026-01-22 00:00 UTC. */
const luxFirstHour: UsageMetrics = {
  file_quantity_sum_max: 1000,
  requests_in_sum: 23,
  requests_out_edges_sum: 105,
  requests_out_wo_edges_sum: 23,
  requests_sum: 151,
  size_sum_bytes_hour: 1_000_000_000,
  size_sum_max: 1_000_000_000,
  size_sum_mean: 1_000_000_000,
  traffic_in_sum: 4_623_000,
  traffic_out_edges_sum: 15_750_000,
  traffic_out_wo_edges_sum: 2_760_000,
  traffic_sum: 23_133_000,
};

const ROWS =
  "Answered from the hourly usage rows of the account's storages (deleted ones too, while their rows are kept) whose hour is in the period.";

export const storageStatisticsRoutes = {
  getUsageAggregated: route(
    {
      method: "POST",
      path: "/storage/stats/v1/storage/usage/total",
      body: usageTotalBody,
      responses: { 200: usageTotal, ...errorResponses(withBody) },
      summary: "Get total storage usage",
      description:
        "The account's storage usage totalled over the period `from` (included) to `to` (excluded), for the storages and locations " +
        `named (every one when left out). ${ROWS} A period without usage totals 0. A read: it changes nothing.`,
      metadata: { access: "read", client: { resource: "statistics", method: "getUsageAggregated" } },
    },
    {
      example: {
        body: { from: "2026-01-22", to: "2026-01-23", storages: ["acme-s3-lux"] },
        // Storage 1's first day of the demo data's generated usage.
        response: { data: [{ metrics: luxFirstDay }] },
      },
      case: { path: () => "/storage/stats/v1/storage/usage/total", ownsObjects: false, body: () => ({ from: "2026-01-01", to: "2026-02-01" }) },
    },
  ),
  getUsageSeries: route(
    {
      method: "POST",
      path: "/storage/stats/v1/storage/usage/series",
      body: usageSeriesBody,
      responses: { 200: usageSeries, ...errorResponses(withBody) },
      summary: "Get storage usage in series",
      description:
        "The account's storage usage over the period `from` (included) to `to` (excluded), grouped by location and storage, with " +
        "each storage's series in periods of `granularity` (default 24h) counted from midnight UTC; a period without usage is a " +
        `point of 0, and a storage without usage in the whole period is left out. ${ROWS} A read: it changes nothing.`,
      metadata: { access: "read", client: { resource: "statistics", method: "getUsageSeries" } },
    },
    {
      example: {
        body: { from: "2026-01-22T00:00:00Z", to: "2026-01-22T01:00:00Z", storages: ["acme-s3-lux"], granularity: "1h" },
        // Storage 1's first hour of the demo data's generated usage.
        response: {
          data: {
            clients: {
              "1": {
                id: 1,
                ...luxFirstHour,
                locations: {
                  "s-ed1": {
                    name: "s-ed1",
                    ...luxFirstHour,
                    storages: {
                      "acme-s3-lux": {
                        name: "acme-s3-lux",
                        ...luxFirstHour,
                        buckets_series: {},
                        requests_in_series: [[1769040000, 23]],
                        requests_out_edges_series: [[1769040000, 105]],
                        requests_out_wo_edges_series: [[1769040000, 23]],
                        requests_series: [[1769040000, 151]],
                        size_bytes_hour_series: [[1769040000, 1_000_000_000]],
                        size_max_series: [[1769040000, 1_000_000_000]],
                        size_mean_series: [[1769040000, 1_000_000_000]],
                        traffic_in_series: [[1769040000, 4_623_000]],
                        traffic_out_edges_series: [[1769040000, 15_750_000]],
                        traffic_out_wo_edges_series: [[1769040000, 2_760_000]],
                        traffic_series: [[1769040000, 23_133_000]],
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
      case: { path: () => "/storage/stats/v1/storage/usage/series", ownsObjects: false, body: () => ({ from: "2026-01-01", to: "2026-01-08", granularity: "24h" }) },
    },
  ),
} as const;
