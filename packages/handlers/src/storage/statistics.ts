/**
 * Object storage statistics and locations: the account's usage totalled or in series from the hourly usage
 * rows (`storage_usage`), filtered by period, storages and locations; and the platform's fixed locations.
 */
import {
  LOCATIONS,
  storageLocationsRoutes,
  storageStatisticsRoutes,
  toLocation,
  USAGE_DEFAULT_DAYS,
  USAGE_GRANULARITIES,
  usageTime,
  type UsageMetrics,
  type UsageSeries,
} from "@cloudplane/contract";
import { sql, type SQL } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { invalid } from "../errors.js";
import { served } from "../served.js";
import type { RequestExtension, RouteDeps } from "../types.js";

const HOUR = 3_600_000;

/** The sums of one group of usage rows, as SQL select items (each a bigint). */
const SUMS = sql`
  coalesce(sum(requests_in), 0)::bigint as requests_in_sum,
  coalesce(sum(requests_out_edges), 0)::bigint as requests_out_edges_sum,
  coalesce(sum(requests_out_wo_edges), 0)::bigint as requests_out_wo_edges_sum,
  coalesce(sum(traffic_in), 0)::bigint as traffic_in_sum,
  coalesce(sum(traffic_out_edges), 0)::bigint as traffic_out_edges_sum,
  coalesce(sum(traffic_out_wo_edges), 0)::bigint as traffic_out_wo_edges_sum`;

type Row = Record<string, unknown>;

/** The metrics of a row of sums and of hourly sizes (`size_max`, `size_mean`, `size_hours`, `files_max`). */
function metricsOf(row: Row | undefined): UsageMetrics {
  const n = (key: string) => Number(row?.[key] ?? 0);
  const requestsIn = n("requests_in_sum");
  const requestsEdges = n("requests_out_edges_sum");
  const requestsDirect = n("requests_out_wo_edges_sum");
  const trafficIn = n("traffic_in_sum");
  const trafficEdges = n("traffic_out_edges_sum");
  const trafficDirect = n("traffic_out_wo_edges_sum");
  return {
    file_quantity_sum_max: n("files_max"),
    requests_in_sum: requestsIn,
    requests_out_edges_sum: requestsEdges,
    requests_out_wo_edges_sum: requestsDirect,
    requests_sum: requestsIn + requestsEdges + requestsDirect,
    size_sum_bytes_hour: n("size_hours"),
    size_sum_max: n("size_max"),
    size_sum_mean: n("size_mean"),
    traffic_in_sum: trafficIn,
    traffic_out_edges_sum: trafficEdges,
    traffic_out_wo_edges_sum: trafficDirect,
    traffic_sum: trafficIn + trafficEdges + trafficDirect,
  };
}

/** The period a request covers: `to` (default now) and `from` (default USAGE_DEFAULT_DAYS before it). */
function periodOf(body: { from?: string; to?: string }): { from: Date; to: Date } {
  const to = body.to === undefined ? new Date() : usageTime(body.to)!;
  const from = body.from === undefined ? new Date(to.getTime() - USAGE_DEFAULT_DAYS * 86_400_000) : usageTime(body.from)!;
  if (from.getTime() > to.getTime()) throw invalid("from", "Must not be after to (which is now when left out).");
  return { from, to };
}

/** The usage rows of the account's storages in the period, of the storages and locations named (if any). */
function usageWhere(accountId: number, body: { locations?: string[]; storages?: string[] }, period: { from: Date; to: Date }): SQL {
  const conditions = [sql`u.account_id = ${accountId}`, sql`u.hour >= ${period.from.toISOString()}::timestamptz`, sql`u.hour < ${period.to.toISOString()}::timestamptz`];
  if (body.storages && body.storages.length > 0)
    conditions.push(sql`s.name in (${sql.join(body.storages.map((name) => sql`${name}`), sql`, `)})`);
  if (body.locations && body.locations.length > 0)
    conditions.push(sql`s.location in (${sql.join(body.locations.map((code) => sql`${code}`), sql`, `)})`);
  return sql.join(conditions, sql` and `);
}

/** Hourly size sums (over the rows grouped by `by` and the hour), then their max, mean and total per `by`. */
function sizesBy(where: SQL, by: SQL | undefined): SQL {
  const group = by ? sql`${by}, u.hour` : sql`u.hour`;
  const outer = by ? sql`group by key` : sql``;
  return sql`
    select ${by ? sql`key,` : sql``}
      coalesce(max(size), 0)::bigint as size_max, coalesce(floor(avg(size)), 0)::bigint as size_mean,
      coalesce(sum(size), 0)::bigint as size_hours, coalesce(max(files), 0)::bigint as files_max
    from (
      select ${by ? sql`${by} as key,` : sql``} sum(u.size_bytes) as size, sum(u.file_quantity) as files
      from storage_usage u join storages s on s.id = u.storage_id and s.account_id = u.account_id
      where ${where}
      group by ${group}
    ) as hourly
    ${outer}`;
}

function sumsBy(where: SQL, by: SQL | undefined): SQL {
  return sql`
    select ${by ? sql`${by} as key,` : sql``} ${SUMS}
    from storage_usage u join storages s on s.id = u.storage_id and s.account_id = u.account_id
    where ${where}
    ${by ? sql`group by ${by}` : sql``}`;
}

