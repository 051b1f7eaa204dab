/**
 * Tests of the demo fixture itself, without a database: what routes will take from it is valid against
 * the contract, it is rich enough for every route, and it is laid out as promised (odd ids for account 1,
 * even for account 2). How the API shows its objects is the handlers' tests' to check: they read them
 * through the routes, each answer validated against the contract.
 */
import {
  CDN_PRESETS,
  cdnRuleOptionsWrite,
  COST_REPORT_TYPES,
  COST_REPORT_UNITS,
  EDGE_API_TYPES,
  ROLE_IDS,
  bucketCors,
  bucketName,
  cdnResourceOptionsWrite,
  clipRecording,
  createEdgeAppSecretBody,
  createLogsUploaderTargetBody,
  edgeAppTemplate,
  gpuImage,
  inferenceModel,
  ipAddress,
  originGroup,
  stream,
  updateCdnResourceBody,
  updateEdgeAppBody,
} from "@cloudplane/contract";
import { describe, expect, it } from "vitest";
import { byColumnName, DEMO_ACCOUNT_IDS, demoFixture, demoToken, type DemoTokenName } from "./demo-fixture.js";
import { shownDemoStream } from "./testing.js";

const f = demoFixture;

/** Parses with a contract schema and reports the issues, so a failure names the object and field. */
function expectValid(schema: { safeParse(value: unknown): { success: boolean; error?: { issues: unknown[] } } }, value: unknown, what: string) {
  const result = schema.safeParse(value);
  expect(result.success ? [] : result.error?.issues, what).toEqual([]);
}

describe("the demo fixture's layout", () => {
  it("has two accounts, and gives account 1 the odd ids and account 2 the even ones of every account-owned kind", () => {
    expect(f.accounts.map((account) => account.id)).toEqual([...DEMO_ACCOUNT_IDS]);
    const tables: [string, { id: number; accountId: number | null }[]][] = [
      ["users", f.users],
      ["api tokens", f.apiTokens],
      ["origin groups", f.originGroups],
      ["certificates", f.certificates],
      ["CDN resources", f.cdnResources],
      ["CDN features", f.cdnFeatures],
      ["logs uploader targets", f.logsUploaderTargets],
      ["edge binaries", f.edgeBinaries],
      ["edge templates", f.edgeTemplates],
      ["edge secrets", f.edgeSecrets],
      ["edge apps", f.edgeApps],
      ["streams", f.streams],
      ["broadcasts", f.broadcasts],
      ["cloud projects", f.cloudProjects],
      ["usage lines", f.usageLines],
      ["security profiles", f.securityProfiles],
      ["security profile fields", f.securityProfileFields],
      ["storages", f.storages],
      ["buckets", f.buckets],
    ];
    const owned = tables.map(([kind, rows]) => [kind, rows.map((row) => ({ id: row.id, owner: row.accountId }))] as const);
    for (const [kind, rows] of owned) {
      const ids = rows.map((row) => row.id);
      expect(new Set(ids).size, `${kind}: ids are unique`).toBe(ids.length);
      for (const row of rows.filter((candidate) => candidate.owner !== null)) {
        expect(row.id % 2 === 1 ? 1 : 2, `${kind} ${row.id}`).toBe(row.owner);
      }
      for (const account of DEMO_ACCOUNT_IDS) {
        expect(rows.some((row) => row.owner === account), `${kind} of account ${account}`).toBe(true);
      }
    }
  });

  it("refers only to objects of the same account (or the platform's)", () => {
    const accountOf = <T extends { id: number }>(rows: T[], owner: (row: T) => number | null) => new Map(rows.map((row) => [row.id, owner(row)]));
    const userAccount = accountOf(f.users, (row) => row.accountId);
    const groupAccount = accountOf(f.originGroups, (row) => row.accountId);
    const certificateAccount = accountOf(f.certificates, (row) => row.accountId);
    const binaryAccount = accountOf(f.edgeBinaries, (row) => row.accountId);
    const templateAccount = accountOf(f.edgeTemplates, (row) => row.accountId);
    const secretAccount = accountOf(f.edgeSecrets, (row) => row.accountId);
    const streamAccount = accountOf(f.streams, (row) => row.accountId);
    const projectAccount = accountOf(f.cloudProjects, (row) => row.accountId);
    const storageAccount = accountOf(f.storages, (row) => row.accountId);

    for (const token of f.apiTokens) expect(userAccount.get(token.userId)).toBe(token.accountId);
    for (const resource of f.cdnResources) {
      expect(groupAccount.get(resource.originGroupId)).toBe(resource.accountId);
      for (const certificate of [resource.sslDataId, resource.proxySslCaId, resource.proxySslDataId]) {
        if (certificate !== null) expect(certificateAccount.get(certificate)).toBe(resource.accountId);
      }
      if (resource.shieldingPopId !== null) expect(f.shieldingPops.map((pop) => pop.id)).toContain(resource.shieldingPopId);
    }
    for (const app of f.edgeApps) {
      if (app.binaryId !== null) expect([app.accountId, null]).toContain(binaryAccount.get(app.binaryId));
      if (app.templateId !== null) expect([app.accountId, null]).toContain(templateAccount.get(app.templateId));
      for (const secret of f.edgeAppSecrets.filter((row) => row.appId === app.id)) expect(secretAccount.get(secret.secretId)).toBe(app.accountId);
      expect(f.edgePlans.map((plan) => plan.id)).toContain(app.planId);
    }
    for (const template of f.edgeTemplates) expect([template.accountId, null]).toContain(binaryAccount.get(template.binaryId));
    for (const stream of f.streams) expect(userAccount.get(stream.clientUserId)).toBe(stream.accountId);
    const broadcastAccount = new Map(f.broadcasts.map((broadcast) => [broadcast.id, broadcast.accountId]));
    for (const shown of f.broadcastStreams) {
      expect(streamAccount.get(shown.streamId)).toBe(shown.accountId);
      expect(broadcastAccount.get(shown.broadcastId)).toBe(shown.accountId);
    }
    // Every broadcast shows at least one stream, and some show several.
    for (const broadcast of f.broadcasts) expect(f.broadcastStreams.some((shown) => shown.broadcastId === broadcast.id), `broadcast ${broadcast.id}`).toBe(true);
    expect(f.broadcasts.some((broadcast) => f.broadcastStreams.filter((shown) => shown.broadcastId === broadcast.id).length > 1)).toBe(true);
    for (const clip of f.clips) expect(streamAccount.get(clip.streamId)).toBe(clip.accountId);
    for (const image of f.gpuImages) expect(projectAccount.get(image.projectId)).toBe(image.accountId);
    for (const bucket of f.buckets) expect(storageAccount.get(bucket.storageId)).toBe(bucket.accountId);
  });
});

