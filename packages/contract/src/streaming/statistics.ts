/**
 * Streaming statistics at the platform's paths and with its parameters: views and unique viewers in the
 * built-in player (by browser, country, region, host, page, OS, video, position), unique viewers and
 * watching time through the CDN, live streams' transcoding minutes, simultaneous streams and ingest
 * (ffprobe), and VOD storage and transcoding. Each is computed from the rows the database holds.
 */
import { z } from "zod";
import { errorResponses, integer, integerParam, stringEnum } from "../common.js";
import type { ClientMetadata } from "../client-names.js";
import { read } from "../roles.js";
import { route } from "../route.js";
import { periodEnd, STATISTICS_MAX_DAYS, STATISTICS_MAX_POINTS, textListQuery } from "../cdn/statistics.js";

/** What a statistic counts: a live stream, a video (VOD) or a playlist. */
export const STREAMING_ENTITY_TYPES = ["live", "vod", "playlist"] as const;
export type StreamingEntityType = (typeof STREAMING_ENTITY_TYPES)[number];
/** The built-in player's events: loaded, playback started (a view), playing (a progress report). */
export const PLAYER_EVENTS = ["init", "start", "watch"] as const;
/** What the player's views and unique viewers may be grouped by (`uniqs` also by date). */
export const PLAYER_VIEW_GROUPS = ["host", "os", "browser", "platform", "ip", "country", "event", "id"] as const;
export const PLAYER_UNIQUE_GROUPS = ["date", ...PLAYER_VIEW_GROUPS] as const;
export type PlayerGroup = (typeof PLAYER_UNIQUE_GROUPS)[number];
/** The points of a series; `1mo` (calendar months, UTC) only for the watching time. */
export const STREAMING_GRANULARITIES = ["1m", "5m", "15m", "1h", "1d"] as const;
export const WATCHING_GRANULARITIES = [...STREAMING_GRANULARITIES, "1mo"] as const;
export type StreamingGranularity = (typeof WATCHING_GRANULARITIES)[number];
/** The units of an ffprobe interval. */
export const FFPROBE_UNITS = ["second", "minute", "hour", "day", "week", "month"] as const;
export type FfprobeUnit = (typeof FFPROBE_UNITS)[number];
/** The most rows a ranking (popular videos, views by browser, …) answers. */
export const STREAMING_RANKING_MAX = 1000;
/** The most rows the grouped views and unique viewers answer. */
export const STREAMING_ROWS_MAX = 10_000;

const statistics = (method: string) => ({ ...read, client: { resource: "statistics", method } }) satisfies ClientMetadata;

const dateFrom = periodEnd("Start of the period, included (ISO 8601 with a time zone, e.g. 2026-11-01T00:00:00Z). Must be before `date_to`.");
const dateTo = periodEnd("End of the period, excluded (ISO 8601 with a time zone).");
const from = periodEnd("Start of the period, included (ISO 8601 with a time zone, e.g. 2026-11-01T00:00:00Z). Must be before `to`.");
const to = periodEnd("End of the period, excluded (ISO 8601 with a time zone).");
const datePeriod = { date_from: dateFrom, date_to: dateTo };
const period = { from, to };
const granularity = stringEnum(STREAMING_GRANULARITIES).describe(
  `The length of each point: 1m, 5m, 15m, 1h (default) or 1d (UTC days). A series has at most ${STATISTICS_MAX_POINTS} points.`,
);
const clientUserId = integerParam({ min: 1, description: "Only the streams or videos of this user of the account." });
const streamIdFilter = integerParam({ min: 1, description: "Only this stream's viewing. Another account's stream adds nothing." });
const slug = z.string().min(1, "Must not be empty.").max(64, "At most 64 characters.").describe("Only this video's viewing: the video's slug, as its URLs carry it.");
const entityType = stringEnum(STREAMING_ENTITY_TYPES).describe("live (streams), vod (videos) or playlist.");

const PLAYER_NOTE =
  "Counted from the events of the platform's built-in web player only (views in other players, or of the .m3u8/.mpd/.mp4 " +
  "links, are in the CDN statistics: /streaming/statistics/cdn/uniqs).";
const CDN_NOTE = "Counted from the CDN's delivery of the video, whatever player was used; a viewer is one IP address and user agent.";
const VIDEO_ID_NOTE = "A video is named by its id (VOD statistics keep the id, not a link to the video).";
const DEMO_NOTE = "The demo data holds viewing from 2026-11-01 to 2026-11-04 (UTC). A read: Users may call it.";
const PERIOD_RULES = "`from` (or `date_from`) must be before `to` (400 otherwise).";
const AGGREGATE_RULES = `${PERIOD_RULES} The period is at most ${STATISTICS_MAX_DAYS} days.`;
const SERIES_RULES =
  `${PERIOD_RULES} The points start at \`from\` rounded down to the granularity (UTC) and cover the period; each value is the ` +
  "point's, in order, zero where nothing was kept (the platform's SDKs read the values as a plain list of integers).";

const demoDay = { date_from: "2026-11-01T00:00:00Z", date_to: "2026-11-02T00:00:00Z" };
const demoHours = { from: "2026-11-01T12:00:00Z", to: "2026-11-01T16:00:00Z", granularity: "1h" };

/** The `data` list the statistics answer: `rows` says which rows it holds, `what` what the answer is. */
function dataOf<T extends z.ZodRawShape>(shape: T, rows: string, what: string) {
  return z.object({ data: z.array(z.object(shape).strict()).describe(rows) }).strict().describe(what);
}
const views = integer({ min: 0, column: "bigint" }).describe("Views: playbacks started.");
const nullableText = (description: string) => z.string().nullable().describe(`${description}; null unless grouped by it.`);