export function storageStatistics({ db }: RouteDeps) {
  const rows = async (query: SQL): Promise<Row[]> => {
    const result = await db.execute(query);
    return ((result as { rows?: Row[] }).rows ?? (result as Row[]));
  };
  const byKey = (list: Row[]) => new Map(list.map((row) => [String(row.key), row]));

  const statistics = tsr.routerWithMiddleware(served("storage", storageStatisticsRoutes))<RequestExtension>({
    getUsageAggregated: async ({ body }, { request: { caller } }) => {
      const where = usageWhere(caller.accountId, body, periodOf(body));
      const [[sizes], [sums]] = await Promise.all([rows(sizesBy(where, undefined)), rows(sumsBy(where, undefined))]);
      return { status: 200, body: { data: [{ metrics: metricsOf({ ...sums, ...sizes }) }] } };
    },

    getUsageSeries: async ({ body }, { request: { caller } }) => {
      const period = periodOf(body);
      const hours = USAGE_GRANULARITIES[body.granularity ?? "24h"];
      const step = hours * HOUR;
      const where = usageWhere(caller.accountId, body, period);
      const storageKey = sql`s.id`;
      const locationKey = sql`s.location`;
      // A constant of the code (1, 12 or 24 hours), written into the SQL so that the select and the group by are one expression.
      const bucket = sql.raw(`floor(extract(epoch from u.hour) / ${hours * 3600})::bigint`);
      const [clientSizes, clientSums, locationSizes, locationSums, storageSizes, storageSums, storageNames, points] = await Promise.all([
        rows(sizesBy(where, undefined)),
        rows(sumsBy(where, undefined)),
        rows(sizesBy(where, locationKey)),
        rows(sumsBy(where, locationKey)),
        rows(sizesBy(where, storageKey)),
        rows(sumsBy(where, storageKey)),
        rows(sql`select distinct s.id as key, s.name, s.location from storage_usage u join storages s on s.id = u.storage_id and s.account_id = u.account_id where ${where}`),
        rows(sql`
          select s.id as key, ${bucket} as period,
            max(u.size_bytes)::bigint as size_max, floor(avg(u.size_bytes))::bigint as size_mean, sum(u.size_bytes)::bigint as size_hours,
            ${SUMS}
          from storage_usage u join storages s on s.id = u.storage_id and s.account_id = u.account_id
          where ${where}
          group by s.id, ${bucket}`),
      ]);
      const clients: NonNullable<UsageSeries["data"]>["clients"] = {};
      if (storageNames.length > 0) {
        const stamp = (ms: number) => (body.ts_string ? new Date(ms).toISOString().replace(".000Z", "Z") : Math.floor(ms / 1000));
        const firstPeriod = Math.floor(period.from.getTime() / step);
        const periods: number[] = [];
        for (let index = firstPeriod; index * step < period.to.getTime(); index += 1) periods.push(index);
        const pointsOf = new Map<string, Map<number, Row>>();
        for (const point of points) {
          const key = String(point.key);
          if (!pointsOf.has(key)) pointsOf.set(key, new Map());
          pointsOf.get(key)!.set(Number(point.period), point);
        }
        const locationSizesByKey = byKey(locationSizes);
        const locationSumsByKey = byKey(locationSums);
        const storageSizesByKey = byKey(storageSizes);
        const storageSumsByKey = byKey(storageSums);
        const locations: Record<string, NonNullable<(typeof clients)[string]["locations"]>[string]> = {};
        for (const storage of storageNames) {
          const key = String(storage.key);
          const location = String(storage.location);
          const own = pointsOf.get(key) ?? new Map<number, Row>();
          const series = (value: (row: Row) => number) => periods.map((index) => [stamp(index * step), own.has(index) ? value(own.get(index)!) : 0] as Array<number | string>);
          const n = (field: string) => (row: Row) => Number(row[field] ?? 0);
          locations[location] ??= {
            name: location,
            ...metricsOf({ ...locationSumsByKey.get(location), ...locationSizesByKey.get(location) }),
            storages: {},
          };
          locations[location].storages[String(storage.name)] = {
            name: String(storage.name),
            ...metricsOf({ ...storageSumsByKey.get(key), ...storageSizesByKey.get(key) }),
            buckets_series: {},
            requests_in_series: series(n("requests_in_sum")),
            requests_out_edges_series: series(n("requests_out_edges_sum")),
            requests_out_wo_edges_series: series(n("requests_out_wo_edges_sum")),
            requests_series: series((row) => n("requests_in_sum")(row) + n("requests_out_edges_sum")(row) + n("requests_out_wo_edges_sum")(row)),
            size_bytes_hour_series: series(n("size_hours")),
            size_max_series: series(n("size_max")),
            size_mean_series: series(n("size_mean")),
            traffic_in_series: series(n("traffic_in_sum")),
            traffic_out_edges_series: series(n("traffic_out_edges_sum")),
            traffic_out_wo_edges_series: series(n("traffic_out_wo_edges_sum")),
            traffic_series: series((row) => n("traffic_in_sum")(row) + n("traffic_out_edges_sum")(row) + n("traffic_out_wo_edges_sum")(row)),
          };
        }
        clients[String(caller.accountId)] = { id: caller.accountId, ...metricsOf({ ...clientSums[0], ...clientSizes[0] }), locations };
      }
      return { status: 200, body: { data: { clients } } };
    },
  });

  const locations = tsr.routerWithMiddleware(served("storage", storageLocationsRoutes))<RequestExtension>({
    // Constants of the code: no database read.
    listLocations: ({ query }) => {
      const field = query.order_by.replace(/^-/, "") as "name" | "title" | "type";
      const sign = query.order_by.startsWith("-") ? -1 : 1;
      const sorted = LOCATIONS.map(toLocation).sort((a, b) => sign * a[field].localeCompare(b[field]) || a.name.localeCompare(b.name));
      return Promise.resolve({ status: 200 as const, body: { count: sorted.length, results: sorted.slice(query.offset, query.offset + query.limit) } });
    },
  });

  return { ...statistics, ...locations };
}

