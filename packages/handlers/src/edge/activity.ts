/**
 * What the account's edge apps did, counted from their calls (one row per call): an app's logs, the call
 * and duration series per time slot, and the account's overview with its calls this hour, day and month.
 */
import { EDGE_NETWORKS, EDGE_STATS_MAX_SLOTS, edgeActivityRoutes, type EdgeStatsQuery } from "@cloudplane/contract";
import { and, asc, count, desc, eq, gte, ilike, lt, schema, sql, type SQL } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { invalid, notFound } from "../errors.js";
import { isoTime } from "../format.js";
import { likePattern } from "../like.js";
import type { RequestExtension, RouteDeps } from "../types.js";
import { served } from "../served.js";

const { edgeAppCalls, edgeApps, edgePlans } = schema;

const HOUR_MS = 3_600_000;

/** The period [from, to) of a request, checked: `to` after `from` (400 on `query.to`). */
function period(fromText: string | undefined, toText: string | undefined, defaultSpanMs: number): { from: Date; to: Date } {
  const to = toText === undefined ? new Date() : new Date(toText);
  const from = fromText === undefined ? new Date(to.getTime() - defaultSpanMs) : new Date(fromText);
  if (to.getTime() <= from.getTime()) throw invalid("query.to", "Must be after from.");
  return { from, to };
}

/** The statistics' period and slots: at most EDGE_STATS_MAX_SLOTS of `step` seconds (400 on `query.step`). */
function slots(query: EdgeStatsQuery): { from: Date; to: Date; count: number } {
  const { from, to } = period(query.from, query.to, 0);
  const count = Math.ceil((to.getTime() - from.getTime()) / (query.step * 1000));
  if (count > EDGE_STATS_MAX_SLOTS)
    throw invalid("query.step", `The period holds ${count} slots of ${query.step} s; at most ${EDGE_STATS_MAX_SLOTS}: give a longer step or a shorter period.`);
  return { from, to, count };
}

/** The calls of the account in [from, to), of one app and one network when the query names them. */
function callConditions(accountId: number, query: EdgeStatsQuery, from: Date, to: Date): SQL | undefined {
  const conditions: SQL[] = [eq(edgeAppCalls.accountId, accountId), gte(edgeAppCalls.time, from), lt(edgeAppCalls.time, to)];
  if (query.id !== undefined) conditions.push(eq(edgeAppCalls.appId, query.id));
  if (query.network !== undefined) conditions.push(eq(edgeAppCalls.network, query.network));
  return and(...conditions);
}

/**
 * The slot of a call: the number of whole steps from `from` to its time. Both numbers are written into the
 * SQL (a checked integer and a time's milliseconds), so that GROUP BY and ORDER BY repeat one expression.
 */
const slotOf = (from: Date, step: number) =>
  sql<number>`floor((extract(epoch from ${edgeAppCalls.time}) * 1000 - ${sql.raw(String(from.getTime()))}) / ${sql.raw(String(step * 1000))})::int`;

const slotTime = (from: Date, step: number, slot: number) => isoTime(new Date(from.getTime() + slot * step * 1000));