const groupFields = {
  id: integer().nullable().describe("The stream's, video's or playlist's id; null unless grouped by id."),
  browser: nullableText("The browser"),
  country: nullableText("The viewer's country (ISO 3166 alpha-2 code)"),
  event: nullableText("The player's event (init, start, watch)"),
  host: nullableText("The host name of the page the player was embedded in"),
  ip: nullableText("The viewer's IP address"),
  os: nullableText("The operating system"),
  platform: nullableText("desktop, mobile, tablet or tv"),
};

const viewsSchema = dataOf(
  {
    date: z.string().describe("The day (YYYY-MM-DD, UTC)."),
    type: entityType,
    views: integer({ min: 0, column: "bigint" }).describe("The player's events that matched."),
    ...groupFields,
  },
  `One row per day, type and value of each \`group\`, by day, then most views first; at most ${STREAMING_ROWS_MAX}, the first in that order.`,
  "The built-in player's events over a period, counted per day and grouped as asked.",
);
export interface StreamingViewsSchema extends StreamingViewsSchemaType {}
type StreamingViewsSchemaType = typeof viewsSchema;
export const streamingViews: StreamingViewsSchema = viewsSchema;

const uniqueViewersSchema = dataOf(
  {
    date: z.string().describe("The day (YYYY-MM-DD, UTC) with group=date; else the period's first day."),
    type: entityType,
    unique_ips: integer({ min: 0, column: "bigint" }).describe("The distinct IP addresses among the events that matched."),
    ...groupFields,
  },
  `One row per type (and day and value of each \`group\`), by day, then most viewers first; at most ${STREAMING_ROWS_MAX}, the first in that order.`,
  "The built-in player's unique viewers (distinct IP addresses) over a period, grouped as asked.",
);
export interface StreamingUniqueViewersSchema extends StreamingUniqueViewersSchemaType {}
type StreamingUniqueViewersSchemaType = typeof uniqueViewersSchema;
export const streamingUniqueViewers: StreamingUniqueViewersSchema = uniqueViewersSchema;

/** A ranking of the player's views by one field (and the fields of `extra`). */
function ranking<const Field extends string, Extra extends z.ZodRawShape = Record<never, never>>(field: Field, describe: string, extra?: Extra) {
  const shape = { [field]: z.string().describe(describe), ...extra, views } as { [K in Field]: z.ZodString } & Extra & { views: typeof views };
  return dataOf(shape, `Most views first, then by ${field}; at most ${STREAMING_RANKING_MAX}.`, `The built-in player's views over a period, by ${field}.`);
}
const byBrowserSchema = ranking("browser", "The browser.");
const byCountrySchema = ranking("country", "The viewers' country (ISO 3166 alpha-2 code).", { country_name: z.string().describe("Its English name.") });
const byRegionSchema = ranking("region", "The viewers' region (ISO 3166-2 code).", { region_name: z.string().describe("Its English name.") });
const byHostSchema = ranking("host", "The host name of the page the player was embedded in.");
const bySystemSchema = ranking("os", "The operating system.");
const byEmbedSchema = ranking("embed_url", "The URL of the page the player was embedded in.");
const popularSchema = ranking("id", "The video's id, as text.").describe("The videos most viewed in the built-in player over a period.");
export interface ViewsByBrowserSchema extends ViewsByBrowserSchemaType {}
type ViewsByBrowserSchemaType = typeof byBrowserSchema;
export const viewsByBrowser: ViewsByBrowserSchema = byBrowserSchema;
export interface ViewsByCountrySchema extends ViewsByCountrySchemaType {}
type ViewsByCountrySchemaType = typeof byCountrySchema;
export const viewsByCountry: ViewsByCountrySchema = byCountrySchema;
export interface ViewsByRegionSchema extends ViewsByRegionSchemaType {}
type ViewsByRegionSchemaType = typeof byRegionSchema;
export const viewsByRegion: ViewsByRegionSchema = byRegionSchema;
export interface ViewsByHostSchema extends ViewsByHostSchemaType {}
type ViewsByHostSchemaType = typeof byHostSchema;
export const viewsByHost: ViewsByHostSchema = byHostSchema;
export interface ViewsBySystemSchema extends ViewsBySystemSchemaType {}
type ViewsBySystemSchemaType = typeof bySystemSchema;
export const viewsBySystem: ViewsBySystemSchema = bySystemSchema;
export interface ViewsByEmbedSchema extends ViewsByEmbedSchemaType {}
type ViewsByEmbedSchemaType = typeof byEmbedSchema;
export const viewsByEmbed: ViewsByEmbedSchema = byEmbedSchema;
export interface PopularVideosSchema extends PopularVideosSchemaType {}
type PopularVideosSchemaType = typeof popularSchema;
export const popularVideos: PopularVideosSchema = popularSchema;

const heatmapSchema = dataOf(
  {
    viewers: integer({ min: 0, column: "bigint" }).describe("Distinct viewers (IP addresses) the player saw there."),
    seconds: integer({ min: 0 }).nullable().describe("type vod or playlist: the position in the video, in seconds; null for live."),
    time: z.string().nullable().describe("type live: the minute (ISO 8601, UTC); null for vod and playlist."),
  },
  "live: one row per minute the stream was watched, in time order; vod and playlist: one row per position the player reported, in order.",
  "Where in a stream or video the built-in player's viewers were: per minute of a live stream, per position of a video.",
);
export interface ViewsHeatmapSchema extends ViewsHeatmapSchemaType {}
type ViewsHeatmapSchemaType = typeof heatmapSchema;
export const viewsHeatmap: ViewsHeatmapSchema = heatmapSchema;

