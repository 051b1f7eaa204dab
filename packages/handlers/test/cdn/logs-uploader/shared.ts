/**
 * What the logs uploader's tests share: the fixture's targets, policies and configs as the API answers
 * them, the routes' paths, a new target's config, and the writes that make a target, policy or config.
 */
import { byColumnName, decryptSecret, demoFixture, sql, type DemoRow } from "@cloudplane/db";
import { selectRows } from "@cloudplane/db/testing";
import { expect } from "vitest";
import type { TestApi } from "../../harness.js";

export const { logsUploaderTargets: targets, logsUploaderPolicies: policies, logsUploaderConfigs: configs } = demoFixture;

export const TARGETS = "/cdn/logs_uploader/targets";
export const POLICIES = "/cdn/logs_uploader/policies";
export const CONFIGS = "/cdn/logs_uploader/configs";

export const relatedTo = (field: "targetId" | "policyId", id: number) =>
  configs.filter((config) => config[field] === id).map((config) => config.id).sort((a, b) => a - b);

/** The last check of a fixture target or config as the API shows it. */
export const checkView = (row: DemoRow<"logsUploaderTargets" | "logsUploaderConfigs">) => ({
  status: row.status,
  code: row.statusCode,
  updated: row.statusUpdated,
  details: row.statusDetails,
});

/** A fixture target as the API answers it: the secret left out, related configs derived. */
export function targetView(target: DemoRow<"logsUploaderTargets">) {
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

export function policyView(policy: DemoRow<"logsUploaderPolicies">) {
  const { account_id: account, ...fields } = byColumnName("logsUploaderPolicies", policy);
  return { ...fields, id: policy.id, client_id: account, related_uploader_configs: relatedTo("policyId", policy.id) };
}

export function configView(config: DemoRow<"logsUploaderConfigs">) {
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

export const byId = <T extends { id: number }>(rows: T[], id: number) => rows.find((row) => row.id === id)!;

export const newConfig = {
  access_key_id: "AKIANEWTARGET0001",
  secret_access_key: "new-target-secret-5f2c1e9a7b",
  region: "eu-central-1",
  bucket_name: "acme-new-logs",
};

export async function count(api: TestApi, table: string): Promise<number> {
  const [row] = await selectRows<{ total: number }>(api.database.db, sql`select count(*)::int as total from ${sql.identifier(table)}`);
  return row!.total;
}

export async function storedSecret(api: TestApi, id: number): Promise<string> {
  const [row] = await selectRows<{ secret: string }>(
    api.database.db,
    sql`select secret_access_key_encrypted as secret from logs_uploader_targets where id = ${id}`,
  );
  return decryptSecret(api.database.secretsKey, row!.secret);
}

/** The writes that make a target, a policy and a config, each expected to answer 201. */
export function creates(api: TestApi) {
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

  return { createTarget, createPolicy, createConfig };
}
