/**
 * CDN statistics: the account's usage rows (5-minute buckets, `cdn_usage`) summed in SQL over a period or
 * per point of a series, at every level of `group_by` at once (grouping sets), and the paid features'
 * periods (`cdn_feature_periods`). Ratios and averages are computed from the sums.
 */
import {
  BANDWIDTH_METRICS,
  cdnStatisticsRoutes,
  countryCodeOf,
  STATISTICS_MAX_DAYS,
  STATISTICS_MAX_POINTS,
  TIME_METRICS,
  type StatisticsGranularity,
  type StatisticsGroup,
  type StatisticsMetric,
} from "@cloudplane/contract";
import { sql, type Database, type SQL } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { addFieldError, fieldErrors, invalid, problemCount, validationFailed } from "../errors.js";
import { rowsOf } from "../rows.js";
import { served } from "../served.js";
import type { RequestExtension, RouteDeps } from "../types.js";

const DAY_MS = 86_400_000;
const BUCKET_SECONDS = 300;
const GRANULARITY_SECONDS: Record<Exclude<StatisticsGranularity, "1m">, number> = { "5m": 300, "15m": 900, "1h": 3600, "1d": 86_400 };

/** The sums every metric is computed from, as the SQL names them. */
const SUMS = [
  "sent_bytes",
  "upstream_bytes",
  "shield_bytes",
  "backblaze_bytes",
  "requests",
  "origin_requests",
  "responses_2xx",
  "responses_3xx",
  "responses_4xx",
  "responses_5xx",
  "responses_hit",
  "responses_miss",
  "image_processed",
  "request_time_ms",
  "upstream_response_time_ms",
] as const;
type Sums = Record<(typeof SUMS)[number], number>;

const DIMENSION: Record<StatisticsGroup, SQL> = {
  resource: sql`u.resource_id::text`,
  region: sql`u.region`,
  country: sql`u.country`,
  vhost: sql`coalesce(r.cname, u.resource_id::text)`,
  client_country: sql`u.client_country`,
  protocol: sql`u.protocol`,
};

const ratio = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 10_000) / 10_000 : 0);

/** A metric from its group's sums (response_types and the bandwidths are read apart). */
function metricOf(metric: StatisticsMetric, s: Sums): number {
  switch (metric) {
    case "total_bytes":
      return s.shield_bytes + s.upstream_bytes + s.sent_bytes;
    case "cdn_bytes":
      return s.sent_bytes + s.shield_bytes;
    case "cache_hit_traffic_ratio":
      return s.sent_bytes > 0 ? Math.max(0, Math.round((1 - s.upstream_bytes / s.sent_bytes) * 10_000) / 10_000) : 0;
    case "cache_hit_requests_ratio":
      return ratio(s.responses_hit, s.requests);
    case "shield_traffic_ratio":
      return s.shield_bytes > 0 ? Math.max(0, ratio(s.shield_bytes - s.upstream_bytes, s.shield_bytes)) : 0;
    case "request_time":
      return s.requests > 0 ? Math.round(s.request_time_ms / s.requests) : 0;
    case "upstream_response_time":
      return s.origin_requests > 0 ? Math.round(s.upstream_response_time_ms / s.origin_requests) : 0;
    default:
      return s[metric as keyof Sums] ?? 0;
  }
}

export interface Period {
  from: Date;
  to: Date;
}

/**
 * The period of a query: `from` before `to`, at most `maxDays` long; a bad one is 400 naming the end's
 * parameter (`to`, or the route's own name for it, `date_to`).
 */
export function periodOf(query: { from: string; to: string }, maxDays?: number, names = { from: "from", to: "to" }): Period {
  const period = { from: new Date(query.from), to: new Date(query.to) };
  // JavaScript dates reach back past year 1; the database's do not.
  for (const [name, moment] of [[names.from, period.from], [names.to, period.to]] as const)
    if (moment.getUTCFullYear() < 1) throw invalid(`query.${name}`, "Must be in year 1 or later.");
  if (period.from >= period.to) throw invalid(`query.${names.to}`, `Must be after \`${names.from}\`.`);
  if (maxDays !== undefined && period.to.getTime() - period.from.getTime() > maxDays * DAY_MS)
    throw invalid(`query.${names.to}`, `The period may be at most ${maxDays} days long.`);
  return period;
}

