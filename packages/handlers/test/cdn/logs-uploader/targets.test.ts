/**
 * Integration tests of the CDN logs uploader: targets (secret kept encrypted, never answered), policies
 * (defaults and the rules of `fields`), configs (references inside the account), the paged listings,
 * the offline checks, and 409 for a target or policy in use.
 */
import { LOGS_UPLOADER_POLICY_DEFAULTS, LOGS_UPLOADER_POLICY_FIELDS } from "@cloudplane/contract";
import { byColumnName, decryptSecret, demoFixture, sql, type DemoRow } from "@cloudplane/db";
import { selectRows } from "@cloudplane/db/testing";
import { describe, expect, it } from "vitest";
import { BASE, engines, expectEnvelope, useApi, type TestApi } from "./harness.js";

const { logsUploaderTargets: targets, logsUploaderPolicies: policies, logsUploaderConfigs: configs } = demoFixture;

const TARGETS = "/cdn/logs_uploader/targets";
const POLICIES = "/cdn/logs_uploader/policies";
const CONFIGS = "/cdn/logs_uploader/configs";

const relatedTo = (field: "targetId" | "policyId", id: number) =>
  configs.filter((config) => config[field] === id).map((config) => config.id).sort((a, b) => a - b);

/** The last check of a fixture target or config as the API shows it. */
const checkView = (row: DemoRow<"logsUploaderTargets" | "logsUploaderConfigs">) => ({
  status: row.status,
  code: row.statusCode,
  updated: row.statusUpdated,
  details: row.statusDetails,
});

/** A fixture target as the API answers it: the secret left out, related configs derived. */
function targetView(target: DemoRow<"logsUploaderTargets">) {
  return {
    id: target.id,
    client_id: target.accountId,
    created: target.created,
    updated: target.updated,
    storage_type: target.storageType,
    name: target.name,
    description: target.description,
    related_uploader_configs: relatedTo("targetId", target.id),
    status: checkView(target),
    config: {
      access_key_id: target.accessKeyId,
      region: target.region,
      bucket_name: target.bucketName,
      directory: target.directory,
      endpoint: target.endpoint,
      use_path_style: target.usePathStyle,
    },
  };
}

function policyView(policy: DemoRow<"logsUploaderPolicies">) {
  const { account_id: account, ...fields } = byColumnName("logsUploaderPolicies", policy);
  return { ...fields, id: policy.id, client_id: account, related_uploader_configs: relatedTo("policyId", policy.id) };
}

function configView(config: DemoRow<"logsUploaderConfigs">) {
  return {
    id: config.id,
    client_id: config.accountId,
    name: config.name,
    enabled: config.enabled,
    for_all_resources: config.forAllResources,
    policy: config.policyId,
    target: config.targetId,
    resources: demoFixture.logsUploaderConfigResources
      .filter((row) => row.configId === config.id)
      .map((row) => row.resourceId)
      .sort((a, b) => a - b),
    status: checkView(config),
    created: config.created,
    updated: config.updated,
  };
}

const byId = <T extends { id: number }>(rows: T[], id: number) => rows.find((row) => row.id === id)!;

const newConfig = {
  access_key_id: "AKIANEWTARGET0001",
  secret_access_key: "new-target-secret-5f2c1e9a7b",
  region: "eu-central-1",
  bucket_name: "acme-new-logs",
};

async function count(api: TestApi, table: string): Promise<number> {
  const [row] = await selectRows<{ total: number }>(api.database.db, sql`select count(*)::int as total from ${sql.identifier(table)}`);
  return row!.total;
}

async function storedSecret(api: TestApi, id: number): Promise<string> {
  const [row] = await selectRows<{ secret: string }>(
    api.database.db,
    sql`select secret_access_key_encrypted as secret from logs_uploader_targets where id = ${id}`,
  );
  return decryptSecret(api.database.secretsKey, row!.secret);
}

describe.each(engines())("logs uploader routes on %s", (engine) => {
  const api = useApi(engine);

  async function createTarget(body: Record<string, unknown> = {}) {
    const reply = await api.call("POST", TARGETS, { body: { storage_type: "s3_amazon", name: "made-by-a-test", config: newConfig, ...body } });
    expect(reply.status, reply.text).toBe(201);
    return reply.body as ReturnType<typeof targetView>;
  }

  async function createPolicy(body: Record<string, unknown> = {}) {
    const reply = await api.call("POST", POLICIES, { body });
    expect(reply.status, reply.text).toBe(201);
    return reply.body as ReturnType<typeof policyView>;
  }

  async function createConfig(body: Record<string, unknown>) {
    const reply = await api.call("POST", CONFIGS, { body });
    expect(reply.status, reply.text).toBe(201);
    return reply.body as ReturnType<typeof configView>;
  }

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