describe("the demo tokens", () => {
  const roles = Object.values(ROLE_IDS);

  it.each(DEMO_ACCOUNT_IDS)("of account %i: an active token for every role, issued for a user of that role", (account) => {
    for (const role of roles) {
      const token = demoToken(account, `role-${role}-active` as DemoTokenName);
      const user = f.users.find((candidate) => candidate.id === token.userId);
      expect(user?.roleId).toBe(role);
      expect(user?.deleted).toBe(false);
      expect(token.deleted).toBe(false);
      expect(token.expDate === null || Date.parse(token.expDate) > Date.parse("2090-01-01")).toBe(true);
    }
  });

  it.each(DEMO_ACCOUNT_IDS)("of account %i: an expired and a deleted token, issued for different users", (account) => {
    const expired = demoToken(account, "role-5-expired");
    const deleted = demoToken(account, "role-2-deleted");
    expect(Date.parse(expired.expDate ?? "")).toBeLessThan(Date.now());
    expect(expired.deleted).toBe(false);
    expect(deleted.deleted).toBe(true);
    expect(expired.userId).not.toBe(deleted.userId);
    const issuers = new Set(f.apiTokens.filter((token) => token.accountId === account).map((token) => token.userId));
    expect(issuers.size).toBeGreaterThanOrEqual(6);
  });

  it("are high-entropy, distinct strings whose role is their user's", () => {
    const plaintexts = f.apiTokens.map((token) => token.plaintext);
    expect(new Set(plaintexts).size).toBe(plaintexts.length);
    for (const token of f.apiTokens) {
      expect(token.plaintext).toMatch(/^cp_demo_[0-9a-f]{32}$/);
      // A token's name starts with its role: role-<role group id>-….
      expect(f.users.find((user) => user.id === token.userId)?.roleId).toBe(Number(/^role-(\d+)-/.exec(token.name)?.[1]));
    }
    expect(() => demoToken(1, "no-such-token" as DemoTokenName)).toThrow(/no token/);
  });
});

