/**
 * Integration tests of the streaming statistics: each answer compared with the same count or sum made
 * directly in SQL over the demo data's rows (the player's events, the CDN's viewing, the live minutes, the
 * VOD measures); filters, groups, the series' points and rounding; each account its own (another
 * account's stream shows nothing); and every bad parameter answered 400 naming it.
 */
import { routeExample, ROUTES } from "@cloudplane/contract";
import { sql } from "@cloudplane/db";
import { selectRows } from "@cloudplane/db/testing";
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi } from "../harness.js";

const DAY = "date_from=2026-11-01T00:00:00Z&date_to=2026-11-02T00:00:00Z";
const IN_DAY = "time >= '2026-11-01T00:00:00Z' and time < '2026-11-02T00:00:00Z'";
const queryOf = (query: Record<string, unknown> | undefined) => new URLSearchParams(Object.entries(query ?? {}).map(([key, value]) => [key, String(value)])).toString();
/** The hours 12:00 to 16:00 of 2026-11-01, as Unix times. */
const HOURS = [0, 1, 2, 3].map((hour) => Date.parse("2026-11-01T12:00:00Z") / 1000 + hour * 3600);

type Rows = Array<Record<string, unknown>>;

describe.each(engines())("Streaming statistics on %s", (engine) => {
  const api = useApi(engine);
  const rows = (query: string) => selectRows(api.database.db, sql.raw(query)) as Promise<Rows>;
  const one = async (query: string) => Number(Object.values((await rows(query))[0] ?? { n: 0 })[0] ?? 0);
  const get = async (path: string, as?: [1 | 2, "role-1-active" | "role-2-active"]) => {
    const reply = await api.call("GET", path, as ? { as } : {});
    expect(reply.status, `${path}: ${reply.text.slice(0, 400)}`).toBe(200);
    return reply.body as never;
  };

  it("answers each documented example as the reference shows it, to a user of the Users role", async () => {
    const statistics = ROUTES.filter((entry) => entry.route.path.startsWith("/streaming/statistics/"));
    expect(statistics).toHaveLength(23);
    for (const { id, route } of statistics) {
      const { query, response } = routeExample(id)!;
      const reply = await api.call("GET", `${route.path}?${queryOf(query)}`, { as: [1, "role-2-active"] });
      expect(reply.status, `${id}: ${reply.text}`).toBe(200);
      expect(reply.body, id).toEqual(response);
    }
  });

  it("counts the player's events per day and type, grouped and filtered as asked", async () => {
    const all = await get(`/streaming/statistics/views?date_from=2026-11-01T00:00:00Z&date_to=2026-11-03T00:00:00Z`);
    const expected = await rows(`select to_char(time at time zone 'UTC', 'YYYY-MM-DD') as date, type, count(*)::int as views from streaming_player_events
      where account_id = 1 and time >= '2026-11-01T00:00:00Z' and time < '2026-11-03T00:00:00Z' group by 1, 2 order by 1, 3 desc, 2`);
    expect((all as { data: unknown[] }).data).toEqual(
      expected.map((row) => ({ ...row, id: null, browser: null, country: null, event: null, host: null, ip: null, os: null, platform: null })),
    );
    // By country and event: the groups add up to the day's events; the filters narrow them.
    const grouped = (await get(`/streaming/statistics/views?${DAY}&group=country,event&type=live`)) as { data: Array<{ country: string; event: string; views: number; os: null }> };
    expect(grouped.data.reduce((total, row) => total + row.views, 0)).toBe(await one(`select count(*)::int from streaming_player_events where account_id = 1 and type = 'live' and ${IN_DAY}`));
    expect(grouped.data.every((row) => /^[A-Z]{2}$/.test(row.country) && ["init", "start", "watch"].includes(row.event) && row.os === null)).toBe(true);
    const filtered = (await get(`/streaming/statistics/views?${DAY}&country=germany&event=start&host=WWW.acme.example&group=id`)) as { data: Array<{ id: number; views: number; country: null }> };
    const ids = await rows(`select entity_id as id, count(*)::int as views from streaming_player_events
      where account_id = 1 and country = 'DE' and event = 'start' and host = 'www.acme.example' and ${IN_DAY} group by 1`);
    expect(filtered.data.map((row) => [row.id, row.views]).sort()).toEqual(ids.map((row) => [row.id, row.views]).sort());
    expect(filtered.data.length).toBeGreaterThan(0);
    const byCode = (await get(`/streaming/statistics/views?${DAY}&country=DE&event=start&host=www.acme.example&group=id`)) as typeof filtered;
    expect(byCode).toEqual(filtered);
    const stream = (await get(`/streaming/statistics/views?${DAY}&id=1&type=live`)) as { data: Array<{ views: number }> };
    expect(stream.data[0]!.views).toBe(await one(`select count(*)::int from streaming_player_events where account_id = 1 and entity_id = 1 and type = 'live' and ${IN_DAY}`));
  });

  it("counts distinct IP addresses per type, per day with group=date", async () => {
    const period = "date_from=2026-11-01T00:00:00Z&date_to=2026-11-03T00:00:00Z";
    const total = (await get(`/streaming/statistics/uniqs?${period}&type=vod`)) as { data: unknown[] };
    expect(total.data).toEqual([
      {
        date: "2026-11-01",
        type: "vod",
        unique_ips: await one(`select count(distinct ip)::int from streaming_player_events where account_id = 1 and type = 'vod' and time >= '2026-11-01T00:00:00Z' and time < '2026-11-03T00:00:00Z'`),
        id: null, browser: null, country: null, event: null, host: null, ip: null, os: null, platform: null,
      },
    ]);
    const daily = (await get(`/streaming/statistics/uniqs?${period}&group=date&type=live`)) as { data: Array<{ date: string; unique_ips: number }> };
    expect(daily.data.map((row) => row.date)).toEqual(["2026-11-01", "2026-11-02"]);
    expect(daily.data[1]!.unique_ips).toBe(
      await one(`select count(distinct ip)::int from streaming_player_events where account_id = 1 and type = 'live' and time >= '2026-11-02T00:00:00Z' and time < '2026-11-03T00:00:00Z'`),
    );
  });

  it("ranks the views (playbacks started) by browser, OS, host, page, country and region, and the videos by views", async () => {
    const starts = await one(`select count(*)::int from streaming_player_events where account_id = 1 and event = 'start' and ${IN_DAY}`);
    for (const [path, field, column] of [
      ["browsers", "browser", "browser"],
      ["systems", "os", "os"],
      ["hosts", "host", "host"],
      ["embeds", "embed_url", "embed_url"],
      ["countries", "country", "country"],
      ["regions", "region", "region"],
    ] as const) {
      const { data } = (await get(`/streaming/statistics/${path}?${DAY}`)) as { data: Array<Record<string, string | number>> };
      const expected = await rows(`select ${column} as k, count(*)::int as views from streaming_player_events where account_id = 1 and event = 'start' and ${IN_DAY} group by 1 order by 2 desc, 1`);
      expect(data.map((row) => [row[field], row.views]), path).toEqual(expected.map((row) => [row.k, row.views]));
      expect(data.reduce((sum, row) => sum + Number(row.views), 0), path).toBe(starts);
    }
    const { data: countries } = (await get(`/streaming/statistics/countries?${DAY}`)) as { data: Array<{ country: string; country_name: string }> };
    expect(countries.find((row) => row.country === "DE")?.country_name).toBe("Germany");
    const { data: regions } = (await get(`/streaming/statistics/regions?${DAY}`)) as { data: Array<{ region: string; region_name: string }> };
    expect(regions.find((row) => row.region === "JP-13")?.region_name).toBe("Tokyo");
    const { data: popular } = (await get(`/streaming/statistics/popular?${DAY}`)) as { data: Array<{ id: string; views: number }> };
    const videos = await rows(`select entity_id::text as id, count(*)::int as views from streaming_player_events where account_id = 1 and type = 'vod' and event = 'start' and ${IN_DAY} group by 1 order by 2 desc, 1`);
    expect(popular).toEqual(videos);
    expect(popular.map((row) => row.id).sort()).toEqual(["1", "3", "5"]);
  });

  it("maps where viewers watched: a live stream per minute, a video per position; another account's stream shows nothing", async () => {
    const live = (await get(`/streaming/statistics/heatmap?${DAY}&stream_id=1&type=live`)) as { data: Array<{ viewers: number; seconds: null; time: string }> };
    const minutes = await rows(`select to_char(date_trunc('minute', time) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.000"Z"') as time, count(distinct ip)::int as viewers
      from streaming_player_events where account_id = 1 and type = 'live' and entity_id = 1 and event = 'watch' and ${IN_DAY} group by 1 order by 1`);
    expect(live.data).toEqual(minutes.map((row) => ({ viewers: row.viewers, seconds: null, time: row.time })));
    expect(live.data.length).toBeGreaterThan(10);
    const video = (await get(`/streaming/statistics/heatmap?${DAY}&stream_id=3&type=vod`)) as { data: Array<{ viewers: number; seconds: number; time: null }> };
    const positions = await rows(`select position_seconds as seconds, count(distinct ip)::int as viewers
      from streaming_player_events where account_id = 1 and type = 'vod' and entity_id = 3 and event = 'watch' and ${IN_DAY} group by 1 order by 1`);
    expect(video.data).toEqual(positions.map((row) => ({ viewers: row.viewers, seconds: row.seconds, time: null })));
    expect(await get(`/streaming/statistics/heatmap?${DAY}&stream_id=2&type=live`)).toEqual({ data: [] });
    expect(await get(`/streaming/statistics/ffprobe?${DAY}&stream_id=2`)).toEqual({ data: [] });
    // Account 2's own stream 2 has both.
    expect(((await get(`/streaming/statistics/heatmap?${DAY}&stream_id=2&type=live`, [2, "role-1-active"])) as { data: unknown[] }).data.length).toBeGreaterThan(0);
    expect(((await get(`/streaming/statistics/ffprobe?${DAY}&stream_id=2`, [2, "role-1-active"])) as { data: unknown[] }).data.length).toBeGreaterThan(0);
  });

  it("counts the CDN's distinct viewers per type, of one entity when a type names it", async () => {
    const uniques = (type: string, extra = "") =>
      one(`select count(distinct viewer)::int from streaming_cdn_views where account_id = 1 and type = '${type}' ${extra} and bucket >= '2026-11-01T00:00:00Z' and bucket < '2026-11-02T00:00:00Z'`);
    const all = (await get(`/streaming/statistics/cdn/uniqs?${DAY}`)) as { data: unknown[] };
    expect(all.data).toEqual([
      { type: "live", uniqs: await uniques("live") },
      { type: "vod", uniqs: await uniques("vod") },
      { type: "playlist", uniqs: 0 },
    ]);
    expect(await get(`/streaming/statistics/cdn/uniqs?${DAY}&type=live&id=9`)).toEqual({ data: [{ type: "live", uniqs: await uniques("live", "and entity_id = 9") }] });
    // An id without a type is ignored, as the platform does.
    expect(await get(`/streaming/statistics/cdn/uniqs?${DAY}&id=9`)).toEqual(all);
  });

  it("gives the CDN's viewers and watching minutes as series of every point, rounded up per point, and per stream or video in total", async () => {
    const hours = "from=2026-11-01T12:20:00Z&to=2026-11-01T16:00:00Z&granularity=1h";
    const [viewers] = (await get(`/streaming/statistics/stream/viewers?${hours}&stream_id=9`)) as Array<{ client: number; metrics: { streams: number[] } }>;
    expect(viewers!.client).toBe(1);
    const perHour = (select: string, where: string) =>
      rows(`select (extract(epoch from bucket)::bigint / 3600) * 3600 as p, ${select} as v from streaming_cdn_views
        where account_id = 1 and ${where} and bucket >= '2026-11-01T12:20:00Z' and bucket < '2026-11-01T16:00:00Z' group by 1`);
    const valuesOf = (found: Rows) => HOURS.map((time) => Number(found.find((row) => Number(row.p) === time)?.v ?? 0));
    // From rounded down to the hour: 12:00, 13:00, 14:00 and 15:00; the first point holds 12:20 onwards.
    expect(viewers!.metrics.streams).toEqual(valuesOf(await perHour("count(distinct viewer)::int", "type = 'live' and entity_id = 9")));
    const [watched] = (await get(`/streaming/statistics/stream/watching_duration?${hours}&client_user_id=5`)) as Array<{ metrics: { streams: number[] } }>;
    expect(watched!.metrics.streams).toEqual(valuesOf(await perHour("ceil(sum(watched_seconds) / 60.0)::int", "type = 'live' and client_user_id = 5")));
    const [vod] = (await get(`/streaming/statistics/vod/watching_duration?${hours}`)) as Array<{ metrics: { vod: number[] } }>;
    expect(vod!.metrics.vod).toEqual(valuesOf(await perHour("ceil(sum(watched_seconds) / 60.0)::int", "type = 'vod'")));
    expect(vod!.metrics.vod.every((minutes) => minutes > 0)).toBe(true);
    const slug = String((await rows("select slug from streaming_cdn_views where account_id = 1 and entity_id = 3 and type = 'vod' limit 1"))[0]!.slug);
    const [vodViewers] = (await get(`/streaming/statistics/vod/viewers?${hours}&slug=${slug}`)) as Array<{ metrics: { vod: number[] } }>;
    expect(vodViewers!.metrics.vod).toEqual(valuesOf(await perHour("count(distinct viewer)::int", `type = 'vod' and slug = '${slug}'`)));
    // Monthly points: October and November.
    const [months] = (await get("/streaming/statistics/stream/watching_duration?from=2026-10-15T00:00:00Z&to=2026-11-15T00:00:00Z&granularity=1mo")) as Array<{ metrics: { streams: number[] } }>;
    expect(months!.metrics.streams).toEqual([0, await one("select ceil(sum(watched_seconds) / 60.0)::int from streaming_cdn_views where account_id = 1 and type = 'live'")]);
    // Totals: rounded up once per stream over the period.
    const totals = (await get("/streaming/statistics/stream/watching_duration/total?from=2026-11-01T00:00:00Z&to=2026-11-02T00:00:00Z")) as Array<{ client: number; duration: number; client_user_id: number; stream_id: string }>;
    const perStream = await rows(`select entity_id::text as stream_id, max(client_user_id) as client_user_id, ceil(sum(watched_seconds) / 60.0)::int as duration from streaming_cdn_views
      where account_id = 1 and type = 'live' and bucket >= '2026-11-01T00:00:00Z' and bucket < '2026-11-02T00:00:00Z' group by entity_id order by entity_id`);
    expect(totals).toEqual(perStream.map((row) => ({ client: 1, duration: row.duration, client_user_id: row.client_user_id, stream_id: row.stream_id })));
    const vodTotals = (await get(`/streaming/statistics/vod/watching_duration/total?slug=${slug}`)) as Array<{ slug: string; duration: number }>;
    expect(vodTotals).toEqual([{ client: 1, duration: await one(`select ceil(sum(watched_seconds) / 60.0)::int from streaming_cdn_views where account_id = 1 and slug = '${slug}'`), client_user_id: expect.any(Number), slug }]);
  });

  it("sums the live streams' minutes on the air, the most at once, and a stream's ingest per interval", async () => {
    const hours = "from=2026-11-01T12:00:00Z&to=2026-11-01T16:00:00Z&granularity=1h";
    const perHour = (query: string) => rows(query).then((found) => HOURS.map((time) => Number(found.find((row) => Number(row.p) === time)?.v ?? 0)));
    const [minutes] = (await get(`/streaming/statistics/stream?${hours}`)) as Array<{ metrics: { streams: number[] } }>;
    expect(minutes!.metrics.streams).toEqual(
      await perHour("select (extract(epoch from minute)::bigint / 3600) * 3600 as p, count(*)::int as v from streaming_live_minutes where account_id = 1 and minute >= '2026-11-01T12:00:00Z' and minute < '2026-11-01T16:00:00Z' group by 1"),
    );
    const [most] = (await get(`/streaming/statistics/max_stream?${hours}`)) as Array<{ metrics: { streams: number[] } }>;
    expect(most!.metrics.streams).toEqual(
      await perHour(`select (extract(epoch from minute)::bigint / 3600) * 3600 as p, max(n)::int as v from (select minute, count(*) as n from streaming_live_minutes
        where account_id = 1 and minute >= '2026-11-01T12:00:00Z' and minute < '2026-11-01T16:00:00Z' group by minute) m group by 1`),
    );
    expect(most!.metrics.streams.some((count) => count > 1)).toBe(true);
    const hourly = (await get(`/streaming/statistics/ffprobe?${DAY}&stream_id=9&interval=1&units=hour`)) as { data: Array<Record<string, number | string>> };
    const expected = await rows(`select to_char(date_trunc('hour', minute) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.000"Z"') as time, round(avg(bitrate) / 1000.0, 2)::float8 as avg_bitrate,
      max(fps)::float8 as max_fps, max(height) as max_height, max(keyframe_interval) as max_keyframe_interval, sum(frames)::int as sum_frames
      from streaming_live_minutes where account_id = 1 and stream_id = 9 and minute >= '2026-11-01T00:00:00Z' and minute < '2026-11-02T00:00:00Z' group by 1 order by 1`);
    expect(hourly.data).toEqual(expected);
    expect(hourly.data.length).toBeGreaterThan(1);
    // A week from Monday holds the whole demo window (2026-11-01 is a Sunday: two weeks); a month, one.
    const weeks = (await get(`/streaming/statistics/ffprobe?date_from=2026-10-01T00:00:00Z&date_to=2026-12-01T00:00:00Z&stream_id=9&units=week`)) as { data: Array<{ time: string; sum_frames: number }> };
    expect(weeks.data.map((row) => row.time)).toEqual(["2026-10-26T00:00:00.000Z", "2026-11-02T00:00:00.000Z"]);
    const month = (await get(`/streaming/statistics/ffprobe?date_from=2026-10-01T00:00:00Z&date_to=2026-12-01T00:00:00Z&stream_id=9&units=month`)) as { data: Array<{ time: string; sum_frames: number }> };
    expect(month.data).toEqual([expect.objectContaining({ time: "2026-11-01T00:00:00.000Z", sum_frames: weeks.data[0]!.sum_frames + weeks.data[1]!.sum_frames })]);
  });

  it("gives the VOD storage as measured every 8 hours (the most in a point, else the last before it) and the minutes transcoded per day", async () => {
    const measures = await rows("select extract(epoch from time)::bigint as t, storage_bytes::float8 as bytes, storage_minutes::int as minutes, transcoding_minutes::int as transcoded from streaming_vod_usage where account_id = 1 order by time");
    const at = (iso: string) => Date.parse(iso) / 1000;
    const lastBefore = (time: number) => measures.filter((row) => Number(row.t) <= time).at(-1)!;
    const [storage] = (await get("/streaming/statistics/storage?from=2026-11-01T00:00:00Z&to=2026-11-01T12:00:00Z&granularity=1h")) as Array<{ metrics: { storage: number[][]; max_volume_usage: number[] } }>;
    expect(storage!.metrics.storage).toHaveLength(12);
    // Measures at 00:00 and 08:00: each hour holds the last one.
    expect(storage!.metrics.storage[3]).toEqual([at("2026-11-01T03:00:00Z"), lastBefore(at("2026-11-01T03:00:00Z")).bytes]);
    expect(storage!.metrics.storage[9]).toEqual([at("2026-11-01T09:00:00Z"), lastBefore(at("2026-11-01T09:00:00Z")).bytes]);
    expect(storage!.metrics.max_volume_usage).toEqual([at("2026-11-01T08:00:00Z"), lastBefore(at("2026-11-01T08:00:00Z")).bytes]);
    const days = "from=2026-11-01T00:00:00Z&to=2026-11-03T00:00:00Z";
    const dayMost = (day: string) => Math.max(...measures.filter((row) => Number(row.t) >= at(day) && Number(row.t) < at(day) + 86_400).map((row) => Number(row.minutes)));
    expect(await get(`/streaming/statistics/vod/storage_duration?${days}`)).toEqual([{ client: 1, metrics: { vod: [dayMost("2026-11-01T00:00:00Z"), dayMost("2026-11-02T00:00:00Z")] } }]);
    const daySum = (day: string) => measures.filter((row) => Number(row.t) >= at(day) && Number(row.t) < at(day) + 86_400).reduce((sum, row) => sum + Number(row.transcoded), 0);
    expect(await get(`/streaming/statistics/vod/transcoding_duration?${days}`)).toEqual([{ client: 1, metrics: { vod: [daySum("2026-11-01T00:00:00Z"), daySum("2026-11-02T00:00:00Z")] } }]);
    // Before the first measure: zero.
    expect(await get("/streaming/statistics/vod/storage_duration?from=2026-09-01T00:00:00Z&to=2026-09-03T00:00:00Z")).toEqual([{ client: 1, metrics: { vod: [0, 0] } }]);
  });

  it("shows each account only its own statistics", async () => {
    const [other] = (await get("/streaming/statistics/stream?from=2026-11-01T00:00:00Z&to=2026-11-02T00:00:00Z&granularity=1d", [2, "role-1-active"])) as Array<{ client: number; metrics: { streams: number[] } }>;
    expect(other).toEqual({ client: 2, metrics: { streams: [await one("select count(*)::int from streaming_live_minutes where account_id = 2 and minute < '2026-11-02T00:00:00Z'")] } });
    const { data } = (await get(`/streaming/statistics/popular?${DAY}`, [2, "role-1-active"])) as { data: Array<{ id: string }> };
    expect(data.map((row) => row.id).sort()).toEqual(["2", "4", "6"]);
    // Account 1 filtering on account 2's stream sees nothing of it.
    const [none] = (await get("/streaming/statistics/stream/viewers?from=2026-11-01T00:00:00Z&to=2026-11-02T00:00:00Z&granularity=1d&stream_id=2")) as Array<{ metrics: { streams: number[] } }>;
    expect(none!.metrics.streams).toEqual([0]);
  });

  it("answers 400 naming the parameter for a bad period, group, type, granularity or country, and a series too long", async () => {
    const bad = async (path: string, field: string) => expectEnvelope(await api.call("GET", path), 400, "validation_error", { [field]: expect.any(Array) }, path);
    await bad("/streaming/statistics/views?date_from=2026-11-02T00:00:00Z&date_to=2026-11-01T00:00:00Z", "query.date_to");
    await bad("/streaming/statistics/views?date_from=2024-01-01T00:00:00Z&date_to=2026-11-01T00:00:00Z", "query.date_to");
    await bad(`/streaming/statistics/views?${DAY}&group=planet`, "query.group.0");
    await bad(`/streaming/statistics/views?${DAY}&group=date`, "query.group.0");
    await bad(`/streaming/statistics/uniqs?${DAY}&country=atlantis`, "query.country");
    await bad(`/streaming/statistics/uniqs?${DAY}&type=podcast`, "query.type");
    await bad(`/streaming/statistics/browsers?date_from=yesterday&date_to=2026-11-01T00:00:00Z`, "query.date_from");
    await bad(`/streaming/statistics/heatmap?${DAY}&stream_id=1`, "query.type");
    await bad(`/streaming/statistics/heatmap?${DAY}&stream_id=x&type=live`, "query.stream_id");
    await bad(`/streaming/statistics/ffprobe?${DAY}&stream_id=1&units=year`, "query.units");
    await bad(`/streaming/statistics/ffprobe?${DAY}&stream_id=1&interval=0`, "query.interval");
    await bad("/streaming/statistics/stream/viewers?from=2026-11-01T00:00:00Z&to=2026-11-02T00:00:00Z&granularity=1m", "query.granularity");
    await bad("/streaming/statistics/stream/viewers?from=2026-11-01T00:00:00Z&to=2026-11-02T00:00:00Z&granularity=2h", "query.granularity");
    await bad("/streaming/statistics/max_stream?from=2026-01-01T00:00:00Z&to=2026-11-01T00:00:00Z&granularity=1m", "query.granularity");
    await bad("/streaming/statistics/stream/watching_duration/total?from=2026-11-02T00:00:00Z&to=2026-11-01T00:00:00Z", "query.to");
    await bad("/streaming/statistics/stream/watching_duration?to=2026-11-01T00:00:00Z", "query.from");
    await bad("/streaming/statistics/vod/viewers?from=2026-11-01T00:00:00Z&to=2026-11-02T00:00:00Z&client_user_id=0", "query.client_user_id");
    await bad("/streaming/statistics/vod/storage_duration?from=2026-11-01T00:00:00Z", "query.to");
  });
});