const cdnUniqsSchema = dataOf(
  { type: entityType, uniqs: integer({ min: 0, column: "bigint" }).describe("Distinct viewers over the period.") },
  "One row per type asked for (every type without `type`), in the order live, vod, playlist.",
  "Unique viewers through the CDN over a period, per type.",
);
export interface UniqueViewersCdnSchema extends UniqueViewersCdnSchemaType {}
type UniqueViewersCdnSchemaType = typeof cdnUniqsSchema;
export const uniqueViewersCdn: UniqueViewersCdnSchema = cdnUniqsSchema;

const ffprobeSchema = dataOf(
  {
    time: z.string().describe("The interval's start (ISO 8601, UTC)."),
    avg_bitrate: z.number().describe("The average bitrate of the ingest, in kbit/s."),
    max_fps: z.number().describe("The highest frame rate."),
    max_height: integer({ min: 0 }).describe("The largest frame height, in pixels."),
    max_keyframe_interval: integer({ min: 0 }).describe("The longest keyframe interval, in frames."),
    sum_frames: integer({ min: 0, column: "bigint" }).describe("The frames received."),
  },
  "One row per interval in which the stream was on the air, in time order: an interval without a row is one it was off.",
  "What a live stream's ingest was like (ffprobe of the incoming signal), per interval.",
);
export interface FfprobesSchema extends FfprobesSchemaType {}
type FfprobesSchemaType = typeof ffprobeSchema;
export const ffprobes: FfprobesSchema = ffprobeSchema;

const values = (description: string) => z.array(integer({ min: 0, column: "bigint" })).describe(description);
/** A series as the platform answers it: one item, the account's, with its values under `metrics.<name>`. */
function series<const Name extends "streams" | "vod">(name: Name, what: string) {
  return z
    .array(
      z
        .object({
          client: integer().describe("The account id."),
          metrics: z.object({ [name]: values(`${what}, one value per point.`) } as { [K in Name]: ReturnType<typeof values> }).strict(),
        })
        .strict(),
    )
    .describe("One item: the account's series.");
}
const streamSeriesSchema = series("streams", "The value of each point");
export interface StreamSeriesSchema extends StreamSeriesSchemaType {}
type StreamSeriesSchemaType = typeof streamSeriesSchema;
export const streamSeries: StreamSeriesSchema = streamSeriesSchema;
const vodSeriesSchema = series("vod", "The value of each point");
export interface VodSeriesSchema extends VodSeriesSchemaType {}
type VodSeriesSchemaType = typeof vodSeriesSchema;
export const vodSeries: VodSeriesSchema = vodSeriesSchema;

const pair = z.array(integer({ min: 0, column: "bigint" })).min(2).max(2).describe("The Unix time a point starts and its value.");
const storageSeriesSchema = z
  .array(
    z
      .object({
        client: integer().describe("The account id."),
        metrics: z
          .object({
            storage: z.array(pair).describe("Bytes stored at each point, as [time, bytes]."),
            max_volume_usage: pair.describe("The point with the most bytes stored, as [time, bytes] (the first of equals; [from, 0] when nothing was stored)."),
          })
          .strict(),
      })
      .strict(),
  )
  .describe("One item: the account's series.");
export interface StorageSeriesSchema extends StorageSeriesSchemaType {}
type StorageSeriesSchemaType = typeof storageSeriesSchema;
export const storageSeries: StorageSeriesSchema = storageSeriesSchema;

/** The watching time of each stream or video, in minutes. */
function totals<const Field extends "stream_id" | "slug">(field: Field, describe: string) {
  return z
    .array(
      z
        .object({
          client: integer().describe("The account id."),
          duration: integer({ min: 0, column: "bigint" }).describe("Minutes watched, rounded up."),
          client_user_id: integer().nullable().describe("The user the stream or video belongs to."),
          [field]: z.string().nullable().describe(describe),
        } as { client: z.ZodNumber; duration: z.ZodNumber; client_user_id: z.ZodNullable<z.ZodNumber> } & { [K in Field]: z.ZodNullable<z.ZodString> })
        .strict(),
    )
    .describe("One item per stream or video watched in the period, by id.");
}
const liveTotalsSchema = totals("stream_id", "The stream's id, as text.");
export interface LiveWatchTotalsSchema extends LiveWatchTotalsSchemaType {}
type LiveWatchTotalsSchemaType = typeof liveTotalsSchema;
export const liveWatchTotals: LiveWatchTotalsSchema = liveTotalsSchema;
const vodTotalsSchema = totals("slug", "The video's slug.");
export interface VodWatchTotalsSchema extends VodWatchTotalsSchemaType {}
type VodWatchTotalsSchemaType = typeof vodTotalsSchema;
export const vodWatchTotals: VodWatchTotalsSchema = vodTotalsSchema;

const playerFilters = {
  id: integerParam({ min: 1, description: "Only this stream's, video's or playlist's events (its id)." }).optional(),
  country: z.string().min(1, "Must not be empty.").max(64, "At most 64 characters.").optional().describe("Only viewers of this country: its ISO 3166 alpha-2 code or English name, in any case."),
  event: stringEnum(PLAYER_EVENTS).optional().describe("Only this event: init (the player loaded), start (playback began) or watch (a progress report)."),
  host: z.string().min(1, "Must not be empty.").max(253, "At most 253 characters.").optional().describe("Only players embedded in pages of this host name."),
  type: entityType.optional().describe("Only this type: live, vod or playlist."),
};