/** A resource's secondary host names, in their order. */
const hostnamesOf = (resourceId: number) => f.cdnResourceHostnames.filter((row) => row.resourceId === resourceId).map((row) => row.hostname);

describe("the demo CDN rules, rule templates and presets", () => {
  it("has valid rules and templates, and presets applied whose options their objects hold", () => {
    for (const rule of f.cdnResourceRules) {
      expectValid(cdnRuleOptionsWrite, rule.options, `options of rule ${rule.id}`);
      expect(f.cdnResources.find((resource) => resource.id === rule.resourceId)?.accountId, `resource of rule ${rule.id}`).toBe(rule.accountId);
    }
    for (const template of f.cdnRuleTemplates) expectValid(cdnRuleOptionsWrite, template.options, `options of rule template ${template.id}`);
    for (const applied of f.cdnAppliedPresets) {
      const preset = CDN_PRESETS.find((candidate) => candidate.id === applied.presetId)!;
      const object = applied.resourceId !== null ? f.cdnResources.find((row) => row.id === applied.resourceId) : f.cdnResourceRules.find((row) => row.id === applied.ruleId);
      expect(preset.object_type).toBe(applied.resourceId !== null ? "CDNResource" : "Rule");
      expect(object?.accountId).toBe(applied.accountId);
      expect(object?.presetApplied).toBe(true);
      expect(object?.options).toMatchObject(preset.preset_settings.options);
    }
    const flagged = [...f.cdnResources, ...f.cdnResourceRules].filter((row) => row.presetApplied).length;
    expect(flagged).toBe(f.cdnAppliedPresets.length);
  });
});

describe("the demo CDN data", () => {
  it("has at least 3 resources in account 1 with varied options, valid against the contract", () => {
    expect(f.cdnResources.filter((resource) => resource.accountId === 1).length).toBeGreaterThanOrEqual(3);
    const optionKeys = new Set(f.cdnResources.flatMap((resource) => Object.keys(resource.options)));
    expect(optionKeys.size).toBeGreaterThanOrEqual(40);
    expect(f.cdnResources.some((resource) => Object.keys(resource.options).length === 0)).toBe(true);
    for (const resource of f.cdnResources) {
      expectValid(cdnResourceOptionsWrite, resource.options, `options of resource ${resource.id}`);
      const { name, description, originGroupId, originProtocol, sslEnabled, sslDataId, proxySslEnabled, proxySslCaId, proxySslDataId, active, options } = resource;
      expectValid(
        updateCdnResourceBody,
        {
          name,
          description,
          secondaryHostnames: hostnamesOf(resource.id),
          originGroup: originGroupId,
          originProtocol,
          sslEnabled,
          sslData: sslDataId,
          proxy_ssl_enabled: proxySslEnabled,
          proxy_ssl_ca: proxySslCaId,
          proxy_ssl_data: proxySslDataId,
          active,
          options,
        },
        `writable fields of resource ${resource.id}`,
      );
      if (resource.sslEnabled) expect(f.certificates.find((certificate) => certificate.id === resource.sslDataId)?.kind).toBe("ssl");
      if (resource.proxySslCaId !== null) expect(f.certificates.find((certificate) => certificate.id === resource.proxySslCaId)?.kind).toBe("ca");
    }
    // Host names are unique per account, and one is shared across the two accounts on purpose.
    for (const account of DEMO_ACCOUNT_IDS) {
      const names = f.cdnResourceHostnames.filter((row) => row.accountId === account).map((row) => row.hostname.toLowerCase());
      expect(new Set(names).size).toBe(names.length);
    }
    const shared = f.cdnResources.filter((resource) => hostnamesOf(resource.id).includes("static.acme.example"));
    expect(new Set(shared.map((resource) => resource.accountId))).toEqual(new Set([1, 2]));
  });

  it("has origin groups (one unused), four certificates per account, shielding POPs and valid settings", () => {
    for (const group of f.originGroups) {
      const { account_id: _account, created: _created, updated: _updated, ...fields } = byColumnName("originGroups", group);
      const sources = f.originGroupSources
        .filter((source) => source.originGroupId === group.id)
        .map(({ backup, enabled, source, hostHeaderOverride }) => ({ backup, enabled, source, host_header_override: hostHeaderOverride }));
      expectValid(
        originGroup,
        { ...fields, sources, has_related_resources: f.cdnResources.some((resource) => resource.originGroupId === group.id) },
        `origin group ${group.id}`,
      );
    }
    expect(f.originGroups.some((group) => !f.cdnResources.some((resource) => resource.originGroupId === group.id))).toBe(true);
    for (const account of DEMO_ACCOUNT_IDS) {
      // An uploaded SSL certificate, a Let's Encrypt one, a CA certificate a resource uses and one none uses.
      expect(f.certificates.filter((certificate) => certificate.accountId === account)).toHaveLength(4);
    }
    expect(f.shieldingPops.length).toBeGreaterThanOrEqual(2);
    for (const account of DEMO_ACCOUNT_IDS) {
      const features = f.cdnFeatures.filter((feature) => feature.accountId === account);
      expect(features.some((feature) => feature.paid) && features.some((feature) => !feature.paid)).toBe(true);
    }
  });

  it("has logs uploader targets whose config the create route would accept", () => {
    for (const target of f.logsUploaderTargets) {
      const { directory, endpoint } = target;
      expectValid(
        createLogsUploaderTargetBody,
        {
          storage_type: target.storageType,
          name: target.name,
          description: target.description,
          config: {
            access_key_id: target.accessKeyId,
            secret_access_key: target.secretAccessKey,
            region: target.region,
            bucket_name: target.bucketName,
            use_path_style: target.usePathStyle,
            ...(directory === null ? {} : { directory }),
            ...(endpoint === null ? {} : { endpoint }),
          },
        },
        `logs uploader target ${target.id}`,
      );
    }
  });
});

