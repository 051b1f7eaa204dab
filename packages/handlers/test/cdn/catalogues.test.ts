/**
 * Integration tests of the account's CDN limits, the storage providers' regions and the CDN servers'
 * addresses (JSON or plain text).
 */
import { ALIBABA_REGIONS, AWS_REGIONS, CDN_PUBLIC_IPS, CDN_PUBLIC_NETWORKS } from "@cloudplane/contract";
import { sql } from "@cloudplane/db";
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi } from "../harness.js";

describe.each(engines())("CDN limits, regions and addresses on %s", (engine) => {
  const api = useApi(engine);

  it("answers the account's limits, its rules per resource from its settings", async () => {
    const reply = await api.call("GET", "/cdn/clients/me/limits", { as: [1, "role-2-active"] });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toMatchObject({ id: 1, rules_limit: 50, purge_max_urls_limit: 100, purge_pattern_limit: 10, prefetch_pattern_limit: 100, origins_in_group_limit: 20, secondary_hostnames_limit: 10 });
    await api.database.db.execute(sql`update accounts set cdn_resources_rules_max_count = 77 where id = 2`);
    expect((await api.call("GET", "/cdn/clients/me/limits", { as: [2, "role-1-active"] })).body).toMatchObject({ id: 2, rules_limit: 77 });
  });

  it.each([
    ["/cdn/aws_regions", AWS_REGIONS],
    ["/cdn/alibaba_regions", ALIBABA_REGIONS],
  ])("pages %s", async (path, regions) => {
    const all = await api.call("GET", path);
    expect(all.status, all.text).toBe(200);
    expect(all.body).toEqual({ count: regions.length, next: null, previous: null, results: regions });
    const page = await api.call("GET", `${path}?limit=5&offset=5`);
    expect(page.body.results).toEqual(regions.slice(5, 10));
    expect(new URL(page.body.next).searchParams.get("offset")).toBe("10");
    expect(new URL(page.body.previous).searchParams.get("offset")).toBe("0");
    expectEnvelope(await api.call("GET", `${path}?limit=1001`), 400, "validation_error", ["query.limit"]);
  });

  it.each([
    ["/cdn/public-ip-list", CDN_PUBLIC_IPS],
    ["/cdn/public-net-list", CDN_PUBLIC_NETWORKS],
  ])("answers %s as JSON, or as plain text when asked", async (path, list) => {
    const json = await api.call("GET", path);
    expect(json.status, json.text).toBe(200);
    expect(json.body).toEqual(list);
    const lines = `${[...list.addresses, ...list.addresses_v6].join("\n")}\n`;
    for (const request of [{ query: "?format=plain", headers: {} }, { query: "", headers: { accept: "text/plain" } }] as { query: string; headers: Record<string, string> }[]) {
      const plain = await api.call("GET", `${path}${request.query}`, { headers: request.headers });
      expect(plain.status).toBe(200);
      expect(plain.headers.get("content-type")).toMatch(/^text\/plain/);
      expect(plain.text).toBe(lines);
    }
    // format wins over Accept.
    expect((await api.call("GET", `${path}?format=json`, { headers: { accept: "text/plain" } })).body).toEqual(list);
    expectEnvelope(await api.call("GET", `${path}?format=xml`), 400, "validation_error", ["query.format"]);
  });
});
