/**
 * Integration tests of the CDN raw logs: the filters, fields, ordering and paging compared with the rows
 * in SQL, each account its own; the download as a zip archive of one CSV or TSV file; and the bad
 * parameters answered 400 naming them.
 */
import { inflateRawSync } from "node:zlib";
import { routeExample } from "@cloudplane/contract";
import { sql } from "@cloudplane/db";
import { selectRows } from "@cloudplane/db/testing";
import { describe, expect, it } from "vitest";
import { crc32 } from "../../src/zip.js";
import { buildRequest, engines, expectEnvelope, useApi } from "../harness.js";

const PERIOD = "from=2026-11-01T12:00:00Z&to=2026-11-01T13:00:00Z";

/** The one file of a zip archive stored without compression: its name and text, its CRC checked. */
function unzipOne(bytes: Uint8Array): { name: string; text: string } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  expect(view.getUint32(0, true)).toBe(0x04034b50);
  const method = view.getUint16(8, true);
  const crc = view.getUint32(14, true);
  const size = view.getUint32(18, true);
  const nameLength = view.getUint16(26, true);
  const extra = view.getUint16(28, true);
  const name = new TextDecoder().decode(bytes.subarray(30, 30 + nameLength));
  const stored = bytes.subarray(30 + nameLength + extra, 30 + nameLength + extra + size);
  const content = method === 0 ? stored : new Uint8Array(inflateRawSync(stored));
  expect(crc32(content)).toBe(crc);
  return { name, text: new TextDecoder().decode(content) };
}

describe.each(engines())("CDN raw logs on %s", (engine) => {
  const api = useApi(engine);
  const count = async (where: string) =>
    (await selectRows<{ n: number }>(api.database.db, sql.raw(`select count(*)::int as n from cdn_request_logs where timestamp >= '2026-11-01T12:00:00Z' and timestamp < '2026-11-01T13:00:00Z' and ${where}`)))[0]!.n;

  it("answers the documented example to a User", async () => {
    const { query, response } = routeExample("cdn.listLogs")!;
    const search = new URLSearchParams(Object.entries(query!).map(([key, value]) => [key, String(value)]));
    const reply = await api.call("GET", `/cdn/advanced/v1/logs?${search.toString()}`, { as: [1, "role-2-active"] });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toEqual(response);
  });

  it("filters by every operator, with the fields asked for, ordered and paged, meta.count before paging", async () => {
    const all = await api.call("GET", `/cdn/advanced/v1/logs?${PERIOD}&limit=1000`);
    const records = (all.body as { data: Array<Record<string, unknown>>; meta: { count: number } });
    expect(records.meta.count).toBe(await count("account_id = 1"));
    expect(records.data.every((record) => [1, 3, 5].includes(record.resource_id as number))).toBe(true);
    const times = records.data.map((record) => record.timestamp as number);
    expect(times).toEqual([...times].sort((a, b) => a - b));

    const filtered = await api.call("GET", `/cdn/advanced/v1/logs?${PERIOD}&status__gte=300&method__ne=HEAD&cache_status__not_in=HIT,MISS&cname__contains=ACME&resource_id__in=1,3&fields=status,resource_id&ordering=-status,resource_id&limit=5&offset=1`);
    expect(filtered.status, filtered.text).toBe(200);
    const page = filtered.body as { data: Array<{ status: number; resource_id: number }>; meta: { count: number } };
    expect(page.meta.count).toBe(await count("account_id = 1 and status >= 300 and method <> 'HEAD' and cache_status not in ('HIT', 'MISS') and resource_id in (1, 3)"));
    expect(page.data.every((record) => Object.keys(record).sort().join() === "resource_id,status")).toBe(true);
    const ordered = page.data.map((record) => [record.status, record.resource_id]);
    expect(ordered).toEqual([...ordered].sort((a, b) => b[0]! - a[0]! || a[1]! - b[1]!));

    // Another account's records are not there, even when asked for by resource.
    const other = await api.call("GET", `/cdn/advanced/v1/logs?${PERIOD}&resource_id__eq=2`);
    expect(other.body).toEqual({ data: [], meta: { count: 0 } });
  });

  it("downloads the same records as a zip archive of one CSV or TSV file", async () => {
    for (const format of ["csv", "tsv"] as const) {
      const response = await api.handler(buildRequest("GET", `/cdn/advanced/v1/logs/download?format=${format}&${PERIOD}&resource_id__eq=1&fields=timestamp,path,referer,status&sort=-timestamp`));
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("application/zip");
      const { name, text } = unzipOne(new Uint8Array(await response.arrayBuffer()));
      expect(name).toBe(`logs.${format}`);
      const lines = text.trimEnd().split("\r\n");
      const separator = format === "csv" ? "," : "\t";
      expect(lines[0]).toBe(["timestamp", "path", "referer", "status"].join(separator));
      expect(lines).toHaveLength(1 + (await count("account_id = 1 and resource_id = 1")));
      const stamps = lines.slice(1).map((line) => Number(line.split(separator)[0]));
      expect(stamps).toEqual([...stamps].sort((a, b) => b - a));
    }
  });

  it("answers 400 naming the parameter for a period backwards or over 6 hours, unknown fields or orderings and bad values", async () => {
    expectEnvelope(await api.call("GET", "/cdn/advanced/v1/logs?from=2026-11-01T12:00:00Z&to=2026-11-01T19:00:00Z"), 400, "validation_error", { "query.from": expect.any(Array) });
    expectEnvelope(await api.call("GET", "/cdn/advanced/v1/logs?from=2026-11-01T12:00:00Z&to=2026-11-01T11:00:00Z"), 400, "validation_error", { "query.to": expect.any(Array) });
    expectEnvelope(await api.call("GET", `/cdn/advanced/v1/logs?${PERIOD}&fields=timestamp,password`), 400, "validation_error", { "query.fields": expect.any(Array) });
    expectEnvelope(await api.call("GET", `/cdn/advanced/v1/logs?${PERIOD}&ordering=-referer`), 400, "validation_error", { "query.ordering": expect.any(Array) });
    expectEnvelope(await api.call("GET", `/cdn/advanced/v1/logs?${PERIOD}&status__in=200,abc`), 400, "validation_error", { "query.status__in": expect.any(Array) });
    expectEnvelope(await api.call("GET", `/cdn/advanced/v1/logs?${PERIOD}&status__gt=abc`), 400, "validation_error", { "query.status__gt": expect.any(Array) });
    expectEnvelope(await api.call("GET", `/cdn/advanced/v1/logs?${PERIOD}&cname__contains=ab`), 400, "validation_error", { "query.cname__contains": expect.any(Array) });
    expectEnvelope(await api.call("GET", `/cdn/advanced/v1/logs?${PERIOD}&limit=0`), 400, "validation_error", { "query.limit": expect.any(Array) });
    expectEnvelope(await api.call("GET", `/cdn/advanced/v1/logs/download?${PERIOD}&format=xlsx`), 400, "validation_error", { "query.format": expect.any(Array) });
    expectEnvelope(await api.call("GET", `/cdn/advanced/v1/logs/download?${PERIOD}&format=csv&sort=nothing`), 400, "validation_error", { "query.sort": expect.any(Array) });
  });
});