describe("the demo edge data", () => {
  const apps1 = f.edgeApps.filter((app) => app.accountId === 1);
  const secretsOf = (appId: number) => Object.fromEntries(f.edgeAppSecrets.filter((row) => row.appId === appId).map((row) => [row.name, { id: row.secretId }]));

  it("has at least 30 apps in account 1 across every status, both api types, several templates, binaries and plans", () => {
    expect(apps1.length).toBeGreaterThanOrEqual(30);
    expect(new Set(apps1.map((app) => app.status))).toEqual(new Set([0, 1, 2, 3, 4, 5]));
    expect(new Set(apps1.map((app) => app.apiType))).toEqual(new Set(EDGE_API_TYPES));
    expect(new Set(apps1.map((app) => app.templateId).filter((template) => template !== null)).size).toBeGreaterThanOrEqual(3);
    expect(new Set(apps1.map((app) => app.binaryId).filter((binary) => binary !== null)).size).toBeGreaterThanOrEqual(3);
    expect(new Set(apps1.map((app) => app.planId)).size).toBeGreaterThanOrEqual(2);
    expect(apps1.some((app) => app.binaryId === null)).toBe(true);
    const names = new Set(apps1.map((app) => app.name));
    expect(names.size).toBe(apps1.length);
    const apps2 = f.edgeApps.filter((app) => app.accountId === 2);
    expect(apps2.length).toBeGreaterThan(0);
    expect(apps2.some((app) => names.has(app.name))).toBe(true);
  });

  it("has apps whose writable fields the update route accepts", () => {
    for (const app of f.edgeApps) {
      const template = f.edgeTemplates.find((candidate) => candidate.id === app.templateId);
      expectValid(
        updateEdgeAppBody,
        { name: app.name, comment: app.comment, env: app.env, rsp_headers: app.rspHeaders, log: app.log, secrets: secretsOf(app.id) },
        `writable fields of edge app ${app.id}`,
      );
      if (app.status === 1) expect(app.binaryId).not.toBeNull();
      if (template) expect(template.apiType).toBe(app.apiType);
    }
  });

  it("has public and owned templates with parameters, and secrets the create route would accept", () => {
    expect(f.edgeTemplates.filter((template) => template.accountId === null).length).toBeGreaterThanOrEqual(1);
    expect(f.edgeTemplates.filter((template) => template.accountId === 1).length).toBeGreaterThanOrEqual(3);
    for (const template of f.edgeTemplates) {
      const { account_id: account, created: _created, ...fields } = byColumnName("edgeTemplates", template);
      const params = f.edgeTemplateParams
        .filter((param) => param.templateId === template.id)
        .map((param) => {
          const { template_id: _template, position: _position, ...shown } = byColumnName("edgeTemplateParams", param);
          return shown;
        });
      expectValid(edgeAppTemplate, { ...fields, params, owned: account !== null }, `template ${template.id}`);
      expect(params.length).toBeGreaterThan(0);
    }
    for (const secret of f.edgeSecrets) {
      const slots = f.edgeSecretSlots.filter((slot) => slot.secretId === secret.id).map(({ slot, value }) => ({ slot, value }));
      expectValid(createEdgeAppSecretBody, { name: secret.name, comment: secret.comment, secret_slots: slots }, `secret ${secret.id}`);
    }
    expect(f.edgeApps.some((app) => Object.keys(secretsOf(app.id)).length > 0)).toBe(true);
  });
});

