/**
 * Part 2: the listings, the cost report and the streaming statistics on a large database (by default
 * 100,000 edge apps, 100,000 CDN resources, 1,000,000 usage lines and 1,000,000 player events,
 * bulk-generated in SQL), and every other listing of an account's objects on 100,000 rows of its own
 * (scale-listings.ts), one request at a time, with the query plans the database uses for the handler's
 * statements.
 */
import { sql, type Engine } from "@cloudplane/db";
import { openRawDatabase, variantKey, type RawDatabase } from "./baseline.js";
import { captureRouteSql, sqlOnly, type CapturedStatement } from "./capture.js";
import { benchDatabase, withDatabase, type DatabaseLocation } from "./databases.js";
import { runLoad, summarize, type LoadResult } from "./load.js";
import {
  AUTHORIZATION,
  COST_REPORT_BODY,
  COST_REPORT_YEAR_BODY,
  LIST_APPS_BY_NAME_PATH,
  LIST_APPS_PATH,
  LIST_RESOURCES_PATH,
  SCALE,
  VIEWS_BY_COUNTRY_PATH,
  VIEWS_GROUPED_PATH,
  type FixedRequest,
} from "./scenario.js";
import { SCALE_LISTINGS, type ScaleListing } from "./scale-listings.js";
import { startServer, type RunningServer } from "./servers/launch.js";

export interface ScaleRequest {
  /** `listApps`, …; a listing of scale-listings.ts: `<its id>.<n>`. */
  id: string;
  title: string;
  request: FixedRequest;
  /** The goal's bound on p50 in ms, when the issue sets one. */
  goalP50Ms?: number;
  /** Of scale-listings.ts: measured on ours alone (the baseline serves part 1's routes only). */
  listing?: string;
  /** SQL run before each request, the requests one at a time (scale-listings.ts, `afterWrite`). */
  afterWrite?: string;
}

/** The bound issue 29 sets on every listing of an account's objects at 100,000 rows, on PostgreSQL. */
export const LISTING_GOAL_P50_MS = 20;

export const SCALE_REQUESTS: ScaleRequest[] = [
  { id: "listApps", title: "List edge apps: status=1, ordering=-name, offset 50", request: { method: "GET", path: LIST_APPS_PATH }, goalP50Ms: LISTING_GOAL_P50_MS },
  { id: "listResources", title: "List CDN resources: offset 50", request: { method: "GET", path: LIST_RESOURCES_PATH }, goalP50Ms: LISTING_GOAL_P50_MS },
  {
    id: "costReport",
    title: "Cost report: one quarter, 3 types",
    request: { method: "POST", path: "/cloud/v1/reservation_cost_report/totals", body: COST_REPORT_BODY },
    goalP50Ms: 100,
  },
  { id: "viewsByCountry", title: "Streaming views by country: one month", request: { method: "GET", path: VIEWS_BY_COUNTRY_PATH }, goalP50Ms: 100 },
  { id: "viewsGrouped", title: "Streaming views per day, type and country: one month", request: { method: "GET", path: VIEWS_GROUPED_PATH }, goalP50Ms: 100 },
  { id: "listAppsByName", title: "List edge apps: name substring, ordering=-name", request: { method: "GET", path: LIST_APPS_BY_NAME_PATH } },
  {
    id: "costReportYear",
    title: "Cost report: one year, every type",
    request: { method: "POST", path: "/cloud/v1/reservation_cost_report/totals", body: COST_REPORT_YEAR_BODY },
  },
];

/** The listings of scale-listings.ts this run measures: all, or those BENCH_SCALE_LISTINGS names (ids, comma-separated; `none` for none). */
export function scaleListings(): ScaleListing[] {
  const chosen = process.env.BENCH_SCALE_LISTINGS?.split(",").map((id) => id.trim());
  return chosen ? SCALE_LISTINGS.filter((listing) => chosen.includes(listing.id)) : SCALE_LISTINGS;
}

/** The requests of `listings`, their paths' `{name}` replaced by the values looked up. */
function listingRequests(listings: ScaleListing[], values: Record<string, Record<string, string>>): ScaleRequest[] {
  return listings.flatMap((listing) =>
    listing.requests.map((item, index) => ({
      id: `${listing.id}.${index + 1}`,
      title: `${item.path.split("?")[0]}: ${item.title}`,
      request: {
        method: "GET" as const,
        path: item.path.replace(/\{(\w+)\}/g, (_, name: string) => {
          const value = values[listing.id]?.[name];
          if (value === undefined) throw new Error(`${listing.id}: no value was found for {${name}}`);
          return value;
        }),
      },
      ...(item.goal === false ? {} : { goalP50Ms: LISTING_GOAL_P50_MS }),
      ...(item.afterWrite === undefined ? {} : { afterWrite: item.afterWrite }),
      listing: listing.id,
    })),
  );
}

