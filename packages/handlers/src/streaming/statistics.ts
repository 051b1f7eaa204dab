/**
 * Streaming statistics: the built-in player's events (`streaming_player_events`), the CDN's viewing in
 * 5-minute buckets (`streaming_cdn_views`), the live ingest's minutes (`streaming_live_minutes`) and the
 * VOD measures every 8 hours (`streaming_vod_usage`), each filtered and aggregated in SQL as the
 * parameters say; series are filled out to every point here.
 */
import {
  countryCodeOf,
  countryNameOf,
  STATISTICS_MAX_DAYS,
  STATISTICS_MAX_POINTS,
  STREAMING_ENTITY_TYPES,
  STREAMING_RANKING_MAX,
  STREAMING_ROWS_MAX,
  streamingStatisticsRoutes,
  type FfprobeUnit,
  type PlayerGroup,
  type StreamingEntityType,
  type StreamingGranularity,
} from "@cloudplane/contract";
import { sql, type Database, type SQL } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { periodOf, type Period } from "../cdn/statistics.js";
import { rowsOf } from "../rows.js";
import { invalid } from "../errors.js";
import { served } from "../served.js";
import type { RequestExtension, RouteDeps } from "../types.js";

const STEP_SECONDS: Record<Exclude<StreamingGranularity, "1mo">, number> = { "1m": 60, "5m": 300, "15m": 900, "1h": 3600, "1d": 86_400 };
const DAY_SECONDS = 86_400;
/** 1970-01-05, the first Monday after the Unix epoch: where weeks start. */
const MONDAY_OFFSET = 4 * DAY_SECONDS;
const UNIT_SECONDS: Record<Exclude<FfprobeUnit, "month">, number> = { second: 1, minute: 60, hour: 3600, day: DAY_SECONDS, week: 7 * DAY_SECONDS };

const datePeriodNames = { from: "date_from", to: "date_to" };

/** The points of a series over a period: their start times, and the SQL of the point a time falls in. */
interface Points {
  times: number[];
  pointOf(time: SQL): SQL;
}

const monthStart = (time: SQL) => sql`extract(epoch from date_trunc('month', ${time} at time zone 'UTC') at time zone 'UTC')::bigint`;

/** The points of `granularity` from `period.from` (rounded down) to `period.to`; 400 naming `field` past STATISTICS_MAX_POINTS. */
function pointsOf(period: Period, granularity: StreamingGranularity, field = "query.granularity"): Points {
  const times: number[] = [];
  const end = period.to.getTime() / 1000;
  if (granularity === "1mo") {
    const from = period.from;
    for (let month = from.getUTCFullYear() * 12 + from.getUTCMonth(); ; month++) {
      const time = Date.UTC(Math.floor(month / 12), month % 12, 1) / 1000;
      if (time >= end) break;
      times.push(time);
      if (times.length > STATISTICS_MAX_POINTS) break;
    }
  } else {
    const step = STEP_SECONDS[granularity];
    const first = Math.floor(period.from.getTime() / 1000 / step) * step;
    const count = Math.ceil((end - first) / step);
    if (count <= STATISTICS_MAX_POINTS) for (let index = 0; index < count; index++) times.push(first + index * step);
    else times.length = count;
  }
  if (times.length > STATISTICS_MAX_POINTS)
    throw invalid(field, `The period holds more than ${STATISTICS_MAX_POINTS} points of ${granularity}: a shorter period or a coarser granularity.`);
  if (granularity === "1mo") return { times, pointOf: monthStart };
  const step = STEP_SECONDS[granularity];
  return { times, pointOf: (time) => sql`(extract(epoch from ${time})::bigint / ${sql.raw(String(step))}) * ${sql.raw(String(step))}` };
}

/** Each point's value from rows of `p` (the point) and `v`, zero where no row is. */
function valuesAt(points: Points, rows: Record<string, unknown>[]): number[] {
  const byPoint = new Map(rows.map((row) => [Number(row.p), Number(row.v)]));
  return points.times.map((time) => byPoint.get(time) ?? 0);
}

