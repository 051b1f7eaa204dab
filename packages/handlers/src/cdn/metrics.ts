/**
 * CDN metrics (rates and counts of the account's traffic per interval, summed in SQL from `cdn_usage`),
 * and the platform's network capacity (catalogue data).
 */
import { CDN_METRICS_MAX_POINTS, CDN_SPEED_MAX_POINTS, cdnMetricsRoutes, NETWORK_CAPACITY, SPEED_METRICS, type CdnMetric, type CdnMetricsBody } from "@cloudplane/contract";
import { sql, type SQL } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { addFieldError, fieldErrors, invalid, problemCount, validationFailed } from "../errors.js";
import { served } from "../served.js";
import type { RequestExtension, RouteDeps } from "../types.js";

const BUCKET_SECONDS = 300;

/** The seconds of an ISO 8601 duration of days, hours and minutes (the contract checked its form). */
function durationSeconds(duration: string): number {
  const match = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?)?$/.exec(duration);
  if (!match) return 0;
  const [, days, hours, minutes] = match;
  return Number(days ?? 0) * 86_400 + Number(hours ?? 0) * 3600 + Number(minutes ?? 0) * 60;
}

const DIMENSION = {
  resource: sql.raw("u.resource_id::text"),
  cname: sql.raw("coalesce(r.cname, u.resource_id::text)"),
  region: sql.raw("u.region"),
} as const;
/** A group's column (isp was refused before any SQL is made). */
const dimensionOf = (group: string) => DIMENSION[group as keyof typeof DIMENSION];

interface PointSums {
  sent: number;
  upstream: number;
  hitBytes: number;
  requests: number;
  originRequests: number;
  hits: number;
  s2xx: number;
  s3xx: number;
  s4xx: number;
  s5xx: number;
  requestTimeMs: number;
  upstreamTimeMs: number;
}

const round = (value: number, digits = 3) => Math.round(value * 10 ** digits) / 10 ** digits;

function metricOf(metric: CdnMetric, s: PointSums, seconds: number): number {
  switch (metric) {
    case "edge_bandwidth":
      return round((s.sent * 8) / seconds);
    case "edge_requests":
      return round(s.requests / seconds);
    case "edge_requests_total":
      return s.requests;
    case "edge_status_2xx":
      return s.s2xx;
    case "edge_status_3xx":
      return s.s3xx;
    case "edge_status_4xx":
      return s.s4xx;
    case "edge_status_5xx":
      return s.s5xx;
    case "edge_hit_ratio":
      return s.requests > 0 ? round(s.hits / s.requests, 4) : 0;
    case "edge_hit_bytes":
      return s.hitBytes;
    case "origin_bandwidth":
      return round((s.upstream * 8) / seconds);
    case "origin_requests":
      return round(s.originRequests / seconds);
    case "edge_download_speed":
      return s.requestTimeMs > 0 ? round(s.sent / s.requestTimeMs) : 0;
    case "origin_download_speed":
      return s.upstreamTimeMs > 0 ? round(s.upstream / s.upstreamTimeMs) : 0;
  }
}

/** The SQL of one filter statement, or a problem at its path. */
function filterOf(statement: NonNullable<CdnMetricsBody["filter_by"]>[number], path: string, speed: boolean, errors: Record<string, string[]>): SQL | undefined {
  const { field, op, values } = statement;
  if (field === "isp") {
    addFieldError(errors, `${path}.field`, "ISP names are not kept by this service: filter by resource, cname or region.");
    return undefined;
  }
  if (field === "region" && !speed) {
    addFieldError(errors, `${path}.field`, "region is a filter of speed metrics (edge_download_speed, origin_download_speed) only.");
    return undefined;
  }
  const single = !(op === "in" || op === "not_in");
  if (single && values.length !== 1) {
    addFieldError(errors, `${path}.values`, `${op} compares with one value.`);
    return undefined;
  }
  const numeric = field === "resource" && !(op === "like" || op === "not_like");
  if (numeric && values.some((value) => !Number.isInteger(Number(value)))) {
    addFieldError(errors, `${path}.values`, "Must be resource ids (integers).");
    return undefined;
  }
  const column = field === "resource" ? (numeric ? sql.raw("u.resource_id") : DIMENSION.resource) : DIMENSION[field];
  const typed = (value: number | string) => (numeric ? sql`${Math.trunc(Number(value))}::bigint` : sql`${String(value)}`);
  const list = sql.join(values.map(typed), sql`, `);
  const first = typed(values[0]!);
  switch (op) {
    case "in":
      return sql`${column} in (${list})`;
    case "not_in":
      return sql`${column} not in (${list})`;
    case "eq":
      return sql`${column} = ${first}`;
    case "ne":
      return sql`${column} <> ${first}`;
    case "gt":
      return sql`${column} > ${first}`;
    case "gte":
      return sql`${column} >= ${first}`;
    case "lt":
      return sql`${column} < ${first}`;
    case "lte":
      return sql`${column} <= ${first}`;
    case "like":
      return sql`${column} like ${first}`;
    case "not_like":
      return sql`${column} not like ${first}`;
  }
}