interface UsageFilters {
  resource?: number[];
  regions?: string[];
  countries?: string[];
}

function whereOf(accountId: number, period: Period, filters: UsageFilters): SQL {
  const conditions = [sql`u.account_id = ${accountId}`, sql`u.bucket >= ${period.from.toISOString()}::timestamptz`, sql`u.bucket < ${period.to.toISOString()}::timestamptz`];
  if (filters.resource?.length) conditions.push(sql`u.resource_id = any(${`{${filters.resource.join(",")}}`}::integer[])`);
  if (filters.regions?.length) conditions.push(sql`u.region = any(${`{${filters.regions.join(",")}}`}::text[])`);
  if (filters.countries?.length) conditions.push(sql`u.country = any(${`{${filters.countries.join(",")}}`}::text[])`);
  return sql.join(conditions, sql` and `);
}

/** The countries of the filter as codes; 400 naming each that is no country. */
function countryCodes(countries: string[] | undefined): string[] | undefined {
  if (!countries) return undefined;
  const errors = fieldErrors();
  const codes = countries.map((country, index) => {
    const code = countryCodeOf(country);
    if (!code) addFieldError(errors, `query.countries.${index}`, "Must be a country: its English short name (france) or its ISO 3166 alpha-2 code (FR).");
    return code ?? "";
  });
  if (problemCount(errors)) throw validationFailed(errors);
  return codes;
}

/** `groups` then, when given, the point's time: the columns of one grouping set, the first `level` groups. */
interface Grouped {
  keys: (string | null)[];
  point: number | null;
}

/**
 * The sums at every level of `groups` (none, the first, the first two, …), per point of `pointSeconds` when
 * given; one query, grouping sets. Each row's keys are null past its level.
 */
async function usageSums(db: Database, where: SQL, groups: StatisticsGroup[], pointSeconds?: number): Promise<Array<Grouped & Sums>> {
  const dims = groups.map((group, index) => sql`${DIMENSION[group]} as ${sql.raw(`g${index}`)}`);
  const point = pointSeconds ? sql.raw(`(extract(epoch from u.bucket)::bigint / ${Math.trunc(pointSeconds)}) * ${Math.trunc(pointSeconds)}`) : undefined;
  const exprs = groups.map((group) => DIMENSION[group]);
  const sets = [[], ...groups.map((_, level) => exprs.slice(0, level + 1))];
  const groupingSets = sets.map((set) => sql`(${sql.join([...set, ...(point ? [point] : [])], sql`, `)})`);
  const select = [...dims, ...(point ? [sql`${point} as p`] : []), ...SUMS.map((name) => sql`sum(u.${sql.raw(name)})::float8 as ${sql.raw(name)}`)];
  const needsResources = groups.includes("vhost");
  const rows = await db.execute<Record<string, unknown>>(sql`
    select ${sql.join(select, sql`, `)}
    from cdn_usage u ${needsResources ? sql`left join cdn_resources r on r.account_id = u.account_id and r.id = u.resource_id` : sql``}
    where ${where}
    group by grouping sets (${sql.join(groupingSets, sql`, `)})`);
  return rowsOf(rows).map((row) => ({
    keys: groups.map((_, index) => (row[`g${index}`] as string | null) ?? null),
    point: point ? Number(row.p) : null,
    ...(Object.fromEntries(SUMS.map((name) => [name, Number(row[name] ?? 0)])) as Sums),
  }));
}

