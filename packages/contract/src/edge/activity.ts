/**
 * What the edge apps did: an app's logs, the call and duration statistics of the account's apps, and the
 * account's overview (its apps, plan, networks and calls), at /edge/v1 paths and the platform's /fastedge/v1 ones (aliases). Every
 * figure is counted from the calls the apps served, one row per call.
 */
import type { ClientMetadata } from "../client-names.js";
import { z } from "zod";
import { errorResponses, idParam, integer, integerParam, stringEnum } from "../common.js";
import { route } from "../route.js";
import type { CaseWorld } from "../route-case.js";
import { paging } from "./shared.js";

/** The most slots a statistics answer has: (to − from) / step may not exceed it. */
export const EDGE_STATS_MAX_SLOTS = 1440;

/** The edge networks apps may be deployed to; new apps go to none until deployed, the default is edge-global. */
export const EDGE_NETWORKS = [
  { name: "edge-global", is_default: true },
  { name: "edge-eu", is_default: false },
  { name: "edge-us", is_default: false },
  { name: "edge-asia", is_default: false },
] as const;

/** A time as the statistics and logs take it: RFC 3339, any offset. */
const rfc3339 = (what: string) =>
  z
    .string()
    .datetime({ offset: true, message: "Must be an RFC 3339 date and time, e.g. 2026-11-02T00:00:00Z." })
    .describe(what);

/** An RFC 3339 time as the answers give it: UTC, with a Z. */
const utcTime = z.string().datetime({ offset: false, message: "Must be an RFC 3339 UTC time." });

const logEntrySchema = z
  .object({
    id: z.string().describe("The log entry's id."),
    app_name: z.string().describe("The name of the app that wrote it (its current name)."),
    client_ip: z.string().describe("The address of the client whose request the app served."),
    edge: z.string().describe('The edge location that ran the app, e.g. "ams-1".'),
    log: z.string().describe("The line the app logged."),
    request_id: z.string().describe("The id of the request the app served."),
    timestamp: utcTime.describe("When the app served the request."),
  })
  .strict()
  .describe("A line an app logged while serving a request.");
export interface EdgeAppLogSchema extends EdgeAppLogSchemaType {}
type EdgeAppLogSchemaType = typeof logEntrySchema;
export const edgeAppLog: EdgeAppLogSchema = logEntrySchema;

export type EdgeAppLog = z.infer<typeof edgeAppLog>;

const edgeAppLogPageSchema = z
  .object({
    logs: z.array(edgeAppLog).describe("The log entries of this page."),
    total_count: integer().describe("The number of entries that match, before limit and offset."),
  })
  .strict()
  .describe("A page of an app's log entries, and the number of all that match.");
export interface EdgeAppLogPageSchema extends EdgeAppLogPageSchemaType {}
type EdgeAppLogPageSchemaType = typeof edgeAppLogPageSchema;
export const edgeAppLogPage: EdgeAppLogPageSchema = edgeAppLogPageSchema;

const listEdgeAppLogsQuerySchema = z.object({
  from: rfc3339("The first time of the period, RFC 3339. Default: an hour before `to`.").optional(),
  to: rfc3339("The end of the period (not included), RFC 3339. Default: now.").optional(),
  client_ip: z.string().max(64).optional().describe("Only the entries of requests from this client address (exact)."),
  edge: z.string().max(64).optional().describe('Only the entries of this edge location, e.g. "ams-1" (exact).'),
  request_id: z.string().max(128).optional().describe("Only the entries of this request (exact)."),
  search: z.string().max(256).optional().describe("Only the entries whose line contains this text, case-insensitively."),
  sort: stringEnum(["desc", "asc"] as const).default("desc").describe("By time: desc (newest first, the default) or asc."),
  ...paging("log entries", 25),
});
export interface ListEdgeAppLogsQuerySchema extends ListEdgeAppLogsQuerySchemaType {}
type ListEdgeAppLogsQuerySchemaType = typeof listEdgeAppLogsQuerySchema;
export const listEdgeAppLogsQuery: ListEdgeAppLogsQuerySchema = listEdgeAppLogsQuerySchema;

export type ListEdgeAppLogsQuery = z.output<typeof listEdgeAppLogsQuery>;

