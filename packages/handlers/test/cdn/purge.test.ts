/**
 * Integration tests of purge, prefetch and the Let's Encrypt pre-validation of a CDN resource, and of the purge
 * history: the platform's limits per request as 400s, each request kept with a status that follows from its
 * age, the history's filters and paging.
 */
import { PURGE_LIMITS } from "@cloudplane/contract";
import { sql } from "@cloudplane/db";
import { selectRows } from "@cloudplane/db/testing";
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi } from "../harness.js";

describe.each(engines())("purge and prefetch on %s", (engine) => {
  const api = useApi(engine);

  const purge = (resource: number, body: unknown) => api.call("POST", `/cdn/resources/${resource}/purge`, { body });
  const requestCount = async () => (await selectRows<{ total: number }>(api.database.db, sql`select count(*)::int as total from cdn_cache_requests`))[0]!.total;

  it.each([
    ["by URL", { urls: ["/a.js", "/b.css?v=2"] }, "purge_by_url"],
    ["by pattern", { paths: ["/images/*", "/css"] }, "purge_by_pattern"],
    ["all", { paths: [] }, "purge_all"],
  ])("purges %s: 201 with the purge, in progress, then successful in the history", async (_what, body, type) => {
    const reply = await purge(1, body);
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body).toEqual({
      purge_id: expect.any(Number),
      purge_type: type,
      payload: body,
      resource: { id: 1, cname: "cdn.acme.example" },
      created: expect.any(String),
      status: "In progress",
    });
    const find = async () =>
      (await api.call("GET", `/cdn/purge_statuses?purge_type=${type}`)).body.results.find((item: { purge_id: number }) => item.purge_id === reply.body.purge_id);
    expect(await find()).toEqual(reply.body);
    expect((await api.call("GET", "/cdn/purge_statuses?status=In%20progress")).body.results.map((item: { purge_id: number }) => item.purge_id)).toContain(reply.body.purge_id);
    await api.database.db.execute(sql`update cdn_cache_requests set created = created - interval '61 seconds' where id = ${reply.body.purge_id}`);
    expect((await find()).status).toBe("Successful");
    expect((await api.call("GET", "/cdn/purge_statuses?status=In%20progress")).body.results.map((item: { purge_id: number }) => item.purge_id)).not.toContain(reply.body.purge_id);
  });

  it.each([
    ["neither urls nor paths", {}, "urls"],
    ["both urls and paths", { urls: ["/a"], paths: ["/b"] }, "paths"],
    ["no URL", { urls: [] }, "urls"],
    [`${PURGE_LIMITS.urls + 1} URLs`, { urls: Array.from({ length: PURGE_LIMITS.urls + 1 }, (_, index) => `/f${index}`) }, "urls"],
    [`${PURGE_LIMITS.patterns + 1} patterns`, { paths: Array.from({ length: PURGE_LIMITS.patterns + 1 }, (_, index) => `/d${index}`) }, "paths"],
    ["a URL with a domain", { urls: ["https://cdn.acme.example/a.js"] }, "urls.0"],
    ["a wildcard inside a pattern", { paths: ["/img/*/large"] }, "paths.0"],
    ["an unknown field", { urls: ["/a"], resource: 1 }, "resource"],
  ])("answers 400 for %s and keeps nothing", async (_what, body, field) => {
    const before = await requestCount();
    expectEnvelope(await purge(1, body), 400, "validation_error", [field]);
    expect(await requestCount()).toBe(before);
  });

  it("lets the Purge and Prefetch roles purge and prefetch, and nothing else; Users may not purge", async () => {
    for (const token of ["role-3009-active", "role-3022-active"] as const) {
      const purged = await api.call("POST", "/cdn/resources/1/purge", { body: { urls: ["/a.js"] }, as: [1, token] });
      expect(purged.status, purged.text).toBe(201);
      const prefetched = await api.call("POST", "/cdn/resources/1/prefetch", { body: { paths: ["/video.mp4"] }, as: [1, token] });
      expect(prefetched.status, prefetched.text).toBe(201);
      expectEnvelope(await api.call("GET", "/cdn/purge_statuses", { as: [1, token] }), 403, "permission_denied");
      expectEnvelope(await api.call("PATCH", "/cdn/resources/1", { body: { description: "x" }, as: [1, token] }), 403, "permission_denied");
    }
    const before = await requestCount();
    expectEnvelope(await api.call("POST", "/cdn/resources/1/purge", { body: { urls: ["/a.js"] }, as: [1, "role-2-active"] }), 403, "permission_denied");
    expect(await requestCount()).toBe(before);
  });

  it("answers 404 for another account's resource and keeps nothing", async () => {
    const before = await requestCount();
    expectEnvelope(await purge(2, { urls: ["/a"] }), 404, "not_found");
    expectEnvelope(await api.call("POST", "/cdn/resources/2/prefetch", { body: { paths: ["/a.mp4"] } }), 404, "not_found");
    expect(await requestCount()).toBe(before);
  });

  it("prefetches up to the limit, kept apart from the purge history", async () => {
    const reply = await api.call("POST", "/cdn/resources/5/prefetch", { body: { paths: ["/videos/a.mp4", "/videos/b.mp4"] } });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body).toMatchObject({ payload: { paths: ["/videos/a.mp4", "/videos/b.mp4"] }, resource: { id: 5, cname: "video-cdn.acme.example" }, status: "In progress" });
    const history = await api.call("GET", "/cdn/purge_statuses");
    expect(history.body.results.map((item: { purge_id: number }) => item.purge_id)).not.toContain(reply.body.prefetch_id);
    for (const [body, field] of [
      [{ paths: [] }, "paths"],
      [{ paths: Array.from({ length: PURGE_LIMITS.prefetchPaths + 1 }, (_, index) => `/v${index}.mp4`) }, "paths"],
      [{ paths: ["/videos/*"] }, "paths.0"],
    ] as const)
      expectEnvelope(await api.call("POST", "/cdn/resources/5/prefetch", { body }), 400, "validation_error", [field]);
  });

  it("lists the account's purge history newest first, filtered and paged", async () => {
    const all = await api.call("GET", "/cdn/purge_statuses?from_created=2026-01-01T00:00:00Z&to_created=2026-01-31T00:00:00Z");
    expect(all.status, all.text).toBe(200);
    expect(all.body.results.map((item: { purge_id: number }) => item.purge_id)).toEqual([9, 5, 3, 1]);
    expect(all.body.count).toBe(4);
    const byCname = await api.call("GET", "/cdn/purge_statuses?cname=CDN.acme.example&purge_type=purge_by_url&to_created=2026-01-31T00:00:00Z");
    expect(byCname.body).toEqual({
      count: 1,
      results: [
        {
          purge_id: 3,
          purge_type: "purge_by_url",
          payload: { urls: ["/static/app.js", "/index.html?lang=en"] },
          resource: { id: 1, cname: "cdn.acme.example" },
          created: "2026-01-20T09:00:00.000Z",
          status: "Successful",
        },
      ],
    });
    const page = await api.call("GET", "/cdn/purge_statuses?to_created=2026-01-31T00:00:00Z&limit=2&offset=1");
    expect(page.body).toMatchObject({ count: 4 });
    expect(page.body.results.map((item: { purge_id: number }) => item.purge_id)).toEqual([5, 3]);
    expect((await api.call("GET", "/cdn/purge_statuses?status=Failed")).body).toEqual({ count: 0, results: [] });
    for (const [query, field] of [
      ["purge_type=purge_some", "query.purge_type"],
      ["status=Done", "query.status"],
      ["from_created=yesterday", "query.from_created"],
      ["limit=1001", "query.limit"],
    ] as const)
      expectEnvelope(await api.call("GET", `/cdn/purge_statuses?${query}`), 400, "validation_error", [field]);
  });

  it("pre-validates a serving resource (204), and answers 422 for one that does not serve", async () => {
    expect((await api.call("POST", "/cdn/resources/1/ssl/le/pre-validate")).status).toBe(204);
    const refused = await api.call("POST", "/cdn/resources/7/ssl/le/pre-validate");
    expectEnvelope(refused, 422, "unprocessable");
    expect(refused.body.message).toContain("suspended");
    expectEnvelope(await api.call("POST", "/cdn/resources/2/ssl/le/pre-validate"), 404, "not_found");
    expectEnvelope(await api.call("POST", "/cdn/resources/1/ssl/le/pre-validate", { body: { force: true } }), 400, "validation_error", ["force"]);
  });
});
