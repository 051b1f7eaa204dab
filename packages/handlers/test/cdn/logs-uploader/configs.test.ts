/**
 * Integration tests of the logs uploader's configs: references inside the account, the listing, the
 * offline check, and the configs shown on their target and policy.
 */
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi } from "../../harness.js";
import { byId, configs, CONFIGS, configView, count, creates, POLICIES, relatedTo, TARGETS } from "./shared.js";

describe.each(engines())("logs uploader routes on %s", (engine) => {
  const api = useApi(engine);
  const { createTarget, createPolicy, createConfig } = creates(api);

  describe("configs", () => {
    it("lists the caller's configs, filtered by resource_ids", async () => {
      const all = await api.call("GET", CONFIGS, { as: [2, "role-2-active"] });
      expect(all.body).toEqual({
        count: 1,
        next: null,
        previous: null,
        results: configs.filter((config) => config.accountId === 2).map(configView),
      });
      const listing = await api.call("GET", `${CONFIGS}?resource_ids=1`);
      expect(listing.body.results).toEqual([configView(byId(configs, 3))]);
      expect((await api.call("GET", `${CONFIGS}/3`)).body).toEqual(configView(byId(configs, 3)));
    });

    it("lives: create → PATCH → PUT → validate → DELETE, and shows on its target and policy", async () => {
      const policy = await createPolicy({ name: "for-a-config", fields: ["remote_addr"] });
      const made = await createConfig({ name: "lifecycle", policy: policy.id, target: 1, resources: [3, 1] });
      expect(made).toEqual({
        id: expect.any(Number),
        client_id: 1,
        created: expect.any(String),
        updated: made.created,
        name: "lifecycle",
        enabled: true,
        for_all_resources: false,
        policy: policy.id,
        target: 1,
        resources: [1, 3],
        status: { status: "in_progress", code: 0, updated: expect.any(String), details: "" },
      });
      expect((await api.call("GET", `${TARGETS}/1`)).body.related_uploader_configs).toEqual([...relatedTo("targetId", 1), made.id]);
      expect((await api.call("GET", `${POLICIES}/${policy.id}`)).body.related_uploader_configs).toEqual([made.id]);

      const checked = await api.call("POST", `${CONFIGS}/${made.id}/validate`);
      expect(checked.body).toEqual({ status: "successful", code: 200, updated: expect.any(String), details: "" });

      // A new name keeps the check; another field puts it back at in_progress.
      const renamed = await api.call("PATCH", `${CONFIGS}/${made.id}`, { body: { name: "renamed" } });
      expect(renamed.body).toMatchObject({ name: "renamed", status: checked.body, resources: [1, 3] });
      const disabled = await api.call("PATCH", `${CONFIGS}/${made.id}`, { body: { enabled: false, resources: [] } });
      expect(disabled.body).toMatchObject({ enabled: false, resources: [], status: { status: "in_progress", code: 0 } });

      const failed = await api.call("POST", `${CONFIGS}/${made.id}/validate`);
      expect(failed.body).toMatchObject({ status: "failed", code: 400 });
      expect(failed.body.details).toContain("disabled");
      expect(failed.body.details).toContain("no CDN resource");

      const replaced = await api.call("PUT", `${CONFIGS}/${made.id}`, { body: { name: "replaced", policy: 3, target: 1 } });
      expect(replaced.status, replaced.text).toBe(200);
      expect(replaced.body).toMatchObject({ name: "replaced", policy: 3, enabled: true, for_all_resources: false, resources: [], status: { status: "in_progress" } });
      expect((await api.call("GET", `${POLICIES}/${policy.id}`)).body.related_uploader_configs).toEqual([]);

      expect((await api.call("DELETE", `${CONFIGS}/${made.id}`)).status).toBe(204);
      expectEnvelope(await api.call("GET", `${CONFIGS}/${made.id}`), 404, "not_found");
      expect((await api.call("GET", `${TARGETS}/1`)).body.related_uploader_configs).toEqual(relatedTo("targetId", 1));
      expect((await api.call("DELETE", `${POLICIES}/${policy.id}`)).status).toBe(204);
    });

    it("validate fails a config whose target fails its check, naming the target", async () => {
      const target = await createTarget({ storage_type: "s3_other" });
      const config = await createConfig({ name: "unreachable", policy: 1, target: target.id, for_all_resources: true });
      const reply = await api.call("POST", `${CONFIGS}/${config.id}/validate`);
      expect(reply.body).toMatchObject({ status: "failed", code: 400 });
      expect(reply.body.details).toContain(`target ${target.id}`);
      // The target's own status is left as it was.
      expect((await api.call("GET", `${TARGETS}/${target.id}`)).body.status).toEqual(target.status);

      // Once no config uses it, the target can go.
      expectEnvelope(await api.call("DELETE", `${TARGETS}/${target.id}`), 409, "conflict");
      expect((await api.call("DELETE", `${CONFIGS}/${config.id}`)).status).toBe(204);
      expect((await api.call("DELETE", `${TARGETS}/${target.id}`)).status).toBe(204);
    });

    it.each([
      ["another account's policy", { policy: 2 }, ["policy"]],
      ["an unknown target", { target: 2147483000 }, ["target"]],
      ["another account's CDN resource", { resources: [1, 2] }, ["resources.1"]],
      ["a CDN resource twice", { resources: [1, 1] }, ["resources.1"]],
      ["no name", { name: undefined }, ["name"]],
      ["a read-only status", { status: { status: "successful" } }, ["status"]],
      ["a resource id of 0", { resources: [0] }, ["resources.0"]],
    ])("POST answers 400 for %s and creates nothing", async (_what, change, fields) => {
      const before = await count(api, "logs_uploader_configs");
      const body = { name: "rejected", policy: 1, target: 1, ...change };
      expectEnvelope(await api.call("POST", CONFIGS, { body }), 400, "validation_error", fields);
      expect(await count(api, "logs_uploader_configs")).toBe(before);
    });

    it("PATCH with a bad reference is 400 and changes nothing; another account's config is 404", async () => {
      const config = byId(configs, 3);
      expectEnvelope(await api.call("PATCH", `${CONFIGS}/${config.id}`, { body: { target: 2, name: "x" } }), 400, "validation_error", ["target"]);
      expect((await api.call("GET", `${CONFIGS}/${config.id}`)).body).toEqual(configView(config));

      const other = byId(configs, 2);
      expectEnvelope(await api.call("GET", `${CONFIGS}/${other.id}`), 404, "not_found");
      expectEnvelope(await api.call("PATCH", `${CONFIGS}/${other.id}`, { body: { name: "taken" } }), 404, "not_found");
      expectEnvelope(await api.call("PUT", `${CONFIGS}/${other.id}`, { body: { name: "taken", policy: 1, target: 1 } }), 404, "not_found");
      expectEnvelope(await api.call("POST", `${CONFIGS}/${other.id}/validate`), 404, "not_found");
      expectEnvelope(await api.call("DELETE", `${CONFIGS}/${other.id}`), 404, "not_found");
      expect((await api.call("GET", `${CONFIGS}/${other.id}`, { as: [2, "role-2-active"] })).body).toEqual(configView(other));
    });

    it("a User (read-only role) may read but not write", async () => {
      expect((await api.call("GET", `${CONFIGS}/3`, { as: [1, "role-2-active"] })).status).toBe(200);
      expectEnvelope(await api.call("POST", `${CONFIGS}/3/validate`, { as: [1, "role-2-active"] }), 403, "permission_denied");
      expectEnvelope(await api.call("DELETE", `${CONFIGS}/3`, { as: [1, "role-2-active"] }), 403, "permission_denied");
    });
  });
});