const timestamp = (date: Date) => sql`${date.toISOString()}::timestamptz`;
const inPeriod = (column: SQL, period: Period) => sql`${column} >= ${timestamp(period.from)} and ${column} < ${timestamp(period.to)}`;

/** The SQL of each group of the player's statistics. */
const PLAYER_GROUP: Record<PlayerGroup, SQL> = {
  // Grouped by the day as a date (cheaper than by its text), written as text once per group.
  date: sql`(e.time at time zone 'UTC')::date`,
  host: sql`e.host`,
  os: sql`e.os`,
  browser: sql`e.browser`,
  platform: sql`e.platform`,
  ip: sql`e.ip`,
  country: sql`e.country`,
  event: sql`e.event`,
  id: sql`e.entity_id`,
};
const NULLABLE_GROUPS = ["id", "browser", "country", "event", "host", "ip", "os", "platform"] as const;

interface PlayerFilters {
  id?: number;
  country?: string;
  event?: string;
  host?: string;
  type?: StreamingEntityType;
}

/** The player's events of the account in the period that match the filters; 400 naming `country` when it is no country. */
function playerWhere(accountId: number, period: Period, filters: PlayerFilters = {}): SQL {
  const conditions = [sql`e.account_id = ${accountId}`, inPeriod(sql`e.time`, period)];
  if (filters.id !== undefined) conditions.push(sql`e.entity_id = ${filters.id}`);
  if (filters.country !== undefined) {
    const code = countryCodeOf(filters.country);
    if (!code) throw invalid("query.country", "Must be a country: its ISO 3166 alpha-2 code (FR) or its English short name (france).");
    conditions.push(sql`e.country = ${code}`);
  }
  if (filters.event !== undefined) conditions.push(sql`e.event = ${filters.event}`);
  if (filters.host !== undefined) conditions.push(sql`e.host = ${filters.host.toLowerCase()}`);
  if (filters.type !== undefined) conditions.push(sql`e.type = ${filters.type}`);
  return sql.join(conditions, sql` and `);
}

/** The player's views (or unique IPs) per type and each group, as the platform's rows name them. */
async function playerRows(db: Database, where: SQL, groups: PlayerGroup[], measure: "views" | "unique_ips", firstDay: string) {
  const keys = [...new Set<PlayerGroup>(measure === "views" ? ["date", ...groups] : groups)];
  const select = [sql`e.type`, ...keys.map((group) => sql`${group === "date" ? sql`to_char(${PLAYER_GROUP.date}, 'YYYY-MM-DD')` : PLAYER_GROUP[group]} as ${sql.raw(`"${group}"`)}`)];
  const value = measure === "views" ? sql`count(*)` : sql`count(distinct e.ip)`;
  const order = [...(keys.includes("date") ? [sql.raw(`"date"`)] : []), sql`n desc`, sql`e.type`, ...keys.filter((key) => key !== "date").map((key) => sql.raw(`"${key}"`))];
  const rows = rowsOf(
    await db.execute(sql`
      select ${sql.join(select, sql`, `)}, ${value}::float8 as n
      from streaming_player_events e
      where ${where}
      group by ${sql.join([sql`e.type`, ...keys.map((group) => PLAYER_GROUP[group])], sql`, `)}
      order by ${sql.join(order, sql`, `)}
      limit ${STREAMING_ROWS_MAX}`),
  );
  return rows.map((row) => ({
    date: keys.includes("date") ? String(row.date) : firstDay,
    type: row.type as StreamingEntityType,
    [measure]: Number(row.n),
    ...Object.fromEntries(NULLABLE_GROUPS.map((group) => [group, keys.includes(group) ? (group === "id" ? Number(row.id) : String(row[group])) : null])),
  }));
}

/** The views (start events) of the account in the period by one field, most first. */
async function ranking(db: Database, accountId: number, period: Period, field: SQL, extra?: SQL, only?: SQL) {
  return rowsOf(
    await db.execute(sql`
      select ${field} as k, ${extra ?? sql`null`} as extra, count(*)::float8 as views
      from streaming_player_events e
      where ${playerWhere(accountId, period)} and e.event = 'start' ${only ? sql`and ${only}` : sql``}
      group by 1, 2
      order by views desc, k
      limit ${STREAMING_RANKING_MAX}`),
  );
}