const statsQuerySchema = z.object({
  from: rfc3339("The first time of the period, RFC 3339: the first slot starts there."),
  to: rfc3339("The end of the period (not included), RFC 3339; after `from`."),
  step: integerParam({
    min: 60,
    max: 2_592_000,
    description: `The length of a slot in seconds, 60 (a minute) to 2592000 (30 days), e.g. 300 or 3600; at most ${EDGE_STATS_MAX_SLOTS} slots in the period.`,
  }),
  id: integerParam({ min: 1, description: "Only the calls of this app of the account (an app of another account has none, as one that does not exist)." }).optional(),
  network: z.string().max(64).optional().describe('Only the calls served on this edge network, e.g. "edge-eu".'),
});
export interface EdgeStatsQuerySchema extends EdgeStatsQuerySchemaType {}
type EdgeStatsQuerySchemaType = typeof statsQuerySchema;
export const edgeStatsQuery: EdgeStatsQuerySchema = statsQuerySchema;

export type EdgeStatsQuery = z.output<typeof edgeStatsQuery>;

const callSeriesSchema = z
  .object({
    stats: z
      .array(
        z
          .object({
            time: utcTime.describe("The start of the slot."),
            count_by_status: z
              .array(z.object({ status: integer().describe("An HTTP status the apps answered."), count: integer().describe("The calls that answered it.") }).strict())
              .describe("The slot's calls by the status they answered, by status; empty for a slot without calls."),
          })
          .strict(),
      )
      .describe("Every slot of the period, in time order, those without calls too."),
  })
  .strict()
  .describe("The calls of the account's apps per slot, by status.");
export interface EdgeCallSeriesSchema extends EdgeCallSeriesSchemaType {}
type EdgeCallSeriesSchemaType = typeof callSeriesSchema;
export const edgeCallSeries: EdgeCallSeriesSchema = callSeriesSchema;

export type EdgeCallSeries = z.infer<typeof edgeCallSeries>;

const durationSeriesSchema = z
  .object({
    stats: z
      .array(
        z
          .object({
            time: utcTime.describe("The start of the slot."),
            avg: integer().describe("The mean duration, microseconds (rounded)."),
            min: integer().describe("The shortest, microseconds."),
            max: integer().describe("The longest, microseconds."),
            median: integer().describe("The median (50th percentile), microseconds (interpolated, rounded)."),
            perc75: integer().describe("The 75th percentile, microseconds (interpolated, rounded)."),
            perc90: integer().describe("The 90th percentile, microseconds (interpolated, rounded)."),
          })
          .strict(),
      )
      .describe("The slots of the period that had calls, in time order: a slot without calls has no durations to summarise."),
  })
  .strict()
  .describe("How long the account's apps ran per slot.");
export interface EdgeDurationSeriesSchema extends EdgeDurationSeriesSchemaType {}
type EdgeDurationSeriesSchemaType = typeof durationSeriesSchema;
export const edgeDurationSeries: EdgeDurationSeriesSchema = durationSeriesSchema;

export type EdgeDurationSeries = z.infer<typeof edgeDurationSeries>;

const edgeAccountSchema = z
  .object({
    app_count: integer().describe("The number of apps the account has."),
    daily_consumption: integer().describe("The calls of the account's apps in the current day (UTC)."),
    hourly_consumption: integer().describe("The calls of the account's apps in the current hour (UTC)."),
    monthly_consumption: integer().describe("The calls of the account's apps in the current calendar month (UTC)."),
    networks: z
      .array(z.object({ name: z.string().describe("The network's name."), is_default: z.boolean().describe("Whether it is the default network.") }).strict())
      .describe("The edge networks the account's apps may be deployed to."),
    plan_id: integer().describe("The plan the account's new apps are put on: the platform's first plan."),
    plan: z.string().describe("That plan's name."),
    status: integer().describe("The account's edge service status: 1 enabled (2 disabled and 5 suspended are set by the platform)."),
  })
  .strict()
  .describe("The account's edge apps at a glance: how many, on which plan and networks, and how many calls they served.");
export interface EdgeAccountSchema extends EdgeAccountSchemaType {}
type EdgeAccountSchemaType = typeof edgeAccountSchema;
export const edgeAccount: EdgeAccountSchema = edgeAccountSchema;

export type EdgeAccount = z.infer<typeof edgeAccount>;

const STATS_PERIOD =
  "The period [`from`, `to`) is cut into slots of `step` seconds from `from` (the last one may be cut short by `to`); " +
  `\`to\` must be after \`from\` and the period at most ${EDGE_STATS_MAX_SLOTS} slots (400 naming the parameter otherwise).`;

// The cases' object: the first app of the account.
const appOf = (w: CaseWorld) => w.first("edge.listApps");

/** The demo data's calls: a week of them from this hour. */
const DEMO_HOUR = "2026-11-02T00:00:00Z";

