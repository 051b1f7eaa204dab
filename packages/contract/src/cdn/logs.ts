/**
 * CDN raw logs: the requests the edge servers logged for the account's CDN resources, filtered, ordered
 * and paged with the platform's parameters (`<field>__<op>`), as JSON or downloaded as a zip archive of
 * one CSV or TSV file.
 */
import { z } from "zod";
import { errorResponses, integer, integerParam } from "../common.js";
import type { ClientMetadata } from "../client-names.js";
import { route } from "../route.js";
import { read } from "./shared.js";
import { periodEnd } from "./statistics.js";

/** The fields of a log record, in the order a download's columns take. */
export const CDN_LOG_FIELDS = [
  "timestamp",
  "resource_id",
  "cname",
  "client_ip",
  "method",
  "path",
  "status",
  "size",
  "cache_status",
  "datacenter",
  "referer",
  "user_agent",
  "sent_http_content_type",
  "tcpinfo_rtt",
] as const;
export type CdnLogField = (typeof CDN_LOG_FIELDS)[number];

/** The fields that can be filtered, the operators each takes, and whether its values are integers. */
export const CDN_LOG_FILTERS = {
  cache_status: { ops: ["eq", "in", "ne", "not_in"], integer: false },
  client_ip: { ops: ["eq", "in", "ne", "not_in"], integer: false },
  cname: { ops: ["contains", "eq", "in", "ne", "not_in"], integer: false },
  datacenter: { ops: ["eq", "in", "ne", "not_in"], integer: false },
  method: { ops: ["eq", "in", "ne", "not_in"], integer: false },
  resource_id: { ops: ["eq", "gt", "gte", "in", "lt", "lte", "ne", "not_in"], integer: true },
  size: { ops: ["eq", "gt", "gte", "in", "lt", "lte", "ne", "not_in"], integer: true },
  status: { ops: ["eq", "gt", "gte", "in", "lt", "lte", "ne", "not_in"], integer: true },
} as const satisfies Record<string, { ops: readonly string[]; integer: boolean }>;
export const CDN_LOG_ORDERINGS = ["method", "client_ip", "status", "size", "cname", "resource_id", "cache_status", "datacenter", "timestamp"] as const;
/** The longest period, in hours, and the page size's default and maximum. */
export const CDN_LOGS_MAX_HOURS = 6;
export const CDN_LOGS_PAGE = { default: 1000, max: 10_000 } as const;

const OP_WORDS: Record<string, string> = {
  eq: "equal to",
  ne: "not equal to",
  gt: "greater than",
  gte: "greater than or equal to",
  lt: "less than",
  lte: "less than or equal to",
  in: "one of (comma-separated)",
  not_in: "none of (comma-separated)",
  contains: "containing (at least 3 characters)",
};

type LogFilters = typeof CDN_LOG_FILTERS;
/** The filter parameters' names: `status__gte`, `cname__contains`, … */
export type CdnLogFilterParam = { [F in keyof LogFilters]: `${F}__${LogFilters[F]["ops"][number]}` }[keyof LogFilters];

type IntegerFilter = { [F in keyof LogFilters]: LogFilters[F]["integer"] extends true ? F : never }[keyof LogFilters];
/** A filter parameter's value: an integer to compare an integer field with, text otherwise (lists are comma-separated text). */
type FilterValue<P> = P extends `${infer F}__${infer Op}` ? (F extends IntegerFilter ? (Op extends "in" | "not_in" ? string : number) : string) : never;
type FilterParams = { [P in CdnLogFilterParam]: z.ZodOptional<z.ZodType<FilterValue<P>, z.ZodTypeDef, FilterValue<P>>> };

