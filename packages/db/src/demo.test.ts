/**
 * Tests of the demo data on every engine: it loads once however often it is loaded, the constraints
 * hold (names unique per account, references inside one account), secrets are stored as ciphertext
 * and tokens as hashes, and new rows get ids past the fixture's.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, getTableName, sql } from "drizzle-orm";
import { loadPlatformCatalog } from "./catalog.js";
import { decryptSecret, sha256Hex } from "./crypto.js";
import { demoFixture, type DemoTableName } from "./demo-fixture.js";
import { DEMO_USAGE_HOURS, DEMO_USAGE_STORAGES } from "./demo-storage-usage.js";
import { demoDataFingerprint, holdsDemoData, loadDemoData } from "./demo.js";
import * as schema from "./schema/index.js";
import { createTestDatabase, engines, selectRows, type TestDatabase } from "./testing.js";

/** How many rows each table (by its SQL name) holds once the fixture is loaded. */
const EXPECTED_ROWS: Record<string, number> = {
  ...Object.fromEntries((Object.keys(demoFixture) as DemoTableName[]).map((name) => [getTableName(schema[name]), demoFixture[name].length])),
  // Generated when the data is loaded, not listed in the fixture.
  storage_usage: DEMO_USAGE_HOURS * DEMO_USAGE_STORAGES.length,
};

async function rowCounts(database: TestDatabase): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of Object.keys(EXPECTED_ROWS)) {
    const [row] = await selectRows<{ count: number }>(database.db, sql`select count(*)::int as count from ${sql.identifier(table)}`);
    counts[table] = row?.count ?? -1;
  }
  return counts;
}

/** The SQLSTATE of a failed query, wherever the driver and Drizzle put it. */
function sqlState(error: unknown): string | undefined {
  for (let current: unknown = error; current; current = (current as { cause?: unknown }).cause) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

async function failure(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
  } catch (error) {
    return sqlState(error) ?? `no SQLSTATE: ${String(error)}`;
  }
  return undefined;
}

const UNIQUE_VIOLATION = "23505";
const FOREIGN_KEY_VIOLATION = "23503";
const CHECK_VIOLATION = "23514";

