/**
 * Integration tests of the CDN statistics: sums over a period and series from the usage rows, compared
 * with the same sums made directly in SQL; grouping, nesting, flat rows and the filters; the paid
 * features' periods as resources and logs uploader configs change; each account its own; and every bad
 * parameter answered 400 naming it.
 */
import { routeExample, type RouteId } from "@cloudplane/contract";
import { sql } from "@cloudplane/db";
import { selectRows } from "@cloudplane/db/testing";
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi } from "../harness.js";

const DAY = "from=2026-11-01T00:00:00Z&to=2026-11-02T00:00:00Z";
const example = (id: string) => routeExample(id as RouteId)!;
const queryOf = (query: Record<string, unknown> | undefined) => new URLSearchParams(Object.entries(query ?? {}).map(([key, value]) => [key, String(value)])).toString();

describe.each(engines())("CDN statistics on %s", (engine) => {
  const api = useApi(engine);
  const sums = (where: string) =>
    selectRows<{ sent: number; requests: number; upstream: number; hits: number }>(
      api.database.db,
      sql.raw(`select coalesce(sum(sent_bytes), 0)::float8 as sent, coalesce(sum(requests), 0)::float8 as requests,
        coalesce(sum(upstream_bytes), 0)::float8 as upstream, coalesce(sum(responses_hit), 0)::float8 as hits
        from cdn_usage where bucket >= '2026-11-01T00:00:00Z' and bucket < '2026-11-02T00:00:00Z' and ${where}`),
    );

  it("answers each documented example as the reference shows it", async () => {
    for (const id of ["cdn.getResourceUsageAggregated", "cdn.getResourceUsageSeries", "cdn.getShieldUsageAggregated", "cdn.getShieldUsageSeries", "cdn.getLogsUsageAggregated", "cdn.getLogsUsageSeries"]) {
      const { query, response } = example(id);
      const path = { "cdn.getResourceUsageAggregated": "/cdn/statistics/aggregate/stats", "cdn.getResourceUsageSeries": "/cdn/statistics/series", "cdn.getShieldUsageAggregated": "/cdn/statistics/shield_usage/aggregated", "cdn.getShieldUsageSeries": "/cdn/statistics/shield_usage/series", "cdn.getLogsUsageAggregated": "/cdn/statistics/raw_logs_usage/aggregated", "cdn.getLogsUsageSeries": "/cdn/statistics/raw_logs_usage/series" }[id]!;
      const reply = await api.call("GET", `${path}?${queryOf(query)}`, { as: [1, "role-2-active"] });
      expect(reply.status, `${id}: ${reply.text}`).toBe(200);
      expect(reply.body, id).toEqual(response);
    }
  });

  it("sums the account's traffic over the period as the rows hold it, with ratios from the sums, grouped and nested by group_by", async () => {
    const reply = await api.call("GET", `/cdn/statistics/aggregate/stats?${DAY}&metrics=sent_bytes&metrics=requests,cache_hit_requests_ratio&service=CDN&group_by=resource&group_by=region`);
    expect(reply.status, reply.text).toBe(200);
    const body = reply.body as { metrics: Record<string, number>; sent_bytes: number; resource: Record<string, { metrics: Record<string, number>; region: Record<string, { metrics: Record<string, number> }> }> };
    const [all] = await sums("account_id = 1");
    expect(body.metrics).toEqual({ sent_bytes: all!.sent, requests: all!.requests, cache_hit_requests_ratio: Math.round((all!.hits / all!.requests) * 10_000) / 10_000 });
    expect(body.sent_bytes).toBe(all!.sent);
    // Account 1's active resources with traffic: 1, 3 and 5; each resource's regions add up to it.
    expect(Object.keys(body.resource).sort()).toEqual(["1", "3", "5"]);
    for (const [id, group] of Object.entries(body.resource)) {
      const [own] = await sums(`account_id = 1 and resource_id = ${Number(id)}`);
      expect(group.metrics.sent_bytes).toBe(own!.sent);
      const regions = Object.values(group.region);
      expect(regions.reduce((total, region) => total + region.metrics.requests!, 0)).toBe(own!.requests);
      for (const [region, { metrics }] of Object.entries(group.region)) {
        const [part] = await sums(`account_id = 1 and resource_id = ${Number(id)} and region = '${region}'`);
        expect(metrics.sent_bytes).toBe(part!.sent);
      }
    }
  });

  it("filters by resource, region and country (a name or a code), and gives flat rows on flat=true", async () => {
    const byRegion = await api.call("GET", `/cdn/statistics/aggregate/stats?${DAY}&metrics=sent_bytes&service=CDN&regions=eu`);
    const [eu] = await sums("account_id = 1 and region = 'eu'");
    expect((byRegion.body as { sent_bytes: number }).sent_bytes).toBe(eu!.sent);
    const byName = await api.call("GET", `/cdn/statistics/aggregate/stats?${DAY}&metrics=requests&service=CDN&countries=germany,Japan`);
    const byCode = await api.call("GET", `/cdn/statistics/aggregate/stats?${DAY}&metrics=requests&service=CDN&countries=DE&countries=jp`);
    const [some] = await sums("account_id = 1 and country in ('DE', 'JP')");
    expect((byName.body as { requests: number }).requests).toBe(some!.requests);
    expect(byCode.body).toEqual(byName.body);
    const flat = await api.call("GET", `/cdn/statistics/aggregate/stats?${DAY}&metrics=requests&service=CDN&group_by=vhost,protocol&flat=true&resource=1`);
    const { rows } = flat.body as { rows: Array<{ vhost: string; protocol: string; metrics: { requests: number } }> };
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.vhost === "cdn.acme.example" && /^HTTP\//.test(row.protocol))).toBe(true);
    const [one] = await sums("account_id = 1 and resource_id = 1");
    expect(rows.reduce((total, row) => total + row.metrics.requests, 0)).toBe(one!.requests);
    // The bandwidths of the period's 5-minute buckets: the most is at least the 95th percentile, at least the least.
    const bandwidth = await api.call("GET", `/cdn/statistics/aggregate/stats?${DAY}&metrics=95_percentile,max_bandwidth,min_bandwidth,response_types&service=CDN`);
    const metrics = (bandwidth.body as { metrics: { "95_percentile": number; max_bandwidth: number; min_bandwidth: number; response_types: Record<string, number> } }).metrics;
    expect(metrics.max_bandwidth).toBeGreaterThanOrEqual(metrics["95_percentile"]);
    expect(metrics["95_percentile"]).toBeGreaterThanOrEqual(metrics.min_bandwidth);
    expect(Object.values(metrics.response_types).reduce((total, count) => total + count, 0)).toBe(all(await sums("account_id = 1")).requests);
  });

  it("gives series of every point from `from` to `to`, zero where nothing was kept, that add up to the aggregate", async () => {
    const reply = await api.call("GET", "/cdn/statistics/series?from=2026-11-01T10:07:00Z&to=2026-11-01T13:00:00Z&granularity=1h&metrics=requests&service=CDN&group_by=resource");
    expect(reply.status, reply.text).toBe(200);
    const body = reply.body as { metrics: { requests: Array<[number, number]> }; resource: Record<string, { metrics: { requests: Array<[number, number]> } }> };
    // From rounded down to the hour: 10:00, 11:00 and 12:00.
    expect(body.metrics.requests.map(([time]) => new Date(time * 1000).toISOString())).toEqual(["2026-11-01T10:00:00.000Z", "2026-11-01T11:00:00.000Z", "2026-11-01T12:00:00.000Z"]);
    const [hour] = await selectRows<{ requests: number }>(
      api.database.db,
      sql.raw("select sum(requests)::float8 as requests from cdn_usage where account_id = 1 and bucket >= '2026-11-01T11:00:00Z' and bucket < '2026-11-01T12:00:00Z'"),
    );
    expect(body.metrics.requests[1]![1]).toBe(hour!.requests);
    const perResource = Object.values(body.resource).reduce((total, group) => total + group.metrics.requests[1]![1], 0);
    expect(perResource).toBe(hour!.requests);
    const empty = await api.call("GET", "/cdn/statistics/series?from=2026-12-01T00:00:00Z&to=2026-12-01T00:15:00Z&granularity=5m&metrics=sent_bytes&service=CDN");
    expect(empty.body).toEqual({ metrics: { sent_bytes: [[1_796_083_200, 0], [1_796_083_500, 0], [1_796_083_800, 0]] } });
  });

  it("shows each account only its own traffic", async () => {
    const own = await api.call("GET", `/cdn/statistics/aggregate/stats?${DAY}&metrics=requests&service=CDN&group_by=resource`, { as: [2, "role-1-active"] });
    expect(Object.keys((own.body as { resource: Record<string, unknown> }).resource)).toEqual(["2", "4"]);
    // Another account's resource adds nothing.
    const other = await api.call("GET", `/cdn/statistics/aggregate/stats?${DAY}&metrics=requests&service=CDN&resource=2`);
    expect((other.body as { requests: number }).requests).toBe(0);
    const periods = await api.call("GET", `/cdn/statistics/shield_usage/series?${DAY}&resource=2`);
    expect(periods.body).toEqual([]);
  });

  it("opens and closes the paid features' periods as resources and logs uploader configs change", async () => {
    const now = new Date();
    const window = `from=${new Date(now.getTime() - 3_600_000).toISOString()}&to=${new Date(now.getTime() + 3_600_000).toISOString()}`;
    // Resource 3 has no shielding: switching it on opens a period, off closes it.
    expect((await api.call("PUT", "/cdn/resources/3/shielding_v2", { body: { shielding_pop: 2 } })).status).toBe(200);
    let periods = (await api.call("GET", `/cdn/statistics/shield_usage/series?${window}&resource=3`)).body as Array<{ resource_id: number; active_to: string | null; cname: string }>;
    expect(periods).toEqual([expect.objectContaining({ resource_id: 3, active_to: null, cname: "downloads.acme.example" })]);
    expect((await api.call("PUT", "/cdn/resources/3/shielding_v2", { body: { shielding_pop: null } })).status).toBe(200);
    periods = (await api.call("GET", `/cdn/statistics/shield_usage/series?${window}&resource=3`)).body as typeof periods;
    expect(periods).toHaveLength(1);
    expect(periods[0]!.active_to).not.toBeNull();
    const usage = await api.call("GET", `/cdn/statistics/shield_usage/aggregated?${window}&group_by=resource&flat=true`);
    expect((usage.body as { rows: unknown[] }).rows).toEqual(expect.arrayContaining([{ resource: 3, metrics: { shield_usage: 1 } }]));
  });

  it("answers 400 naming the parameter for an unknown metric, group or region, a period backwards or too long, and a series too fine", async () => {
    const base = "/cdn/statistics/aggregate/stats";
    expectEnvelope(await api.call("GET", `${base}?${DAY}&metrics=sent_bytes,bogus&service=CDN`), 400, "validation_error", { "query.metrics.1": expect.any(Array) });
    expectEnvelope(await api.call("GET", `${base}?${DAY}&metrics=sent_bytes&service=CDN&group_by=planet`), 400, "validation_error", { "query.group_by.0": expect.any(Array) });
    expectEnvelope(await api.call("GET", `${base}?${DAY}&metrics=sent_bytes&service=CDN&regions=mars`), 400, "validation_error", { "query.regions.0": expect.any(Array) });
    expectEnvelope(await api.call("GET", `${base}?${DAY}&metrics=sent_bytes&service=CDN&countries=atlantis`), 400, "validation_error", { "query.countries.0": expect.any(Array) });
    expectEnvelope(await api.call("GET", `${base}?${DAY}&metrics=sent_bytes&service=WAAP`), 400, "validation_error", { "query.service": expect.any(Array) });
    expectEnvelope(await api.call("GET", `${base}?from=2026-11-02T00:00:00Z&to=2026-11-01T00:00:00Z&metrics=sent_bytes&service=CDN`), 400, "validation_error", { "query.to": expect.any(Array) });
    expectEnvelope(await api.call("GET", `${base}?from=2024-01-01T00:00:00Z&to=2026-11-01T00:00:00Z&metrics=sent_bytes&service=CDN`), 400, "validation_error", { "query.to": expect.any(Array) });
    expectEnvelope(await api.call("GET", `${base}?from=yesterday&to=2026-11-01T00:00:00Z&metrics=sent_bytes&service=CDN`), 400, "validation_error", { "query.from": expect.any(Array) });
    expectEnvelope(await api.call("GET", `${base}?${DAY}&metrics=request_time,requests&service=CDN`), 400, "validation_error", { "query.metrics": expect.any(Array) });
    expectEnvelope(await api.call("GET", `${base}?${DAY}&service=CDN`), 400, "validation_error", { "query.metrics": expect.any(Array) });
    const series = "/cdn/statistics/series";
    expectEnvelope(await api.call("GET", `${series}?${DAY}&granularity=1m&metrics=sent_bytes&service=CDN`), 400, "validation_error", { "query.granularity": expect.any(Array) });
    expectEnvelope(await api.call("GET", `${series}?from=2026-01-01T00:00:00Z&to=2026-11-01T00:00:00Z&granularity=5m&metrics=sent_bytes&service=CDN`), 400, "validation_error", { "query.granularity": expect.any(Array) });
    expectEnvelope(await api.call("GET", `${series}?${DAY}&granularity=1h&metrics=max_bandwidth&service=CDN`), 400, "validation_error", { "query.metrics": expect.any(Array) });
    expectEnvelope(await api.call("GET", `/cdn/statistics/shield_usage/aggregated?${DAY}&group_by=region`), 400, "validation_error", { "query.group_by.0": expect.any(Array) });
    expectEnvelope(await api.call("GET", `/cdn/statistics/raw_logs_usage/series?${DAY}&resource=abc`), 400, "validation_error", { "query.resource.0": expect.any(Array) });
  });
});

function all<T>(rows: T[]): T {
  return rows[0]!;
}
