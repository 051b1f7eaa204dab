/**
 * The demo data's CDN traffic, made by the database rather than kept in the fixture: the usage of each
 * active demo CDN resource in 5-minute buckets, and two logged requests per bucket, over a fixed window
 * (DEMO_TRAFFIC_FROM to DEMO_TRAFFIC_TO), each value arithmetic on the resource's id and the bucket's time,
 * so every load makes the same rows. Also the paid-feature periods the fixture's resources and logs
 * uploader configs opened as they were loaded, dated when the resources and configs were created.
 */
import { sql } from "drizzle-orm";
import type { Database } from "./database.js";

/** The first demo bucket, and the end of the last one: three days. */
export const DEMO_TRAFFIC_FROM = "2026-11-01T00:00:00Z";
export const DEMO_TRAFFIC_TO = "2026-11-04T00:00:00Z";

/** Edge countries with their regions; a resource is served from two of them. */
const EDGE_COUNTRIES = [
  ["DE", "eu"],
  ["US", "na"],
  ["NL", "eu"],
  ["SG", "asia"],
  ["BR", "latam"],
  ["JP", "asia"],
  ["AU", "au"],
  ["ZA", "africa"],
  ["AE", "me"],
  ["KZ", "cis"],
] as const;

type Executor = Pick<Database, "execute">;

const countries = sql.raw(`(array[${EDGE_COUNTRIES.map(([code]) => `'${code}'`).join(", ")}])`);
const regions = sql.raw(`(array[${EDGE_COUNTRIES.map(([, region]) => `'${region}'`).join(", ")}])`);