/** The key a request's statements are caught and found under: the baseline's variant, or the request itself. */
function statementKey(method: string, url: URL, body: unknown): string {
  return variantKey(method, url, body) ?? `${method} ${url.pathname}${url.search}`;
}

export interface QueryPlan {
  sql: string;
  params: unknown[];
  plan: string;
}

export interface ScaleRow {
  id: string;
  title: string;
  request: FixedRequest;
  ours: LoadResult;
  /** Not for the listings of scale-listings.ts, which the baseline does not serve. */
  baseline?: LoadResult;
  goalP50Ms?: number;
  /** The scale-listings.ts entry the request is of. */
  listing?: string;
  plans: QueryPlan[];
}

/** A listing of scale-listings.ts as generated. */
export interface ScaleListingData {
  id: string;
  route: string;
  /** What was generated, in words. */
  rows: string;
}

export interface ScalePart {
  engine: Engine;
  edgeApps: number;
  cdnResources: number;
  usageLines: number;
  playerEvents: number;
  /** Rows of account 1 (the caller), which the queries read. */
  accountEdgeApps: number;
  accountCdnResources: number;
  accountUsageLines: number;
  accountPlayerEvents: number;
  generateSeconds: number;
  /** The rows each listing of scale-listings.ts got (SCALE.listingRows, nine in ten the caller's), and how long that took. */
  listings?: ScaleListingData[];
  listingRows?: number;
  listingsGenerateSeconds?: number;
  planNote: string;
  rows: ScaleRow[];
}

/**
 * Edge apps: 90 % in account 1 (the caller), statuses weighted towards enabled, both api types, names
 * of eight app kinds with a hash so their order is scattered. Binaries and templates are the account's.
 */
function edgeAppsSql(count: number): string {
  return `
insert into edge_apps (account_id, name, status, binary_id, template_id, plan_id, api_type, comment, url, networks, upgradeable_to, created, updated)
select account_id, name, status,
  case when api_type = 'wasi-http' then (case account_id when 1 then 1 else 2 end) else (case account_id when 1 then 3 else 4 end) end,
  case when api_type = 'wasi-http' then (case account_id when 1 then 1 else 2 end) else (case account_id when 1 then 3 else 1002 end) end,
  1 + g % 3, api_type, '', 'https://' || name || '.edge.cloudplane.example', '{edge-eu,edge-us}', null,
  now() - (g || ' minutes')::interval, now()
from (
  select g,
    case when g % 10 = 0 then 2 else 1 end as account_id,
    (array['image-resize','geo-redirect','auth-gateway','ab-test','header-rewrite','bot-filter','cache-warmer','edge-logger'])[1 + g % 8]
      || '-' || substr(md5(g::text), 1, 8) || '-' || g as name,
    (array[1, 1, 1, 1, 0, 2, 2, 3, 4, 5])[1 + (g / 10) % 10] as status,
    case when g % 3 = 2 then 'proxy-wasm' else 'wasi-http' end as api_type
  from generate_series(1, ${count}) g
) apps`;
}

/**
 * CDN resources: 90 % in account 1, on the account's first demo origin group, a few deactivated or
 * suspended, host names unique on the platform like real ones.
 */
function cdnResourcesSql(count: number): string {
  return `
insert into cdn_resources (account_id, name, cname, origin_group_id, active, status, suspended, created, updated)
select account_id, 'site ' || g, 'cdn-' || g || '-' || substr(md5(g::text), 1, 6) || '.scale.example',
  (select min(id) from origin_groups where origin_groups.account_id = r.account_id),
  g % 20 <> 0, case when g % 50 = 0 then 'suspended' else 'active' end, g % 50 = 0,
  now() - (g || ' minutes')::interval, now()
from (select g, case when g % 10 = 0 then 2 else 1 end as account_id from generate_series(1, ${count}) g) r`;
}

/**
 * Usage lines: 90 % in account 1, spread over the 24 months of 2025 and 2026, five types, three
 * regions, a flavor and metric per type, 1 % without a price, two tags.
 */