/** The bandwidth (bytes a second) of each level's 5-minute buckets: 95th percentile, most and least. */
async function bandwidths(db: Database, where: SQL, groups: StatisticsGroup[]): Promise<Array<Grouped & Record<(typeof BANDWIDTH_METRICS)[number], number>>> {
  const dims = groups.map((group, index) => sql`${DIMENSION[group]} as ${sql.raw(`g${index}`)}`);
  const dimNames = groups.map((_, index) => sql.raw(`g${index}`));
  const exprs = groups.map((group) => DIMENSION[group]);
  const sets = [[], ...groups.map((_, level) => exprs.slice(0, level + 1))].map((set) => sql`(${sql.join([...set, sql.raw("u.bucket")], sql`, `)})`);
  const needsResources = groups.includes("vhost");
  const outer = [sql`1 as one`, ...dimNames];
  const rows = await db.execute<Record<string, unknown>>(sql`
    select ${sql.join(outer, sql`, `)},
      percentile_cont(0.95) within group (order by bytes)::float8 / ${BUCKET_SECONDS} as p95,
      max(bytes)::float8 / ${BUCKET_SECONDS} as max_bw, min(bytes)::float8 / ${BUCKET_SECONDS} as min_bw
    from (
      select ${sql.join([...dims, sql`sum(u.sent_bytes) as bytes`], sql`, `)}
      from cdn_usage u ${needsResources ? sql`left join cdn_resources r on r.account_id = u.account_id and r.id = u.resource_id` : sql``}
      where ${where}
      group by grouping sets (${sql.join(sets, sql`, `)})
    ) buckets
    ${groups.length ? sql`group by ${sql.join(dimNames, sql`, `)}` : sql``}`);
  return rowsOf(rows).map((row) => ({
    keys: groups.map((_, index) => (row[`g${index}`] as string | null) ?? null),
    point: null,
    "95_percentile": Math.round(Number(row.p95)),
    max_bandwidth: Math.round(Number(row.max_bw)),
    min_bandwidth: Math.round(Number(row.min_bw)),
  }));
}

/** The responses by MIME type at every level (per point when given). */
async function responseTypes(db: Database, where: SQL, groups: StatisticsGroup[], pointSeconds?: number): Promise<Array<Grouped & { types: Record<string, number> }>> {
  const dims = groups.map((group, index) => sql`${DIMENSION[group]} as ${sql.raw(`g${index}`)}`);
  const exprs = groups.map((group) => DIMENSION[group]);
  const point = pointSeconds ? sql.raw(`(extract(epoch from u.bucket)::bigint / ${Math.trunc(pointSeconds)}) * ${Math.trunc(pointSeconds)}`) : undefined;
  const extra = [...(point ? [point] : []), sql.raw("t.key")];
  const sets = [[], ...groups.map((_, level) => exprs.slice(0, level + 1))].map((set) => sql`(${sql.join([...set, ...extra], sql`, `)})`);
  const needsResources = groups.includes("vhost");
  const rows = await db.execute<Record<string, unknown>>(sql`
    select ${sql.join([...dims, ...(point ? [sql`${point} as p`] : []), sql`t.key`, sql`sum(t.value::bigint)::float8 as n`], sql`, `)}
    from cdn_usage u ${needsResources ? sql`left join cdn_resources r on r.account_id = u.account_id and r.id = u.resource_id` : sql``}
    cross join lateral jsonb_each_text(u.response_types) t
    where ${where}
    group by grouping sets (${sql.join(sets, sql`, `)})`);
  const merged = new Map<string, Grouped & { types: Record<string, number> }>();
  for (const row of rowsOf(rows)) {
    const keys = groups.map((_, index) => (row[`g${index}`] as string | null) ?? null);
    const pointValue = point ? Number(row.p) : null;
    const id = JSON.stringify([keys, pointValue]);
    const entry = merged.get(id) ?? { keys, point: pointValue, types: {} };
    entry.types[String(row.key)] = Number(row.n);
    merged.set(id, entry);
  }
  return [...merged.values()];
}


/** The level of a row: how many of its keys are set (every key of a group is set: a dimension is never null). */
const levelOf = (keys: (string | null)[]) => {
  const index = keys.indexOf(null);
  return index === -1 ? keys.length : index;
};

interface Node {
  metrics: Record<string, unknown>;
  [group: string]: unknown;
}

/** The node of `keys` (its level's), made on the way: each level's groups under the group's name. */
function nodeAt(root: Node, groups: StatisticsGroup[], keys: (string | null)[]): Node {
  let node = root;
  const level = levelOf(keys);
  for (let index = 0; index < level; index++) {
    const map = ((node[groups[index]!] as Record<string, Node> | undefined) ??= {});
    node = map[keys[index]!] ??= { metrics: {} };
  }
  return node;
}

/** The checks every traffic query shares: metrics asked for alone, the countries. */
function checkMetrics(metrics: StatisticsMetric[]): void {
  if (metrics.some((metric) => (TIME_METRICS as readonly string[]).includes(metric)) && metrics.length > 1)
    throw invalid("query.metrics", "request_time and upstream_response_time are each asked for alone, without any other metric.");
}