describe.each(engines())("demo data on %s", (engine) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase({ engine });
  });
  afterAll(async () => {
    await database.close();
  });

  it("holds every fixture row once, and loading it again adds nothing", async () => {
    expect(await rowCounts(database)).toEqual(EXPECTED_ROWS);
    const again = await loadDemoData(database.db, { secretsKey: database.secretsKey });
    expect(Object.values(again.inserted).every((count) => count === 0)).toBe(true);
    expect(Object.keys(again.inserted).sort()).toEqual(Object.keys(EXPECTED_ROWS).sort());
    expect(await rowCounts(database)).toEqual(EXPECTED_ROWS);
  });

  it("fingerprints every statement that fills a table beyond the fixture (a seeded-database cache keys on it)", async () => {
    const fingerprint = await demoDataFingerprint();
    // The tables that hold rows in a migrated, seeded database but none in a migrated and only provisioned
    // one are what the demo data loads; those the fixture does not list are filled by its generators.
    const provisioned = await createTestDatabase({ engine, seed: false });
    try {
      const fixtureTables = new Set<string>((Object.keys(demoFixture) as DemoTableName[]).map((name) => getTableName(schema[name])));
      const tables = await selectRows<{ name: string }>(database.db, sql`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`);
      // Tables that the migrations' functions (their triggers) fill from others' rows follow the migrations,
      // which a cache keys on anyway.
      const functions = await selectRows<{ source: string }>(
        database.db,
        sql`select p.prosrc as source from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = current_schema()`,
      );
      const filledByTrigger = (name: string) => functions.some(({ source }) => new RegExp(`insert\\s+into\\s+"?${name}"?[\\s(]`, "i").test(source));
      const generated: string[] = [];
      for (const { name } of tables) {
        if (fixtureTables.has(name) || filledByTrigger(name)) continue;
        const count = async (of: TestDatabase) => (await selectRows<{ count: number }>(of.db, sql`select count(*)::int as count from ${sql.identifier(name)}`))[0]!.count;
        if ((await count(database)) > 0 && (await count(provisioned)) === 0) generated.push(name);
      }
      expect(generated.length).toBeGreaterThan(4);
      for (const table of generated) expect(fingerprint, table).toMatch(new RegExp(`insert into "?${table}"? \\(`));
    } finally {
      await provisioned.close();
    }
    // A different fixture is a different fingerprint, and the same fixture the same one.
    expect(await demoDataFingerprint()).toBe(fingerprint);
    expect(await demoDataFingerprint({ ...demoFixture, streams: demoFixture.streams.slice(1) })).not.toBe(fingerprint);
  });

  it("loads into an empty database in one go, reporting what it inserted", async () => {
    const fresh = await createTestDatabase({ engine, seed: false });
    try {
      expect(await holdsDemoData(fresh.db)).toBe(false);
      const first = await loadDemoData(fresh.db, { secretsKey: fresh.secretsKey });
      expect(await holdsDemoData(fresh.db)).toBe(true);
      expect(first.inserted).toEqual(EXPECTED_ROWS);
      const second = await loadDemoData(fresh.db, { secretsKey: fresh.secretsKey });
      expect(Object.values(second.inserted).reduce((sum, count) => sum + count, 0)).toBe(0);
      expect(await rowCounts(fresh)).toEqual(EXPECTED_ROWS);
    } finally {
      await fresh.close();
    }
  });

  it("keeps API tokens as SHA-256 hashes only", async () => {
    const rows = await selectRows<{ id: number; token_hash: string }>(database.db, sql`select * from api_tokens order by id`);
    const everything = JSON.stringify(rows);
    for (const token of demoFixture.apiTokens) {
      expect(everything).not.toContain(token.plaintext);
      expect(rows.find((row) => row.id === token.id)?.token_hash).toBe(await sha256Hex(token.plaintext));
    }
  });

  it("stores secret slot values encrypted, with the checksum of the plaintext", async () => {
    const rows = await selectRows<{ secret_id: number; slot: number; value_encrypted: string; checksum: string }>(
      database.db,
      sql`select * from edge_secret_slots`,
    );
    const everything = JSON.stringify(rows);
    const slots = demoFixture.edgeSecretSlots;
    expect(rows).toHaveLength(slots.length);
    for (const slot of slots) {
      expect(everything).not.toContain(slot.value);
      const row = rows.find((candidate) => candidate.secret_id === slot.secretId && candidate.slot === slot.slot);
      expect(row?.value_encrypted).toMatch(/^v1\./);
      expect(row?.checksum).toBe(await sha256Hex(slot.value));
      expect(await decryptSecret(database.secretsKey, row?.value_encrypted ?? "")).toBe(slot.value);
    }
  });

  it("stores the logs uploader secret access key encrypted", async () => {
    const rows = await selectRows<{ id: number; secret_access_key_encrypted: string }>(database.db, sql`select * from logs_uploader_targets`);
    const everything = JSON.stringify(rows);
    for (const target of demoFixture.logsUploaderTargets) {
      expect(everything).not.toContain(target.secretAccessKey);
      const row = rows.find((candidate) => candidate.id === target.id);
      expect(row?.secret_access_key_encrypted).toMatch(/^v1\./);
      expect(await decryptSecret(database.secretsKey, row?.secret_access_key_encrypted ?? "")).toBe(target.secretAccessKey);
    }
  });

  it("refuses a plaintext where ciphertext belongs", async () => {
    const [target] = demoFixture.logsUploaderTargets;
    expect(
      await failure(
        database.db.update(schema.logsUploaderTargets).set({ secretAccessKeyEncrypted: "plain-secret" }).where(eq(schema.logsUploaderTargets.id, target?.id ?? 0)),
      ),
    ).toBe(CHECK_VIOLATION);
  });

  it("keeps edge app names unique per account", async () => {
    const app = demoFixture.edgeApps.find((candidate) => candidate.accountId === 1 && candidate.status === 1);
    if (!app) throw new Error("The fixture has no enabled app in account 1.");
    const copy = { accountId: 1, name: app.name, planId: app.planId, apiType: app.apiType, url: "https://copy.example" } as const;
    expect(await failure(database.db.insert(schema.edgeApps).values(copy))).toBe(UNIQUE_VIOLATION);

    const [inOtherAccount] = await database.db.insert(schema.edgeApps).values({ ...copy, accountId: 2 }).returning();
    expect(inOtherAccount?.name).toBe(app.name);
    expect(inOtherAccount?.accountId).toBe(2);
  });

  it("keeps edge secret names unique per account", async () => {
    const secret = demoFixture.edgeSecrets.find((candidate) => candidate.accountId === 2);
    if (!secret) throw new Error("The fixture has no secret in account 2.");
    expect(await failure(database.db.insert(schema.edgeSecrets).values({ accountId: 2, name: secret.name }))).toBe(UNIQUE_VIOLATION);

    const [created] = await database.db.insert(schema.edgeSecrets).values({ accountId: 1, name: "only-in-account-one" }).returning();
    const [again] = await database.db.insert(schema.edgeSecrets).values({ accountId: 2, name: "only-in-account-one" }).returning();
    expect(created?.accountId).toBe(1);
    expect(again?.accountId).toBe(2);
  });

  it("keeps secondary host names unique per account, whatever their case", async () => {
    const hostnameRow = demoFixture.cdnResourceHostnames.find((candidate) => candidate.accountId === 1);
    const other = demoFixture.cdnResources.find((candidate) => candidate.accountId === 1 && candidate.id !== hostnameRow?.resourceId);
    const hostname = hostnameRow?.hostname ?? "";
    expect(
      await failure(
        database.db
          .insert(schema.cdnResourceHostnames)
          .values({ accountId: 1, resourceId: other?.id ?? 0, position: 99, hostname: hostname.toUpperCase() }),
      ),
    ).toBe(UNIQUE_VIOLATION);
  });

  it("keeps references inside one account", async () => {
    const group = demoFixture.originGroups.find((candidate) => candidate.accountId === 1);
    const resource = demoFixture.cdnResources.find((candidate) => candidate.accountId === 2);
    // Account 2's resource may not use account 1's origin group, nor its certificate.
    expect(
      await failure(database.db.update(schema.cdnResources).set({ originGroupId: group?.id ?? 0 }).where(eq(schema.cdnResources.id, resource?.id ?? 0))),
    ).toBe(FOREIGN_KEY_VIOLATION);
    const certificate = demoFixture.certificates.find((candidate) => candidate.accountId === 1);
    expect(
      await failure(database.db.update(schema.cdnResources).set({ sslDataId: certificate?.id ?? 0 }).where(eq(schema.cdnResources.id, resource?.id ?? 0))),
    ).toBe(FOREIGN_KEY_VIOLATION);

    const secretOfAccount1 = demoFixture.edgeSecrets.find((candidate) => candidate.accountId === 1);
    const appOfAccount2 = demoFixture.edgeApps.find((candidate) => candidate.accountId === 2);
    expect(
      await failure(
        database.db.insert(schema.edgeAppSecrets).values({ accountId: 2, appId: appOfAccount2?.id ?? 0, name: "STOLEN", secretId: secretOfAccount1?.id ?? 0 }),
      ),
    ).toBe(FOREIGN_KEY_VIOLATION);

    const tokenUser = demoFixture.users.find((candidate) => candidate.accountId === 1);
    expect(
      await failure(
        database.db.insert(schema.apiTokens).values({ accountId: 2, userId: tokenUser?.id ?? 0, name: "cross", tokenHash: "a".repeat(64) }),
      ),
    ).toBe(FOREIGN_KEY_VIOLATION);
  });

  it("refuses values outside the API's domains", async () => {
    const app = demoFixture.edgeApps[0];
    expect(await failure(database.db.update(schema.edgeApps).set({ status: 6 }).where(eq(schema.edgeApps.id, app?.id ?? 0)))).toBe(CHECK_VIOLATION);
    expect(
      await failure(database.db.insert(schema.usageLines).values({
        accountId: 1,
        month: "2026-13",
        type: "instance",
        regionId: demoFixture.cloudRegions[0]?.id ?? 0,
        billingMetricName: "m",
        billingFeatureName: "f",
        billingValueUnit: "u",
        currency: "EUR",
        billingValue: 1,
      })),
    ).toBe(CHECK_VIOLATION);
    expect(
      await failure(database.db.insert(schema.apiTokens).values({ accountId: 1, userId: 1, name: "plaintext", tokenHash: "cp_demo_not_a_hash" })),
    ).toBe(CHECK_VIOLATION);
  });

  it("gives new rows ids past the fixture's", async () => {
    for (const table of [schema.edgeSecrets, schema.logsUploaderTargets, schema.edgeApps, schema.streams, schema.users] as const) {
      const [row] = await selectRows<{ max: number }>(database.db, sql`select max(id)::int as max from ${table}`);
      expect(row?.max, getTableName(table)).toBeGreaterThan(0);
    }
    const largestTarget = Math.max(...demoFixture.logsUploaderTargets.map((target) => target.id));
    const [target] = await database.db
      .insert(schema.logsUploaderTargets)
      .values({
        accountId: 1,
        name: "new-target",
        storageType: "s3_other",
        accessKeyId: "AKIA",
        secretAccessKeyEncrypted: "v1.AAAA.AAAA",
        region: "eu",
        bucketName: "new-bucket",
      })
      .returning();
    expect(target?.id).toBeGreaterThan(largestTarget);
    const [stream] = await database.db
      .insert(schema.streams)
      .values({
        accountId: 2,
        clientUserId: demoFixture.users.find((user) => user.accountId === 2)?.id ?? 0,
        name: "new stream",
        pushUrl: "rtmp://x",
        backupPushUrl: "rtmp://x",
        pushUrlSrt: "srt://x",
        backupPushUrlSrt: "srt://x",
        pushUrlWhip: "https://x",
        iframeUrl: "https://x",
        dashUrl: "https://x",
        hlsCmafUrl: "https://x",
        hlsMpegtsUrl: "https://x",
        screenshot: "https://x",
      })
      .returning();
    expect(stream?.id).toBeGreaterThan(Math.max(...demoFixture.streams.map((candidate) => candidate.id)));
  });

  it("loads the platform's catalog alone: the rows of no account, with their own child rows only", async () => {
    const fresh = await createTestDatabase({ engine, seed: false });
    try {
      await loadPlatformCatalog(fresh.db);
      expect(await holdsDemoData(fresh.db)).toBe(false);
      const publicTemplates = demoFixture.edgeTemplates.filter((template) => template.accountId === null).map((template) => template.id);
      const commonTemplates = demoFixture.securityProfileTemplates.filter((template) => template.accountId === null).map((template) => template.id);
      const counts = await rowCounts(fresh);
      expect(counts).toMatchObject({
        accounts: 0,
        users: 0,
        edge_binaries: demoFixture.edgeBinaries.filter((binary) => binary.accountId === null).length,
        edge_templates: publicTemplates.length,
        edge_template_params: demoFixture.edgeTemplateParams.filter((param) => publicTemplates.includes(param.templateId)).length,
        security_profile_templates: commonTemplates.length,
        security_template_fields: demoFixture.securityTemplateFields.filter((field) => commonTemplates.includes(field.templateId)).length,
        shielding_pops: demoFixture.shieldingPops.length,
        inference_models: demoFixture.inferenceModels.length,
      });
      expect(publicTemplates.length).toBeGreaterThan(0);
      expect(counts.edge_template_params).toBeLessThan(demoFixture.edgeTemplateParams.length);
      expect(counts.security_template_fields).toBeLessThan(demoFixture.securityTemplateFields.length);
    } finally {
      await fresh.close();
    }
  });

  it("reads back what the fixture says, through the schema's types", async () => {
    const resource = demoFixture.cdnResources[0];
    const row = await database.db.query.cdnResources.findFirst({
      where: eq(schema.cdnResources.id, resource?.id ?? 0),
      with: { secondaryHostnames: { orderBy: (hostnames, { asc }) => [asc(hostnames.position)] }, originGroup: true, shieldingPop: true },
    });
    expect(row?.options).toEqual(resource?.options);
    expect(row?.secondaryHostnames.map((entry) => entry.hostname)).toEqual(
      demoFixture.cdnResourceHostnames.filter((entry) => entry.resourceId === resource?.id).map((entry) => entry.hostname),
    );
    expect(row?.created.toISOString()).toBe(resource?.created);
    expect(row?.originGroup.name).toBe(demoFixture.originGroups.find((group) => group.id === resource?.originGroupId)?.name);

    const line = demoFixture.usageLines.find((candidate) => candidate.cost === null);
    const [usage] = await database.db.select().from(schema.usageLines).where(eq(schema.usageLines.id, line?.id ?? 0));
    expect(usage?.cost).toBeNull();
    expect(usage?.billingValue).toBe(line?.billingValue);

    const image = demoFixture.gpuImages.find((candidate) => (candidate.size ?? 0) > 2 ** 31);
    const [gpuImage] = await database.db.select().from(schema.gpuImages).where(eq(schema.gpuImages.id, image?.id ?? ""));
    expect(gpuImage?.size).toBe(image?.size);
    expect(gpuImage?.tags).toEqual(image?.tags);

    const clip = demoFixture.clips[0];
    const [clipRow] = await database.db.select().from(schema.clips).where(eq(schema.clips.id, clip?.id ?? ""));
    expect(clipRow?.start).toBe(clip?.start);
  });
});