export const edgeActivityRoutes = {
  listAppLogs: route({
    method: "GET",
    path: "/edge/v1/apps/:app_id/logs",
    pathParams: z.object({ app_id: idParam("The edge app id; another account's is 404.") }),
    query: listEdgeAppLogsQuery,
    responses: { 200: edgeAppLogPage, ...errorResponses() },
    summary: "List an app's logs",
    description:
      "The lines the app logged in [`from`, `to`) (default: the last hour), newest first (or oldest with `sort=asc`), " +
      "ties by id; filtered by client address, edge, request id and a case-insensitive text; paged by `limit` (default " +
      "25, at most 1000) and `offset`, `total_count` counting every match. `to` must be after `from` (400). An app " +
      "that served no call in the period has no lines.",
    metadata: { access: "read", client: { resource: "apps.logs", method: "list" } } satisfies ClientMetadata,
  }, {
    example: {
      pathParams: { app_id: 3 },
      query: { from: DEMO_HOUR, to: "2026-11-02T01:00:00Z", sort: "asc", limit: 1 },
      response: {
        logs: [
          {
            id: "30001",
            app_name: "image-resize-us",
            client_ip: "198.51.100.23",
            edge: "nyc-1",
            log: "GET /checkout answered 200 in 822 us",
            request_id: "aa20da6e481a07221bc538b61cc889a7",
            timestamp: "2026-11-02T00:14:16.000Z",
          },
        ],
        total_count: 2,
      },
    },
    case: { path: (w) => `/edge/v1/apps/${appOf(w).id}/logs?from=${DEMO_HOUR}&to=2026-11-03T00:00:00Z&limit=5`, ownsObjects: true },
  }),
  getCallSeries: route({
    method: "GET",
    path: "/edge/v1/stats/calls",
    query: edgeStatsQuery,
    responses: { 200: edgeCallSeries, ...errorResponses() },
    summary: "Get call statistics",
    description:
      "The calls the account's apps served, per slot and by the HTTP status they answered, those of one app with `id` " +
      `and of one network with \`network\`. ${STATS_PERIOD} Every slot is listed, those without calls with no counts.`,
    metadata: { access: "read", client: { resource: "statistics", method: "getCallSeries" } } satisfies ClientMetadata,
  }, {
    example: {
      query: { from: DEMO_HOUR, to: "2026-11-02T02:00:00Z", step: 3600, id: 3 },
      response: {
        stats: [
          { time: "2026-11-02T00:00:00.000Z", count_by_status: [{ status: 200, count: 2 }] },
          { time: "2026-11-02T01:00:00.000Z", count_by_status: [{ status: 200, count: 3 }] },
        ],
      },
    },
    case: { path: () => `/edge/v1/stats/calls?from=${DEMO_HOUR}&to=2026-11-03T00:00:00Z&step=3600`, ownsObjects: false },
  }),
  getDurationSeries: route({
    method: "GET",
    path: "/edge/v1/stats/app_duration",
    query: edgeStatsQuery,
    responses: { 200: edgeDurationSeries, ...errorResponses() },
    summary: "Get duration statistics",
    description:
      "How long the account's apps ran per slot, in microseconds: mean, shortest, longest, median, 75th and 90th " +
      `percentiles; those of one app with \`id\` and of one network with \`network\`. ${STATS_PERIOD} Only the slots ` +
      "that had calls are listed.",
    metadata: { access: "read", client: { resource: "statistics", method: "getDurationSeries" } } satisfies ClientMetadata,
  }, {
    example: {
      query: { from: DEMO_HOUR, to: "2026-11-02T01:00:00Z", step: 3600, id: 3 },
      response: { stats: [{ time: "2026-11-02T00:00:00.000Z", avg: 837, min: 822, max: 851, median: 836, perc75: 844, perc90: 848 }] },
    },
    case: { path: () => `/edge/v1/stats/app_duration?from=${DEMO_HOUR}&to=2026-11-03T00:00:00Z&step=3600`, ownsObjects: false },
  }),
  getEdgeAccount: route({
    method: "GET",
    path: "/edge/v1/me",
    responses: { 200: edgeAccount, ...errorResponses() },
    summary: "Get the account's edge overview",
    description:
      "The account's edge apps at a glance: how many it has, the plan its new apps are put on, the networks they may be " +
      "deployed to, and the calls its apps served in the current hour, day and month (UTC), counted from their calls.",
    metadata: { access: "read", client: { resource: "account", method: "get" } } satisfies ClientMetadata,
  }, {
    example: {
      response: {
        app_count: 36,
        daily_consumption: 0,
        hourly_consumption: 0,
        monthly_consumption: 8820,
        networks: EDGE_NETWORKS.map((network) => ({ ...network })),
        plan_id: 1,
        plan: "basic",
        status: 1,
      },
    },
    case: { path: () => "/edge/v1/me", ownsObjects: false },
  }),
} as const;