export function cdnMetrics(deps: RouteDeps) {
  const { db } = deps;

  return tsr.routerWithMiddleware(served("cdn", cdnMetricsRoutes))<RequestExtension>({
    listMetrics: async ({ body }, { request }) => {
      const from = new Date(body.from);
      const to = new Date(body.to);
      if (from >= to) throw invalid("to", "Must be after `from`.");
      const speed = body.metrics.some((metric) => (SPEED_METRICS as readonly string[]).includes(metric));
      const seconds = body.granularity === undefined ? BUCKET_SECONDS : durationSeconds(body.granularity);
      if (seconds <= 0 || seconds % BUCKET_SECONDS !== 0) throw invalid("granularity", "Must be a multiple of 5 minutes (PT5M, PT15M, PT1H, P1D): usage is kept in 5-minute buckets.");
      const first = Math.floor(from.getTime() / 1000 / seconds) * seconds;
      const points = Math.ceil((to.getTime() / 1000 - first) / seconds);
      const most = speed ? CDN_SPEED_MAX_POINTS : CDN_METRICS_MAX_POINTS;
      if (points > most) throw invalid("granularity", `The period holds ${points} intervals of this granularity; at most ${most}${speed ? " with speed metrics" : ""}: a shorter period or a longer granularity.`);

      const errors = fieldErrors();
      const groups = body.group_by ?? [];
      groups.forEach((group, index) => {
        if (group === "isp") addFieldError(errors, `group_by.${index}`, "ISP names are not kept by this service: group by resource, cname or region.");
        else if (group === "region" && !speed) addFieldError(errors, `group_by.${index}`, "region groups speed metrics (edge_download_speed, origin_download_speed) only.");
      });
      if (new Set(groups).size !== groups.length) addFieldError(errors, "group_by", "Must not name a group twice.");
      const conditions: SQL[] = [sql`u.account_id = ${request.caller.accountId}`, sql`u.bucket >= ${from.toISOString()}::timestamptz`, sql`u.bucket < ${to.toISOString()}::timestamptz`];
      (body.filter_by ?? []).forEach((statement, index) => {
        const condition = filterOf(statement, `filter_by.${index}`, speed, errors);
        if (condition) conditions.push(condition);
      });
      if (problemCount(errors)) throw validationFailed(errors);

      const dims = groups.map((group, index) => sql`${dimensionOf(group)} as ${sql.raw(`g${index}`)}`);
      const point = sql.raw(`(extract(epoch from u.bucket)::bigint / ${seconds}) * ${seconds}`);
      const needsResources = groups.includes("cname") || (body.filter_by ?? []).some((statement) => statement.field === "cname");
      const result = await db.execute<Record<string, unknown>>(sql`
        select ${sql.join([...dims, sql`${point} as p`], sql`, `)},
          sum(u.sent_bytes)::float8 as sent, sum(u.upstream_bytes)::float8 as upstream, sum(u.hit_bytes)::float8 as hit_bytes,
          sum(u.requests)::float8 as requests, sum(u.origin_requests)::float8 as origin_requests, sum(u.responses_hit)::float8 as hits,
          sum(u.responses_2xx)::float8 as s2xx, sum(u.responses_3xx)::float8 as s3xx, sum(u.responses_4xx)::float8 as s4xx, sum(u.responses_5xx)::float8 as s5xx,
          sum(u.request_time_ms)::float8 as request_time_ms, sum(u.upstream_response_time_ms)::float8 as upstream_time_ms
        from cdn_usage u ${needsResources ? sql`left join cdn_resources r on r.account_id = u.account_id and r.id = u.resource_id` : sql``}
        where ${sql.join(conditions, sql` and `)}
        group by ${sql.join([...groups.map(dimensionOf), point], sql`, `)}`);
      const rows = (Array.isArray(result) ? result : (result as { rows: Record<string, unknown>[] }).rows) as Record<string, unknown>[];

      const times = Array.from({ length: points }, (_, index) => first + index * seconds);
      const zero: PointSums = { sent: 0, upstream: 0, hitBytes: 0, requests: 0, originRequests: 0, hits: 0, s2xx: 0, s3xx: 0, s4xx: 0, s5xx: 0, requestTimeMs: 0, upstreamTimeMs: 0 };
      const series = new Map<string, { keys: string[]; sums: Map<number, PointSums> }>();
      if (!groups.length) series.set("[]", { keys: [], sums: new Map() });
      for (const row of rows) {
        const keys = groups.map((_, index) => String(row[`g${index}`]));
        const id = JSON.stringify(keys);
        const entry = series.get(id) ?? { keys, sums: new Map() };
        series.set(id, entry);
        entry.sums.set(Number(row.p), {
          sent: Number(row.sent),
          upstream: Number(row.upstream),
          hitBytes: Number(row.hit_bytes),
          requests: Number(row.requests),
          originRequests: Number(row.origin_requests),
          hits: Number(row.hits),
          s2xx: Number(row.s2xx),
          s3xx: Number(row.s3xx),
          s4xx: Number(row.s4xx),
          s5xx: Number(row.s5xx),
          requestTimeMs: Number(row.request_time_ms),
          upstreamTimeMs: Number(row.upstream_time_ms),
        });
      }
      const valuesOf = (sums: Map<number, PointSums>) =>
        times.map((time) => ({ timestamp: time, ...Object.fromEntries(body.metrics.map((metric) => [metric, metricOf(metric, sums.get(time) ?? zero, seconds)])) }));
      if (!groups.length) return { status: 200, body: { data: valuesOf(series.get("[]")!.sums) } };
      const data: Record<string, unknown> = {};
      for (const { keys, sums } of series.values()) {
        let node = data;
        keys.slice(0, -1).forEach((key) => (node = (node[key] ??= {}) as Record<string, unknown>));
        node[keys[keys.length - 1]!] = valuesOf(sums);
      }
      return { status: 200, body: { data } };
    },

    listNetworkCapacity: () => Promise.resolve({ status: 200 as const, body: NETWORK_CAPACITY.map((item) => ({ ...item })) }),
  });
}
