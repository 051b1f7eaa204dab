/**
 * Integration tests of the CDN resource lifecycle: the filtered, paged listing, create (on an origin group
 * or an origin), get, delete (deactivated resources only) and the shielding read. The resources' PATCH and
 * PUT are tested in resources-changes.test.ts.
 */
import { completeCdnResourceOptions } from "@cloudplane/contract";
import { demoFixture, sql, type DemoAccountId } from "@cloudplane/db";
import { selectRows } from "@cloudplane/db/testing";
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi } from "../harness.js";

const { cdnResources: resources, shieldingPops, originGroups, certificates } = demoFixture;
/** A resource's secondary host names. */
const hostnamesOf = (id: number) => demoFixture.cdnResourceHostnames.filter((row) => row.resourceId === id).map((row) => row.hostname);

const CDN_TIME = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}\+00:00$/;

/** The fixture's resource ids of an account whose fields match, in the listing's order. */
function idsOf(account: DemoAccountId, matches: (resource: (typeof resources)[number]) => boolean = () => true): number[] {
  return resources
    .filter((resource) => resource.accountId === account && matches(resource))
    .map((resource) => resource.id)
    .sort((a, b) => a - b);
}

describe.each(engines())("CDN resource lifecycle on %s", (engine) => {
  const api = useApi(engine);

  const as = (account: DemoAccountId, role: "role-1-active" | "role-2-active" = "role-1-active") => ({ as: [account, role] as [DemoAccountId, typeof role] });

  async function get(id: number, account: DemoAccountId = 1) {
    const reply = await api.call("GET", `/cdn/resources/${id}`, as(account));
    expect(reply.status, reply.text).toBe(200);
    return reply.body;
  }

  async function list(query: string, account: DemoAccountId = 1) {
    const reply = await api.call("GET", `/cdn/resources${query}`, as(account, "role-2-active"));
    expect(reply.status, reply.text).toBe(200);
    return reply.body as { count: number; results: { id: number }[] };
  }

  async function count(table: string): Promise<number> {
    const [row] = await selectRows<{ total: number }>(api.database.db, sql`select count(*)::int as total from ${sql.identifier(table)}`);
    return row!.total;
  }

  describe("GET /cdn/resources", () => {
    it("lists the account's resources by id with count, each as GET shows it", async () => {
      for (const account of [1, 2] as const) {
        const page = await list("", account);
        expect(page.count).toBe(idsOf(account).length);
        expect(page.results.map((resource) => resource.id)).toEqual(idsOf(account));
        for (const resource of page.results) expect(resource).toEqual(await get(resource.id, account));
      }
    });

    it("pages with limit and offset; count stays the number of all matches", async () => {
      const all = idsOf(1);
      expect(all.length).toBeGreaterThan(2);
      const first = await list("?limit=2");
      const rest = await list("?limit=2&offset=2");
      expect(first.count).toBe(all.length);
      expect(rest.count).toBe(all.length);
      expect([...first.results, ...rest.results].map((resource) => resource.id)).toEqual(all);
      expect((await list(`?offset=${all.length}`)).results).toEqual([]);
    });

    it("answers every page as the slice of the whole listing, from either end (a page past the middle is read from the end)", async () => {
      const all = idsOf(1);
      for (const limit of [1, 2, 3]) {
        for (let offset = 0; offset <= all.length + 1; offset++) {
          const page = await list(`?limit=${limit}&offset=${offset}`);
          expect([page.count, page.results.map((resource) => resource.id)], `limit ${limit}, offset ${offset}`).toEqual([all.length, all.slice(offset, offset + limit)]);
        }
      }
    });

    const shieldDc = (pop: number | null) => shieldingPops.find((candidate) => candidate.id === pop)?.datacenter;
    it.each([
      ["cname, in any case", "?cname=CDN.ACME.example", idsOf(1, (r) => r.cname === "cdn.acme.example")],
      ["name, a case-insensitive substring", "?name=ACME%20v", idsOf(1, (r) => r.name.toLowerCase().includes("acme v"))],
      ["name with a LIKE wildcard, taken literally", "?name=%25", []],
      ["status", "?status=suspended", idsOf(1, (r) => r.status === "suspended")],
      ["active=false", "?active=false", idsOf(1, (r) => !r.active)],
      ["enabled=true", "?enabled=true", idsOf(1, (r) => r.enabled)],
      ["deleted=false", "?deleted=false", idsOf(1, (r) => !r.deleted)],
      ["originGroup", "?originGroup=1", idsOf(1, (r) => r.originGroupId === 1)],
      ["sslEnabled", "?sslEnabled=true", idsOf(1, (r) => r.sslEnabled)],
      ["sslData", "?sslData=1", idsOf(1, (r) => r.sslDataId === 1)],
      ["sslData_in", "?sslData_in=3,1,99", idsOf(1, (r) => r.sslDataId === 1 || r.sslDataId === 3)],
      ["shielded=true", "?shielded=true", idsOf(1, (r) => r.shieldingPopId !== null)],
      ["shielded=false", "?shielded=false", idsOf(1, (r) => r.shieldingPopId === null)],
      ["shield_dc", `?shield_dc=${shieldDc(resources[0]!.shieldingPopId)}`, idsOf(1, (r) => shieldDc(r.shieldingPopId) === shieldDc(resources[0]!.shieldingPopId))],
      ["vp_enabled", "?vp_enabled=true", idsOf(1, (r) => r.vpEnabled)],
      ["secondaryHostnames, in any case", "?secondaryHostnames=STATIC.acme.example", idsOf(1, (r) => hostnamesOf(r.id).includes("static.acme.example"))],
      ["min_created", "?min_created=2026-01-24T00:00:00Z", idsOf(1, (r) => r.created >= "2026-01-24")],
      ["max_created", "?max_created=2026-01-24T00:00:00%2B01:00", idsOf(1, (r) => r.created < "2026-01-23T23:00:00")],
      ["two filters at once", "?sslEnabled=true&active=true", idsOf(1, (r) => r.sslEnabled && r.active)],
      ["another account's cname", "?cname=cdn.globex.example", []],
    ])("filters by %s", async (_what, query, expected) => {
      const page = await list(query);
      expect(page.results.map((resource) => resource.id)).toEqual(expected);
      expect(page.count).toBe(expected.length);
    });

    it("the filters above are not trivial on the fixture", () => {
      expect(idsOf(1, (r) => r.status === "suspended").length).toBeGreaterThan(0);
      expect(idsOf(1, (r) => r.shieldingPopId === null).length).toBeGreaterThan(0);
      expect(idsOf(1, (r) => r.vpEnabled).length).toBeGreaterThan(0);
      expect(idsOf(1, (r) => r.created >= "2026-01-24").length).toBeGreaterThan(0);
    });

    it.each([
      ["limit 0", "?limit=0", ["query.limit"]],
      ["limit over 1000", "?limit=1001", ["query.limit"]],
      ["a negative offset", "?offset=-1", ["query.offset"]],
      ["an unknown status", "?status=paused", ["query.status"]],
      ["a boolean that is not true or false", "?shielded=yes", ["query.shielded"]],
      ["sslData_in that is not a list of ids", "?sslData_in=1,,2", ["query.sslData_in"]],
      ["an id out of range in sslData_in", "?sslData_in=2147483648", ["query.sslData_in"]],
      ["a min_created that is not a time", "?min_created=yesterday", ["query.min_created"]],
      ["a fractional originGroup", "?originGroup=1.5", ["query.originGroup"]],
    ])("answers 400 for %s, naming the parameter", async (_what, query, fields) => {
      expectEnvelope(await api.call("GET", `/cdn/resources${query}`), 400, "validation_error", fields);
    });
  });

  describe("POST /cdn/resources, GET and DELETE /cdn/resources/{id}", () => {
    const create = (body: unknown, account: DemoAccountId = 1) => api.call("POST", "/cdn/resources", { body, ...as(account) });

    it("creates a resource on an origin group: 201 with a new resource's defaults, as GET, PATCH {} and the listing show it", async () => {
      const started = Date.now();
      const reply = await create({ cname: "New-Site.Acme.example", originGroup: 3 });
      expect(reply.status, reply.text).toBe(201);
      const created = reply.body;
      expect(created).toEqual({
        id: expect.any(Number),
        cname: "new-site.acme.example",
        active: true,
        enabled: true,
        status: "active",
        deleted: false,
        client: 1,
        name: "new-site.acme.example",
        description: "",
        created: expect.stringMatching(CDN_TIME),
        updated: created.created,
        originGroup: 3,
        originGroup_name: originGroups.find((group) => group.id === 3)!.name,
        originProtocol: "HTTP",
        secondaryHostnames: [],
        shielded: false,
        shield_dc: null,
        shield_enabled: false,
        shield_routing_map: null,
        sslEnabled: false,
        sslData: null,
        proxy_ssl_enabled: false,
        proxy_ssl_ca: null,
        proxy_ssl_data: null,
        preset_applied: false,
        vp_enabled: false,
        full_custom_enabled: false,
        can_purge_by_urls: true,
        suspend_date: null,
        suspended: false,
        primary_resource: null,
        is_primary: null,
        waap_domain_id: null,
        rules: [],
        options: completeCdnResourceOptions({}),
        waap_api_domain_enabled: false,
      });
      expect(Math.max(...resources.map((resource) => resource.id))).toBeLessThan(created.id);
      expect(Date.parse(created.created.replace(" ", "T").replace(/\d{3}\+00:00$/, "Z"))).toBeGreaterThanOrEqual(started - 1000);
      expect(await get(created.id)).toEqual(created);
      const patched = await api.call("PATCH", `/cdn/resources/${created.id}`, { body: {} });
      expect(patched.body).toEqual(created);
      expect((await list("?cname=new-site.acme.example")).results).toEqual([created]);
    });

    it("sets every writable field given, with the change operations' rules (secure key encrypted, never returned)", async () => {
      const body = {
        cname: "full.acme.example",
        originGroup: 1,
        name: "Full",
        description: "Every field.",
        active: false,
        originProtocol: "HTTPS",
        secondaryHostnames: ["full-2.acme.example", "full-3.acme.example"],
        sslEnabled: true,
        sslData: 1,
        proxy_ssl_enabled: true,
        proxy_ssl_ca: 3,
        proxy_ssl_data: 1,
        options: { gzipOn: { enabled: true, value: true }, secure_key: { enabled: true, key: "created-secret-key-77", type: 2 }, cors: null },
        waap_api_domain_enabled: true,
      };
      const reply = await create(body);
      expect(reply.status, reply.text).toBe(201);
      const { cname: _cname, options: _options, ...fields } = body;
      expect(reply.body).toMatchObject({
        ...fields,
        cname: "full.acme.example",
        options: completeCdnResourceOptions({ gzipOn: { enabled: true, value: true }, secure_key: { enabled: true, type: 2 } }),
      });
      expect(reply.text).not.toContain("created-secret-key-77");
      expect(await get(reply.body.id)).toEqual(reply.body);
    });

    it("creates an origin group for `origin`, named after the cname, with the one source", async () => {
      const groupsBefore = await count("origin_groups");
      const reply = await create({ cname: "from-origin.acme.example", origin: "203.0.113.77:8080", name: "From an origin" });
      expect(reply.status, reply.text).toBe(201);
      expect(await count("origin_groups")).toBe(groupsBefore + 1);
      const group = await api.call("GET", `/cdn/origin_groups/${reply.body.originGroup}`);
      expect(group.body).toEqual({
        id: reply.body.originGroup,
        name: "from-origin.acme.example",
        use_next: false,
        proxy_next_upstream: ["error", "timeout"],
        auth_type: "none",
        sources: [{ backup: false, enabled: true, source: "203.0.113.77:8080", host_header_override: null }],
        path: "",
        has_related_resources: true,
      });
      expect(reply.body).toMatchObject({ name: "From an origin", originGroup_name: "from-origin.acme.example" });
    });

    it.each([
      ["neither origin nor originGroup", { cname: "x1.acme.example" }, ["origin", "originGroup"]],
      ["both origin and originGroup", { cname: "x2.acme.example", origin: "o.acme.example", originGroup: 1 }, ["origin", "originGroup"]],
      ["no cname", { originGroup: 1 }, ["cname"]],
      ["a cname that is not a host name", { cname: "not a host", originGroup: 1 }, ["cname"]],
      ["an origin that is not a host", { cname: "x3.acme.example", origin: "http://o.acme.example/" }, ["origin"]],
      ["an origin port out of range", { cname: "x4.acme.example", origin: "o.acme.example:70000" }, ["origin"]],
      ["another account's originGroup", { cname: "x5.acme.example", originGroup: 2 }, ["originGroup"]],
      ["another account's certificate", { cname: "x6.acme.example", originGroup: 1, sslEnabled: true, sslData: 2 }, ["sslData"]],
      ["sslEnabled without a certificate", { cname: "x7.acme.example", originGroup: 1, sslEnabled: true }, ["sslData"]],
      ["an unknown option", { cname: "x8.acme.example", originGroup: 1, options: { gzip: { enabled: true } } }, ["options.gzip"]],
      ["the read-only id and status", { cname: "x9.acme.example", originGroup: 1, id: 5, status: "active" }, ["id", "status"]],
      ["primary_resource", { cname: "x10.acme.example", originGroup: 1, primary_resource: 1 }, ["primary_resource"]],
      ["an empty name", { cname: "x11.acme.example", originGroup: 1, name: "" }, ["name"]],
    ])("answers 400 for %s, naming the fields, and creates nothing", async (_what, body, fields) => {
      const [resourcesBefore, groupsBefore] = [await count("cdn_resources"), await count("origin_groups")];
      expectEnvelope(await create(body), 400, "validation_error", fields);
      expect(await count("cdn_resources")).toBe(resourcesBefore);
      expect(await count("origin_groups")).toBe(groupsBefore);
    });

    it.each([
      ["a cname another account's resource has, in another case", { cname: "CDN.GLOBEX.example", origin: "o.acme.example" }],
      ["a cname of the account's own resource", { cname: "downloads.acme.example", originGroup: 1 }],
      ["a secondary host name of another resource of the account", { cname: "y1.acme.example", origin: "o.acme.example", secondaryHostnames: ["IMG.acme.example"] }],
    ])("answers 409 for %s, and creates nothing (not even the origin's group)", async (_what, body) => {
      const [resourcesBefore, groupsBefore] = [await count("cdn_resources"), await count("origin_groups")];
      expectEnvelope(await create(body), 409, "conflict");
      expect(await count("cdn_resources")).toBe(resourcesBefore);
      expect(await count("origin_groups")).toBe(groupsBefore);
    });

    it("answers 404 alike for another account's resource and a missing one, on GET, DELETE and the shielding read", async () => {
      for (const path of ["/cdn/resources/2", "/cdn/resources/999999", "/cdn/resources/2/shielding_v2"]) {
        expectEnvelope(await api.call("GET", path), 404, "not_found");
      }
      for (const path of ["/cdn/resources/2", "/cdn/resources/999999"]) expectEnvelope(await api.call("DELETE", path), 404, "not_found");
      expect(await get(2, 2)).toMatchObject({ id: 2, cname: "cdn.globex.example" });
    });

    it("refuses to delete an active resource with 409, and deletes a deactivated one for good: 404 after, its names free again", async () => {
      const made = await create({ cname: "short-lived.acme.example", originGroup: 5, secondaryHostnames: ["short-2.acme.example"] });
      expect(made.status, made.text).toBe(201);
      const { id } = made.body;
      expectEnvelope(await api.call("DELETE", `/cdn/resources/${id}`), 409, "conflict");
      expect(await get(id)).toEqual(made.body);

      const deactivated = await api.call("PATCH", `/cdn/resources/${id}`, { body: { active: false } });
      expect(deactivated.status, deactivated.text).toBe(200);
      const deleted = await api.call("DELETE", `/cdn/resources/${id}`);
      expect(deleted.status, deleted.text).toBe(204);
      expect(deleted.text).toBe("");
      for (const [method, body] of [["GET"], ["PATCH", {}], ["DELETE"]] as const)
        expectEnvelope(await api.call(method, `/cdn/resources/${id}`, { body }), 404, "not_found");
      expect((await list("?originGroup=5")).results).toEqual([]);
      const [{ total }] = (await selectRows<{ total: number }>(api.database.db, sql`select count(*)::int as total from cdn_resource_hostnames where resource_id = ${id}`)) as [
        { total: number },
      ];
      expect(total).toBe(0);

      // The origin group stays; the cname and the host name can be taken again.
      expect((await api.call("GET", "/cdn/origin_groups/5")).body.has_related_resources).toBe(false);
      const again = await create({ cname: "short-lived.acme.example", originGroup: 5, secondaryHostnames: ["short-2.acme.example"] });
      expect(again.status, again.text).toBe(201);
      expect(again.body.id).not.toBe(id);
    });

    it("refuses a resource beyond the plan's limit (resources_limit) with 409, and makes nothing", async () => {
      const countOf = async () =>
        (await selectRows<{ total: number }>(api.database.db, sql`select count(*)::int as total from cdn_resources where account_id = 1`))[0]!.total;
      const limit = (await api.call("GET", "/cdn/clients/me/limits")).body.resources_limit as number;
      expect(limit).toBe(500);
      // The account is filled to one below the limit, as many creates would.
      await api.database.db.execute(sql`
        insert into cdn_resources (account_id, name, cname, origin_group_id, active, status, suspended, created, updated)
        select 1, 'filler ' || g, 'filler-' || g || '.limit.acme.example', 3, false, 'active', false, now(), now()
        from generate_series(1, ${limit - 1 - (await countOf())}) g`);
      const last = await create({ cname: "last.limit.acme.example", originGroup: 3 });
      expect(last.status, last.text).toBe(201);
      expect(await countOf()).toBe(limit);
      const beyond = await create({ cname: "beyond.limit.acme.example", originGroup: 3 });
      expectEnvelope(beyond, 409, "conflict");
      expect(beyond.body.message).toBe("The account has 500 CDN resources, the most its plan allows (resources_limit); delete one first.");
      expect(await countOf()).toBe(limit);
      // Another account's resources do not count.
      const theirs = await create({ cname: "other.limit.globex.example", originGroup: originGroups.find((group) => group.accountId === 2)!.id }, 2);
      expect(theirs.status, theirs.text).toBe(201);
    });

    it("lets a Users-role token read but not create or delete", async () => {
      expect((await api.call("GET", "/cdn/resources/1", as(1, "role-2-active"))).status).toBe(200);
      expectEnvelope(await api.call("POST", "/cdn/resources", { body: { cname: "u.acme.example", originGroup: 1 }, ...as(1, "role-2-active") }), 403, "permission_denied");
      expectEnvelope(await api.call("DELETE", "/cdn/resources/7", as(1, "role-2-active")), 403, "permission_denied");
      expect(await get(7)).toMatchObject({ id: 7 });
    });
  });

  describe("shielding", () => {
    it("GET /cdn/resources/{id}/shielding_v2 answers the POP set, and null without shielding", async () => {
      for (const resource of resources) {
        const reply = await api.call("GET", `/cdn/resources/${resource.id}/shielding_v2`, as(resource.accountId as DemoAccountId, "role-2-active"));
        expect(reply.status, reply.text).toBe(200);
        expect(reply.body).toEqual({ shielding_pop: (await get(resource.id, resource.accountId as DemoAccountId)).shielded ? expect.any(Number) : null });
      }
      expect((await api.call("GET", "/cdn/resources/1/shielding_v2")).body).toEqual({ shielding_pop: resources[0]!.shieldingPopId });
    });

    it("follows PUT shielding_v2", async () => {
      const pop = shieldingPops.at(-1)!;
      expect((await api.call("PUT", "/cdn/resources/3/shielding_v2", { body: { shielding_pop: pop.id } })).status).toBe(200);
      expect((await api.call("GET", "/cdn/resources/3/shielding_v2")).body).toEqual({ shielding_pop: pop.id });
      expect((await list(`?shield_dc=${pop.datacenter}`)).results.map((resource) => resource.id)).toContain(3);
    });
  });

  it("the fixture has what these tests need", () => {
    expect(certificates.some((certificate) => certificate.accountId === 1 && certificate.id === 3 && certificate.kind === "ca")).toBe(true);
    expect(resources.some((resource) => resource.accountId === 1 && resource.originGroupId === 5)).toBe(false);
  });
});