function usageLinesSql(count: number): string {
  return `
insert into usage_lines (account_id, month, type, region_id, flavor, billing_metric_name, billing_feature_name, billing_value_unit, currency, billing_value, cost, tags)
select account_id, month, type, region_id,
  case type when 'instance' then (array['g1-standard-2-8','g1-standard-4-16','g2-gpu-1xl40s'])[1 + g % 3] when 'volume' then 'ssd-hiiops' else '' end,
  case type when 'instance' then 'vm_hours' when 'volume' then 'volume_gb_hours' when 'egress_traffic' then 'egress_gb' when 'floatingip' then 'ip_hours' else 'tokens' end,
  case type when 'instance' then 'instance' when 'volume' then 'volume' when 'egress_traffic' then 'traffic' when 'floatingip' then 'floating ip' else 'inference' end,
  case type when 'instance' then 'hours' when 'volume' then 'GB*h' when 'egress_traffic' then 'GB' when 'floatingip' then 'hours' else 'tokens' end,
  'EUR', round((g % 1000)::numeric / 7, 3), case when g % 100 = 0 then null else round((g % 500)::numeric / 13, 4) end,
  jsonb_build_object('env', (array['production','staging','dev'])[1 + g % 3], 'team', (array['web-platform','data','ml'])[1 + g % 7 % 3])
from (
  select g,
    case when g % 10 = 0 then 2 else 1 end as account_id,
    to_char(date '2025-01-01' + ((g / 10) % 24) * interval '1 month', 'YYYY-MM') as month,
    (array['instance','volume','egress_traffic','floatingip','inference'])[1 + (g / 3) % 5] as type,
    1 + (g / 7) % 3 as region_id
  from generate_series(1, ${count}) g
) lines`;
}

/**
 * The built-in player's events: 90 % in account 1, spread evenly over the twelve months from 2025-11-01,
 * each viewer's init, start and two progress reports of a live stream, a video or a playlist, on one of
 * a few hosts, browsers, systems and platforms, from one of twenty countries and its region.
 */
function playerEventsSql(count: number): string {
  return `
insert into streaming_player_events (account_id, time, type, entity_id, event, host, embed_url, os, browser, platform, ip, country, region, region_name, position_seconds)
select account_id, timestamptz '2025-11-01 00:00:00+00' + (g::float8 / ${count} * 365) * interval '1 day',
  (array['live','vod','vod','playlist'])[1 + (g / 4) % 4], 1 + (g / 4) % 500, (array['init','start','watch','watch'])[1 + g % 4],
  host, 'https://' || host || '/watch/' || (g / 4) % 50, (array['Windows','macOS','Android','iOS','Linux'])[1 + (g / 4) % 5],
  (array['Chrome','Firefox','Safari','Edge','Opera'])[1 + (g / 12) % 5], (array['desktop','mobile','tablet','tv'])[1 + (g / 4) % 4],
  '198.18.' || ((g / 4) % 250) || '.' || ((g / 1000) % 250), country, country || '-' || (1 + (g / 4) % 5), 'Region ' || (1 + (g / 4) % 5),
  case when g % 4 >= 2 then ((g / 4) % 360) * 10 else 0 end
from (
  select g, case when g % 10 = 0 then 2 else 1 end as account_id,
    (array['www.example.com','video.example.org','blog.example.net','shop.example.com'])[1 + (g / 8) % 4] as host,
    (array['US','DE','GB','FR','JP','BR','IN','CA','AU','NL','ES','IT','SE','PL','MX','KR','SG','ZA','AE','TR'])[1 + (g / 4) % 20] as country
  from generate_series(1, ${count}) g
) events`;
}

/** EXPLAIN (ANALYZE, BUFFERS) of one statement with its parameters bound. */
async function explain(db: RawDatabase, statement: CapturedStatement): Promise<string> {
  const result = await db.query(`explain (analyze, buffers) ${statement.sql}`, statement.params);
  return result.rows.map((row) => String(row[0])).join("\n");
}

