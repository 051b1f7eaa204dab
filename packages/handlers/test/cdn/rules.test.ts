/**
 * Integration tests of the rules of CDN resources, the account's rule templates and the presets applied
 * to resources and rules: each as its example shows it, the options' checks shared with resources, the
 * account's isolation, the cascade of a resource's delete, and the options a preset manages kept from change.
 */
import { CDN_PRESETS, completeCdnResourceOptions, completeCdnRuleOptions, routeExample } from "@cloudplane/contract";
import { demoFixture, sql, type DemoAccountId } from "@cloudplane/db";
import { selectRows } from "@cloudplane/db/testing";
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi } from "../harness.js";

type Rule = { id: number; name: string; weight: number; options: Record<string, Record<string, unknown>>; preset_applied: boolean; originProtocol: string };

/** A demo resource's options as stored (none of them secret). */
const demoOptions = (id: number) => demoFixture.cdnResources.find((resource) => resource.id === id)!.options;

describe.each(engines())("CDN rules, rule templates and presets on %s", (engine) => {
  const api = useApi(engine);
  const as = (account: DemoAccountId, role: "role-1-active" | "role-2-active" = "role-1-active") => ({
    as: [account, role] as [DemoAccountId, typeof role],
  });
  const ruleRows = () => selectRows<{ id: number; resource_id: number; options: Record<string, Record<string, unknown>> }>(api.database.db, sql`select id, resource_id, options from cdn_resource_rules order by id`);

  async function ok(method: string, path: string, body?: unknown, account: DemoAccountId = 1, status = 200) {
    const reply = await api.call(method, path, { body, ...as(account) });
    expect(reply.status, reply.text).toBe(status);
    return reply.body as Rule & Record<string, unknown>;
  }

  describe("rules of a resource", () => {
    it("lists and shows the rules as their examples show them, in the order they are matched", async () => {
      const list = routeExample("cdn.listRules")!;
      expect(await ok("GET", "/cdn/resources/1/rules?limit=10")).toEqual(list.response);
      expect(await ok("GET", "/cdn/resources/1/rules/1")).toEqual(routeExample("cdn.getRule")!.response);
      // The resource shows them too.
      expect((await ok("GET", "/cdn/resources/1")).rules).toEqual((list.response as { results: unknown[] }).results);
      expect((await ok("GET", "/cdn/resources/3")).rules).toEqual([]);
      // And the listing, each resource its own (the rules of a page's resources are read at once).
      const listed = (await ok("GET", "/cdn/resources?limit=100")) as unknown as { results: { id: number; rules: unknown[] }[] };
      expect(listed.results.map((resource) => resource.id)).toEqual(expect.arrayContaining([1, 3]));
      for (const resource of listed.results) expect(resource.rules, `resource ${resource.id}`).toEqual((await ok("GET", `/cdn/resources/${resource.id}`)).rules);
      expect(listed.results.find((resource) => resource.id === 1)!.rules).toEqual((list.response as { results: unknown[] }).results);
      const page = await ok("GET", "/cdn/resources/1/rules?limit=1&offset=1");
      expect(page).toMatchObject({ count: 2, results: [{ id: 2 }] });
    });

    it("answers 404 for another account's resource or rule, and for a rule of another resource", async () => {
      expectEnvelope(await api.call("GET", "/cdn/resources/2/rules"), 404, "not_found");
      expectEnvelope(await api.call("GET", "/cdn/resources/2/rules/3"), 404, "not_found");
      expectEnvelope(await api.call("GET", "/cdn/resources/3/rules/1"), 404, "not_found");
      expectEnvelope(await api.call("PATCH", "/cdn/resources/2/rules/3", { body: { name: "x" } }), 404, "not_found");
      expectEnvelope(await api.call("DELETE", "/cdn/resources/2/rules/3"), 404, "not_found");
      expectEnvelope(await api.call("POST", "/cdn/resources/2/rules", { body: { name: "x", rule: "/x", ruleType: 0 } }), 404, "not_found");
    });

    it("creates a rule with the defaults, keeps its secure key secret, and changes it by PATCH and PUT", async () => {
      const made = await ok(
        "POST",
        "/cdn/resources/3/rules",
        {
          name: "Signed",
          rule: "^/private/",
          ruleType: 0,
          options: { secure_key: { enabled: true, key: "s3cr3t-key", type: 0 }, gzipOn: { enabled: true, value: true } },
        },
        1,
        201,
      );
      expect(made).toMatchObject({
        name: "Signed",
        active: true,
        weight: 1,
        originGroup: null,
        overrideOriginProtocol: null,
        originProtocol: "HTTP",
        preset_applied: false,
        deleted: false,
        primary_rule: null,
        options: completeCdnRuleOptions({ secure_key: { enabled: true, type: 0 }, gzipOn: { enabled: true, value: true } }),
      });
      expect(JSON.stringify(made)).not.toContain("s3cr3t-key");
      const stored = (await ruleRows()).find((row) => row.id === made.id)!;
      expect(JSON.stringify(stored.options)).not.toContain("s3cr3t-key");

      const patched = await ok("PATCH", `/cdn/resources/3/rules/${made.id}`, {
        weight: 4,
        overrideOriginProtocol: "HTTPS",
        originGroup: 3,
        options: { gzipOn: null, edge_cache_settings: { enabled: true, default: "2h" } },
      });
      expect(patched).toMatchObject({ weight: 4, originProtocol: "HTTPS", originGroup: 3 });
      expect(Object.keys(patched.options).filter((key) => patched.options[key] !== null).sort()).toEqual(["edge_cache_settings", "secure_key"]);
      expect(await ok("PATCH", `/cdn/resources/3/rules/${made.id}`, {})).toEqual(patched);

      const replaced = await ok("PUT", `/cdn/resources/3/rules/${made.id}`, { rule: "/private/", ruleType: 0 });
      expect(replaced).toMatchObject({ name: "Signed", weight: 1, originGroup: null, overrideOriginProtocol: null, options: completeCdnRuleOptions({}) });
      expect(await ok("GET", `/cdn/resources/3/rules/${made.id}`)).toEqual(replaced);

      expect(await api.call("DELETE", `/cdn/resources/3/rules/${made.id}`)).toMatchObject({ status: 204 });
      expectEnvelope(await api.call("GET", `/cdn/resources/3/rules/${made.id}`), 404, "not_found");
    });

    it.each([
      ["an unknown field", { name: "x", rule: "/x", ruleType: 0, color: "red" }, ["color"]],
      ["a read-only field", { name: "x", rule: "/x", ruleType: 0, preset_applied: true }, ["preset_applied"]],
      ["no name, rule or ruleType", {}, ["name", "rule", "ruleType"]],
      ["a ruleType 0 pattern without a leading /", { name: "x", rule: "images", ruleType: 0 }, ["rule"]],
      ["a pattern that is no regular expression", { name: "x", rule: "/(x", ruleType: 0 }, ["rule"]],
      ["an unknown ruleType", { name: "x", rule: "/x", ruleType: 2 }, ["ruleType"]],
      ["a negative weight", { name: "x", rule: "/x", ruleType: 0, weight: -1 }, ["weight"]],
      ["an unknown protocol", { name: "x", rule: "/x", ruleType: 0, overrideOriginProtocol: "FTP" }, ["overrideOriginProtocol"]],
      ["an option of the resource as a whole", { name: "x", rule: "/x", ruleType: 0, options: { tls_versions: { enabled: true, value: ["TLSv1.3"] } } }, ["options.tls_versions"]],
      ["a bad option field", { name: "x", rule: "/x", ruleType: 0, options: { browser_cache_settings: { enabled: true, value: "soon" } } }, ["options.browser_cache_settings.value"]],
      ["edge_cache_settings with value and default", { name: "x", rule: "/x", ruleType: 0, options: { edge_cache_settings: { enabled: true, value: "1h", default: "2h" } } }, ["options.edge_cache_settings.default"]],
      [
        "query_string_forwarding with both key lists",
        { name: "x", rule: "/x", ruleType: 0, options: { query_string_forwarding: { enabled: true, forward_from_file_types: ["m3u8"], forward_to_file_types: ["ts"], forward_only_keys: ["a"], forward_except_keys: ["b"] } } },
        ["options.query_string_forwarding.forward_except_keys"],
      ],
      [
        "fastedge without a phase",
        { name: "x", rule: "/x", ruleType: 0, options: { fastedge: { enabled: true } } },
        ["on_request_headers", "on_request_headers_after_cache", "on_request_body", "on_response_headers", "on_response_body"].map((phase) => `options.fastedge.${phase}`),
      ],
    ])("answers 400 for %s, naming the fields, and makes nothing", async (_what, body, fields) => {
      const before = await ruleRows();
      expectEnvelope(await api.call("POST", "/cdn/resources/1/rules", { body }), 400, "validation_error", fields);
      expect(await ruleRows()).toEqual(before);
    });

    it("takes the SDK's options shapes: fastedge phases, edge_cache_settings.default, forwarded query keys", async () => {
      const options = {
        fastedge: { enabled: true, on_request_headers: { app_id: "1", interrupt_on_error: true }, on_response_body: { app_id: "2", execute_on_shield: true } },
        edge_cache_settings: { enabled: true, default: "1d", custom_values: { "404": "10s" } },
        query_string_forwarding: { enabled: true, forward_from_file_types: ["m3u8"], forward_to_file_types: ["ts"], forward_except_keys: ["session"] },
      };
      const made = await ok("POST", "/cdn/resources/3/rules", { name: "Shapes", rule: "/shapes/", ruleType: 0, options }, 1, 201);
      expect(made.options).toEqual(completeCdnRuleOptions(options));
      const resource = await ok("PATCH", "/cdn/resources/1", { options: { ...options, grpc_passthrough: { enabled: true, value: true }, network_error_logging: { enabled: true, value: false } } });
      const completed = completeCdnRuleOptions(options) as Record<string, unknown>;
      for (const key of Object.keys(options)) expect(resource.options[key]).toEqual(completed[key]);
      expect(resource.options).toMatchObject({ grpc_passthrough: { enabled: true, value: true } });
      await ok("DELETE", `/cdn/resources/3/rules/${made.id}`, undefined, 1, 204);
      const restored = await ok("PATCH", "/cdn/resources/1", {
        options: { fastedge: null, query_string_forwarding: null, grpc_passthrough: null, network_error_logging: null, edge_cache_settings: demoOptions(1).edge_cache_settings },
      });
      expect(restored.options).toEqual(completeCdnResourceOptions(demoOptions(1)));
    });

    it("refuses an origin group of another account (400), a PATCH pattern against the rule's type, and a rule past the account's maximum (409)", async () => {
      expectEnvelope(await api.call("PATCH", "/cdn/resources/1/rules/1", { body: { originGroup: 2 } }), 400, "validation_error", ["originGroup"]);
      expectEnvelope(await api.call("PATCH", "/cdn/resources/1/rules/1", { body: { rule: "static" } }), 400, "validation_error", ["rule"]);
      await api.database.db.execute(sql`update accounts set cdn_resources_rules_max_count = 2 where id = 1`);
      try {
        expectEnvelope(await api.call("POST", "/cdn/resources/1/rules", { body: { name: "third", rule: "/third", ruleType: 0 } }), 409, "conflict");
      } finally {
        await api.database.db.execute(sql`update accounts set cdn_resources_rules_max_count = 50 where id = 1`);
      }
    });

    it("is read by every role that reads, and written only by those that write", async () => {
      expect((await api.call("GET", "/cdn/resources/1/rules", as(1, "role-2-active"))).status).toBe(200);
      expectEnvelope(await api.call("PATCH", "/cdn/resources/1/rules/1", { body: { name: "x" }, ...as(1, "role-2-active") }), 403, "permission_denied");
    });

    it("keeps an origin group that a rule uses (409), and deletes a resource's rules with it", async () => {
      const group = await ok("POST", "/cdn/origin_groups", { name: "rule group", sources: [{ source: "rules.example" }] }, 1, 201);
      const rule = await ok("POST", "/cdn/resources/3/rules", { name: "g", rule: "/g", ruleType: 0, originGroup: group.id }, 1, 201);
      expectEnvelope(await api.call("DELETE", `/cdn/origin_groups/${String(group.id)}`), 409, "conflict");
      const resource = await ok("POST", "/cdn/resources", { cname: "rules-cascade.acme.example", originGroup: 1, active: false }, 1, 201);
      await ok("POST", `/cdn/resources/${String(resource.id)}/rules`, { name: "gone", rule: "/gone", ruleType: 0 }, 1, 201);
      await ok("DELETE", `/cdn/resources/${String(resource.id)}`, undefined, 1, 204);
      expect((await ruleRows()).filter((row) => row.resource_id === resource.id)).toEqual([]);
      await ok("DELETE", `/cdn/resources/3/rules/${rule.id}`, undefined, 1, 204);
      await ok("DELETE", `/cdn/origin_groups/${String(group.id)}`, undefined, 1, 204);
    });
  });

  describe("rule templates", () => {
    it("lists, shows, creates, changes, replaces and deletes the account's templates", async () => {
      expect(await ok("GET", "/cdn/resources/rule_templates?limit=10")).toEqual(routeExample("cdn.listRuleTemplates")!.response);
      expect(await ok("GET", "/cdn/resources/rule_templates/1")).toEqual(routeExample("cdn.getRuleTemplate")!.response);
      const made = await ok("POST", "/cdn/resources/rule_templates", { rule: "^/api/", ruleType: 0 }, 1, 201);
      expect(made).toMatchObject({ name: "^/api/", client: 1, weight: 1, overrideOriginProtocol: null, options: {}, default: false, template: true, deleted: false });
      const patched = await ok("PATCH", `/cdn/resources/rule_templates/${made.id}`, { name: "API", options: { cors: { enabled: true, value: ["*"] } } });
      expect(patched).toMatchObject({ name: "API", options: { cors: { enabled: true, value: ["*"] } } });
      const replaced = await ok("PUT", `/cdn/resources/rule_templates/${made.id}`, { rule: "legacy/", ruleType: 1, weight: 3 });
      expect(replaced).toMatchObject({ name: "API", rule: "legacy/", ruleType: 1, weight: 3, options: completeCdnRuleOptions({}) });
      await ok("DELETE", `/cdn/resources/rule_templates/${made.id}`, undefined, 1, 204);
      expectEnvelope(await api.call("GET", `/cdn/resources/rule_templates/${made.id}`), 404, "not_found");
    });

    it("keeps each account's templates to it, and refuses what a template does not take", async () => {
      expectEnvelope(await api.call("GET", "/cdn/resources/rule_templates/2"), 404, "not_found");
      expectEnvelope(await api.call("PUT", "/cdn/resources/rule_templates/2", { body: { rule: "/x", ruleType: 0 } }), 404, "not_found");
      expect((await ok("GET", "/cdn/resources/rule_templates", undefined, 2)).count).toBe(1);
      expectEnvelope(await api.call("POST", "/cdn/resources/rule_templates", { body: { rule: "/x", ruleType: 0, active: true, originGroup: 1 } }), 400, "validation_error", [
        "active",
        "originGroup",
      ]);
      expectEnvelope(await api.call("POST", "/cdn/resources/rule_templates", { body: { rule: "x", ruleType: 0 } }), 400, "validation_error", ["rule"]);
      expectEnvelope(await api.call("POST", "/cdn/resources/rule_templates", { body: { rule: "/x", ruleType: 0, options: { waap: { enabled: true, value: "yes" } } } }), 400, "validation_error", [
        "options.waap.value",
      ]);
    });
  });

  describe("presets", () => {
    it("lists and shows the catalogue, the same for every account", async () => {
      expect(await ok("GET", "/cdn/presets?limit=2")).toEqual(routeExample("cdn.listPresets")!.response);
      expect((await ok("GET", "/cdn/presets", undefined, 2)).count).toBe(CDN_PRESETS.length);
      expect(await ok("GET", "/cdn/presets/2")).toEqual(routeExample("cdn.getPreset")!.response);
      expectEnvelope(await api.call("GET", "/cdn/presets/99"), 404, "not_found");
    });

    it("shows the presets applied to the account's resources and rules", async () => {
      expect(await ok("GET", "/cdn/resources/5/preset")).toEqual(routeExample("cdn.getResourcePreset")!.response);
      expect(await ok("GET", "/cdn/resources/1/rules/2/preset")).toEqual(routeExample("cdn.getRulePreset")!.response);
      expect(await ok("GET", "/cdn/presets/4/applied")).toEqual(routeExample("cdn.listPresetApplied")!.response);
      expect(await ok("GET", "/cdn/presets/1/applied", undefined, 2)).toEqual({ object_type: "CDNResource", object_ids: [4] });
      expect(await ok("GET", "/cdn/presets/3/applied")).toEqual({ object_type: "CDNResource", object_ids: [5] });
      expect(await ok("GET", "/cdn/presets/2/applied")).toEqual({ object_type: "CDNResource", object_ids: [] });
      expect((await ok("GET", "/cdn/resources/5/preset", undefined, 1)).deletable).toBe(true);
      const reader = await api.call("GET", "/cdn/resources/5/preset", as(1, "role-2-active"));
      expect(reader.body).toMatchObject({ deletable: false });
      expectEnvelope(await api.call("GET", "/cdn/resources/1/preset"), 404, "not_found");
      expectEnvelope(await api.call("GET", "/cdn/resources/4/preset"), 404, "not_found");
      expectEnvelope(await api.call("GET", "/cdn/resources/1/rules/1/preset"), 404, "not_found");
    });

    it("applies a preset: its options onto the object, managed until it is unapplied", async () => {
      const before = await ok("GET", "/cdn/resources/7");
      const applied = await api.call("POST", "/cdn/presets/3/applied", { body: { object_id: 7 } });
      expect(applied.status, applied.text).toBe(201);
      expect(applied.body).toEqual({ message: "Preset 3 (Video streaming (HLS)) is applied to CDN resource 7." });
      const after = await ok("GET", "/cdn/resources/7");
      expect(after.preset_applied).toBe(true);
      expect(after.options).toEqual(completeCdnResourceOptions({ ...(before.options as object), ...CDN_PRESETS[2]!.preset_settings.options }));
      // Applied again: 201, the same. Another preset: 409.
      expect((await api.call("POST", "/cdn/presets/3/applied", { body: { object_id: 7 } })).status).toBe(201);
      expectEnvelope(await api.call("POST", "/cdn/presets/1/applied", { body: { object_id: 7 } }), 409, "conflict");
      // The options it manages cannot be changed; the others can, and a PUT keeps the managed ones.
      expectEnvelope(await api.call("PATCH", "/cdn/resources/7", { body: { options: { cors: null } } }), 409, "conflict");
      const patched = await ok("PATCH", "/cdn/resources/7", { options: { websockets: null } });
      expect(patched.options).toMatchObject({ websockets: null });
      const put = await ok("PUT", "/cdn/resources/7", { originGroup: 1, active: false });
      expect(put.options).toEqual(completeCdnResourceOptions(CDN_PRESETS[2]!.preset_settings.options));

      await ok("DELETE", "/cdn/presets/3/applied/7", undefined, 1, 204);
      expect((await ok("GET", "/cdn/resources/7")).preset_applied).toBe(false);
      expectEnvelope(await api.call("DELETE", "/cdn/presets/3/applied/7"), 404, "not_found");
      expect((await ok("PATCH", "/cdn/resources/7", { options: { cors: null } })).options).toMatchObject({ cors: null });
    });

    it("applies rule presets to rules, and keeps their options from change", async () => {
      expectEnvelope(await api.call("PATCH", "/cdn/resources/1/rules/2", { body: { options: { image_stack: null } } }), 409, "conflict");
      const replaced = await ok("PUT", "/cdn/resources/1/rules/2", { rule: "^/images/", ruleType: 0, weight: 2 });
      expect(replaced.options).toEqual(completeCdnRuleOptions(CDN_PRESETS[3]!.preset_settings.options));
      const applied = await api.call("POST", "/cdn/presets/5/applied", { body: { object_id: 1 } });
      expect(applied.status, applied.text).toBe(201);
      expect((await ok("GET", "/cdn/resources/1/rules/1")).preset_applied).toBe(true);
      await ok("DELETE", "/cdn/presets/5/applied/1", undefined, 1, 204);
      expect((await ok("GET", "/cdn/resources/1/rules/1")).preset_applied).toBe(false);
    });

    it("refuses an object of another account or kind (400), and unapplying what is not applied (404)", async () => {
      expectEnvelope(await api.call("POST", "/cdn/presets/1/applied", { body: { object_id: 2 } }), 400, "validation_error", ["object_id"]);
      expectEnvelope(await api.call("POST", "/cdn/presets/4/applied", { body: { object_id: 3 } }), 400, "validation_error", ["object_id"]);
      expectEnvelope(await api.call("POST", "/cdn/presets/1/applied", { body: { object_id: 1, extra: true } }), 400, "validation_error", ["extra"]);
      expectEnvelope(await api.call("POST", "/cdn/presets/99/applied", { body: { object_id: 1 } }), 404, "not_found");
      expectEnvelope(await api.call("DELETE", "/cdn/presets/1/applied/4"), 404, "not_found");
      expectEnvelope(await api.call("DELETE", "/cdn/presets/2/applied/1"), 404, "not_found");
      expectEnvelope(await api.call("POST", "/cdn/presets/1/applied", { body: { object_id: 1 }, ...as(1, "role-2-active") }), 403, "permission_denied");
    });

    it("deletes the preset applied to a rule with the rule", async () => {
      const rule = await ok("POST", "/cdn/resources/1/rules", { name: "temp", rule: "/temp", ruleType: 0 }, 1, 201);
      await ok("POST", "/cdn/presets/4/applied", { object_id: rule.id }, 1, 201);
      await ok("DELETE", `/cdn/resources/1/rules/${rule.id}`, undefined, 1, 204);
      expect((await ok("GET", "/cdn/presets/4/applied")).object_ids).toEqual([2]);
    });
  });
});