/** The CDN's viewing of the account's entities of `type` in the period, by user and stream or slug. */
function cdnWhere(accountId: number, type: StreamingEntityType, period: Period, filters: { client_user_id?: number; stream_id?: number; slug?: string }): SQL {
  const conditions = [sql`v.account_id = ${accountId}`, sql`v.type = ${type}`, inPeriod(sql`v.bucket`, period)];
  if (filters.client_user_id !== undefined) conditions.push(sql`v.client_user_id = ${filters.client_user_id}`);
  if (filters.stream_id !== undefined) conditions.push(sql`v.entity_id = ${filters.stream_id}`);
  if (filters.slug !== undefined) conditions.push(sql`v.slug = ${filters.slug}`);
  return sql.join(conditions, sql` and `);
}

/** The CDN's viewing is kept in 5-minute buckets: a 1-minute series of it is refused. */
function bucketGranularity(granularity: StreamingGranularity | undefined): StreamingGranularity {
  if (granularity === "1m") throw invalid("query.granularity", "Viewing is kept in 5-minute buckets: use 5m, 15m, 1h or 1d.");
  return granularity ?? "1h";
}

/** A series of the CDN's viewing: distinct viewers, or minutes watched (rounded up per point). */
async function cdnSeries(db: Database, where: SQL, points: Points, measure: "viewers" | "minutes"): Promise<number[]> {
  const value = measure === "viewers" ? sql`count(distinct v.viewer)` : sql`ceil(sum(v.watched_seconds) / 60.0)`;
  const rows = rowsOf(await db.execute(sql`select ${points.pointOf(sql`v.bucket`)} as p, ${value}::float8 as v from streaming_cdn_views v where ${where} group by 1`));
  return valuesAt(points, rows);
}

/** The minutes watched of each entity in the period (from the first bucket kept when no `from`, to now when no `to`). */
async function watchTotals(db: Database, accountId: number, type: "live" | "vod", query: { from?: string; to?: string; client_user_id?: number; stream_id?: number; slug?: string }) {
  const { from, to } = periodOf({ from: query.from ?? new Date(0).toISOString(), to: query.to ?? new Date().toISOString() });
  return rowsOf(
    await db.execute(sql`
      select v.entity_id, max(v.client_user_id) as client_user_id, max(v.slug) as slug, ceil(sum(v.watched_seconds) / 60.0)::float8 as minutes
      from streaming_cdn_views v
      where ${cdnWhere(accountId, type, { from, to }, query)}
      group by v.entity_id
      order by v.entity_id`),
  );
}

/**
 * A gauge measured every 8 hours, per point: the most measured in the point, or, where none was, the last
 * measure before it (0 before the first).
 */
async function gaugeSeries(db: Database, accountId: number, column: "storage_bytes" | "storage_minutes", period: Period, points: Points, stepSeconds: number) {
  const value = sql.raw(column);
  const rows = rowsOf(
    await db.execute(sql`
      (select u.time, u.${value}::float8 as v from streaming_vod_usage u where u.account_id = ${accountId} and u.time < ${timestamp(period.from)} order by u.time desc limit 1)
      union all
      (select u.time, u.${value}::float8 as v from streaming_vod_usage u where u.account_id = ${accountId} and ${inPeriod(sql`u.time`, period)} order by u.time)`),
  ).map((row) => ({ time: new Date(row.time as string).getTime() / 1000, value: Number(row.v) }));
  rows.sort((a, b) => a.time - b.time);
  let last = 0;
  let index = 0;
  return points.times.map((time) => {
    while (index < rows.length && rows[index]!.time < time) last = rows[index++]!.value;
    let most: number | undefined;
    while (index < rows.length && rows[index]!.time < time + stepSeconds) {
      most = Math.max(most ?? 0, rows[index]!.value);
      last = rows[index++]!.value;
    }
    return most ?? last;
  });
}

const accountSeries = <Name extends "streams" | "vod">(accountId: number, name: Name, list: number[]) => [{ client: accountId, metrics: { [name]: list } as { [K in Name]: number[] } }];