/** Fills the database with the scale data set and refreshes its statistics. */
export async function generateScaleData(
  location: DatabaseLocation,
): Promise<{ seconds: number; accountEdgeApps: number; accountCdnResources: number; accountUsageLines: number; accountPlayerEvents: number }> {
  const started = performance.now();
  return withDatabase(location, async (db) => {
    await db.execute(sql.raw(edgeAppsSql(SCALE.edgeApps)));
    await db.execute(sql.raw(cdnResourcesSql(SCALE.cdnResources)));
    await db.execute(sql.raw(usageLinesSql(SCALE.usageLines)));
    await db.execute(sql.raw(playerEventsSql(SCALE.playerEvents)));
    for (const table of ["edge_apps", "cdn_resources", "usage_lines", "streaming_player_events"]) await db.execute(sql.raw(`vacuum analyze ${table}`));
    const seconds = (performance.now() - started) / 1000;
    const countOf = async (table: string) =>
      (await db.select({ count: sql<number>`count(*)::int` }).from(sql.raw(table)).where(sql`account_id = 1`))[0]?.count ?? 0;
    return {
      seconds,
      accountEdgeApps: await countOf("edge_apps"),
      accountCdnResources: await countOf("cdn_resources"),
      accountUsageLines: await countOf("usage_lines"),
      accountPlayerEvents: await countOf("streaming_player_events"),
    };
  });
}

/**
 * Generates the rows of each listing of scale-listings.ts, then finds the values their paths name. Returns
 * the requests to measure and how long generating took.
 */
async function generateListings(
  location: DatabaseLocation,
  listings: ScaleListing[],
): Promise<{ seconds: number; requests: ScaleRequest[]; data: ScaleListingData[] }> {
  const started = performance.now();
  return withDatabase(location, async (db) => {
    const values: Record<string, Record<string, string>> = {};
    for (const listing of listings) {
      for (const statement of listing.generate(SCALE.listingRows)) await db.execute(sql.raw(statement));
      for (const table of listing.tables) await db.execute(sql.raw(`vacuum analyze ${table}`));
      for (const [name, query] of Object.entries(listing.lookups ?? {})) {
        // Either engine's result: postgres.js gives the rows, PGlite an object holding them. An id or a count: a number, or a bigint's text.
        const result: unknown = await db.execute(sql.raw(query));
        const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Record<string, number | string | null>[];
        const value = rows[0] ? Object.values(rows[0])[0] : undefined;
        if (value === undefined || value === null) throw new Error(`${listing.id}: ${query} found nothing`);
        (values[listing.id] ??= {})[name] = String(value);
      }
    }
    return {
      seconds: (performance.now() - started) / 1000,
      requests: listingRequests(listings, values),
      data: listings.map((listing) => ({ id: listing.id, route: listing.route, rows: listing.rows })),
    };
  });
}

/**
 * `request` sent right after `write` runs on the database, one at a time for `seconds` (fetch, the body read
 * whole, as autocannon times it): the first request after a change, where the handler keeps its answers.
 */
async function measureAfterWrite(url: string, writer: RawDatabase, write: string, request: FixedRequest, seconds: number): Promise<LoadResult> {
  const latencies: number[] = [];
  let failures = 0;
  const started = performance.now();
  while (performance.now() - started < seconds * 1000) {
    await writer.query(write, []);
    const sent = performance.now();
    const response = await fetch(new URL(request.path, url), { method: request.method, headers: { authorization: AUTHORIZATION } });
    await response.arrayBuffer();
    if (response.ok) latencies.push(performance.now() - sent);
    else failures++;
  }
  return summarize([{ latencies, failures, seconds: (performance.now() - started) / 1000 }]);
}

