/**
 * The demo data's streaming statistics, made by the database rather than kept in the fixture: the built-in
 * player's events, the CDN's viewing and the live ingest's minutes of the fixture's live streams and of
 * three videos per account (ids DEMO_VIDEO_IDS, no table behind them), over the CDN traffic's window
 * (DEMO_TRAFFIC_FROM to DEMO_TRAFFIC_TO), and the accounts' VOD measures every 8 hours from
 * DEMO_VOD_USAGE_FROM. Every value is arithmetic on ids and times, so every load makes the same rows;
 * rows already there are kept.
 */
import { sql } from "drizzle-orm";
import type { Database } from "./database.js";
import { DEMO_TRAFFIC_FROM, DEMO_TRAFFIC_TO } from "./demo-cdn-traffic.js";

/** The demo videos: odd ids are account 1's, even ones account 2's, as the fixture's ids are. */
export const DEMO_VIDEO_IDS = [1, 2, 3, 4, 5, 6] as const;
/** The first VOD measure. */
export const DEMO_VOD_USAGE_FROM = "2026-10-01T00:00:00Z";

type Executor = Pick<Database, "execute">;

/** The watched entities: the live streams of `streamIds` (those live) and the demo videos of the accounts that own them. */
const ENTITIES = (streamIds: string) => `
  select s.account_id, 'live'::text as type, s.id as entity_id, s.client_user_id, null::text as slug
  from streams s where s.id = any(${streamIds}) and s.live
  union all
  select a.id, 'vod', v.id, (select min(u.id) from users u where u.account_id = a.id), 'demo' || v.id || 'x' || substr(md5('video:' || v.id), 1, 10)
  from accounts a cross join unnest(array[${DEMO_VIDEO_IDS.join(", ")}]) as v(id)
  where v.id % 2 = case a.id when 1 then 1 else 0 end and exists (select 1 from streams s where s.account_id = a.id and s.id = any(${streamIds}))`;