function filterParams(): FilterParams {
  const params: Record<string, z.ZodTypeAny> = {};
  for (const [field, { ops, integer: isInteger }] of Object.entries(CDN_LOG_FILTERS)) {
    for (const op of ops) {
      const description = `Records whose ${field} is ${OP_WORDS[op]} this.`;
      const list = op === "in" || op === "not_in";
      params[`${field}__${op}`] =
        isInteger && !list
          ? integerParam({ min: 0, description }).optional()
          : z
              .string()
              .min(op === "contains" ? 3 : 1, op === "contains" ? "Must be at least 3 characters." : "Must not be empty.")
              .max(4096, "Must be at most 4096 characters.")
              .describe(description)
              .optional();
    }
  }
  return params as FilterParams;
}

const period = {
  from: periodEnd(`Start of the period, included (ISO 8601 / RFC 3339). At most ${CDN_LOGS_MAX_HOURS} hours before \`to\`.`),
  to: periodEnd("End of the period, excluded (ISO 8601 / RFC 3339)."),
};
const ordering = z
  .string()
  .max(512, "Must be at most 512 characters.")
  .describe(`Comma-separated fields to order by, each descending with a leading \`-\`: ${CDN_LOG_ORDERINGS.join(", ")}. Default: timestamp, then the record's id.`);
const paging = {
  limit: integerParam({ min: 1, max: CDN_LOGS_PAGE.max, description: `Records per page, 1 to ${CDN_LOGS_PAGE.max}. Default ${CDN_LOGS_PAGE.default}.` }).default(CDN_LOGS_PAGE.default),
  offset: integerParam({ min: 0, description: "Matching records skipped. Default 0." }).default(0),
};

const logsQuerySchema = z.object({
  ...period,
  ...filterParams(),
  fields: z.string().max(512, "Must be at most 512 characters.").optional().describe(`Comma-separated fields each record has: ${CDN_LOG_FIELDS.join(", ")}. Default: all of them.`),
  ordering: ordering.optional(),
  ...paging,
});
export interface CdnLogsQuerySchema extends CdnLogsQuerySchemaType {}
type CdnLogsQuerySchemaType = typeof logsQuerySchema;
export const cdnLogsQuery: CdnLogsQuerySchema = logsQuerySchema;
export type CdnLogsQuery = z.infer<typeof cdnLogsQuery>;

const downloadQuerySchema = z.object({
  format: z.enum(["csv", "tsv"], { errorMap: () => ({ message: "Must be one of: csv, tsv." }) }).describe("The file's format: csv or tsv."),
  ...period,
  ...filterParams(),
  fields: z.string().max(512, "Must be at most 512 characters.").optional().describe(`Comma-separated columns of the file: ${CDN_LOG_FIELDS.join(", ")}. Default: all of them.`),
  sort: ordering.optional(),
  ...paging,
});
export interface CdnLogsDownloadQuerySchema extends CdnLogsDownloadQuerySchemaType {}
type CdnLogsDownloadQuerySchemaType = typeof downloadQuerySchema;
export const cdnLogsDownloadQuery: CdnLogsDownloadQuerySchema = downloadQuerySchema;
export type CdnLogsDownloadQuery = z.infer<typeof cdnLogsDownloadQuery>;

const logRecordSchema = z
  .object({
    timestamp: integer({ column: "bigint" }).describe("When the request was logged: a Unix time in seconds."),
    resource_id: integer().describe("The CDN resource's id."),
    cname: z.string().describe("The resource's CNAME."),
    client_ip: z.string().describe("The address of the client that sent the request."),
    method: z.string().describe("The request's HTTP method."),
    path: z.string().describe("The path requested."),
    status: integer().describe("The response's HTTP status."),
    size: integer({ column: "bigint" }).describe("The response's size in bytes."),
    cache_status: z.string().describe("The cache status: HIT, MISS, EXPIRED, STALE, BYPASS, REVALIDATED, …"),
    datacenter: z.string().describe("The data center that served the request."),
    referer: z.string().describe("The request's Referer header, `-` without one."),
    user_agent: z.string().describe("The request's User-Agent header."),
    sent_http_content_type: z.string().describe("The response's Content-Type."),
    tcpinfo_rtt: integer().describe("The TCP round-trip time to the client, in milliseconds."),
  })
  .partial()
  .strict()
  .describe("A logged request: the fields of `fields` (all by default).");

