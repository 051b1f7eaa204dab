/**
 * Integration tests of the changes of CDN resources: PATCH (merge) and PUT (replace) with their reference,
 * host name and option rules, the shielding PUT, and concurrent writes. The rest of a resource's lifecycle
 * is tested in resources.test.ts.
 */
import { completeCdnResourceOptions, completeCdnRuleOptions } from "@cloudplane/contract";
import { decryptSecret, demoFixture, sql, type DemoAccountId, type DemoRow } from "@cloudplane/db";
import { selectRows } from "@cloudplane/db/testing";
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi, type Reply } from "../harness.js";

const { cdnResources: resources, originGroups, shieldingPops } = demoFixture;

type DemoCdnResource = DemoRow<"cdnResources">;

/** A resource's secondary host names, in their order. */
const hostnamesOf = (resource: DemoCdnResource) => demoFixture.cdnResourceHostnames.filter((row) => row.resourceId === resource.id).map((row) => row.hostname);

/** The CDN area's timestamp (`YYYY-MM-DD HH:MM:SS.ffffff+00:00`) of a fixture ISO time. */
function cdnTime(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)}000+00:00`;
}

/** A resource's rules as the API shows them, in the order they are matched (none of the demo's has a secure key). */
function rulesOf(resource: DemoCdnResource) {
  return demoFixture.cdnResourceRules
    .filter((rule) => rule.resourceId === resource.id)
    .sort((a, b) => a.weight - b.weight || a.id - b.id)
    .map((rule) => ({
      id: rule.id,
      name: rule.name,
      active: rule.active,
      deleted: false,
      rule: rule.rule,
      ruleType: rule.ruleType,
      weight: rule.weight,
      originGroup: rule.originGroupId,
      originProtocol: rule.overrideOriginProtocol ?? resource.originProtocol,
      overrideOriginProtocol: rule.overrideOriginProtocol,
      preset_applied: rule.presetApplied,
      primary_rule: null,
      options: completeCdnRuleOptions(rule.options),
    }));
}

const CDN_TIME = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}\+00:00$/;

function fixtureResource(id: number): DemoCdnResource {
  return resources.find((resource) => resource.id === id)!;
}

function originGroupName(id: number): string {
  return originGroups.find((group) => group.id === id)!.name;
}

/** A fixture resource as the API returns it (the contract's `cdnResource`; `secure_key.key` never returned). */
function resourceView(resource: DemoCdnResource) {
  const pop = shieldingPops.find((candidate) => candidate.id === resource.shieldingPopId);
  const { secure_key: secureKey, ...options } = resource.options;
  return {
    id: resource.id,
    cname: resource.cname,
    active: resource.active,
    enabled: resource.enabled,
    status: resource.status,
    deleted: resource.deleted,
    client: resource.accountId,
    name: resource.name,
    description: resource.description,
    created: cdnTime(resource.created),
    updated: cdnTime(resource.updated),
    originGroup: resource.originGroupId,
    originGroup_name: originGroupName(resource.originGroupId),
    originProtocol: resource.originProtocol,
    secondaryHostnames: hostnamesOf(resource),
    shielded: pop !== undefined,
    shield_dc: pop?.datacenter ?? null,
    shield_enabled: pop !== undefined,
    shield_routing_map: resource.shieldRoutingMap,
    sslEnabled: resource.sslEnabled,
    sslData: resource.sslDataId,
    proxy_ssl_enabled: resource.proxySslEnabled,
    proxy_ssl_ca: resource.proxySslCaId,
    proxy_ssl_data: resource.proxySslDataId,
    preset_applied: resource.presetApplied,
    vp_enabled: resource.vpEnabled,
    full_custom_enabled: resource.fullCustomEnabled,
    can_purge_by_urls: resource.canPurgeByUrls,
    suspend_date: resource.suspendDate === null ? null : cdnTime(resource.suspendDate),
    suspended: resource.suspended,
    primary_resource: resource.primaryResourceId,
    is_primary: resource.isPrimary,
    waap_domain_id: resource.waapDomainId,
    rules: rulesOf(resource),
    options: completeCdnResourceOptions(secureKey ? { ...options, secure_key: { enabled: secureKey.enabled, type: secureKey.type } } : options),
    waap_api_domain_enabled: resource.waapApiDomainEnabled,
  };
}

type ResourceView = ReturnType<typeof resourceView>;

describe.each(engines())("CDN routes on %s", (engine) => {
  const api = useApi(engine);

  const ownerOf = (id: number): DemoAccountId => fixtureResource(id).accountId as DemoAccountId;

  function patch(id: number, body: unknown, account: DemoAccountId = ownerOf(id)) {
    return api.call("PATCH", `/cdn/resources/${id}`, { body, as: [account, "role-1-active"] });
  }

  function put(id: number, body: unknown, account: DemoAccountId = ownerOf(id)) {
    return api.call("PUT", `/cdn/resources/${id}`, { body, as: [account, "role-1-active"] });
  }

  /** The resource as it is now: PATCH {} changes nothing and answers the resource. */
  async function current(id: number): Promise<ResourceView> {
    const reply = await patch(id, {});
    expect(reply.status, reply.text).toBe(200);
    return reply.body;
  }

  /** A write that succeeds, and whose answer is what a following PATCH {} answers. */
  async function written(reply: Reply): Promise<ResourceView> {
    expect(reply.status, reply.text).toBe(200);
    expect(await current(reply.body.id)).toEqual(reply.body);
    return reply.body;
  }

  async function storedOptions(id: number): Promise<Record<string, Record<string, unknown>>> {
    const [row] = await selectRows<{ options: Record<string, Record<string, unknown>> }>(
      api.database.db,
      sql`select options from cdn_resources where id = ${id}`,
    );
    return row!.options;
  }

  describe("PATCH /cdn/resources/{id}", () => {
    it.each(resources.map((resource) => [resource.id, resource.accountId] as const))(
      "PATCH {} answers resource %i (account %i) as the fixture has it, and changes nothing",
      async (id) => {
        const first = await current(id);
        expect(first).toEqual(resourceView(fixtureResource(id)));
        expect(await current(id)).toEqual(first);
      },
    );

    it("changes only the fields given; updated moves on, created stays", async () => {
      const before = resourceView(fixtureResource(1));
      const body = { name: "Acme website (new)", description: "Changed.", active: false, originProtocol: "MATCH", originGroup: 3 };
      const after = await written(await patch(1, body));
      expect(after).toEqual({
        ...before,
        ...body,
        originGroup_name: originGroupName(3),
        // The rules without a protocol of their own follow the resource's.
        rules: before.rules.map((rule) => ({ ...rule, originProtocol: rule.overrideOriginProtocol ?? "MATCH" })),
        updated: expect.stringMatching(CDN_TIME),
      });
      expect(after.updated > before.updated).toBe(true);
      expect(after.created).toBe(before.created);
    });

    it("merges options: a key given replaces that option whole, null removes it, keys not given stay", async () => {
      const before = await current(1);
      const fixtureOptions = fixtureResource(1).options;
      expect(fixtureOptions.cors?.always).toBe(true);
      expect(fixtureOptions.gzipOn).toBeDefined();
      expect(fixtureOptions.websockets).toBeUndefined();
      const cors = { enabled: false, value: ["cdn.example.com"] };
      const websockets = { enabled: true, value: true };
      const after = await written(await patch(1, { options: { cors, gzipOn: null, websockets } }));
      const { gzipOn: _removed, ...kept } = fixtureOptions;
      expect(after.options).toEqual(completeCdnResourceOptions({ ...kept, cors, websockets }));
      expect(after).toEqual({ ...before, options: after.options, updated: expect.stringMatching(CDN_TIME) });
    });

    it("stores secure_key.key encrypted and never returns it", async () => {
      const key = "Sup3r-s3cret-KEY-42";
      const reply = await patch(1, { options: { secure_key: { enabled: true, key, type: 2 } } });
      const after = await written(reply);
      expect(after.options.secure_key).toEqual({ enabled: true, type: 2 });
      expect(reply.text).not.toContain(key);

      const stored = await storedOptions(1);
      expect(JSON.stringify(stored)).not.toContain(key);
      const ciphertext = stored.secure_key!.key as string;
      expect(await decryptSecret(api.database.secretsKey, ciphertext)).toBe(key);

      // A write of another option leaves the stored key as it was.
      const other = await written(await patch(1, { options: { slice: { enabled: true, value: true } } }));
      expect(other.options.secure_key).toEqual({ enabled: true, type: 2 });
      expect((await storedOptions(1)).secure_key!.key).toBe(ciphertext);

      const removed = await written(await patch(1, { options: { secure_key: null } }));
      expect(removed.options.secure_key).toBeNull();
      expect((await storedOptions(1)).secure_key).toBeUndefined();
    });

    it("does not echo a rejected secure_key.key", async () => {
      const reply = await patch(1, { options: { secure_key: { enabled: true, key: "abc", type: 2 } } });
      expectEnvelope(reply, 400, "validation_error", ["options.secure_key.key"]);
      expect(reply.text).not.toContain('"abc"');
    });

    const eleven = Array.from({ length: 11 }, (_, index) => `h${index}.acme.example`);
    it.each([
      ["an unknown option key", { options: { gzipon: { enabled: true, value: true } } }, ["options.gzipon"]],
      ["a bad value inside an option", { options: { cors: { enabled: true, value: ["not a domain"] } } }, ["options.cors.value.0"]],
      ["an unknown field inside an option", { options: { gzipOn: { enabled: true, value: true, level: 9 } } }, ["options.gzipOn.level"]],
      ["an option without enabled", { options: { gzipOn: { value: true } } }, ["options.gzipOn.enabled"]],
      ["the read-only id", { id: 9 }, ["id"]],
      ["the read-only cname", { cname: "other.acme.example" }, ["cname"]],
      ["two read-only fields", { id: 9, cname: "other.acme.example", name: "Fine" }, ["id", "cname"]],
      ["waap_api_domain_enabled, which only PUT takes", { waap_api_domain_enabled: true }, ["waap_api_domain_enabled"]],
      ["an unknown field", { origin_group: 3 }, ["origin_group"]],
      ["an originProtocol outside HTTP, HTTPS, MATCH", { originProtocol: "FTP" }, ["originProtocol"]],
      ["another account's originGroup", { originGroup: 2 }, ["originGroup"]],
      ["an originGroup that does not exist", { originGroup: 999_999 }, ["originGroup"]],
      ["another account's certificate as sslData", { sslData: 2 }, ["sslData"]],
      ["a CA certificate as sslData", { sslData: 3 }, ["sslData"]],
      ["an SSL certificate as proxy_ssl_ca", { proxy_ssl_ca: 1 }, ["proxy_ssl_ca"]],
      ["sslEnabled true with no certificate set", { sslEnabled: true }, ["sslData"]],
      ["sslEnabled true with sslData null", { sslEnabled: true, sslData: null }, ["sslData"]],
      ["more than 10 secondaryHostnames", { secondaryHostnames: eleven }, ["secondaryHostnames"]],
      ["a host name with an underscore", { secondaryHostnames: ["ok.acme.example", "bad_name.acme.example"] }, ["secondaryHostnames.1"]],
      ["a host name of one label", { secondaryHostnames: ["localhost"] }, ["secondaryHostnames.0"]],
      ["a host name starting with a hyphen", { secondaryHostnames: ["-video.acme.example"] }, ["secondaryHostnames.0"]],
      ["the same host name twice", { secondaryHostnames: ["a.acme.example", "A.acme.example"] }, ["secondaryHostnames"]],
    ])("rejects %s with 400 naming the field, and leaves the resource unchanged", async (_what, body, fields) => {
      // Resource 5 has no certificate and is not written by the tests before these.
      const untouched = resourceView(fixtureResource(5));
      expectEnvelope(await patch(5, body), 400, "validation_error", fields);
      expect(await current(5)).toEqual(untouched);
    });

    it("rejects sslData null while sslEnabled stays true", async () => {
      const before = await current(1);
      expect(before.sslEnabled).toBe(true);
      expectEnvelope(await patch(1, { sslData: null }), 400, "validation_error", ["sslData"]);
      expect(await current(1)).toEqual(before);
    });

    it("answers 409 for a secondary host name of another resource of the account, in any case, and changes nothing", async () => {
      const taken = hostnamesOf(fixtureResource(1))[0]!;
      const reply = await patch(5, { secondaryHostnames: ["new.acme.example", taken.toUpperCase()], name: "Not taken" });
      expectEnvelope(reply, 409, "conflict");
      expect(await current(5)).toEqual(resourceView(fixtureResource(5)));
      const [row] = await selectRows(api.database.db, sql`select count(*)::int as total from cdn_resource_hostnames where lower(hostname) = 'new.acme.example'`);
      expect(row!.total).toBe(0);
    });

    it("takes a host name that a resource of the other account uses, and the resource's own in another case", async () => {
      const ownHostname = hostnamesOf(fixtureResource(5))[0]!;
      const otherAccountHostname = hostnamesOf(fixtureResource(2)).find(
        (hostname) => !resources.some((resource) => resource.accountId === 1 && hostnamesOf(resource).includes(hostname)),
      )!;
      const secondaryHostnames = [ownHostname.toUpperCase(), otherAccountHostname];
      const after = await written(await patch(5, { secondaryHostnames }));
      expect(after).toEqual({ ...resourceView(fixtureResource(5)), secondaryHostnames, updated: expect.stringMatching(CDN_TIME) });

      // And the other way round: account 2 takes one of account 1's host names.
      const acmeHostname = hostnamesOf(fixtureResource(1))[1]!;
      const globex = await written(await patch(4, { secondaryHostnames: [acmeHostname] }));
      expect(globex.secondaryHostnames).toEqual([acmeHostname]);
    });

    it("answers 404 alike for another account's resource and a missing one, and leaves the other account's resource alone", async () => {
      const other = await patch(2, { name: "Taken over" }, 1);
      const missing = await patch(999_999, { name: "Taken over" }, 1);
      for (const reply of [other, missing]) {
        expectEnvelope(reply, 404, "not_found");
      }
      expect(other.body.message.replace(/\d+/g, "N")).toBe(missing.body.message.replace(/\d+/g, "N"));
      expect(await current(2)).toEqual(resourceView(fixtureResource(2)));
    });
  });

  describe("PUT /cdn/resources/{id}", () => {
    it("returns every writable field left out to the default of a new resource, keeping the name", async () => {
      const fixture = fixtureResource(7);
      expect(fixture.sslEnabled && fixture.description !== "" && Object.keys(fixture.options).length > 0).toBe(true);
      const after = await written(await put(7, { originGroup: 3 }));
      expect(after).toEqual({
        ...resourceView(fixture),
        originGroup: 3,
        originGroup_name: originGroupName(3),
        options: completeCdnResourceOptions({}),
        secondaryHostnames: [],
        description: "",
        active: true,
        originProtocol: "HTTP",
        sslEnabled: false,
        sslData: null,
        proxy_ssl_enabled: false,
        proxy_ssl_ca: null,
        proxy_ssl_data: null,
        waap_api_domain_enabled: false,
        updated: expect.stringMatching(CDN_TIME),
      });
      expect(after.updated > cdnTime(fixture.updated)).toBe(true);
    });

    it("sets every writable field given, waap_api_domain_enabled included", async () => {
      const body = {
        originGroup: 1,
        name: "Acme legacy API (replaced)",
        description: "Replaced whole.",
        active: false,
        originProtocol: "HTTPS",
        secondaryHostnames: ["legacy.acme.example", "api-old.acme.example"],
        sslEnabled: true,
        sslData: 1,
        proxy_ssl_enabled: true,
        proxy_ssl_ca: 3,
        proxy_ssl_data: 1,
        options: { gzipOn: { enabled: true, value: true }, hostHeader: { enabled: true, value: "legacy.acme.example" } },
        waap_api_domain_enabled: true,
      };
      const after = await written(await put(7, body));
      expect(after).toEqual({
        ...resourceView(fixtureResource(7)),
        ...body,
        options: completeCdnResourceOptions(body.options),
        originGroup_name: originGroupName(1),
        updated: expect.stringMatching(CDN_TIME),
      });

      // A second PUT with the group alone returns everything to the defaults again, the name kept.
      const reset = await written(await put(7, { originGroup: 1 }));
      expect(reset).toMatchObject({
        name: body.name,
        description: "",
        secondaryHostnames: [],
        options: completeCdnResourceOptions({}),
        waap_api_domain_enabled: false,
        sslEnabled: false,
        sslData: null,
        proxy_ssl_ca: null,
        proxy_ssl_data: null,
      });
      // The host names it let go are free for another resource of the account.
      const taker = await written(await patch(3, { secondaryHostnames: ["legacy.acme.example"] }));
      expect(taker.secondaryHostnames).toEqual(["legacy.acme.example"]);
      expect((await written(await patch(3, { secondaryHostnames: [] }))).secondaryHostnames).toEqual([]);
    });

    it.each([
      ["without originGroup", { name: "No group" }, ["originGroup"]],
      ["with another account's originGroup", { originGroup: 2 }, ["originGroup"]],
      ["with a read-only field", { originGroup: 1, status: "active" }, ["status"]],
      ["with a CA certificate as sslData", { originGroup: 1, sslEnabled: true, sslData: 3 }, ["sslData"]],
    ])("answers 400 %s and changes nothing", async (_what, body, fields) => {
      const before = await current(7);
      expectEnvelope(await put(7, body), 400, "validation_error", fields);
      expect(await current(7)).toEqual(before);
    });

    it("answers 404 for another account's resource", async () => {
      const reply = await put(4, { originGroup: 1 }, 1);
      expectEnvelope(reply, 404, "not_found");
      expect(await current(4)).toMatchObject({ originGroup: fixtureResource(4).originGroupId, options: completeCdnResourceOptions(fixtureResource(4).options) });
    });
  });

  describe("PUT /cdn/resources/{id}/shielding_v2", () => {
    const shielding = (id: number, body: unknown, account: DemoAccountId = 1) =>
      api.call("PUT", `/cdn/resources/${id}/shielding_v2`, { body, as: [account, "role-1-active"] });

    it("sets a POP, and the resource's shielded, shield_enabled and shield_dc follow", async () => {
      const pop = shieldingPops.find((candidate) => !resources.some((resource) => resource.shieldingPopId === candidate.id))!;
      expect(fixtureResource(3).shieldingPopId).toBeNull();
      const reply = await shielding(3, { shielding_pop: pop.id });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toEqual({ shielding_pop: pop.id });
      expect(await current(3)).toMatchObject({ shielded: true, shield_enabled: true, shield_dc: pop.datacenter });
    });

    it("switches shielding off with null", async () => {
      const reply = await shielding(3, { shielding_pop: null });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toEqual({ shielding_pop: null });
      expect(await current(3)).toMatchObject({ shielded: false, shield_enabled: false, shield_dc: null });
    });

    it.each([
      ["an unknown POP", { shielding_pop: 999 }],
      ["a POP id that is not positive", { shielding_pop: 0 }],
      ["no shielding_pop", {}],
    ])("answers 400 shielding_pop for %s and changes nothing", async (_what, body) => {
      const fixture = fixtureResource(1);
      expect(fixture.shieldingPopId).not.toBeNull();
      const before = await current(1);
      expectEnvelope(await shielding(1, body), 400, "validation_error", ["shielding_pop"]);
      expect(await current(1)).toEqual(before);
      expect(before.shield_dc).toBe(shieldingPops.find((pop) => pop.id === fixture.shieldingPopId)!.datacenter);
    });

    it("answers 404 for another account's resource and leaves its shielding alone", async () => {
      const reply = await shielding(2, { shielding_pop: null });
      expectEnvelope(reply, 404, "not_found");
      expect(await current(2)).toMatchObject({ shielded: true, shield_dc: shieldingPops.find((pop) => pop.id === fixtureResource(2).shieldingPopId)!.datacenter });
    });
  });

  describe("concurrent writes: none is lost", () => {
    it("keeps every one of 20 concurrent PATCHes of different option keys of one resource", async () => {
      // Resource 7: no preset manages any of its options.
      const before = await current(7);
      const writes: Record<string, Record<string, unknown>> = {
        disable_cache: { enabled: true, value: false },
        disable_proxy_force_ranges: { enabled: true, value: true },
        fetch_compressed: { enabled: true, value: true },
        forward_host_header: { enabled: false, value: true },
        gzipOn: { enabled: true, value: true },
        http3_enabled: { enabled: true, value: true },
        ignore_cookie: { enabled: true, value: false },
        ignoreQueryString: { enabled: true, value: true },
        proxy_cache_methods_set: { enabled: true, value: true },
        redirect_http_to_https: { enabled: true, value: true },
        slice: { enabled: true, value: true },
        use_default_le_chain: { enabled: true, value: true },
        use_dns01_le_challenge: { enabled: false, value: false },
        use_rsa_le_cert: { enabled: true, value: true },
        waap: { enabled: false, value: false },
        websockets: { enabled: true, value: true },
        hostHeader: { enabled: true, value: "downloads.acme.example" },
        proxy_cache_key: { enabled: true, value: "$uri" },
        browser_cache_settings: { enabled: true, value: "600s" },
        tls_versions: { enabled: true, value: ["TLSv1.3"] },
      };
      const replies = await Promise.all(Object.entries(writes).map(([key, option]) => patch(7, { options: { [key]: option } })));
      for (const reply of replies) expect(reply.status, reply.text).toBe(200);
      const after = await current(7);
      expect(after.options).toEqual(completeCdnResourceOptions({ ...before.options, ...writes }));
      expect(after).toEqual({ ...before, options: after.options, updated: expect.stringMatching(CDN_TIME) });
    });

    it("keeps concurrent changes to different fields: name, description, an option and the shielding", async () => {
      const before = await current(3);
      const pop = shieldingPops[0]!;
      const replies = await Promise.all([
        patch(3, { name: "Acme downloads (concurrent)" }),
        patch(3, { description: "Written at the same time." }),
        patch(3, { options: { stale: { enabled: true, value: ["error", "timeout"] } } }),
        api.call("PUT", "/cdn/resources/3/shielding_v2", { body: { shielding_pop: pop.id } }),
      ]);
      for (const reply of replies) expect(reply.status, reply.text).toBe(200);
      expect(await current(3)).toEqual({
        ...before,
        name: "Acme downloads (concurrent)",
        description: "Written at the same time.",
        options: completeCdnResourceOptions({ ...before.options, stale: { enabled: true, value: ["error", "timeout"] } }),
        shielded: true,
        shield_enabled: true,
        shield_dc: pop.datacenter,
        updated: expect.stringMatching(CDN_TIME),
      });
    });

    it("gives a host name claimed by two resources at once to one of them, and answers the other 409", async () => {
      const hostname = "race.acme.example";
      const replies = await Promise.all([3, 5].map((id) => patch(id, { secondaryHostnames: [hostname] })));
      expect(replies.map((reply) => reply.status).sort()).toEqual([200, 409]);
      const holders = [];
      for (const id of [3, 5]) if ((await current(id)).secondaryHostnames.includes(hostname)) holders.push(id);
      expect(holders).toHaveLength(1);
    });
  });
});