export const streamingStatisticsRoutes = {
  getViews: route({
    method: "GET",
    path: "/streaming/statistics/views",
    query: z.object({ ...datePeriod, ...playerFilters, group: textListQuery(PLAYER_VIEW_GROUPS, "groups", "Group by host, os, browser, platform, ip, country, event or id (repeated or comma-separated).").optional() }),
    responses: { 200: streamingViews, ...errorResponses() },
    summary: "Get player views",
    description:
      "The built-in player's events from `date_from` to `date_to`, counted per day (UTC) and type, filtered by `id`, `country`, " +
      "`event`, `host` and `type`, and grouped by each value of `group` (the fields of the groups not asked for are null). " +
      `Without \`event\`, every event counts. ${PLAYER_NOTE} ${AGGREGATE_RULES} ${DEMO_NOTE}`,
    metadata: statistics("getViews"),
  }, {
    example: { query: { ...demoDay, event: "start", type: "live" }, response: { data: [{ date: "2026-11-01", type: "live", views: 819, id: null, browser: null, country: null, event: null, host: null, ip: null, os: null, platform: null }] } },
    case: { path: () => "/streaming/statistics/views?date_from=2026-11-01T00:00:00Z&date_to=2026-11-02T00:00:00Z&group=country", ownsObjects: false },
  }),
  getUniqueViewers: route({
    method: "GET",
    path: "/streaming/statistics/uniqs",
    query: z.object({ ...datePeriod, ...playerFilters, group: textListQuery(PLAYER_UNIQUE_GROUPS, "groups", "Group by date, host, os, browser, platform, ip, country, event or id (repeated or comma-separated).").optional() }),
    responses: { 200: streamingUniqueViewers, ...errorResponses() },
    summary: "Get player unique viewers",
    description:
      "The distinct IP addresses among the built-in player's events from `date_from` to `date_to`, per type, filtered and " +
      "grouped as /streaming/statistics/views is (`group=date` for one row per day). " +
      `${PLAYER_NOTE} ${AGGREGATE_RULES} ${DEMO_NOTE}`,
    metadata: statistics("getUniqueViewers"),
  }, {
    example: { query: { ...demoDay, type: "live" }, response: { data: [{ date: "2026-11-01", type: "live", unique_ips: 253, id: null, browser: null, country: null, event: null, host: null, ip: null, os: null, platform: null }] } },
    case: { path: () => "/streaming/statistics/uniqs?date_from=2026-11-01T00:00:00Z&date_to=2026-11-02T00:00:00Z&group=date", ownsObjects: false },
  }),
  getViewsByBrowsers: route({
    method: "GET",
    path: "/streaming/statistics/browsers",
    query: z.object(datePeriod),
    responses: { 200: viewsByBrowser, ...errorResponses() },
    summary: "Get player views by browser",
    description: `The views (playbacks started) in the built-in player from \`date_from\` to \`date_to\`, by browser. ${PLAYER_NOTE} ${AGGREGATE_RULES} ${DEMO_NOTE}`,
    metadata: statistics("getViewsByBrowsers"),
  }, {
    example: { query: demoDay, response: { data: [{ browser: "Safari", views: 251 }, { browser: "Edge", views: 247 }, { browser: "Chrome", views: 244 }, { browser: "Firefox", views: 236 }] } },
    case: { path: () => "/streaming/statistics/browsers?date_from=2026-11-01T00:00:00Z&date_to=2026-11-02T00:00:00Z", ownsObjects: false },
  }),
  getViewsByCountry: route({
    method: "GET",
    path: "/streaming/statistics/countries",
    query: z.object(datePeriod),
    responses: { 200: viewsByCountry, ...errorResponses() },
    summary: "Get player views by country",
    description: `The views (playbacks started) in the built-in player from \`date_from\` to \`date_to\`, by the viewers' country. ${PLAYER_NOTE} ${AGGREGATE_RULES} ${DEMO_NOTE}`,
    metadata: statistics("getViewsByCountry"),
  }, {
    example: { query: demoDay, response: { data: [{ country: "US", country_name: "United States", views: 300 }, { country: "FR", country_name: "France", views: 167 }, { country: "GB", country_name: "United Kingdom", views: 148 }, { country: "JP", country_name: "Japan", views: 138 }, { country: "BR", country_name: "Brazil", views: 130 }, { country: "DE", country_name: "Germany", views: 95 }] } },
    case: { path: () => "/streaming/statistics/countries?date_from=2026-11-01T00:00:00Z&date_to=2026-11-02T00:00:00Z", ownsObjects: false },
  }),
  getViewsByHostname: route({
    method: "GET",
    path: "/streaming/statistics/hosts",
    query: z.object(datePeriod),
    responses: { 200: viewsByHost, ...errorResponses() },
    summary: "Get player views by host",
    description: `The views (playbacks started) in the built-in player from \`date_from\` to \`date_to\`, by the host name of the page it was embedded in. ${PLAYER_NOTE} ${AGGREGATE_RULES} ${DEMO_NOTE}`,
    metadata: statistics("getViewsByHostname"),
  }, {
    example: { query: demoDay, response: { data: [{ host: "news.example.org", views: 365 }, { host: "www.acme.example", views: 329 }, { host: "blog.acme.example", views: 284 }] } },
    case: { path: () => "/streaming/statistics/hosts?date_from=2026-11-01T00:00:00Z&date_to=2026-11-02T00:00:00Z", ownsObjects: false },
  }),
  getViewsByOperatingSystem: route({
    method: "GET",
    path: "/streaming/statistics/systems",
    query: z.object(datePeriod),
    responses: { 200: viewsBySystem, ...errorResponses() },
    summary: "Get player views by operating system",
    description: `The views (playbacks started) in the built-in player from \`date_from\` to \`date_to\`, by the viewers' operating system. ${PLAYER_NOTE} ${AGGREGATE_RULES} ${DEMO_NOTE}`,
    metadata: statistics("getViewsByOperatingSystem"),
  }, {
    example: { query: demoDay, response: { data: [{ os: "macOS", views: 199 }, { os: "iOS", views: 197 }, { os: "Linux", views: 195 }, { os: "Windows", views: 195 }, { os: "Android", views: 192 }] } },
    case: { path: () => "/streaming/statistics/systems?date_from=2026-11-01T00:00:00Z&date_to=2026-11-02T00:00:00Z", ownsObjects: false },
  }),
  getViewsByReferer: route({
    method: "GET",
    path: "/streaming/statistics/embeds",
    query: z.object(datePeriod),
    responses: { 200: viewsByEmbed, ...errorResponses() },
    summary: "Get player views by page",
    description: `The views (playbacks started) in the built-in player from \`date_from\` to \`date_to\`, by the URL of the page it was embedded in. ${PLAYER_NOTE} ${AGGREGATE_RULES} ${DEMO_NOTE}`,
    metadata: statistics("getViewsByReferer"),
  }, {
    example: { query: demoDay, response: { data: [{ embed_url: "https://news.example.org/blog/post-1", views: 104 }, { embed_url: "https://news.example.org/live", views: 98 }, { embed_url: "https://www.acme.example/blog/post-1", views: 87 }, { embed_url: "https://www.acme.example/live", views: 86 }, { embed_url: "https://blog.acme.example/watch/keynote", views: 84 }, { embed_url: "https://news.example.org/watch/keynote", views: 83 }, { embed_url: "https://blog.acme.example/", views: 80 }, { embed_url: "https://news.example.org/", views: 80 }, { embed_url: "https://www.acme.example/watch/keynote", views: 80 }, { embed_url: "https://www.acme.example/", views: 76 }, { embed_url: "https://blog.acme.example/blog/post-1", views: 60 }, { embed_url: "https://blog.acme.example/live", views: 60 }] } },
    case: { path: () => "/streaming/statistics/embeds?date_from=2026-11-01T00:00:00Z&date_to=2026-11-02T00:00:00Z", ownsObjects: false },
  }),
  getViewsByRegion: route({
    method: "GET",
    path: "/streaming/statistics/regions",
    query: z.object(datePeriod),
    responses: { 200: viewsByRegion, ...errorResponses() },
    summary: "Get player views by region",
    description: `The views (playbacks started) in the built-in player from \`date_from\` to \`date_to\`, by the region of the viewers' country (ISO 3166-2). ${PLAYER_NOTE} ${AGGREGATE_RULES} ${DEMO_NOTE}`,
    metadata: statistics("getViewsByRegion"),
  }, {
    example: { query: demoDay, response: { data: [{ region: "FR-IDF", region_name: "Île-de-France", views: 167 }, { region: "US-NY", region_name: "New York", views: 154 }, { region: "GB-ENG", region_name: "England", views: 148 }, { region: "US-CA", region_name: "California", views: 146 }, { region: "JP-13", region_name: "Tokyo", views: 138 }, { region: "BR-SP", region_name: "São Paulo", views: 130 }, { region: "DE-BE", region_name: "Berlin", views: 95 }] } },
    case: { path: () => "/streaming/statistics/regions?date_from=2026-11-01T00:00:00Z&date_to=2026-11-02T00:00:00Z", ownsObjects: false },
  }),
  getPopularVideos: route({
    method: "GET",
    path: "/streaming/statistics/popular",
    query: z.object(datePeriod),
    responses: { 200: popularVideos, ...errorResponses() },
    summary: "Get the most viewed videos",
    description:
      `The account's videos (VOD) by their views (playbacks started) in the built-in player from \`date_from\` to \`date_to\`. ${VIDEO_ID_NOTE} ` +
      `${PLAYER_NOTE} ${AGGREGATE_RULES} ${DEMO_NOTE}`,
    metadata: statistics("getPopularVideos"),
  }, {
    example: { query: demoDay, response: { data: [{ id: "3", views: 69 }, { id: "1", views: 45 }, { id: "5", views: 45 }] } },
    case: { path: () => "/streaming/statistics/popular?date_from=2026-11-01T00:00:00Z&date_to=2026-11-02T00:00:00Z", ownsObjects: false },
  }),
  getViewsHeatmap: route({
    method: "GET",
    path: "/streaming/statistics/heatmap",
    query: z.object({
      ...datePeriod,
      stream_id: integerParam({ min: 1, description: "The stream's id (type live) or the video's or playlist's id." }),
      type: entityType.describe("live: the stream's viewers per minute; vod or playlist: the viewers at each position of the video."),
    }),
    responses: { 200: viewsHeatmap, ...errorResponses() },
    summary: "Get what part of a video was watched",
    description:
      "How many viewers the built-in player saw watching (its progress reports) from `date_from` to `date_to`: for a live " +
      "stream per minute (`time`), for a video or playlist per position in it (`seconds`), so that where viewers stopped " +
      `watching shows. Another account's stream or video answers an empty list, as one with no views does. ${VIDEO_ID_NOTE} ${PLAYER_NOTE} ${AGGREGATE_RULES} ${DEMO_NOTE}`,
    metadata: statistics("getViewsHeatmap"),
  }, {
    example: { query: { date_from: "2026-11-01T02:00:00Z", date_to: "2026-11-01T03:00:00Z", stream_id: 1, type: "live" }, response: { data: [{ viewers: 1, seconds: null, time: "2026-11-01T02:11:00.000Z" }, { viewers: 1, seconds: null, time: "2026-11-01T02:12:00.000Z" }, { viewers: 1, seconds: null, time: "2026-11-01T02:24:00.000Z" }, { viewers: 1, seconds: null, time: "2026-11-01T02:25:00.000Z" }] } },
    // Any stream id is answered (another account's, or no stream's, with an empty list): the path is the same for both accounts.
    case: { path: () => "/streaming/statistics/heatmap?date_from=2026-11-01T00:00:00Z&date_to=2026-11-02T00:00:00Z&type=live&stream_id=1", ownsObjects: false },
  }),
  getUniqueViewersCdn: route({
    method: "GET",
    path: "/streaming/statistics/cdn/uniqs",
    query: z.object({
      ...datePeriod,
      id: integerParam({ min: 1, description: "Only this stream's, video's or playlist's viewers; ignored without `type`." }).optional(),
      type: entityType.optional(),
    }),
    responses: { 200: uniqueViewersCdn, ...errorResponses() },
    summary: "Get unique viewers through the CDN",
    description:
      "The distinct viewers of the account's streams, videos and playlists from `date_from` to `date_to`, per type: those of " +
      `\`type\` only when given, and of its \`id\` when both are given (an \`id\` without \`type\` is ignored). ${CDN_NOTE} ${AGGREGATE_RULES} ${DEMO_NOTE}`,
    metadata: statistics("getUniqueViewersCdn"),
  }, {
    example: { query: demoDay, response: { data: [{ type: "live", uniqs: 23 }, { type: "vod", uniqs: 23 }, { type: "playlist", uniqs: 0 }] } },
    case: { path: () => "/streaming/statistics/cdn/uniqs?date_from=2026-11-01T00:00:00Z&date_to=2026-11-02T00:00:00Z", ownsObjects: false },
  }),
  getLiveUniqueViewers: route({
    method: "GET",
    path: "/streaming/statistics/stream/viewers",
    query: z.object({ ...period, granularity: granularity.optional(), client_user_id: clientUserId.optional(), stream_id: streamIdFilter.optional() }),
    responses: { 200: streamSeries, ...errorResponses() },
    summary: "Get live unique viewers through the CDN as a series",
    description:
      "The distinct viewers of the account's live streams (those of `stream_id` and `client_user_id` when given) in each point. " +
      `Viewing is kept in 5-minute buckets: 1m is 400. ${CDN_NOTE} ${SERIES_RULES} ${DEMO_NOTE}`,
    metadata: statistics("getLiveUniqueViewers"),
  }, {
    example: { query: demoHours, response: [{ client: 1, metrics: { streams: [16, 19, 21, 16] } }] },
    case: { path: () => "/streaming/statistics/stream/viewers?from=2026-11-01T00:00:00Z&to=2026-11-02T00:00:00Z&granularity=1h", ownsObjects: false },
  }),
  getVodUniqueViewersCdn: route({
    method: "GET",
    path: "/streaming/statistics/vod/viewers",
    query: z.object({ ...period, granularity: granularity.optional(), client_user_id: clientUserId.optional(), slug: slug.optional() }),
    responses: { 200: vodSeries, ...errorResponses() },
    summary: "Get VOD unique viewers through the CDN as a series",
    description:
      "The distinct viewers of the account's videos (those of `slug` and `client_user_id` when given) in each point. " +
      `Viewing is kept in 5-minute buckets: 1m is 400. ${VIDEO_ID_NOTE} ${CDN_NOTE} ${SERIES_RULES} ${DEMO_NOTE}`,
    metadata: statistics("getVodUniqueViewersCdn"),
  }, {
    example: { query: demoHours, response: [{ client: 1, metrics: { vod: [6, 9, 10, 6] } }] },
    case: { path: () => "/streaming/statistics/vod/viewers?from=2026-11-01T00:00:00Z&to=2026-11-02T00:00:00Z&granularity=1h", ownsObjects: false },
  }),
  getLiveWatchTimeCdn: route({
    method: "GET",
    path: "/streaming/statistics/stream/watching_duration",
    query: z.object({
      from,
      to: to.optional().describe("End of the period, excluded (ISO 8601 with a time zone). Default: now."),
      granularity: stringEnum(WATCHING_GRANULARITIES).optional().describe(`5m, 15m, 1h (default), 1d or 1mo (calendar months, UTC). At most ${STATISTICS_MAX_POINTS} points.`),
      client_user_id: clientUserId.optional(),
      stream_id: streamIdFilter.optional(),
    }),
    responses: { 200: streamSeries, ...errorResponses() },
    summary: "Get live watching time through the CDN as a series",
    description:
      "The minutes the account's live streams (those of `stream_id` and `client_user_id` when given) were watched in each point, " +
      "each rounded up: the points do not add up to the total (/streaming/statistics/stream/watching_duration/total). Viewing is " +
      `kept in 5-minute buckets: 1m is 400. ${CDN_NOTE} ${SERIES_RULES} ${DEMO_NOTE}`,
    metadata: statistics("getLiveWatchTimeCdn"),
  }, {
    example: { query: demoHours, response: [{ client: 1, metrics: { streams: [124, 163, 251, 124] } }] },
    case: { path: () => "/streaming/statistics/stream/watching_duration?from=2026-11-01T00:00:00Z&to=2026-11-02T00:00:00Z&granularity=1h", ownsObjects: false },
  }),
  getLiveWatchTimeTotalCdn: route({
    method: "GET",
    path: "/streaming/statistics/stream/watching_duration/total",
    query: z.object({
      from: from.optional().describe("Start of the period, included (ISO 8601 with a time zone). Default: since the first viewing kept."),
      to: to.optional().describe("End of the period, excluded. Default: now."),
      client_user_id: clientUserId.optional(),
      stream_id: streamIdFilter.optional(),
    }),
    responses: { 200: liveWatchTotals, ...errorResponses() },
    summary: "Get live watching time through the CDN",
    description:
      "The minutes each of the account's live streams (those of `stream_id` and `client_user_id` when given) was watched from " +
      `\`from\` to \`to\`, rounded up once over the whole period. ${CDN_NOTE} ${PERIOD_RULES} ${DEMO_NOTE}`,
    metadata: statistics("getLiveWatchTimeTotalCdn"),
  }, {
    example: { query: { from: "2026-11-01T00:00:00Z", to: "2026-11-02T00:00:00Z", stream_id: 1 }, response: [{ client: 1, duration: 302, client_user_id: 5, stream_id: "1" }] },
    case: { path: () => "/streaming/statistics/stream/watching_duration/total?from=2026-11-01T00:00:00Z&to=2026-11-02T00:00:00Z", ownsObjects: false },
  }),
  getVodWatchTimeCdn: route({
    method: "GET",
    path: "/streaming/statistics/vod/watching_duration",
    query: z.object({
      from,
      to: to.optional().describe("End of the period, excluded (ISO 8601 with a time zone). Default: now."),
      granularity: stringEnum(WATCHING_GRANULARITIES).optional().describe(`5m, 15m, 1h (default), 1d or 1mo (calendar months, UTC). At most ${STATISTICS_MAX_POINTS} points.`),
      client_user_id: clientUserId.optional(),
      slug: slug.optional(),
    }),
    responses: { 200: vodSeries, ...errorResponses() },
    summary: "Get VOD watching time through the CDN as a series",
    description:
      "The minutes the account's videos (those of `slug` and `client_user_id` when given) were watched in each point, each " +
      "rounded up: the points do not add up to the total (/streaming/statistics/vod/watching_duration/total). Viewing is kept " +
      `in 5-minute buckets: 1m is 400. ${VIDEO_ID_NOTE} ${CDN_NOTE} ${SERIES_RULES} ${DEMO_NOTE}`,
    metadata: statistics("getVodWatchTimeCdn"),
  }, {
    example: { query: demoHours, response: [{ client: 1, metrics: { vod: [24, 32, 49, 24] } }] },
    case: { path: () => "/streaming/statistics/vod/watching_duration?from=2026-11-01T00:00:00Z&to=2026-11-02T00:00:00Z&granularity=1h", ownsObjects: false },
  }),
  getVodWatchTimeTotalCdn: route({
    method: "GET",
    path: "/streaming/statistics/vod/watching_duration/total",
    query: z.object({
      from: from.optional().describe("Start of the period, included (ISO 8601 with a time zone). Default: since the first viewing kept."),
      to: to.optional().describe("End of the period, excluded. Default: now."),
      client_user_id: clientUserId.optional(),
      slug: slug.optional(),
    }),
    responses: { 200: vodWatchTotals, ...errorResponses() },
    summary: "Get VOD watching time through the CDN",
    description:
      "The minutes each of the account's videos (those of `slug` and `client_user_id` when given) was watched from `from` to " +
      `\`to\`, rounded up once over the whole period. ${VIDEO_ID_NOTE} ${CDN_NOTE} ${PERIOD_RULES} ${DEMO_NOTE}`,
    metadata: statistics("getVodWatchTimeTotalCdn"),
  }, {
    example: { query: { from: "2026-11-01T00:00:00Z", to: "2026-11-02T00:00:00Z" }, response: [{ client: 1, duration: 302, client_user_id: 1, slug: "demo1x21ae6b2800" }, { client: 1, duration: 315, client_user_id: 1, slug: "demo3xb95355c60c" }, { client: 1, duration: 282, client_user_id: 1, slug: "demo5x4ec21e9116" }] },
    case: { path: () => "/streaming/statistics/vod/watching_duration/total?from=2026-11-01T00:00:00Z&to=2026-11-02T00:00:00Z", ownsObjects: false },
  }),
  getStreamSeries: route({
    method: "GET",
    path: "/streaming/statistics/stream",
    query: z.object({ ...period, granularity: granularity.optional() }),
    responses: { 200: streamSeries, ...errorResponses() },
    summary: "Get live transcoding minutes as a series",
    description:
      "The minutes the account's live streams were on the air and transcoded in each point, summed over the streams (two streams " +
      `live for one minute make 2). ${SERIES_RULES} The demo data's live streams are on the air for a few hours a day. A read: Users may call it.`,
    metadata: statistics("getStreamSeries"),
  }, {
    example: { query: demoHours, response: [{ client: 1, metrics: { streams: [180, 360, 180, 540] } }] },
    case: { path: () => "/streaming/statistics/stream?from=2026-11-01T00:00:00Z&to=2026-11-02T00:00:00Z&granularity=1h", ownsObjects: false },
  }),
  getMaxStreamsSeries: route({
    method: "GET",
    path: "/streaming/statistics/max_stream",
    query: z.object({ ...period, granularity: granularity.optional() }),
    responses: { 200: streamSeries, ...errorResponses() },
    summary: "Get simultaneous live streams as a series",
    description: `The most of the account's live streams on the air at once (in one minute) in each point. ${SERIES_RULES} A read: Users may call it.`,
    metadata: statistics("getMaxStreamsSeries"),
  }, {
    example: { query: demoHours, response: [{ client: 1, metrics: { streams: [3, 6, 3, 9] } }] },
    case: { path: () => "/streaming/statistics/max_stream?from=2026-11-01T00:00:00Z&to=2026-11-02T00:00:00Z&granularity=1h", ownsObjects: false },
  }),
  getFfprobes: route({
    method: "GET",
    path: "/streaming/statistics/ffprobe",
    query: z.object({
      ...datePeriod,
      stream_id: integerParam({ min: 1, description: "The stream. Another account's answers an empty list, as a stream that was never on the air does." }),
      interval: integerParam({ min: 1, max: 1000, description: "How many `units` each interval is long, 1 to 1000. Default 1." }).optional(),
      units: stringEnum(FFPROBE_UNITS).optional().describe("second, minute (default), hour, day, week (from Monday) or month (calendar months), UTC."),
    }),
    responses: { 200: ffprobes, ...errorResponses() },
    summary: "Get a live stream's ingest over time",
    description:
      "What the ingest of one of the account's live streams measured (bitrate, frame rate, height, keyframe interval, frames), " +
      "summed up per interval of `interval` × `units`, for the intervals in which it was on the air: when the stream was live " +
      `and when it was off. The ingest is measured once a minute, so intervals of seconds hold a minute each. ${AGGREGATE_RULES} ` +
      "The demo data's live streams are on the air for a few hours a day. A read: Users may call it.",
    metadata: statistics("getFfprobes"),
  }, {
    example: { query: { date_from: "2026-11-01T12:00:00Z", date_to: "2026-11-01T16:00:00Z", stream_id: 1, interval: 1, units: "hour" }, response: { data: [{ time: "2026-11-01T12:00:00.000Z", avg_bitrate: 3248.83, max_fps: 30, max_height: 720, max_keyframe_interval: 60, sum_frames: 107940 }, { time: "2026-11-01T13:00:00.000Z", avg_bitrate: 3252.17, max_fps: 30, max_height: 720, max_keyframe_interval: 60, sum_frames: 107940 }] } },
    // As the heatmap's: any stream id is answered, so the path is the same for both accounts.
    case: { path: () => "/streaming/statistics/ffprobe?date_from=2026-11-01T00:00:00Z&date_to=2026-11-02T00:00:00Z&stream_id=1", ownsObjects: false },
  }),
  getStorageSeries: route({
    method: "GET",
    path: "/streaming/statistics/storage",
    query: z.object({ ...period, granularity: granularity.optional() }),
    responses: { 200: storageSeries, ...errorResponses() },
    summary: "Get VOD storage as a series",
    description:
      "The bytes of the account's videos (processed and not deleted) in storage, as measured every 8 hours: each point holds the " +
      "most measured in it, or the last measure before it when none falls in it (granularities under a day repeat it). " +
      `${PERIOD_RULES} At most ${STATISTICS_MAX_POINTS} points. The demo data measures from 2026-10-01. A read: Users may call it.`,
    metadata: statistics("getStorageSeries"),
  }, {
    example: { query: { from: "2026-11-01T00:00:00Z", to: "2026-11-04T00:00:00Z", granularity: "1d" }, response: [{ client: 1, metrics: { storage: [[1_793_491_200, 55_200_000_000], [1_793_577_600, 55_680_000_000], [1_793_664_000, 56_160_000_000]], max_volume_usage: [1_793_664_000, 56_160_000_000] } }] },
    case: { path: () => "/streaming/statistics/storage?from=2026-11-01T00:00:00Z&to=2026-11-04T00:00:00Z&granularity=1d", ownsObjects: false },
  }),
  getVodStorageVolume: route({
    method: "GET",
    path: "/streaming/statistics/vod/storage_duration",
    query: z.object(period),
    responses: { 200: vodSeries, ...errorResponses() },
    summary: "Get minutes of VOD stored as a series",
    description:
      "The minutes of the account's videos (processed and not deleted) in storage, one point per day (UTC), measured every 8 " +
      `hours: each day holds the most measured in it, or the last measure before it. ${SERIES_RULES} The demo data measures from 2026-10-01. A read: Users may call it.`,
    metadata: statistics("getVodStorageVolume"),
  }, {
    example: { query: { from: "2026-11-01T00:00:00Z", to: "2026-11-04T00:00:00Z" }, response: [{ client: 1, metrics: { vod: [4235, 4274, 4313] } }] },
    case: { path: () => "/streaming/statistics/vod/storage_duration?from=2026-11-01T00:00:00Z&to=2026-11-04T00:00:00Z", ownsObjects: false },
  }),
  getVodTranscodingDuration: route({
    method: "GET",
    path: "/streaming/statistics/vod/transcoding_duration",
    query: z.object(period),
    responses: { 200: vodSeries, ...errorResponses() },
    summary: "Get minutes of VOD transcoded as a series",
    description:
      "The minutes of video the account's uploads were transcoded into, one point per day (UTC), from the measures taken every 8 hours. " +
      `${SERIES_RULES} The demo data measures from 2026-10-01. A read: Users may call it.`,
    metadata: statistics("getVodTranscodingDuration"),
  }, {
    example: { query: { from: "2026-11-01T00:00:00Z", to: "2026-11-04T00:00:00Z" }, response: [{ client: 1, metrics: { vod: [45, 54, 54] } }] },
    case: { path: () => "/streaming/statistics/vod/transcoding_duration?from=2026-11-01T00:00:00Z&to=2026-11-04T00:00:00Z", ownsObjects: false },
  }),
} as const;