describe("the demo streaming data", () => {
  it("has at least 30 streams in account 1 and some in account 2: live with DVR, live without, and offline", () => {
    const streams1 = f.streams.filter((row) => row.accountId === 1);
    expect(streams1.length).toBeGreaterThanOrEqual(30);
    expect(f.streams.filter((row) => row.accountId === 2).length).toBeGreaterThan(0);
    for (const account of DEMO_ACCOUNT_IDS) {
      const own = f.streams.filter((row) => row.accountId === account);
      expect(own.some((row) => row.live && row.dvrDuration > 0), `account ${account}: live with DVR`).toBe(true);
      expect(own.some((row) => row.live && row.dvrDuration === 0), `account ${account}: live without DVR`).toBe(true);
      expect(own.some((row) => !row.live), `account ${account}: offline`).toBe(true);
    }
    for (const row of f.streams) {
      // No recording is under way: its length would move with the clock.
      expect(row.recordingStartedAt, `stream ${row.id}`).toBeNull();
      // dvr_enabled, broadcast_ids, token, recording_duration and html_overlays are derived, as the API derives them.
      expectValid(stream, shownDemoStream(row), `stream ${row.id}`);
      // Only a live ingest has a region.
      expect(row.ingestRegionPrimary !== null, `stream ${row.id}`).toBe(row.live);
      expect(row.ingestRegionBackup === null || row.backupLive, `stream ${row.id}`).toBe(true);
    }
    // Overlays and restreams sit on streams of their own account.
    for (const child of [...f.streamOverlays, ...f.restreams])
      expect(f.streams.find((row) => row.id === child.streamId)?.accountId, `${child.id}`).toBe(child.accountId);
  });

  it("has broadcasts and clips of live DVR streams", () => {
    expect(f.broadcasts.length).toBeGreaterThan(0);
    for (const clip of f.clips) {
      const { account_id: _account, stream_id: _stream, ...fields } = byColumnName("clips", clip);
      expectValid(clipRecording, fields, `clip ${clip.id}`);
      const source = f.streams.find((row) => row.id === clip.streamId);
      expect(source?.live && (source.dvrDuration ?? 0) >= clip.duration).toBe(true);
    }
  });
});