const logsPageSchema = z
  .object({
    data: z.array(logRecordSchema).describe("The records of this page."),
    meta: z.object({ count: integer().describe("The number of records that match, before limit and offset.") }).strict().describe("About the whole listing."),
  })
  .strict()
  .describe("A page of logged requests.");
export interface CdnLogsPageSchema extends CdnLogsPageSchemaType {}
type CdnLogsPageSchemaType = typeof logsPageSchema;
export const cdnLogsPage: CdnLogsPageSchema = logsPageSchema;
export type CdnLogsPage = z.infer<typeof cdnLogsPage>;

const RULES =
  `The period is at most ${CDN_LOGS_MAX_HOURS} hours and \`from\` must be before \`to\` (400 naming \`query.from\` or \`query.to\`); ` +
  "an unknown field or ordering is 400 naming the parameter. The demo data holds two requests per 5 minutes for each of its " +
  "active resources from 2026-11-01 to 2026-11-04 (UTC). A read: Users may call it.";

export const cdnLogsRoutes = {
  listLogs: route({
    method: "GET",
    path: "/cdn/advanced/v1/logs",
    query: cdnLogsQuery,
    responses: { 200: cdnLogsPage, ...errorResponses() },
    summary: "List raw logs",
    description:
      "The requests the edge servers logged for the account's CDN resources from `from` to `to`, filtered by the " +
      "`<field>__<op>` parameters (all must hold), with the fields of `fields`, ordered by `ordering` and paged by `limit` and " +
      `\`offset\`; \`meta.count\` is the number of all that match. ${RULES}`,
    metadata: { ...read, client: { resource: "logs", method: "list" } } satisfies ClientMetadata,
  }, {
    example: {
      query: { from: "2026-11-01T12:00:00Z", to: "2026-11-01T12:05:00Z", resource_id__eq: 1, fields: "timestamp,path,status,cache_status", ordering: "-timestamp", limit: 2 },
      response: {
        data: [
          { timestamp: 1_793_534_584, path: "/css/site.css", status: 404, cache_status: "EXPIRED" },
          { timestamp: 1_793_534_453, path: "/index.html", status: 206, cache_status: "REVALIDATED" },
        ],
        meta: { count: 2 },
      },
    },
    case: { path: () => "/cdn/advanced/v1/logs?from=2026-11-01T00:00:00Z&to=2026-11-01T01:00:00Z&limit=10", ownsObjects: false },
  }),
  downloadLogs: route({
    method: "GET",
    path: "/cdn/advanced/v1/logs/download",
    query: cdnLogsDownloadQuery,
    responses: { 200: z.string().describe("A zip archive (application/zip) holding one file, logs.csv or logs.tsv: a header row of the fields, then a row per record."), ...errorResponses() },
    summary: "Download raw logs",
    description:
      "The records the listing would give for the same parameters (`sort` in the place of `ordering`), as a zip archive of one " +
      `file in \`format\`: CSV (RFC 4180 quoting) or TSV (tabs and line breaks in values written as spaces). ${RULES}`,
    metadata: { ...read, client: { resource: "logs", method: "download" } } satisfies ClientMetadata,
  }, {
    example: {
      query: { format: "csv", from: "2026-11-01T12:00:00Z", to: "2026-11-01T13:00:00Z", resource_id__eq: 1 },
      response: "(a zip archive holding logs.csv)",
    },
    case: { path: () => "/cdn/advanced/v1/logs/download?format=csv&from=2026-11-01T00:00:00Z&to=2026-11-01T01:00:00Z", ownsObjects: false },
  }),
} as const;
