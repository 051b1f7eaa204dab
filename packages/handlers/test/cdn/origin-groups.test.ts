/**
 * Integration tests of the origin group lifecycle: the filtered, paged listing, GET by id (has_related_resources
 * following the resources), create, PATCH (merge), PUT (replace) and delete (409 while a CDN resource uses the
 * group), with per-source Host header overrides.
 */
import { demoFixture, sql, type DemoAccountId } from "@cloudplane/db";
import { selectRows } from "@cloudplane/db/testing";
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi } from "../harness.js";

const { cdnResources: resources, originGroups } = demoFixture;

/** A fixture group as the API shows it. */
function groupView(id: number) {
  const group = originGroups.find((candidate) => candidate.id === id)!;
  return {
    id,
    name: group.name,
    use_next: group.useNext,
    proxy_next_upstream: group.proxyNextUpstream,
    auth_type: group.authType,
    sources: demoFixture.originGroupSources
      .filter((source) => source.originGroupId === id)
      .map(({ backup, enabled, source, hostHeaderOverride }) => ({ backup, enabled, source, host_header_override: hostHeaderOverride })),
    path: group.path,
    has_related_resources: resources.some((resource) => resource.accountId === group.accountId && resource.originGroupId === id && !resource.deleted),
  };
}

function groupIds(account: DemoAccountId, matches: (group: ReturnType<typeof groupView>) => boolean = () => true): number[] {
  return originGroups
    .filter((group) => group.accountId === account)
    .map((group) => groupView(group.id))
    .filter(matches)
    .map((group) => group.id)
    .sort((a, b) => a - b);
}

