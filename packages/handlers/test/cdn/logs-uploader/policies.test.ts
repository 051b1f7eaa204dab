/**
 * Integration tests of the logs uploader's policies: the fields a policy may include, the defaults and
 * the rules of `fields`, and 409 for a policy in use.
 */
import { LOGS_UPLOADER_POLICY_DEFAULTS, LOGS_UPLOADER_POLICY_FIELDS } from "@cloudplane/contract";
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi } from "../../harness.js";
import { byId, count, creates, policies, POLICIES, policyView } from "./shared.js";

describe.each(engines())("logs uploader routes on %s", (engine) => {
  const api = useApi(engine);
  const { createPolicy } = creates(api);

  describe("policies", () => {
    it("GET /fields lists each field once, - first", async () => {
      const reply = await api.call("GET", `${POLICIES}/fields`, { as: [2, "role-2-active"] });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toEqual([...LOGS_UPLOADER_POLICY_FIELDS]);
      expect(reply.body[0]).toBe("-");
      expect(new Set(reply.body).size).toBe(reply.body.length);
      expect(reply.body).toEqual(expect.arrayContaining(["remote_addr", "status", "upstream_cache_status"]));
    });

    it("POST {} makes a policy of the platform's defaults", async () => {
      const reply = await api.call("POST", POLICIES, { body: {} });
      expect(reply.status, reply.text).toBe(201);
      expect(reply.body).toEqual({
        id: expect.any(Number),
        client_id: 1,
        created: expect.any(String),
        updated: reply.body.created,
        ...LOGS_UPLOADER_POLICY_DEFAULTS,
        related_uploader_configs: [],
      });
      expect(reply.body.fields.filter((field: string) => field === "-")).toHaveLength(2);
    });

    it("lists, filters by config_ids and answers one policy with its configs", async () => {
      const list = await api.call("GET", `${POLICIES}?config_ids=3`);
      expect(list.status, list.text).toBe(200);
      expect(list.body).toEqual({ count: 1, next: null, previous: null, results: [policyView(byId(policies, 3))] });
      const own = await api.call("GET", `${POLICIES}/3`, { as: [1, "role-2-active"] });
      expect(own.body).toEqual(policyView(byId(policies, 3)));
      expectEnvelope(await api.call("GET", `${POLICIES}/2`), 404, "not_found");
    });

    it("lives: create → PATCH → PUT → DELETE → 404", async () => {
      const made = await createPolicy({ name: "lifecycle", fields: ["remote_addr", "app"], tags: { app: "shop" }, format_type: "json" });
      expect(made).toMatchObject({ name: "lifecycle", fields: ["remote_addr", "app"], tags: { app: "shop" }, format_type: "json" });

      const patched = await api.call("PATCH", `${POLICIES}/${made.id}`, { body: { log_sample_rate: 0.25, rotate_threshold_mb: 50 } });
      expect(patched.status, patched.text).toBe(200);
      expect(patched.body).toEqual({ ...made, log_sample_rate: 0.25, rotate_threshold_mb: 50, updated: expect.any(String) });

      const replaced = await api.call("PUT", `${POLICIES}/${made.id}`, { body: { description: "back to the defaults" } });
      expect(replaced.status, replaced.text).toBe(200);
      expect(replaced.body).toEqual({
        ...made,
        ...LOGS_UPLOADER_POLICY_DEFAULTS,
        description: "back to the defaults",
        updated: expect.any(String),
      });

      expect((await api.call("DELETE", `${POLICIES}/${made.id}`)).status).toBe(204);
      expectEnvelope(await api.call("GET", `${POLICIES}/${made.id}`), 404, "not_found");
    });

    it.each([
      ["an unknown field name", { fields: ["remote_addr", "no_such_field"] }, ["fields.1"]],
      ["a field twice with JSON lines", { format_type: "json", fields: ["status", "-", "-", "status"] }, ["fields.3"]],
      ["a tag name that is not one", { tags: { "bad name": "x" } }, ["tags.bad name"]],
      ["retry_interval_minutes under 5", { retry_interval_minutes: 4 }, ["retry_interval_minutes"]],
      ["log_sample_rate over 1", { log_sample_rate: 1.5 }, ["log_sample_rate"]],
      ["an empty field_separator", { field_separator: "" }, ["field_separator"]],
      ["a format_type other than json", { format_type: "csv" }, ["format_type"]],
      ["a read-only id", { id: 5 }, ["id"]],
      ["an unknown field", { rotate_every: 5 }, ["rotate_every"]],
    ])("POST answers 400 for %s and creates nothing", async (_what, body, fields) => {
      const before = await count(api, "logs_uploader_policies");
      expectEnvelope(await api.call("POST", POLICIES, { body }), 400, "validation_error", fields);
      expect(await count(api, "logs_uploader_policies")).toBe(before);
    });

    it("keeps the rules of fields after a PATCH: removing a tag the fields name is 400 and changes nothing", async () => {
      const policy = byId(policies, 3);
      const reply = await api.call("PATCH", `${POLICIES}/${policy.id}`, { body: { tags: {} } });
      expectEnvelope(reply, 400, "validation_error", [`fields.${policy.fields.indexOf("env")}`]);
      expect((await api.call("GET", `${POLICIES}/${policy.id}`)).body).toEqual(policyView(policy));
    });

    it("DELETE of a policy a config uses is 409; another account's is 404", async () => {
      expectEnvelope(await api.call("DELETE", `${POLICIES}/3`), 409, "conflict");
      expectEnvelope(await api.call("DELETE", `${POLICIES}/2`), 404, "not_found");
      expect((await api.call("GET", `${POLICIES}/2`, { as: [2, "role-1-active"] })).status).toBe(200);
      expect((await api.call("GET", `${POLICIES}/3`)).status).toBe(200);
    });
  });
});