export function cdnStatistics(deps: RouteDeps) {
  const { db } = deps;

  return tsr.routerWithMiddleware(served("cdn", cdnStatisticsRoutes))<RequestExtension>({
    getResourceUsageAggregated: async ({ query }, { request }) => {
      checkMetrics(query.metrics);
      const period = periodOf(query, STATISTICS_MAX_DAYS);
      const groups = query.group_by ?? [];
      const where = whereOf(request.caller.accountId, period, { resource: query.resource, regions: query.regions, countries: countryCodes(query.countries) });
      const wanted = new Set<string>(query.metrics);
      const [sums, bandwidth, types] = await Promise.all([
        usageSums(db, where, groups),
        BANDWIDTH_METRICS.some((metric) => wanted.has(metric)) ? bandwidths(db, where, groups) : Promise.resolve([]),
        wanted.has("response_types") ? responseTypes(db, where, groups) : Promise.resolve([]),
      ]);
      const root: Node = { metrics: {} };
      const zero = Object.fromEntries(SUMS.map((name) => [name, 0])) as Sums;
      // The totals exist even when no row matched (the grouping set () answers one row only over some rows).
      for (const row of [{ keys: groups.map(() => null), point: null, ...zero }, ...sums]) {
        const node = nodeAt(root, groups, row.keys);
        for (const metric of query.metrics)
          if (metric !== "response_types" && !(BANDWIDTH_METRICS as readonly string[]).includes(metric)) node.metrics[metric] = metricOf(metric, row);
        if (wanted.has("response_types")) node.metrics.response_types ??= {};
        for (const metric of BANDWIDTH_METRICS) if (wanted.has(metric)) node.metrics[metric] ??= 0;
      }
      for (const row of bandwidth) {
        const node = nodeAt(root, groups, row.keys);
        for (const metric of BANDWIDTH_METRICS) if (wanted.has(metric)) node.metrics[metric] = row[metric];
      }
      for (const row of types) nodeAt(root, groups, row.keys).metrics.response_types = row.types;
      if (query.flat) {
        const rows: Array<Record<string, unknown>> = [];
        const walk = (node: Node, level: number, named: Record<string, unknown>) => {
          if (level === groups.length) {
            rows.push({ ...named, metrics: node.metrics });
            return;
          }
          const group = groups[level]!;
          for (const [key, child] of Object.entries((node[group] as Record<string, Node> | undefined) ?? {}))
            walk(child, level + 1, { ...named, [group]: group === "resource" ? Number(key) : key });
        };
        walk(root, 0, {});
        return { status: 200, body: { ...root.metrics, metrics: root.metrics, rows } as never };
      }
      return { status: 200, body: { ...root.metrics, ...root } as never };
    },

    getResourceUsageSeries: async ({ query }, { request }) => {
      if (query.granularity === "1m") throw invalid("query.granularity", "Usage is kept in 5-minute buckets: use 5m, 15m, 1h or 1d.");
      const whole = query.metrics.filter((metric) => (BANDWIDTH_METRICS as readonly string[]).includes(metric));
      if (whole.length) throw invalid("query.metrics", `${whole.join(", ")} ${whole.length > 1 ? "are metrics" : "is a metric"} of the whole period: ask the aggregate (/cdn/statistics/aggregate/stats).`);
      checkMetrics(query.metrics);
      const period = periodOf(query);
      const step = GRANULARITY_SECONDS[query.granularity];
      const first = Math.floor(period.from.getTime() / 1000 / step) * step;
      const end = period.to.getTime() / 1000;
      const points = Math.ceil((end - first) / step);
      if (points > STATISTICS_MAX_POINTS)
        throw invalid("query.granularity", `The period holds ${points} points of ${query.granularity}; a series has at most ${STATISTICS_MAX_POINTS}: a shorter period or a coarser granularity.`);
      const groups = query.group_by ?? [];
      const where = whereOf(request.caller.accountId, period, { resource: query.resource, regions: query.regions, countries: countryCodes(query.countries) });
      const wanted = new Set<string>(query.metrics);
      const [sums, types] = await Promise.all([
        usageSums(db, where, groups, step),
        wanted.has("response_types") ? responseTypes(db, where, groups, step) : Promise.resolve([]),
      ]);
      const times = Array.from({ length: points }, (_, index) => first + index * step);
      const zero = Object.fromEntries(SUMS.map((name) => [name, 0])) as Sums;
      // Each node's sums by point, then every point written out, zero where nothing was kept.
      const byNode = new Map<Node, { sums: Map<number, Sums>; types: Map<number, Record<string, number>> }>();
      const root: Node = { metrics: {} };
      const entryOf = (keys: (string | null)[]) => {
        const node = nodeAt(root, groups, keys);
        let entry = byNode.get(node);
        if (!entry) byNode.set(node, (entry = { sums: new Map(), types: new Map() }));
        return entry;
      };
      entryOf(groups.map(() => null));
      for (const row of sums) entryOf(row.keys).sums.set(row.point!, row);
      for (const row of types) entryOf(row.keys).types.set(row.point!, row.types);
      for (const [node, entry] of byNode)
        for (const metric of query.metrics)
          node.metrics[metric] = times.map((time) => [time, metric === "response_types" ? (entry.types.get(time) ?? {}) : metricOf(metric, entry.sums.get(time) ?? zero)]);
      return { status: 200, body: root as never };
    },

    getShieldUsageAggregated: async ({ query }, { request }) => featureAggregated(db, request.caller.accountId, "shield", "shield_usage", query),
    getShieldUsageSeries: async ({ query }, { request }) => ({ status: 200, body: await featurePeriods(db, request.caller.accountId, "shield", query) }),
    getLogsUsageAggregated: async ({ query }, { request }) => featureAggregated(db, request.caller.accountId, "raw_logs", "raw_logs_usage", query),
    getLogsUsageSeries: async ({ query }, { request }) => ({ status: 200, body: await featurePeriods(db, request.caller.accountId, "raw_logs", query) }),
  });
}