describe.each(engines())("origin group lifecycle on %s", (engine) => {
  const api = useApi(engine);

  const create = (body: unknown, account: DemoAccountId = 1) => api.call("POST", "/cdn/origin_groups", { body, as: [account, "role-1-active"] });

  async function groupCount(): Promise<number> {
    const [row] = await selectRows<{ total: number }>(api.database.db, sql`select count(*)::int as total from origin_groups`);
    return row!.total;
  }

  async function sourceRows(id: number) {
    return selectRows(api.database.db, sql`select source, position from origin_group_sources where origin_group_id = ${id} order by position`);
  }

  const SOURCES = [
    { source: "media-1.acme.example", host_header_override: "media.acme.example" },
    { source: "[2001:db8::10]:8443", enabled: false },
    { source: "203.0.113.10", backup: true },
  ];

  describe("GET /cdn/origin_groups", () => {
    it("lists the account's groups by id with their sources and count", async () => {
      for (const account of [1, 2] as const) {
        const reply = await api.call("GET", "/cdn/origin_groups", { as: [account, "role-2-active"] });
        expect(reply.status, reply.text).toBe(200);
        const ids = groupIds(account);
        expect(reply.body).toEqual({ count: ids.length, results: ids.map(groupView) });
      }
    });

    it.each([
      ["name, a case-insensitive substring", "?name=VIDEO", groupIds(1, (group) => group.name.includes("video"))],
      ["sources, a case-insensitive substring of any source", "?sources=BACKUP.acme", groupIds(1, (group) => group.sources.some((source) => source.source.includes("backup.acme")))],
      ["has_related_resources=true", "?has_related_resources=true", groupIds(1, (group) => group.has_related_resources)],
      ["has_related_resources=false", "?has_related_resources=false", groupIds(1, (group) => !group.has_related_resources)],
      ["a page", "?limit=1&offset=1", groupIds(1).slice(1, 2)],
    ])("filters by %s", async (_what, query, expected) => {
      const reply = await api.call("GET", `/cdn/origin_groups${query}`);
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body.results.map((group: { id: number }) => group.id)).toEqual(expected);
      expect(reply.body.count).toBe(query.includes("limit") ? groupIds(1).length : expected.length);
      expect(expected.length).toBeGreaterThan(0);
    });

    it.each([
      ["has_related_resources=1", ["query.has_related_resources"]],
      ["limit=1001", ["query.limit"]],
      ["offset=x", ["query.offset"]],
    ])("answers 400 for %s", async (query, fields) => {
      expectEnvelope(await api.call("GET", `/cdn/origin_groups?${query}`), 400, "validation_error", fields);
    });
  });

  describe("GET /cdn/origin_groups/{id}", () => {
    it.each(originGroups.map((group) => [group.id, group.accountId] as const))(
      "answers origin group %i of account %i with its sources in order",
      async (id, accountId) => {
        const reply = await api.call("GET", `/cdn/origin_groups/${id}`, { as: [accountId as DemoAccountId, "role-2-active"] });
        expect(reply.status, reply.text).toBe(200);
        expect(reply.body).toEqual(groupView(id));
      },
    );

    it("answers every page as the slice of the whole listing, from either end (a page past the middle is read from the end)", async () => {
      const all = groupIds(1);
      expect(all.length).toBeGreaterThan(2);
      for (const limit of [1, 2, 3]) {
        for (let offset = 0; offset <= all.length + 1; offset++) {
          const reply = await api.call("GET", `/cdn/origin_groups?limit=${limit}&offset=${offset}`);
          expect(reply.status, reply.text).toBe(200);
          const page = reply.body as { count: number; results: { id: number }[] };
          expect([page.count, page.results.map((group) => group.id)], `limit ${limit}, offset ${offset}`).toEqual([all.length, all.slice(offset, offset + limit)]);
        }
      }
    });

    it("the fixture has both a used and an unused group in account 1", () => {
      const groups = originGroups.filter((group) => group.accountId === 1);
      const used = (id: number) => resources.some((resource) => resource.accountId === 1 && resource.originGroupId === id);
      expect(groups.some((group) => used(group.id))).toBe(true);
      expect(groups.some((group) => !used(group.id))).toBe(true);
    });

    it("has_related_resources follows a resource moving onto the group and off it again", async () => {
      const unused = originGroups.find((group) => group.accountId === 1 && !resources.some((resource) => resource.originGroupId === group.id))!;
      const related = async () => (await api.call("GET", `/cdn/origin_groups/${unused.id}`)).body.has_related_resources;
      const home = resources.find((resource) => resource.id === 3)!.originGroupId;
      /** Moves resource 3 (account 1's) onto `originGroup`; the answer is the resource as GET then shows it. */
      const move = async (originGroup: number) => {
        const reply = await api.call("PATCH", "/cdn/resources/3", { body: { originGroup } });
        expect(reply.status, reply.text).toBe(200);
        expect((await api.call("GET", "/cdn/resources/3")).body).toEqual(reply.body);
      };
      expect(await related()).toBe(false);
      await move(unused.id);
      expect(await related()).toBe(true);
      await move(home);
      expect(await related()).toBe(false);
    });

    it("answers 404 for another account's group", async () => {
      const reply = await api.call("GET", "/cdn/origin_groups/2");
      expectEnvelope(reply, 404, "not_found");
      expect(reply.text).not.toContain(originGroups.find((group) => group.id === 2)!.name);
    });
  });

  describe("POST /cdn/origin_groups", () => {
    it("creates a group: 201 with the defaults, the sources in order with their overrides, as GET and the listing show it", async () => {
      const reply = await create({ name: "acme-media", sources: SOURCES });
      expect(reply.status, reply.text).toBe(201);
      expect(reply.body).toEqual({
        id: expect.any(Number),
        name: "acme-media",
        use_next: false,
        proxy_next_upstream: ["error", "timeout"],
        auth_type: "none",
        sources: [
          { source: "media-1.acme.example", backup: false, enabled: true, host_header_override: "media.acme.example" },
          { source: "[2001:db8::10]:8443", backup: false, enabled: false, host_header_override: null },
          { source: "203.0.113.10", backup: true, enabled: true, host_header_override: null },
        ],
        path: "",
        has_related_resources: false,
      });
      expect(Math.max(...originGroups.map((group) => group.id))).toBeLessThan(reply.body.id);
      expect((await api.call("GET", `/cdn/origin_groups/${reply.body.id}`)).body).toEqual(reply.body);
      expect((await api.call("GET", "/cdn/origin_groups?name=acme-media")).body).toEqual({ count: 1, results: [reply.body] });
      expectEnvelope(await api.call("GET", `/cdn/origin_groups/${reply.body.id}`, { as: [2, "role-1-active"] }), 404, "not_found");
    });

    it("takes every field", async () => {
      const body = { name: "acme-full", use_next: true, proxy_next_upstream: ["http_429", "error"], auth_type: "none", path: "/assets", sources: [{ source: "full.acme.example" }] };
      const reply = await create(body);
      expect(reply.status, reply.text).toBe(201);
      expect(reply.body).toMatchObject({ ...body, sources: [{ source: "full.acme.example", backup: false, enabled: true, host_header_override: null }] });
    });

    const twentyOne = Array.from({ length: 21 }, (_, index) => ({ source: `o${index}.acme.example` }));
    it.each([
      ["no name", { sources: SOURCES }, ["name"]],
      ["no sources", { name: "x" }, ["sources"]],
      ["an empty list of sources", { name: "x", sources: [] }, ["sources"]],
      ["more than 20 sources", { name: "x", sources: twentyOne }, ["sources"]],
      ["no enabled source", { name: "x", sources: [{ source: "a.acme.example", enabled: false }] }, ["sources"]],
      ["the same source twice", { name: "x", sources: [{ source: "a.acme.example" }, { source: "A.acme.example", backup: true }] }, ["sources"]],
      ["a source that is not a host", { name: "x", sources: [{ source: "a.acme.example" }, { source: "https://b.acme.example" }] }, ["sources.1.source"]],
      ["a port out of range", { name: "x", sources: [{ source: "a.acme.example:0" }] }, ["sources.0.source"]],
      ["an override that is not a host name", { name: "x", sources: [{ source: "a.acme.example", host_header_override: "a b" }] }, ["sources.0.host_header_override"]],
      ["an S3 source", { name: "x", sources: [{ source: "a.acme.example", origin_type: "s3", config: {} }] }, ["sources.0.origin_type", "sources.0.config"]],
      ["use_next without a failure", { name: "x", use_next: true, proxy_next_upstream: [], sources: SOURCES }, ["proxy_next_upstream"]],
      ["an unknown failure", { name: "x", proxy_next_upstream: ["http_418"], sources: SOURCES }, ["proxy_next_upstream.0"]],
      ["awsSignatureV4 authentication", { name: "x", auth_type: "awsSignatureV4", auth: {}, sources: SOURCES }, ["auth_type", "auth"]],
      ["a path without a leading slash", { name: "x", path: "assets", sources: SOURCES }, ["path"]],
      ["the read-only fields", { name: "x", id: 1, has_related_resources: true, sources: SOURCES }, ["id", "has_related_resources"]],
    ])("answers 400 for %s, naming the fields, and creates nothing", async (_what, body, fields) => {
      const before = await groupCount();
      expectEnvelope(await create(body), 400, "validation_error", fields);
      expect(await groupCount()).toBe(before);
    });
  });

  describe("PATCH and PUT /cdn/origin_groups/{id}", () => {
    it("PATCH changes only the fields given, and sources given replace the list", async () => {
      const made = (await create({ name: "acme-patch", use_next: true, proxy_next_upstream: ["error"], sources: SOURCES })).body;
      const renamed = await api.call("PATCH", `/cdn/origin_groups/${made.id}`, { body: { name: "acme-patched" } });
      expect(renamed.status, renamed.text).toBe(200);
      expect(renamed.body).toEqual({ ...made, name: "acme-patched" });

      const resourced = await api.call("PATCH", `/cdn/origin_groups/${made.id}`, { body: { sources: [{ source: "only.acme.example", host_header_override: "www.acme.example" }] } });
      expect(resourced.body).toEqual({
        ...made,
        name: "acme-patched",
        sources: [{ source: "only.acme.example", backup: false, enabled: true, host_header_override: "www.acme.example" }],
      });
      expect(await sourceRows(made.id)).toEqual([{ source: "only.acme.example", position: 0 }]);
      expect((await api.call("GET", `/cdn/origin_groups/${made.id}`)).body).toEqual(resourced.body);
    });

    it("PATCH checks use_next against the stored failures, and changes nothing when refused", async () => {
      const made = (await create({ name: "acme-next", proxy_next_upstream: ["error"], sources: SOURCES })).body;
      expectEnvelope(await api.call("PATCH", `/cdn/origin_groups/${made.id}`, { body: { proxy_next_upstream: [], use_next: true } }), 400, "validation_error", [
        "proxy_next_upstream",
      ]);
      const cleared = await api.call("PATCH", `/cdn/origin_groups/${made.id}`, { body: { proxy_next_upstream: [] } });
      expect(cleared.status, cleared.text).toBe(200);
      expectEnvelope(await api.call("PATCH", `/cdn/origin_groups/${made.id}`, { body: { use_next: true } }), 400, "validation_error", ["proxy_next_upstream"]);
      expect((await api.call("GET", `/cdn/origin_groups/${made.id}`)).body).toEqual({ ...made, proxy_next_upstream: [] });
    });

    it("PUT returns the optional fields left out to their defaults", async () => {
      const made = (await create({ name: "acme-put", use_next: true, proxy_next_upstream: ["http_500"], path: "/x", sources: SOURCES })).body;
      const reply = await api.call("PUT", `/cdn/origin_groups/${made.id}`, { body: { name: "acme-put-2", use_next: false, sources: [{ source: "put.acme.example" }] } });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toEqual({
        ...made,
        name: "acme-put-2",
        use_next: false,
        proxy_next_upstream: ["error", "timeout"],
        path: "",
        sources: [{ source: "put.acme.example", backup: false, enabled: true, host_header_override: null }],
      });
      expectEnvelope(await api.call("PUT", `/cdn/origin_groups/${made.id}`, { body: { name: "y", sources: SOURCES } }), 400, "validation_error", ["use_next"]);
      expect((await api.call("GET", `/cdn/origin_groups/${made.id}`)).body).toEqual(reply.body);
    });

    it("a change of a group a resource uses shows on the resource (originGroup_name)", async () => {
      const before = (await api.call("GET", "/cdn/origin_groups/3")).body;
      const reply = await api.call("PATCH", "/cdn/origin_groups/3", { body: { name: "acme-video-origin-renamed" } });
      expect(reply.body).toEqual({ ...before, name: "acme-video-origin-renamed" });
      const user = resources.find((resource) => resource.accountId === 1 && resource.originGroupId === 3)!;
      expect((await api.call("GET", `/cdn/resources/${user.id}`)).body.originGroup_name).toBe("acme-video-origin-renamed");
    });

    it("answers 404 for another account's group on PATCH and PUT, and leaves it alone", async () => {
      expectEnvelope(await api.call("PATCH", "/cdn/origin_groups/2", { body: { name: "taken" } }), 404, "not_found");
      expectEnvelope(await api.call("PUT", "/cdn/origin_groups/2", { body: { name: "taken", use_next: false, sources: SOURCES } }), 404, "not_found");
      expect((await api.call("GET", "/cdn/origin_groups/2", { as: [2, "role-2-active"] })).body).toEqual(groupView(2));
    });
  });

  describe("DELETE /cdn/origin_groups/{id}", () => {
    it("answers 409 while a resource uses the group, and changes nothing", async () => {
      const used = groupIds(1, (group) => group.has_related_resources)[0]!;
      const before = (await api.call("GET", `/cdn/origin_groups/${used}`)).body;
      const reply = await api.call("DELETE", `/cdn/origin_groups/${used}`);
      expectEnvelope(reply, 409, "conflict");
      expect((await api.call("GET", `/cdn/origin_groups/${used}`)).body).toEqual(before);
    });

    it("walks the whole lifecycle: a group, a resource on it, 409, the resource deleted, the group deleted, 404", async () => {
      const group = (await create({ name: "acme-lifecycle", sources: [{ source: "life.acme.example" }] })).body;
      const resource = await api.call("POST", "/cdn/resources", { body: { cname: "life.acme.example", originGroup: group.id, active: false } });
      expect(resource.status, resource.text).toBe(201);
      expect((await api.call("GET", `/cdn/origin_groups/${group.id}`)).body.has_related_resources).toBe(true);
      expectEnvelope(await api.call("DELETE", `/cdn/origin_groups/${group.id}`), 409, "conflict");

      expect((await api.call("DELETE", `/cdn/resources/${resource.body.id}`)).status).toBe(204);
      const deleted = await api.call("DELETE", `/cdn/origin_groups/${group.id}`);
      expect(deleted.status, deleted.text).toBe(204);
      expect(deleted.text).toBe("");
      expectEnvelope(await api.call("GET", `/cdn/origin_groups/${group.id}`), 404, "not_found");
      expect(await sourceRows(group.id)).toEqual([]);
      expectEnvelope(await api.call("DELETE", `/cdn/origin_groups/${group.id}`), 404, "not_found");
    });

    it("answers 404 for another account's group and leaves it alone", async () => {
      expectEnvelope(await api.call("DELETE", "/cdn/origin_groups/4"), 404, "not_found");
      expect((await api.call("GET", "/cdn/origin_groups/4", { as: [2, "role-2-active"] })).body).toEqual(groupView(4));
    });
  });
});
