/**
 * Integration tests of the CDN metrics (per interval, from the usage rows, compared with the same sums in
 * SQL; grouped and filtered; the limits of the intervals and the metrics this service does not keep) and
 * of the network capacity.
 */
import { NETWORK_CAPACITY, routeExample } from "@cloudplane/contract";
import { sql } from "@cloudplane/db";
import { selectRows } from "@cloudplane/db/testing";
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi } from "../harness.js";

const PATH = "/cdn/advanced/v1/metrics";
const HOUR = { from: "2026-11-01T12:00:00Z", to: "2026-11-01T13:00:00Z" };

describe.each(engines())("CDN metrics on %s", (engine) => {
  const api = useApi(engine);

  it("answers the documented example, and the network capacity, to a User", async () => {
    const { body, response } = routeExample("cdn.listMetrics")!;
    const reply = await api.call("POST", PATH, { body, as: [1, "role-2-active"] });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toEqual(response);
    const capacity = await api.call("GET", "/cdn/advanced/v1/capacity", { as: [1, "role-2-active"] });
    expect(capacity.body).toEqual(NETWORK_CAPACITY);
  });

  it("computes rates over each interval's seconds from the rows, every interval present, grouped by resource", async () => {
    const reply = await api.call("POST", PATH, { body: { ...HOUR, metrics: ["edge_bandwidth", "edge_requests", "edge_status_2xx", "origin_bandwidth"], granularity: "PT30M", group_by: ["resource"] } });
    expect(reply.status, reply.text).toBe(200);
    const data = (reply.body as { data: Record<string, Array<Record<string, number>>> }).data;
    expect(Object.keys(data).sort()).toEqual(["1", "3", "5"]);
    const [first] = await selectRows<{ sent: number; requests: number; ok: number; upstream: number }>(
      api.database.db,
      sql.raw(`select sum(sent_bytes)::float8 as sent, sum(requests)::float8 as requests, sum(responses_2xx)::float8 as ok, sum(upstream_bytes)::float8 as upstream
        from cdn_usage where account_id = 1 and resource_id = 3 and bucket >= '2026-11-01T12:00:00Z' and bucket < '2026-11-01T12:30:00Z'`),
    );
    expect(data["3"]).toHaveLength(2);
    expect(data["3"]![0]).toEqual({
      timestamp: Date.parse("2026-11-01T12:00:00Z") / 1000,
      edge_bandwidth: Math.round(((first!.sent * 8) / 1800) * 1000) / 1000,
      edge_requests: Math.round((first!.requests / 1800) * 1000) / 1000,
      edge_status_2xx: first!.ok,
      origin_bandwidth: Math.round(((first!.upstream * 8) / 1800) * 1000) / 1000,
    });
    // Filters: a cname pattern keeps the resources whose CNAME matches; not_in leaves out.
    const filtered = await api.call("POST", PATH, {
      body: { ...HOUR, metrics: ["edge_requests_total"], granularity: "PT1H", group_by: ["cname"], filter_by: [{ field: "cname", op: "like", values: ["%acme%"] }, { field: "resource", op: "not_in", values: [1, 5] }] },
    });
    expect(Object.keys((filtered.body as { data: Record<string, unknown> }).data)).toEqual(["downloads.acme.example"]);
    // Region groups speed metrics; an account sees its own resources only.
    const speed = await api.call("POST", PATH, { body: { ...HOUR, metrics: ["edge_download_speed"], granularity: "PT1H", group_by: ["region"] }, as: [2, "role-1-active"] });
    expect(speed.status, speed.text).toBe(200);
    const [regions] = await selectRows<{ regions: string[] }>(api.database.db, sql.raw("select array_agg(distinct region order by region) as regions from cdn_usage where account_id = 2"));
    expect(Object.keys((speed.body as { data: Record<string, unknown> }).data).sort()).toEqual(regions!.regions);
  });

  it("answers 400 naming the field for what it does not keep, a bad granularity, too many intervals and a period backwards", async () => {
    expectEnvelope(await api.call("POST", PATH, { body: { ...HOUR, metrics: ["edge_status_404"] } }), 400, "validation_error", { "metrics.0": expect.any(Array) });
    expectEnvelope(await api.call("POST", PATH, { body: { ...HOUR, metrics: ["edge_bandwidth"], group_by: ["isp"] } }), 400, "validation_error", { "group_by.0": expect.any(Array) });
    expectEnvelope(await api.call("POST", PATH, { body: { ...HOUR, metrics: ["edge_bandwidth"], group_by: ["region"] } }), 400, "validation_error", { "group_by.0": expect.any(Array) });
    expectEnvelope(await api.call("POST", PATH, { body: { ...HOUR, metrics: ["edge_bandwidth"], filter_by: [{ field: "resource", op: "eq", values: [1, 2] }] } }), 400, "validation_error", { "filter_by.0.values": expect.any(Array) });
    expectEnvelope(await api.call("POST", PATH, { body: { ...HOUR, metrics: ["edge_bandwidth"], filter_by: [{ field: "resource", op: "approx", values: [1] }] } }), 400, "validation_error", { "filter_by.0.op": expect.any(Array) });
    expectEnvelope(await api.call("POST", PATH, { body: { ...HOUR, metrics: ["edge_bandwidth"], granularity: "PT7M" } }), 400, "validation_error", { granularity: expect.any(Array) });
    expectEnvelope(await api.call("POST", PATH, { body: { ...HOUR, metrics: ["edge_bandwidth"], granularity: "5 minutes" } }), 400, "validation_error", { granularity: expect.any(Array) });
    expectEnvelope(await api.call("POST", PATH, { body: { from: "2026-10-01T00:00:00Z", to: "2026-11-01T00:00:00Z", metrics: ["edge_bandwidth"] } }), 400, "validation_error", { granularity: expect.any(Array) });
    expectEnvelope(await api.call("POST", PATH, { body: { from: "2026-11-01T00:00:00Z", to: "2026-11-02T00:00:00Z", metrics: ["edge_download_speed"] } }), 400, "validation_error", { granularity: expect.any(Array) });
    expectEnvelope(await api.call("POST", PATH, { body: { from: HOUR.to, to: HOUR.from, metrics: ["edge_bandwidth"] } }), 400, "validation_error", { to: expect.any(Array) });
    expectEnvelope(await api.call("POST", PATH, { body: { ...HOUR, metrics: ["edge_bandwidth"], extra: true } }), 400, "validation_error", { extra: expect.any(Array) });
    expectEnvelope(await api.call("POST", PATH, { body: { ...HOUR, metrics: [] } }), 400, "validation_error", { metrics: expect.any(Array) });
  });
});