describe("the demo cloud data", () => {
  it("has at least 30 inference models, valid and with distinct ids", () => {
    expect(f.inferenceModels.length).toBeGreaterThanOrEqual(30);
    expect(new Set(f.inferenceModels.map((model) => model.id)).size).toBe(f.inferenceModels.length);
    for (const model of f.inferenceModels) expectValid(inferenceModel, byColumnName("inferenceModels", model), `model ${model.name}`);
  });

  it("has GPU images in 2 projects and 2 regions of account 1", () => {
    const images1 = f.gpuImages.filter((image) => image.accountId === 1);
    expect(new Set(images1.map((image) => image.projectId)).size).toBeGreaterThanOrEqual(2);
    expect(new Set(images1.map((image) => image.regionId)).size).toBeGreaterThanOrEqual(2);
    for (const image of f.gpuImages) {
      // cow_format is the image's stored setting and cluster_type the clusters' list it is in (virtual or bare-metal), not fields the API shows.
      const { account_id: _account, project_id: _project, region_id: _region, cow_format: _cow, cluster_type: _cluster, ...fields } = byColumnName("gpuImages", image);
      expectValid(gpuImage, fields, `GPU image ${image.id}`);
      expect(f.cloudRegions.map((candidate) => candidate.id)).toContain(image.regionId);
    }
  });

  it("has usage over 3 months, 2 regions and 3 types, with tags, and exactly one line without a price", () => {
    const lines1 = f.usageLines.filter((line) => line.accountId === 1);
    expect(new Set(lines1.map((line) => line.month)).size).toBeGreaterThanOrEqual(3);
    expect(new Set(lines1.map((line) => line.regionId)).size).toBeGreaterThanOrEqual(2);
    expect(new Set(lines1.map((line) => line.type)).size).toBeGreaterThanOrEqual(3);
    expect(lines1.some((line) => Object.keys(line.tags).length > 0)).toBe(true);
    expect(f.usageLines.filter((line) => line.cost === null)).toHaveLength(1);
    for (const line of f.usageLines) {
      expect(COST_REPORT_TYPES as readonly string[]).toContain(line.type);
      expect(line.month).toMatch(/^\d{4}-(0[1-9]|1[0-2])$/);
      // The platform's unit of the type, and instance or volume type only where the platform has them.
      const unit = (COST_REPORT_UNITS as Record<string, string>)[line.type];
      if (unit) expect(line.billingValueUnit).toBe(unit);
      expect(line.instanceType !== null).toBe(line.type === "egress_traffic");
      expect(line.volumeType !== null).toBe(line.type === "volume" || line.type === "snapshot");
    }
  });

  it("has tasks of both accounts, one still running on the image it holds", () => {
    expect(new Set(f.cloudTasks.map((task) => task.accountId))).toEqual(new Set([1, 2]));
    for (const image of f.gpuImages.filter((candidate) => candidate.taskId !== null)) {
      expect(f.cloudTasks.find((task) => task.id === image.taskId)).toMatchObject({ accountId: image.accountId, state: "RUNNING" });
    }
  });
});

describe("the demo security and storage data", () => {
  it("has profile templates whose fields carry JSON Schemas, one of them required", () => {
    // Common templates, and each account's own.
    expect(new Set(f.securityProfileTemplates.map((template) => template.accountId))).toEqual(new Set([null, 1, 2]));
    const fields = f.securityTemplateFields;
    expect(fields.some((field) => field.required)).toBe(true);
    for (const field of fields) expect(typeof field.validationSchema.type).toBe("string");
  });

  it("has profiles that give every required field of their template, and an address exactly when it takes one", () => {
    for (const profile of f.securityProfiles) {
      const template = f.securityProfileTemplates.find((candidate) => candidate.id === profile.templateId);
      if (!template) throw new Error(`Profile ${profile.id} has no template.`);
      if (template.acceptsIpAddress) expectValid(ipAddress, profile.ipAddress, `address of profile ${profile.id}`);
      else expect(profile.ipAddress).toBeNull();
      const given = new Set(f.securityProfileFields.filter((field) => field.profileId === profile.id).map((field) => field.baseFieldId));
      for (const field of f.securityTemplateFields.filter((candidate) => candidate.templateId === template.id && candidate.required)) {
        expect(given.has(field.id), `profile ${profile.id} gives field ${field.name}`).toBe(true);
      }
    }
  });

  it("has storages with buckets and their CORS origins", () => {
    for (const bucket of f.buckets) {
      expectValid(bucketName, bucket.name, `bucket ${bucket.id}`);
      expectValid(bucketCors, { data: { allowedOrigins: bucket.allowedOrigins } }, `CORS of bucket ${bucket.id}`);
    }
    expect(f.buckets.some((bucket) => bucket.allowedOrigins.length === 0)).toBe(true);
    for (const account of DEMO_ACCOUNT_IDS) {
      const names = f.buckets.filter((bucket) => bucket.accountId === account).map((bucket) => `${bucket.storageId}/${bucket.name}`);
      expect(new Set(names).size).toBe(names.length);
    }
  });
});