/** Makes the demo traffic of the resources `resourceIds` (those of them that are active); rows already there are kept. */
export async function generateDemoCdnTraffic(db: Executor, resourceIds: number[]): Promise<void> {
  if (resourceIds.length === 0) return;
  const ids = sql.raw(`array[${resourceIds.map((id) => Math.trunc(id)).join(", ")}]::integer[]`);
  // One row per resource, bucket and edge country (k = 0, 1): requests follow the hour of the day (peak at
  // 14:00 UTC) and vary with the bucket; bytes, hits and status classes are shares of them.
  await db.execute(sql`
    insert into cdn_usage (account_id, bucket, resource_id, country, region, client_country, protocol,
      sent_bytes, upstream_bytes, shield_bytes, backblaze_bytes, hit_bytes, requests, origin_requests,
      responses_2xx, responses_3xx, responses_4xx, responses_5xx, responses_hit, responses_miss,
      image_processed, request_time_ms, upstream_response_time_ms, response_types)
    select account_id, bucket, resource_id, country, region, country, protocol,
      sent, upstream, case when shielded then upstream * 6 / 5 else 0 end, 0, sent - upstream, requests, misses,
      requests - requests * 5 / 100 - requests * 4 / 100 - requests / 200, requests * 5 / 100, requests * 4 / 100, requests / 200,
      requests - misses, misses,
      case when resource_id % 2 = 1 then requests / 10 else 0 end,
      requests * (40 + resource_id % 20), misses * (120 + resource_id % 50),
      jsonb_build_object('text/html', requests * 2 / 10, 'image/jpeg', requests * 5 / 10,
        'application/javascript', requests - requests * 2 / 10 - requests * 5 / 10)
    from (
      select r.account_id, r.id as resource_id, r.shielding_pop_id is not null as shielded, s.bucket,
        ${countries}[1 + (r.id * 3 + k * 7) % 10] as country, ${regions}[1 + (r.id * 3 + k * 7) % 10] as region,
        case when (r.id + k) % 3 = 0 then 'HTTP/1.1' when (r.id + k) % 3 = 1 then 'HTTP/2' else 'HTTP/3' end as protocol,
        req.requests, req.requests * (100 - (80 + r.id % 15)) / 100 as misses,
        req.requests * (20000 + (r.id * 7919 + b * 31) % 30000) as sent,
        req.requests * (20000 + (r.id * 7919 + b * 31) % 30000) * (100 - (80 + r.id % 15)) / 100 as upstream
      from cdn_resources r
      cross join generate_series(${DEMO_TRAFFIC_FROM}::timestamptz, ${DEMO_TRAFFIC_TO}::timestamptz - interval '5 minutes', interval '5 minutes') as s(bucket)
      cross join generate_series(0, 1) as k
      cross join lateral (select (extract(epoch from s.bucket)::bigint / 300) as b, extract(hour from s.bucket at time zone 'UTC')::int as h) t
      cross join lateral (select ((20 + (r.id * 37 + b * 13) % 60) * (2 + greatest(0, 12 - abs(h - 14))) * (2 - k))::bigint as requests) req
      where r.id = any(${ids}) and r.active
    ) usage
    on conflict do nothing`);
  // Two requests per resource and bucket, at seconds into it that vary with the resource and the bucket.
  await db.execute(sql`
    insert into cdn_request_logs (account_id, timestamp, resource_id, cname, client_ip, method, path, status, size,
      cache_status, datacenter, referer, user_agent, content_type, tcpinfo_rtt)
    select r.account_id, s.bucket + make_interval(secs => (r.id * 17 + n * 131 + b * 7) % 300), r.id, r.cname,
      '198.51.100.' || ((r.id * 31 + b + n * 97) % 254 + 1),
      case when (b + n) % 7 = 0 then 'HEAD' else 'GET' end,
      (array['/', '/index.html', '/img/hero.jpg', '/js/app.js', '/css/site.css', '/video/intro.mp4', '/api/status'])[1 + (r.id + b + n * 3) % 7],
      (array[200, 200, 200, 304, 200, 206, 404, 200, 502, 200])[1 + (b * 3 + n + r.id) % 10]::smallint,
      1000 + (r.id * 7919 + b * 131 + n * 17) % 250000,
      (array['HIT', 'HIT', 'MISS', 'HIT', 'EXPIRED', 'HIT', 'BYPASS', 'HIT', 'STALE', 'REVALIDATED'])[1 + (b + n * 5 + r.id) % 10],
      (array['fra-2', 'ams-1', 'ash-1', 'sin-1'])[1 + (r.id + n) % 4],
      case when n = 0 then 'https://www.example.com/' else '-' end,
      (array['Mozilla/5.0 (X11; Linux x86_64) Firefox/132.0', 'Mozilla/5.0 (Macintosh) Safari/605.1.15', 'curl/8.5.0'])[1 + (b + r.id) % 3],
      (array['text/html', 'text/html', 'image/jpeg', 'application/javascript', 'text/css', 'video/mp4', 'application/json'])[1 + (r.id + b + n * 3) % 7],
      10 + (r.id * 13 + b + n * 29) % 90
    from cdn_resources r
    cross join generate_series(${DEMO_TRAFFIC_FROM}::timestamptz, ${DEMO_TRAFFIC_TO}::timestamptz - interval '5 minutes', interval '5 minutes') as s(bucket)
    cross join generate_series(0, 1) as n
    cross join lateral (select extract(epoch from s.bucket)::bigint / 300 as b) t
    where r.id = any(${ids}) and r.active
      and not exists (select 1 from cdn_request_logs l where l.resource_id = r.id and l.timestamp >= ${DEMO_TRAFFIC_FROM}::timestamptz and l.timestamp < ${DEMO_TRAFFIC_TO}::timestamptz)
    order by 2, 3`);
  // The periods the triggers opened as this transaction loaded the fixture started when their objects were created.
  await db.execute(sql`
    update cdn_feature_periods p set active_from = r.created from cdn_resources r
    where p.feature = 'shield' and p.active_from = now() and p.resource_id = r.id and r.id = any(${ids})`);
  await db.execute(sql`
    update cdn_feature_periods p set active_from = coalesce((
        select min(c.created) from logs_uploader_configs c
        where c.account_id = p.account_id and c.enabled
          and (c.for_all_resources or exists (select 1 from logs_uploader_config_resources cr where cr.config_id = c.id and cr.resource_id = p.resource_id))), p.active_from)
    where p.feature = 'raw_logs' and p.active_from = now() and p.resource_id = any(${ids})`);
}
