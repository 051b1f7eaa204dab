/**
 * Integration tests of the storage statistics and locations on every engine: totals and series computed from
 * the demo storages' generated usage rows, checked against the same arithmetic done here; filters by period,
 * storage and location; another account's usage never seen; bad bodies refused.
 */
import { LOCATIONS, routeExample, type UsageSeries } from "@cloudplane/contract";
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi } from "../harness.js";

const TOTAL = "/storage/stats/v1/storage/usage/total";
const SERIES = "/storage/stats/v1/storage/usage/series";
const START = Date.parse("2026-01-22T00:00:00Z");
const HOUR = 3_600_000;

/** The demo usage row of storage `s` at hour `h` from the start, as demo-storage-usage.ts generates it. */
function usage(s: number, h: number) {
  const rin = 10 * s + ((h * 7 + s * 13) % 50);
  const redge = (100 + ((h * 11 + s * 5) % 400)) * (h % 24 >= 8 && h % 24 <= 19 ? 3 : 1);
  const rdirect = 20 * s + ((h * 17 + s * 3) % 90);
  return {
    size: s * 1_000_000_000 + h * s * 7_340_032,
    files: s * 1000 + h * s * 3,
    rin,
    redge,
    rdirect,
    tin: rin * (200_000 + s * 1000),
    tedge: redge * 150_000,
    tdirect: rdirect * 120_000,
  };
}

/** The metrics of storages `ids` over hours [from, to). */
function expected(ids: number[], from: number, to: number) {
  const hourly: Array<{ size: number; files: number }> = [];
  const sums = { rin: 0, redge: 0, rdirect: 0, tin: 0, tedge: 0, tdirect: 0 };
  for (let h = from; h < to; h += 1) {
    let size = 0;
    let files = 0;
    for (const s of ids) {
      const row = usage(s, h);
      size += row.size;
      files += row.files;
      for (const key of Object.keys(sums) as (keyof typeof sums)[]) sums[key] += row[key];
    }
    hourly.push({ size, files });
  }
  const sizes = hourly.map((entry) => entry.size);
  return {
    file_quantity_sum_max: Math.max(...hourly.map((entry) => entry.files)),
    requests_in_sum: sums.rin,
    requests_out_edges_sum: sums.redge,
    requests_out_wo_edges_sum: sums.rdirect,
    requests_sum: sums.rin + sums.redge + sums.rdirect,
    size_sum_bytes_hour: sizes.reduce((a, b) => a + b, 0),
    size_sum_max: Math.max(...sizes),
    size_sum_mean: Math.floor(sizes.reduce((a, b) => a + b, 0) / sizes.length),
    traffic_in_sum: sums.tin,
    traffic_out_edges_sum: sums.tedge,
    traffic_out_wo_edges_sum: sums.tdirect,
    traffic_sum: sums.tin + sums.tedge + sums.tdirect,
  };
}