/** The SQL of the interval of `interval` × `units` a time falls in, as its start. */
function ffprobeInterval(time: SQL, interval: number, units: FfprobeUnit): SQL {
  if (units === "month") {
    const months = sql`((extract(year from ${time} at time zone 'UTC')::int * 12 + extract(month from ${time} at time zone 'UTC')::int - 1) / ${sql.raw(String(interval))}) * ${sql.raw(String(interval))}`;
    return sql`make_timestamptz(${months} / 12, ${months} % 12 + 1, 1, 0, 0, 0, 'UTC')`;
  }
  const width = UNIT_SECONDS[units] * interval;
  const offset = units === "week" ? MONDAY_OFFSET : 0;
  return sql`to_timestamp(floor((extract(epoch from ${time}) - ${sql.raw(String(offset))}) / ${sql.raw(String(width))}) * ${sql.raw(String(width))} + ${sql.raw(String(offset))})`;
}

export function streamingStatistics(deps: RouteDeps) {
  const { db } = deps;

  const rankingRoute = (field: SQL, name: string, extra?: { sql: SQL; name: string }) =>
    async ({ query }: { query: { date_from: string; date_to: string } }, { request }: { request: RequestExtension }) => {
      const period = periodOf({ from: query.date_from, to: query.date_to }, STATISTICS_MAX_DAYS, datePeriodNames);
      const rows = await ranking(db, request.caller.accountId, period, field, extra?.sql);
      return {
        status: 200 as const,
        body: { data: rows.map((row) => ({ [name]: String(row.k), ...(extra ? { [extra.name]: String(row.extra) } : {}), views: Number(row.views) })) } as never,
      };
    };

  return tsr.routerWithMiddleware(served("streaming", streamingStatisticsRoutes))<RequestExtension>({
    getViews: async ({ query }, { request }) => {
      const period = periodOf({ from: query.date_from, to: query.date_to }, STATISTICS_MAX_DAYS, datePeriodNames);
      const data = await playerRows(db, playerWhere(request.caller.accountId, period, query), query.group ?? [], "views", period.from.toISOString().slice(0, 10));
      return { status: 200, body: { data } as never };
    },
    getUniqueViewers: async ({ query }, { request }) => {
      const period = periodOf({ from: query.date_from, to: query.date_to }, STATISTICS_MAX_DAYS, datePeriodNames);
      const data = await playerRows(db, playerWhere(request.caller.accountId, period, query), query.group ?? [], "unique_ips", period.from.toISOString().slice(0, 10));
      return { status: 200, body: { data } as never };
    },
    getViewsByBrowsers: rankingRoute(sql`e.browser`, "browser"),
    getViewsByOperatingSystem: rankingRoute(sql`e.os`, "os"),
    getViewsByHostname: rankingRoute(sql`e.host`, "host"),
    getViewsByReferer: rankingRoute(sql`e.embed_url`, "embed_url"),
    getViewsByRegion: rankingRoute(sql`e.region`, "region", { sql: sql`e.region_name`, name: "region_name" }),
    getViewsByCountry: async ({ query }, { request }) => {
      const period = periodOf({ from: query.date_from, to: query.date_to }, STATISTICS_MAX_DAYS, datePeriodNames);
      const rows = await ranking(db, request.caller.accountId, period, sql`e.country`);
      return { status: 200, body: { data: rows.map((row) => ({ country: String(row.k), country_name: countryNameOf(String(row.k)), views: Number(row.views) })) } };
    },
    getPopularVideos: async ({ query }, { request }) => {
      const period = periodOf({ from: query.date_from, to: query.date_to }, STATISTICS_MAX_DAYS, datePeriodNames);
      const rows = await ranking(db, request.caller.accountId, period, sql`e.entity_id`, undefined, sql`e.type = 'vod'`);
      return { status: 200, body: { data: rows.map((row) => ({ id: String(row.k), views: Number(row.views) })) } };
    },
    getViewsHeatmap: async ({ query }, { request }) => {
      const period = periodOf({ from: query.date_from, to: query.date_to }, STATISTICS_MAX_DAYS, datePeriodNames);
      const { accountId } = request.caller;
      const where = playerWhere(accountId, period, { id: query.stream_id, type: query.type, event: "watch" });
      if (query.type === "live") {
        const rows = rowsOf(await db.execute(sql`select date_trunc('minute', e.time) as m, count(distinct e.ip)::float8 as n from streaming_player_events e where ${where} group by 1 order by 1`));
        return { status: 200, body: { data: rows.map((row) => ({ viewers: Number(row.n), seconds: null, time: new Date(row.m as string).toISOString() })) } };
      }
      const rows = rowsOf(await db.execute(sql`select e.position_seconds as s, count(distinct e.ip)::float8 as n from streaming_player_events e where ${where} group by 1 order by 1`));
      return { status: 200, body: { data: rows.map((row) => ({ viewers: Number(row.n), seconds: Number(row.s), time: null })) } };
    },
    getUniqueViewersCdn: async ({ query }, { request }) => {
      const period = periodOf({ from: query.date_from, to: query.date_to }, STATISTICS_MAX_DAYS, datePeriodNames);
      const conditions = [sql`v.account_id = ${request.caller.accountId}`, inPeriod(sql`v.bucket`, period)];
      if (query.type) conditions.push(sql`v.type = ${query.type}`);
      // As the platform does: an id without a type names nothing and is ignored.
      if (query.type && query.id !== undefined) conditions.push(sql`v.entity_id = ${query.id}`);
      const rows = rowsOf(await db.execute(sql`select v.type, count(distinct v.viewer)::float8 as n from streaming_cdn_views v where ${sql.join(conditions, sql` and `)} group by v.type`));
      const byType = new Map(rows.map((row) => [String(row.type), Number(row.n)]));
      const types = query.type ? [query.type] : STREAMING_ENTITY_TYPES;
      return { status: 200, body: { data: types.map((type) => ({ type, uniqs: byType.get(type) ?? 0 })) } };
    },
    getLiveUniqueViewers: async ({ query }, { request }) => {
      const period = periodOf(query);
      const points = pointsOf(period, bucketGranularity(query.granularity));
      const list = await cdnSeries(db, cdnWhere(request.caller.accountId, "live", period, query), points, "viewers");
      return { status: 200, body: accountSeries(request.caller.accountId, "streams", list) };
    },
    getVodUniqueViewersCdn: async ({ query }, { request }) => {
      const period = periodOf(query);
      const points = pointsOf(period, bucketGranularity(query.granularity));
      const list = await cdnSeries(db, cdnWhere(request.caller.accountId, "vod", period, query), points, "viewers");
      return { status: 200, body: accountSeries(request.caller.accountId, "vod", list) };
    },
    getLiveWatchTimeCdn: async ({ query }, { request }) => {
      const period = periodOf({ from: query.from, to: query.to ?? new Date().toISOString() });
      const points = pointsOf(period, bucketGranularity(query.granularity));
      const list = await cdnSeries(db, cdnWhere(request.caller.accountId, "live", period, query), points, "minutes");
      return { status: 200, body: accountSeries(request.caller.accountId, "streams", list) };
    },
    getVodWatchTimeCdn: async ({ query }, { request }) => {
      const period = periodOf({ from: query.from, to: query.to ?? new Date().toISOString() });
      const points = pointsOf(period, bucketGranularity(query.granularity));
      const list = await cdnSeries(db, cdnWhere(request.caller.accountId, "vod", period, query), points, "minutes");
      return { status: 200, body: accountSeries(request.caller.accountId, "vod", list) };
    },
    getLiveWatchTimeTotalCdn: async ({ query }, { request }) => {
      const { accountId } = request.caller;
      const rows = await watchTotals(db, accountId, "live", query);
      return {
        status: 200,
        body: rows.map((row) => ({ client: accountId, duration: Number(row.minutes), client_user_id: Number(row.client_user_id), stream_id: String(row.entity_id) })),
      };
    },
    getVodWatchTimeTotalCdn: async ({ query }, { request }) => {
      const { accountId } = request.caller;
      const rows = await watchTotals(db, accountId, "vod", query);
      return {
        status: 200,
        body: rows.map((row) => ({ client: accountId, duration: Number(row.minutes), client_user_id: Number(row.client_user_id), slug: (row.slug as string | null) ?? null })),
      };
    },
    getStreamSeries: async ({ query }, { request }) => {
      const { accountId } = request.caller;
      const period = periodOf(query);
      const points = pointsOf(period, query.granularity ?? "1h");
      const rows = rowsOf(
        await db.execute(sql`select ${points.pointOf(sql`l.minute`)} as p, count(*)::float8 as v from streaming_live_minutes l where l.account_id = ${accountId} and ${inPeriod(sql`l.minute`, period)} group by 1`),
      );
      return { status: 200, body: accountSeries(accountId, "streams", valuesAt(points, rows)) };
    },
    getMaxStreamsSeries: async ({ query }, { request }) => {
      const { accountId } = request.caller;
      const period = periodOf(query);
      const points = pointsOf(period, query.granularity ?? "1h");
      const rows = rowsOf(
        await db.execute(sql`
          select ${points.pointOf(sql`m.minute`)} as p, max(m.n)::float8 as v
          from (select l.minute, count(*) as n from streaming_live_minutes l where l.account_id = ${accountId} and ${inPeriod(sql`l.minute`, period)} group by l.minute) m
          group by 1`),
      );
      return { status: 200, body: accountSeries(accountId, "streams", valuesAt(points, rows)) };
    },
    getFfprobes: async ({ query }, { request }) => {
      const { accountId } = request.caller;
      const period = periodOf({ from: query.date_from, to: query.date_to }, STATISTICS_MAX_DAYS, datePeriodNames);
      const interval = ffprobeInterval(sql`l.minute`, query.interval ?? 1, query.units ?? "minute");
      const rows = rowsOf(
        await db.execute(sql`
          select ${interval} as t, round(avg(l.bitrate) / 1000.0, 2)::float8 as bitrate, max(l.fps)::float8 as fps, max(l.height) as height,
            max(l.keyframe_interval) as keyframe, sum(l.frames)::float8 as frames
          from streaming_live_minutes l
          where l.account_id = ${accountId} and l.stream_id = ${query.stream_id} and ${inPeriod(sql`l.minute`, period)}
          group by 1 order by 1`),
      );
      return {
        status: 200,
        body: {
          data: rows.map((row) => ({
            time: new Date(row.t as string).toISOString(),
            avg_bitrate: Number(row.bitrate),
            max_fps: Number(row.fps),
            max_height: Number(row.height),
            max_keyframe_interval: Number(row.keyframe),
            sum_frames: Number(row.frames),
          })),
        },
      };
    },
    getStorageSeries: async ({ query }, { request }) => {
      const { accountId } = request.caller;
      const period = periodOf(query);
      const granularity = query.granularity ?? "1h";
      const points = pointsOf(period, granularity);
      const bytes = await gaugeSeries(db, accountId, "storage_bytes", period, points, STEP_SECONDS[granularity]);
      const storage = points.times.map((time, index) => [time, bytes[index]!]);
      const most = storage.reduce((best, point) => (point[1]! > best[1]! ? point : best), [points.times[0] ?? Math.floor(period.from.getTime() / 1000), 0]);
      return { status: 200, body: [{ client: accountId, metrics: { storage, max_volume_usage: most } }] };
    },
    getVodStorageVolume: async ({ query }, { request }) => {
      const { accountId } = request.caller;
      const period = periodOf(query);
      const points = pointsOf(period, "1d", "query.to");
      return { status: 200, body: accountSeries(accountId, "vod", await gaugeSeries(db, accountId, "storage_minutes", period, points, DAY_SECONDS)) };
    },
    getVodTranscodingDuration: async ({ query }, { request }) => {
      const { accountId } = request.caller;
      const period = periodOf(query);
      const points = pointsOf(period, "1d", "query.to");
      const rows = rowsOf(
        await db.execute(sql`select ${points.pointOf(sql`u.time`)} as p, sum(u.transcoding_minutes)::float8 as v from streaming_vod_usage u where u.account_id = ${accountId} and ${inPeriod(sql`u.time`, period)} group by 1`),
      );
      return { status: 200, body: accountSeries(accountId, "vod", valuesAt(points, rows)) };
    },
  });
}