type Feature = "shield" | "raw_logs";

function featureWhere(accountId: number, feature: Feature, period: Period, resource: number[] | undefined): SQL {
  const conditions = [
    sql`p.account_id = ${accountId}`,
    sql`p.feature = ${feature}`,
    sql`p.active_from < ${period.to.toISOString()}::timestamptz`,
    sql`(p.active_to is null or p.active_to > ${period.from.toISOString()}::timestamptz)`,
  ];
  if (resource?.length) conditions.push(sql`p.resource_id = any(${`{${resource.join(",")}}`}::integer[])`);
  return sql.join(conditions, sql` and `);
}

async function featureAggregated(
  db: Database,
  accountId: number,
  feature: Feature,
  name: "shield_usage" | "raw_logs_usage",
  query: { from: string; to: string; group_by?: "resource"[]; resource?: number[]; flat?: boolean },
) {
  const period = periodOf(query);
  const rows = rowsOf(await db.execute(sql`select distinct p.resource_id from cdn_feature_periods p where ${featureWhere(accountId, feature, period, query.resource)} order by p.resource_id`));
  const ids = rows.map((row) => Number(row.resource_id));
  const byResource = query.group_by?.includes("resource") ?? false;
  const body: Record<string, unknown> = { [name]: ids.length, metrics: { [name]: ids.length } };
  if (query.flat) body.rows = byResource ? ids.map((id) => ({ resource: id, metrics: { [name]: 1 } })) : [{ metrics: { [name]: ids.length } }];
  else if (byResource) body.resource = Object.fromEntries(ids.map((id) => [String(id), { metrics: { [name]: 1 } }]));
  return { status: 200 as const, body: body as never };
}

async function featurePeriods(db: Database, accountId: number, feature: Feature, query: { from: string; to: string; resource?: number[] }) {
  const period = periodOf(query);
  const rows = rowsOf(
    await db.execute(sql`
      select p.id, p.account_id, p.resource_id, r.cname, p.active_from, p.active_to
      from cdn_feature_periods p left join cdn_resources r on r.account_id = p.account_id and r.id = p.resource_id
      where ${featureWhere(accountId, feature, period, query.resource)}
      order by p.active_from, p.id`),
  );
  const iso = (value: unknown) => (value == null ? null : new Date(value as string).toISOString());
  return rows.map((row) => ({
    id: Number(row.id),
    client_id: Number(row.account_id),
    resource_id: Number(row.resource_id),
    cname: (row.cname as string | null) ?? null,
    active_from: iso(row.active_from)!,
    active_to: iso(row.active_to),
  }));
}

export { GRANULARITY_SECONDS, STATISTICS_MAX_POINTS };