describe.each(engines())("storage statistics and locations on %s", (engine) => {
  const api = useApi(engine);
  const post = (path: string, body: unknown, as?: [1 | 2, "role-1-active" | "role-2-active"]) => api.call("POST", path, { body, ...(as ? { as } : {}) });

  it("totals the account's usage over the period, storages and locations asked for", async () => {
    const all = await post(TOTAL, { from: "2026-01-22", to: "2026-01-25" });
    expect(all.status, all.text).toBe(200);
    expect(all.body).toEqual({ data: [{ metrics: expected([1, 3], 0, 72) }] });
    expect((await post(TOTAL, { from: "2026-01-22T06:00:00Z", to: "2026-01-22T18:00:00+00:00", storages: ["acme-s3-lux"] })).body).toEqual({
      data: [{ metrics: expected([1], 6, 18) }],
    });
    expect((await post(TOTAL, { from: "2026-01-22", to: "2026-01-23", locations: ["s-ams1"] })).body).toEqual({ data: [{ metrics: expected([3], 0, 24) }] });
    // Account 2 sees its own storage alone; a name of another account's storage matches nothing.
    expect((await post(TOTAL, { from: "2026-01-22", to: "2026-01-23" }, [2, "role-1-active"])).body).toEqual({ data: [{ metrics: expected([2], 0, 24) }] });
    const zero = Object.fromEntries(Object.keys(expected([1], 0, 1)).map((key) => [key, 0]));
    expect((await post(TOTAL, { from: "2026-01-22", to: "2026-01-23", storages: ["globex-s3"] })).body).toEqual({ data: [{ metrics: zero }] });
    expect((await post(TOTAL, { from: "2025-01-01", to: "2025-02-01" })).body).toEqual({ data: [{ metrics: zero }] });
    // Readers may read; no body fields at all is the last 30 days.
    expect((await post(TOTAL, {}, [1, "role-2-active"])).status).toBe(200);
  });

  it("answers series per location and storage in periods of the granularity, as Unix seconds or RFC 3339", async () => {
    const reply = await post(SERIES, { from: "2026-01-22", to: "2026-01-24", granularity: "24h", storages: ["acme-s3-lux", "acme-s3-ams"] });
    expect(reply.status, reply.text).toBe(200);
    const { clients } = (reply.body as UsageSeries).data;
    expect(Object.keys(clients)).toEqual(["1"]);
    const client = clients["1"]!;
    expect(client).toMatchObject({ id: 1, ...expected([1, 3], 0, 48) });
    expect(Object.keys(client.locations).sort()).toEqual(["s-ams1", "s-ed1"]);
    const lux = client.locations["s-ed1"]!;
    expect(lux).toMatchObject({ name: "s-ed1", ...expected([1], 0, 48) });
    const storage = lux.storages["acme-s3-lux"]!;
    expect(storage).toMatchObject({ name: "acme-s3-lux", ...expected([1], 0, 48), buckets_series: {} });
    const day = (d: number) => expected([1], d * 24, d * 24 + 24);
    expect(storage.requests_in_series).toEqual([
      [START / 1000, day(0).requests_in_sum],
      [START / 1000 + 86_400, day(1).requests_in_sum],
    ]);
    expect(storage.size_max_series.map((point) => point[1])).toEqual([day(0).size_sum_max, day(1).size_sum_max]);
    expect(storage.traffic_series.map((point) => point[1])).toEqual([day(0).traffic_sum, day(1).traffic_sum]);

    const hourly = await post(SERIES, { from: "2026-01-22T00:00:00Z", to: "2026-01-22T03:00:00Z", granularity: "1h", ts_string: true, storages: ["acme-s3-lux"] });
    const points = ((hourly.body as UsageSeries).data.clients["1"]!.locations["s-ed1"]!.storages["acme-s3-lux"]!).requests_out_edges_series;
    expect(points).toEqual([0, 1, 2].map((h) => [new Date(START + h * HOUR).toISOString().replace(".000Z", "Z"), usage(1, h).redge]));
    // Without usage in the period: no client at all.
    expect((await post(SERIES, { from: "2025-01-01", to: "2025-01-02" })).body).toEqual({ data: { clients: {} } });
  });

  it("answers the examples as the reference shows them", async () => {
    for (const id of ["storage.getUsageAggregated", "storage.getUsageSeries"] as const) {
      const example = routeExample(id)!;
      const reply = await post(id.endsWith("Aggregated") ? TOTAL : SERIES, example.body);
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toEqual(example.response);
    }
  });

  it("refuses bad bodies naming each field", async () => {
    expectEnvelope(await post(TOTAL, { from: "yesterday", to: "2026-02-30", colour: 1 }), 400, "validation_error", ["from", "to", "colour"]);
    expectEnvelope(await post(TOTAL, { from: "2026-02-01", to: "2026-01-01" }), 400, "validation_error", ["to"]);
    expectEnvelope(await post(TOTAL, { from: "2024-01-01", to: "2026-01-01" }), 400, "validation_error", ["from"]);
    expectEnvelope(await post(SERIES, { granularity: "5m", ts_string: "yes", storages: "acme" }), 400, "validation_error", ["granularity", "ts_string", "storages"]);
    expectEnvelope(await post(TOTAL, { from: "2030-01-01" }), 400, "validation_error", ["from"]);
  });

  it("lists the locations, sorted and paged", async () => {
    const all = await api.call("GET", "/storage/v4/locations");
    expect(all.status, all.text).toBe(200);
    const body = all.body as { count: number; results: Array<{ name: string; type: string; title: string }> };
    expect(body.count).toBe(LOCATIONS.length);
    expect(body.results.map((entry) => entry.name)).toEqual(LOCATIONS.map((entry) => entry.code).sort());
    const byType = (await api.call("GET", "/storage/v4/locations?order_by=-type&limit=4&offset=0")).body as typeof body;
    expect(byType.results.map((entry) => entry.type)).toEqual(["sftp", "sftp", "sftp", "sftp"]);
    expect(((await api.call("GET", "/storage/v4/locations?limit=2&offset=10")).body as typeof body).results).toHaveLength(1);
    expectEnvelope(await api.call("GET", "/storage/v4/locations?order_by=city"), 400, "validation_error", ["query.order_by"]);
  });
});