/** Makes the demo streaming statistics of the fixture's streams `streamIds`. */
export async function generateDemoStreamingStatistics(db: Executor, streamIds: number[]): Promise<void> {
  if (streamIds.length === 0) return;
  const ids = `array[${streamIds.map((id) => Math.trunc(id)).join(", ")}]::integer[]`;
  const entities = sql.raw(ENTITIES(ids));
  // The player: each hour, 1 to 4 viewers per entity (more in the afternoon, UTC, and for some entities), each an init, a start and
  // two progress reports a minute apart; the page, device, browser and place turn with the viewer.
  await db.execute(sql`
    insert into streaming_player_events (id, account_id, time, type, entity_id, event, host, embed_url, os, browser, platform, ip, country, region, region_name, position_seconds)
    select ((x.entity_id * 2 + case x.type when 'live' then 0 else 1 end) * 100000 + h * 100 + n * 10 + k)::bigint,
      x.account_id, ${DEMO_TRAFFIC_FROM}::timestamptz + make_interval(hours => h, mins => (x.entity_id * 7 + n * 13 + h) % 50 + k, secs => (n * 11 + k * 17) % 60),
      x.type, x.entity_id, (array['init', 'start', 'watch', 'watch'])[1 + k],
      p.host, 'https://' || p.host || p.page, d.os, d.browser, d.platform,
      '203.0.113.' || (1 + (x.entity_id * 37 + h * 11 + n * 53) % 254),
      g.country, g.region, g.region_name,
      case when x.type = 'live' then 0 else ((h * 3 + n * 7 + x.entity_id) % 40) * 10 + greatest(k - 2, 0) * 10 end
    from (${entities}) x
    cross join generate_series(0, (extract(epoch from ${DEMO_TRAFFIC_TO}::timestamptz - ${DEMO_TRAFFIC_FROM}::timestamptz)::int / 3600) - 1) as h
    cross join lateral generate_series(0, (x.entity_id + h) % 2 + (x.entity_id / 2) % 2 + case when h % 24 between 12 and 20 then 1 else 0 end) as n
    cross join generate_series(0, 3) as k
    cross join lateral (select (array['www.acme.example', 'blog.acme.example', 'news.example.org'])[1 + (x.entity_id + n) % 3] as host,
      (array['/', '/live', '/watch/keynote', '/blog/post-1'])[1 + (h + n) % 4] as page) p
    cross join lateral (select (array['Windows', 'macOS', 'Android', 'iOS', 'Linux'])[1 + (x.entity_id * 3 + h + n) % 5] as os,
      (array['Chrome', 'Firefox', 'Safari', 'Edge'])[1 + (x.entity_id + h * 5 + n) % 4] as browser,
      (array['desktop', 'mobile', 'tablet', 'tv'])[1 + (h + n * 3) % 4] as platform) d
    cross join lateral (select 1 + (x.entity_id * 5 + h * 7 + n * 3) % 7 as i) c
    cross join lateral (select (array['US', 'US', 'DE', 'GB', 'FR', 'JP', 'BR'])[c.i] as country,
      (array['US-CA', 'US-NY', 'DE-BE', 'GB-ENG', 'FR-IDF', 'JP-13', 'BR-SP'])[c.i] as region,
      (array['California', 'New York', 'Berlin', 'England', 'Île-de-France', 'Tokyo', 'São Paulo'])[c.i] as region_name) g
    on conflict (id) do nothing`);
  // The CDN: each hour, 2 to 4 viewers per entity, each watching in one or two 5-minute buckets.
  await db.execute(sql`
    insert into streaming_cdn_views (account_id, bucket, type, entity_id, client_user_id, slug, viewer, watched_seconds)
    select x.account_id, ${DEMO_TRAFFIC_FROM}::timestamptz + make_interval(hours => h, mins => 5 * ((x.entity_id * 3 + n * 5 + b) % 12)),
      x.type, x.entity_id, x.client_user_id, x.slug, md5('viewer:' || ((x.entity_id + n * 7 + h) % 23)), 30 + (x.entity_id * 41 + h * 17 + n * 29 + b * 7) % 271
    from (${entities}) x
    cross join generate_series(0, (extract(epoch from ${DEMO_TRAFFIC_TO}::timestamptz - ${DEMO_TRAFFIC_FROM}::timestamptz)::int / 3600) - 1) as h
    cross join lateral generate_series(0, 1 + (x.entity_id * 3 + h) % 3) as n
    cross join lateral generate_series(0, (x.entity_id + n + h) % 2) as b
    on conflict do nothing`);
  // The live streams' ingest: on the air for two to four hours each day, from an hour that turns with the stream.
  await db.execute(sql`
    insert into streaming_live_minutes (account_id, minute, stream_id, bitrate, fps, height, keyframe_interval, frames)
    select s.account_id, ${DEMO_TRAFFIC_FROM}::timestamptz + make_interval(days => d, hours => 10 + s.id % 6, mins => m), s.id,
      (case when s.video_height >= 2160 then 16000000 when s.video_height >= 1080 then 6000000 else 3000000 end) + ((s.id * 7919 + d * 31 + m * 17) % 500) * 1000,
      greatest(s.frame_rate, 25), greatest(s.video_height, 720), 2 * round(greatest(s.frame_rate, 25))::int,
      60 * round(greatest(s.frame_rate, 25))::int - (s.id + m) % 3
    from streams s
    cross join generate_series(0, (extract(epoch from ${DEMO_TRAFFIC_TO}::timestamptz - ${DEMO_TRAFFIC_FROM}::timestamptz)::int / 86400) - 1) as d
    cross join lateral generate_series(0, 60 * (2 + (s.id + d) % 3) - 1) as m
    where s.id = any(${sql.raw(ids)}) and s.live
    on conflict do nothing`);
  // VOD: every 8 hours, the bytes and minutes stored grow as uploads are transcoded.
  await db.execute(sql`
    insert into streaming_vod_usage (account_id, time, storage_bytes, storage_minutes, transcoding_minutes)
    select a.id, ${DEMO_VOD_USAGE_FROM}::timestamptz + make_interval(hours => 8 * i),
      a.id * 40000000000::bigint + i * (150000000 + a.id * 10000000)::bigint, a.id * 3000 + i * (12 + a.id), 12 + a.id + (i * 7 + a.id) % 9
    from accounts a
    cross join generate_series(0, (extract(epoch from ${DEMO_TRAFFIC_TO}::timestamptz - ${DEMO_VOD_USAGE_FROM}::timestamptz)::int / 28800) - 1) as i
    where exists (select 1 from streams s where s.account_id = a.id and s.id = any(${sql.raw(ids)}))
    on conflict do nothing`);
}
