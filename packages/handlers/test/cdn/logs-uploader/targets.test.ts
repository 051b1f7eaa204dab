/**
 * Integration tests of the logs uploader's targets: the secret kept encrypted and never answered, the paged
 * listing, the offline check, and 409 for a target in use.
 */
import { sql } from "@cloudplane/db";
import { selectRows } from "@cloudplane/db/testing";
import { describe, expect, it } from "vitest";
import { BASE, engines, expectEnvelope, useApi } from "../../harness.js";
import { count, creates, newConfig, relatedTo, storedSecret, TARGETS, targets, targetView } from "./shared.js";

describe.each(engines())("logs uploader routes on %s", (engine) => {
  const api = useApi(engine);
  const { createTarget } = creates(api);

  describe("targets", () => {
    it("GET lists the caller's targets only, with the configs that use each", async () => {
      for (const account of [1, 2] as const) {
        const own = targets.filter((target) => target.accountId === account);
        const reply = await api.call("GET", `${TARGETS}?search=cdn-logs`, { as: [account, "role-2-active"] });
        expect(reply.status, reply.text).toBe(200);
        expect(reply.body).toEqual({ count: own.length, next: null, previous: null, results: own.map(targetView) });
      }
    });

    it("GET filters by config_ids (repeated or comma-separated) and by search on the name or the id", async () => {
      const target = targets.find((row) => row.accountId === 1)!;
      const ids = async (query: string) => {
        const reply = await api.call("GET", `${TARGETS}?${query}`);
        expect(reply.status, reply.text).toBe(200);
        return (reply.body.results as { id: number }[]).map((row) => row.id);
      };
      expect(await ids("config_ids=1&config_ids=3")).toEqual([target.id]);
      expect(await ids("config_ids=1,3")).toEqual([target.id]);
      // Account 2's config names account 2's target: nothing of account 1.
      expect(await ids("config_ids=2")).toEqual([]);
      expect(await ids(`search=${target.id}`)).toEqual([target.id]);
      expect(await ids("search=ACME-CDN")).toEqual([target.id]);
      expect(await ids("search=no-such-target")).toEqual([]);
    });

    it("GET pages by limit and offset, with links to the pages around", async () => {
      const made = [await createTarget({ name: "paged-1" }), await createTarget({ name: "paged-2" })];
      const first = await api.call("GET", `${TARGETS}?limit=1&search=paged`);
      expect(first.status, first.text).toBe(200);
      expect(first.body).toMatchObject({ count: 2, previous: null, results: [{ id: made[0]!.id }] });
      const next = new URL(first.body.next as string);
      expect(`${next.origin}${next.pathname}`).toBe(`${BASE}${TARGETS}`);
      expect(Object.fromEntries(next.searchParams)).toEqual({ limit: "1", search: "paged", offset: "1" });
      const second = await api.call("GET", `${next.pathname}${next.search}`);
      expect(second.body).toMatchObject({ count: 2, next: null, results: [{ id: made[1]!.id }] });
      expect(Object.fromEntries(new URL(second.body.previous as string).searchParams)).toEqual({ limit: "1", search: "paged", offset: "0" });
      for (const target of made) expect((await api.call("DELETE", `${TARGETS}/${target.id}`)).status).toBe(204);
    });

    it.each([
      ["limit=0", ["query.limit"]],
      ["limit=1001", ["query.limit"]],
      ["offset=-1", ["query.offset"]],
      ["config_ids=x", ["query.config_ids.0"]],
      ["config_ids=1,0", ["query.config_ids.1"]],
      [`config_ids=${Array.from({ length: 101 }, (_, index) => index + 1).join(",")}`, ["query.config_ids"]],
    ])("GET answers 400 for %s", async (query, fields) => {
      expectEnvelope(await api.call("GET", `${TARGETS}?${query}`), 400, "validation_error", fields);
    });

    it("GET /{id} answers the target; another account's and unknown ids are 404", async () => {
      const [own, other] = [targets.find((row) => row.accountId === 1)!, targets.find((row) => row.accountId === 2)!];
      const reply = await api.call("GET", `${TARGETS}/${own.id}`, { as: [1, "role-2-active"] });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toEqual(targetView(own));
      expect(reply.text).not.toContain(own.secretAccessKey);
      expectEnvelope(await api.call("GET", `${TARGETS}/${other.id}`), 404, "not_found");
      expectEnvelope(await api.call("GET", `${TARGETS}/2147483000`), 404, "not_found");
      expectEnvelope(await api.call("GET", `${TARGETS}/0`), 400, "validation_error", ["path.id"]);
    });

    it("POST creates a target: 201, status in_progress code 0, the secret encrypted and never answered", async () => {
      const body = {
        storage_type: "s3_amazon",
        name: "acme-archive-logs",
        description: "Archive copy.",
        config: { ...newConfig, directory: "cdn/archive", endpoint: "https://s3.eu-central-1.amazonaws.com", use_path_style: true },
      };
      const started = Date.now();
      const reply = await api.call("POST", TARGETS, { body });
      expect(reply.status, reply.text).toBe(201);
      const { secret_access_key: _secret, ...shownConfig } = body.config;
      expect(reply.body).toEqual({
        id: expect.any(Number),
        client_id: 1,
        created: expect.any(String),
        updated: reply.body.created,
        storage_type: body.storage_type,
        name: body.name,
        description: body.description,
        related_uploader_configs: [],
        status: { status: "in_progress", code: 0, updated: expect.any(String), details: "" },
        config: shownConfig,
      });
      expect(Math.max(...targets.map((target) => target.id))).toBeLessThan(reply.body.id);
      expect(Date.parse(reply.body.created)).toBeGreaterThanOrEqual(started - 1000);
      expect(reply.text).not.toContain(newConfig.secret_access_key);
      const [row] = await selectRows(api.database.db, sql`select * from logs_uploader_targets where id = ${reply.body.id}`);
      expect(row!.account_id).toBe(1);
      expect(JSON.stringify(row)).not.toContain(newConfig.secret_access_key);
      expect(await storedSecret(api, reply.body.id)).toBe(newConfig.secret_access_key);
    });

    it("POST defaults description, directory, endpoint and use_path_style", async () => {
      const reply = await api.call("POST", TARGETS, { body: { storage_type: "s3_vendor", name: "minimal", config: newConfig } });
      expect(reply.status, reply.text).toBe(201);
      expect(reply.body).toMatchObject({
        description: "",
        storage_type: "s3_vendor",
        config: { access_key_id: newConfig.access_key_id, region: newConfig.region, bucket_name: newConfig.bucket_name, directory: null, endpoint: null, use_path_style: false },
      });
    });

    it.each([
      ["a storage_type outside the S3 family", { storage_type: "ftp", name: "x", config: newConfig }, ["storage_type"]],
      ["a config without region", { storage_type: "s3_other", name: "x", config: { ...newConfig, region: undefined } }, ["config.region"]],
      ["a config without the secret", { storage_type: "s3_other", name: "x", config: { ...newConfig, secret_access_key: undefined } }, ["config.secret_access_key"]],
      ["an unknown config field", { storage_type: "s3_other", name: "x", config: { ...newConfig, password: "hunter2" } }, ["config.password"]],
      ["a read-only status", { storage_type: "s3_other", name: "x", config: newConfig, status: { status: "successful" } }, ["status"]],
      ["a bucket name with capitals", { storage_type: "s3_other", name: "x", config: { ...newConfig, bucket_name: "Logs" } }, ["config.bucket_name"]],
      ["no name", { storage_type: "s3_other", config: newConfig }, ["name"]],
    ])("POST answers 400 for %s, without echoing the secret and without creating anything", async (_what, body, fields) => {
      const before = await count(api, "logs_uploader_targets");
      const reply = await api.call("POST", TARGETS, { body });
      expectEnvelope(reply, 400, "validation_error", fields);
      expect(reply.text).not.toContain(newConfig.secret_access_key);
      expect(await count(api, "logs_uploader_targets")).toBe(before);
    });

    it("lives: create → PATCH → PUT → validate → DELETE → 404", async () => {
      const made = await createTarget({ storage_type: "s3_other", description: "first" });

      // A PATCH of the description keeps the check; the secret stays.
      await api.call("POST", `${TARGETS}/${made.id}/validate`);
      const described = await api.call("PATCH", `${TARGETS}/${made.id}`, { body: { description: "second" } });
      expect(described.status, described.text).toBe(200);
      expect(described.body).toMatchObject({ description: "second", status: { status: "failed", code: 400 }, config: made.config });
      expect(Date.parse(described.body.updated)).toBeGreaterThanOrEqual(Date.parse(made.updated));
      expect(await storedSecret(api, made.id)).toBe(newConfig.secret_access_key);

      // A PATCH inside config merges, clears with null, and puts the check back at in_progress.
      const moved = await api.call("PATCH", `${TARGETS}/${made.id}`, {
        body: { config: { endpoint: "https://logs.example.com", directory: "cdn" } },
      });
      expect(moved.status, moved.text).toBe(200);
      expect(moved.body).toMatchObject({
        status: { status: "in_progress", code: 0, details: "" },
        config: { ...made.config, endpoint: "https://logs.example.com", directory: "cdn" },
      });
      const cleared = await api.call("PATCH", `${TARGETS}/${made.id}`, { body: { config: { directory: null } } });
      expect(cleared.body.config).toEqual({ ...moved.body.config, directory: null });
      expect(await storedSecret(api, made.id)).toBe(newConfig.secret_access_key);

      // PUT replaces the storage whole, the secret too; the name stays when left out.
      const replaced = await api.call("PUT", `${TARGETS}/${made.id}`, {
        body: { storage_type: "s3_vendor", config: { ...newConfig, secret_access_key: "replaced-secret-0c4e", region: "s-ed1" } },
      });
      expect(replaced.status, replaced.text).toBe(200);
      expect(replaced.body).toMatchObject({
        id: made.id,
        name: made.name,
        description: "",
        storage_type: "s3_vendor",
        status: { status: "in_progress", code: 0 },
        config: { access_key_id: newConfig.access_key_id, region: "s-ed1", bucket_name: newConfig.bucket_name, directory: null, endpoint: null, use_path_style: false },
      });
      expect(replaced.text).not.toContain("replaced-secret-0c4e");
      expect(await storedSecret(api, made.id)).toBe("replaced-secret-0c4e");

      const checked = await api.call("POST", `${TARGETS}/${made.id}/validate`);
      expect(checked.status, checked.text).toBe(200);
      expect(checked.body).toEqual({ status: "successful", code: 200, updated: expect.any(String), details: "" });
      expect((await api.call("GET", `${TARGETS}/${made.id}`)).body.status).toEqual(checked.body);

      const deleted = await api.call("DELETE", `${TARGETS}/${made.id}`);
      expect(deleted.status, deleted.text).toBe(204);
      expect(deleted.text).toBe("");
      expectEnvelope(await api.call("GET", `${TARGETS}/${made.id}`), 404, "not_found");
      expectEnvelope(await api.call("DELETE", `${TARGETS}/${made.id}`), 404, "not_found");
    });

    it("PATCH with no field changes nothing, updated included", async () => {
      const target = targets.find((row) => row.accountId === 1)!;
      const reply = await api.call("PATCH", `${TARGETS}/${target.id}`, { body: {} });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toEqual(targetView(target));
    });

    it("validate fails an s3_other target without an endpoint, saying why, and stores the result", async () => {
      const made = await createTarget({ storage_type: "s3_other" });
      const reply = await api.call("POST", `${TARGETS}/${made.id}/validate`);
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toEqual({ status: "failed", code: 400, updated: expect.any(String), details: expect.stringContaining("config.endpoint") });
      expect((await api.call("GET", `${TARGETS}/${made.id}`)).body.status).toEqual(reply.body);
    });

    it("PUT without the secret is 400 and changes nothing", async () => {
      const target = targets.find((row) => row.accountId === 1)!;
      const reply = await api.call("PUT", `${TARGETS}/${target.id}`, {
        body: { storage_type: "s3_vendor", config: { ...newConfig, secret_access_key: undefined } },
      });
      expectEnvelope(reply, 400, "validation_error", ["config.secret_access_key"]);
      expect((await api.call("GET", `${TARGETS}/${target.id}`)).body).toEqual(targetView(target));
    });

    it("another account's target: PATCH, PUT, validate and DELETE are 404 and change nothing", async () => {
      const other = targets.find((row) => row.accountId === 2)!;
      const path = `${TARGETS}/${other.id}`;
      expectEnvelope(await api.call("PATCH", path, { body: { description: "taken" } }), 404, "not_found");
      expectEnvelope(await api.call("PUT", path, { body: { storage_type: "s3_vendor", config: newConfig } }), 404, "not_found");
      expectEnvelope(await api.call("POST", `${path}/validate`), 404, "not_found");
      expectEnvelope(await api.call("DELETE", path), 404, "not_found");
      expect((await api.call("GET", path, { as: [2, "role-1-active"] })).body).toEqual(targetView(other));
    });

    it("DELETE of a target a config uses is 409 and deletes nothing", async () => {
      const target = targets.find((row) => row.accountId === 1)!;
      const reply = expectEnvelope(await api.call("DELETE", `${TARGETS}/${target.id}`), 409, "conflict");
      expect(reply.message).toContain(relatedTo("targetId", target.id).join(", "));
      expect((await api.call("GET", `${TARGETS}/${target.id}`)).status).toBe(200);
    });
  });
});