export function edgeActivity({ db }: RouteDeps) {
  return tsr.routerWithMiddleware(served("edge", edgeActivityRoutes))<RequestExtension>({
    listAppLogs: async ({ params, query }, { request: { caller } }) => {
      const { accountId } = caller;
      const { from, to } = period(query.from, query.to, HOUR_MS);
      const [app] = await db
        .select({ name: edgeApps.name })
        .from(edgeApps)
        .where(and(eq(edgeApps.accountId, accountId), eq(edgeApps.id, params.app_id)));
      if (!app) throw notFound(`Edge app ${params.app_id}`);
      const conditions: SQL[] = [eq(edgeAppCalls.accountId, accountId), eq(edgeAppCalls.appId, params.app_id), gte(edgeAppCalls.time, from), lt(edgeAppCalls.time, to)];
      if (query.client_ip !== undefined) conditions.push(eq(edgeAppCalls.clientIp, query.client_ip));
      if (query.edge !== undefined) conditions.push(eq(edgeAppCalls.edge, query.edge));
      if (query.request_id !== undefined) conditions.push(eq(edgeAppCalls.requestId, query.request_id));
      if (query.search !== undefined && query.search !== "") conditions.push(ilike(edgeAppCalls.log, likePattern(query.search)));
      const where = and(...conditions);
      const direction = query.sort === "asc" ? asc : desc;
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(edgeAppCalls)
          .where(where)
          .orderBy(direction(edgeAppCalls.time), direction(edgeAppCalls.id))
          .limit(query.limit)
          .offset(query.offset),
        db.select({ total: count() }).from(edgeAppCalls).where(where),
      ]);
      return {
        status: 200,
        body: {
          logs: rows.map((row) => ({
            id: String(row.id),
            app_name: app.name,
            client_ip: row.clientIp,
            edge: row.edge,
            log: row.log,
            request_id: row.requestId,
            timestamp: isoTime(row.time),
          })),
          total_count: total?.total ?? 0,
        },
      };
    },

    getCallSeries: async ({ query }, { request: { caller } }) => {
      const { from, to, count: slotCount } = slots(query);
      const slot = slotOf(from, query.step);
      const rows = await db
        .select({ slot, status: edgeAppCalls.status, calls: sql<number>`count(*)::int` })
        .from(edgeAppCalls)
        .where(callConditions(caller.accountId, query, from, to))
        .groupBy(slot, edgeAppCalls.status)
        .orderBy(slot, edgeAppCalls.status);
      const series = Array.from({ length: slotCount }, (_, index) => ({ time: slotTime(from, query.step, index), count_by_status: [] as { status: number; count: number }[] }));
      for (const row of rows) series[row.slot]?.count_by_status.push({ status: row.status, count: row.calls });
      return { status: 200, body: { stats: series } };
    },

    getDurationSeries: async ({ query }, { request: { caller } }) => {
      const { from, to } = slots(query);
      const slot = slotOf(from, query.step);
      const percentile = (fraction: number) => sql<number>`round(percentile_cont(${sql.raw(String(fraction))}) within group (order by ${edgeAppCalls.durationUs}))::int`;
      const rows = await db
        .select({
          slot,
          avg: sql<number>`round(avg(${edgeAppCalls.durationUs}))::int`,
          min: sql<number>`min(${edgeAppCalls.durationUs})::int`,
          max: sql<number>`max(${edgeAppCalls.durationUs})::int`,
          median: percentile(0.5),
          perc75: percentile(0.75),
          perc90: percentile(0.9),
        })
        .from(edgeAppCalls)
        .where(callConditions(caller.accountId, query, from, to))
        .groupBy(slot)
        .orderBy(slot);
      return { status: 200, body: { stats: rows.map(({ slot: index, ...figures }) => ({ time: slotTime(from, query.step, index), ...figures })) } };
    },

    getEdgeAccount: async (_, { request: { caller } }) => {
      const { accountId } = caller;
      const now = new Date();
      const hour = new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS);
      const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
      const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
      const [[apps], [calls], [plan]] = await Promise.all([
        db.select({ total: count() }).from(edgeApps).where(eq(edgeApps.accountId, accountId)),
        db
          .select({
            hourly: sql<number>`count(*) filter (where ${edgeAppCalls.time} >= ${hour.toISOString()}::timestamptz)::int`,
            daily: sql<number>`count(*) filter (where ${edgeAppCalls.time} >= ${day.toISOString()}::timestamptz)::int`,
            monthly: sql<number>`count(*)::int`,
          })
          .from(edgeAppCalls)
          .where(and(eq(edgeAppCalls.accountId, accountId), gte(edgeAppCalls.time, month), sql`${edgeAppCalls.time} <= ${now.toISOString()}::timestamptz`)),
        db.select({ id: edgePlans.id, name: edgePlans.name }).from(edgePlans).orderBy(asc(edgePlans.id)).limit(1),
      ]);
      return {
        status: 200,
        body: {
          app_count: apps?.total ?? 0,
          daily_consumption: calls?.daily ?? 0,
          hourly_consumption: calls?.hourly ?? 0,
          monthly_consumption: calls?.monthly ?? 0,
          networks: EDGE_NETWORKS.map((network) => ({ ...network })),
          plan_id: plan?.id ?? 0,
          plan: plan?.name ?? "",
          status: 1,
        },
      };
    },
  });
}