export async function measureScale(engine: Engine): Promise<ScalePart> {
  const database = await benchDatabase(engine);
  const servers: RunningServer[] = [];
  try {
    console.log(`  ${engine}: generating ${SCALE.edgeApps} edge apps, ${SCALE.cdnResources} CDN resources, ${SCALE.usageLines} usage lines and ${SCALE.playerEvents} player events…`);
    const generated = await generateScaleData(database.location);
    console.log(`  ${engine}: generated in ${generated.seconds.toFixed(1)} s (account 1: ${generated.accountEdgeApps} apps, ${generated.accountCdnResources} CDN resources, ${generated.accountUsageLines} usage lines, ${generated.accountPlayerEvents} player events)`);
    const listings = scaleListings();
    console.log(`  ${engine}: generating ${SCALE.listingRows} rows for each of ${listings.length} listings (${listings.map((listing) => listing.id).join(", ")})…`);
    const listed = await generateListings(database.location, listings);
    console.log(`  ${engine}: generated in ${listed.seconds.toFixed(1)} s`);
    // PGlite's database is one process's: no write of the bench's own while the server has it open.
    const requests = [...(process.env.BENCH_SCALE_LISTINGS ? [] : SCALE_REQUESTS), ...listed.requests].filter(
      (item) => item.afterWrite === undefined || engine === "postgres",
    );

    const statements = await captureRouteSql(
      database.location,
      requests.map((item) => item.request),
      statementKey,
    );
    const plans = new Map<string, QueryPlan[]>();
    // Unnamed statements: each EXPLAIN plans for the values given, as the first runs of a prepared statement are.
    const raw = await openRawDatabase(database.location, { max: 1, prepare: false });
    try {
      for (const item of requests) {
        const key = statementKey(item.request.method, new URL(item.request.path, "http://bench.local"), item.request.body);
        const list: QueryPlan[] = [];
        for (const statement of statements[key] ?? []) list.push({ ...statement, plan: await explain(raw, statement) });
        plans.set(item.id, list);
      }
    } finally {
      await raw.close();
    }
    if (process.env.BENCH_SCALE_PLANS === "1")
      for (const item of listed.requests)
        for (const plan of plans.get(item.id) ?? []) console.log(`\n  ${item.title}\n  ${plan.sql}\n  -- ${JSON.stringify(plan.params)}\n${plan.plan}`);

    // PGlite is one process's alone: the two servers take turns.
    const rows: ScaleRow[] = [];
    const measure = async (server: RunningServer, item: ScaleRequest) => {
      const { request, afterWrite } = item;
      if (afterWrite !== undefined) {
        const writer = await openRawDatabase(database.location, { max: 1 });
        try {
          await measureAfterWrite(server.url, writer, afterWrite, request, SCALE.warmupSeconds);
          return await measureAfterWrite(server.url, writer, afterWrite, request, SCALE.durationSeconds);
        } finally {
          await writer.close();
        }
      }
      await runLoad(server.url, [request], SCALE.connections, SCALE.warmupSeconds);
      return summarize([await runLoad(server.url, [request], SCALE.connections, SCALE.durationSeconds)]);
    };
    const results = new Map<string, { ours?: LoadResult; baseline?: LoadResult }>();
    for (const kind of ["ours", "baseline"] as const) {
      const measured = kind === "ours" ? requests : requests.filter((item) => !item.listing);
      if (!measured.length) continue;
      const server =
        kind === "ours"
          ? await startServer("ours", { location: database.location, rateLimit: "off" })
          : await startServer("baseline", { location: database.location, statements: sqlOnly(statements) });
      servers.push(server);
      for (const item of measured) {
        const result = await measure(server, item);
        results.set(item.id, { ...results.get(item.id), [kind]: result });
        const failures = result.failures ? `, ${result.failures} FAILED` : "";
        console.log(`  ${engine.padEnd(8)} ${item.title.padEnd(50)} ${kind.padEnd(8)} p50 ${result.p50.toFixed(2)} ms  p99 ${result.p99.toFixed(2)} ms${failures}`);
      }
      await server.stop();
      servers.pop();
    }
    for (const item of requests) {
      const measured = results.get(item.id)!;
      rows.push({
        id: item.id,
        title: item.title,
        request: item.request,
        ours: measured.ours!,
        ...(measured.baseline ? { baseline: measured.baseline } : {}),
        ...(item.goalP50Ms === undefined ? {} : { goalP50Ms: item.goalP50Ms }),
        ...(item.listing ? { listing: item.listing } : {}),
        plans: plans.get(item.id) ?? [],
      });
    }
    return {
      engine,
      edgeApps: SCALE.edgeApps,
      cdnResources: SCALE.cdnResources,
      usageLines: SCALE.usageLines,
      playerEvents: SCALE.playerEvents,
      accountEdgeApps: generated.accountEdgeApps,
      accountCdnResources: generated.accountCdnResources,
      accountUsageLines: generated.accountUsageLines,
      accountPlayerEvents: generated.accountPlayerEvents,
      generateSeconds: generated.seconds,
      listings: listed.data,
      listingRows: SCALE.listingRows,
      listingsGenerateSeconds: listed.seconds,
      planNote:
        "EXPLAIN (ANALYZE, BUFFERS) of each statement the handler sent, with its parameters bound and sent unnamed: the plan " +
        "is made for the values given (a prepared statement's first five runs are planned so; later ones may use a generic plan).",
      rows,
    };
  } finally {
    for (const server of servers) await server.stop();
    if (process.env.BENCH_SCALE_KEEP === "1")
      console.log(`  ${engine}: the scale database is kept (BENCH_SCALE_KEEP=1): ${"url" in database.location ? database.location.url : database.location.dataDir}`);
    else await database.close();
  }
}
