/**
 * Tests of the demo fixture itself, without a database: it is valid against the contract, rich enough
 * for every route, and laid out as promised (odd ids for account 1, even for account 2).
 */
import {
  COST_REPORT_TYPES,
  COST_REPORT_UNITS,
  EDGE_API_TYPES,
  ROLE_IDS,
  bucketCors,
  bucketName,
  cdnClientSettings,
  cdnResourceOptionsWrite,
  clipRecording,
  createEdgeAppSecretBody,
  createLogsUploaderTargetBody,
  edgeApp,
  edgeAppTemplate,
  gpuImage,
  inferenceModel,
  ipAddress,
  originGroup,
  securityProfile,
  securityProfileTemplate,
  stream,
  updateCdnResourceBody,
  updateEdgeAppBody,
} from "@cloudplane/contract";
import { describe, expect, it } from "vitest";
import { DEMO_ACCOUNT_IDS, demoFixture, demoToken, type DemoTokenName } from "./demo-fixture.js";

const { iam, cdn, edge, streaming, cloud, security, storage } = demoFixture;

/** Parses with a contract schema and reports the issues, so a failure names the object and field. */
function expectValid(schema: { safeParse(value: unknown): { success: boolean; error?: { issues: unknown[] } } }, value: unknown, what: string) {
  const result = schema.safeParse(value);
  expect(result.success ? [] : result.error?.issues, what).toEqual([]);
}

const cdnTime = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 23)}000+00:00`;

describe("the demo fixture's layout", () => {
  it("has two accounts, and gives account 1 the odd ids and account 2 the even ones of every account-owned kind", () => {
    expect(iam.accounts.map((account) => account.id)).toEqual([...DEMO_ACCOUNT_IDS]);
    const owned: [string, { id: number; owner: number | null }[]][] = [
      ["users", iam.users.map((row) => ({ id: row.id, owner: row.account_id }))],
      ["api tokens", iam.api_tokens.map((row) => ({ id: row.id, owner: row.account_id }))],
      ["origin groups", cdn.origin_groups.map((row) => ({ id: row.id, owner: row.account_id }))],
      ["certificates", cdn.certificates.map((row) => ({ id: row.id, owner: row.account_id }))],
      ["CDN resources", cdn.resources.map((row) => ({ id: row.id, owner: row.client }))],
      ["CDN features", cdn.features.map((row) => ({ id: row.id, owner: row.account_id }))],
      ["logs uploader targets", cdn.logs_uploader_targets.map((row) => ({ id: row.id, owner: row.client_id }))],
      ["edge binaries", edge.binaries.map((row) => ({ id: row.id, owner: row.account_id }))],
      ["edge templates", edge.templates.map((row) => ({ id: row.id, owner: row.account_id }))],
      ["edge secrets", edge.secrets.map((row) => ({ id: row.id, owner: row.account_id }))],
      ["edge apps", edge.apps.map((row) => ({ id: row.id, owner: row.account_id }))],
      ["streams", streaming.streams.map((row) => ({ id: row.id, owner: row.account_id }))],
      ["broadcasts", streaming.broadcasts.map((row) => ({ id: row.id, owner: row.account_id }))],
      ["cloud projects", cloud.projects.map((row) => ({ id: row.id, owner: row.account_id }))],
      ["usage lines", cloud.usage_lines.map((row) => ({ id: row.id, owner: row.account_id }))],
      ["security profiles", security.profiles.map((row) => ({ id: row.id, owner: row.account_id }))],
      ["security profile fields", security.profiles.flatMap((row) => row.fields.map((field) => ({ id: field.id, owner: row.account_id })))],
      ["storages", storage.storages.map((row) => ({ id: row.id, owner: row.account_id }))],
      ["buckets", storage.buckets.map((row) => ({ id: row.id, owner: row.account_id }))],
    ];
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
    const userAccount = accountOf(iam.users, (row) => row.account_id);
    const groupAccount = accountOf(cdn.origin_groups, (row) => row.account_id);
    const certificateAccount = accountOf(cdn.certificates, (row) => row.account_id);
    const binaryAccount = accountOf(edge.binaries, (row) => row.account_id);
    const templateAccount = accountOf(edge.templates, (row) => row.account_id);
    const secretAccount = accountOf(edge.secrets, (row) => row.account_id);
    const streamAccount = accountOf(streaming.streams, (row) => row.account_id);
    const projectAccount = accountOf(cloud.projects, (row) => row.account_id);
    const storageAccount = accountOf(storage.storages, (row) => row.account_id);

    for (const token of iam.api_tokens) expect(userAccount.get(token.user_id)).toBe(token.account_id);
    for (const resource of cdn.resources) {
      expect(groupAccount.get(resource.originGroup)).toBe(resource.client);
      for (const certificate of [resource.sslData, resource.proxy_ssl_ca, resource.proxy_ssl_data]) {
        if (certificate !== null) expect(certificateAccount.get(certificate)).toBe(resource.client);
      }
      if (resource.shielding_pop !== null) expect(cdn.shielding_pops.map((pop) => pop.id)).toContain(resource.shielding_pop);
    }
    for (const app of edge.apps) {
      if (app.binary !== null) expect([app.account_id, null]).toContain(binaryAccount.get(app.binary));
      if (app.template !== null) expect([app.account_id, null]).toContain(templateAccount.get(app.template));
      for (const secret of Object.values(app.secrets)) expect(secretAccount.get(secret.id)).toBe(app.account_id);
      expect(edge.plans.map((plan) => plan.id)).toContain(app.plan_id);
    }
    for (const template of edge.templates) expect([template.account_id, null]).toContain(binaryAccount.get(template.binary_id));
    for (const stream of streaming.streams) expect(userAccount.get(stream.client_user_id)).toBe(stream.account_id);
    for (const broadcast of streaming.broadcasts) expect(streamAccount.get(broadcast.stream_id)).toBe(broadcast.account_id);
    for (const clip of streaming.clips) expect(streamAccount.get(clip.stream_id)).toBe(clip.account_id);
    for (const image of cloud.gpu_images) expect(projectAccount.get(image.project_id)).toBe(image.account_id);
    for (const bucket of storage.buckets) expect(storageAccount.get(bucket.storage_id)).toBe(bucket.account_id);
  });
});

describe("the demo tokens", () => {
  const roles = Object.values(ROLE_IDS);

  it.each(DEMO_ACCOUNT_IDS)("of account %i: an active token for every role, issued for a user of that role", (account) => {
    for (const role of roles) {
      const token = demoToken(account, `role-${role}-active` as DemoTokenName);
      const user = iam.users.find((candidate) => candidate.id === token.user_id);
      expect(token.role_id).toBe(role);
      expect(user?.role_id).toBe(role);
      expect(user?.deleted).toBe(false);
      expect(token.deleted).toBe(false);
      expect(token.exp_date === null || Date.parse(token.exp_date) > Date.parse("2090-01-01")).toBe(true);
    }
  });

  it.each(DEMO_ACCOUNT_IDS)("of account %i: an expired and a deleted token, issued for different users", (account) => {
    const expired = demoToken(account, "role-5-expired");
    const deleted = demoToken(account, "role-2-deleted");
    expect(Date.parse(expired.exp_date ?? "")).toBeLessThan(Date.now());
    expect(expired.deleted).toBe(false);
    expect(deleted.deleted).toBe(true);
    expect(expired.user_id).not.toBe(deleted.user_id);
    const issuers = new Set(iam.api_tokens.filter((token) => token.account_id === account).map((token) => token.user_id));
    expect(issuers.size).toBeGreaterThanOrEqual(6);
  });

  it("are high-entropy, distinct strings whose role is their user's", () => {
    const plaintexts = iam.api_tokens.map((token) => token.plaintext);
    expect(new Set(plaintexts).size).toBe(plaintexts.length);
    for (const token of iam.api_tokens) {
      expect(token.plaintext).toMatch(/^cp_demo_[0-9a-f]{32}$/);
      expect(iam.users.find((user) => user.id === token.user_id)?.role_id).toBe(token.role_id);
    }
    expect(() => demoToken(1, "no-such-token" as DemoTokenName)).toThrow(/no token/);
  });
});

describe("the demo CDN data", () => {
  it("has at least 3 resources in account 1 with varied options, valid against the contract", () => {
    expect(cdn.resources.filter((resource) => resource.client === 1).length).toBeGreaterThanOrEqual(3);
    const optionKeys = new Set(cdn.resources.flatMap((resource) => Object.keys(resource.options)));
    expect(optionKeys.size).toBeGreaterThanOrEqual(40);
    expect(cdn.resources.some((resource) => Object.keys(resource.options).length === 0)).toBe(true);
    for (const resource of cdn.resources) {
      expectValid(cdnResourceOptionsWrite, resource.options, `options of resource ${resource.id}`);
      const { name, description, secondaryHostnames, originGroup, originProtocol, sslEnabled, sslData, proxy_ssl_enabled, proxy_ssl_ca, proxy_ssl_data, active, options } =
        resource;
      expectValid(
        updateCdnResourceBody,
        { name, description, secondaryHostnames, originGroup, originProtocol, sslEnabled, sslData, proxy_ssl_enabled, proxy_ssl_ca, proxy_ssl_data, active, options },
        `writable fields of resource ${resource.id}`,
      );
      if (resource.sslEnabled) expect(cdn.certificates.find((certificate) => certificate.id === resource.sslData)?.kind).toBe("ssl");
      if (resource.proxy_ssl_ca !== null) expect(cdn.certificates.find((certificate) => certificate.id === resource.proxy_ssl_ca)?.kind).toBe("ca");
    }
    // Host names are unique per account, and one is shared across the two accounts on purpose.
    for (const account of DEMO_ACCOUNT_IDS) {
      const names = cdn.resources.filter((resource) => resource.client === account).flatMap((resource) => resource.secondaryHostnames.map((name) => name.toLowerCase()));
      expect(new Set(names).size).toBe(names.length);
    }
    const shared = cdn.resources.filter((resource) => resource.secondaryHostnames.includes("static.acme.example"));
    expect(new Set(shared.map((resource) => resource.client))).toEqual(new Set([1, 2]));
  });

  it("has origin groups (one unused), two certificates per account, shielding POPs and valid settings", () => {
    for (const group of cdn.origin_groups) {
      const { account_id: _account, created: _created, updated: _updated, ...fields } = group;
      expectValid(originGroup, { ...fields, has_related_resources: cdn.resources.some((resource) => resource.originGroup === group.id) }, `origin group ${group.id}`);
    }
    expect(cdn.origin_groups.some((group) => !cdn.resources.some((resource) => resource.originGroup === group.id))).toBe(true);
    for (const account of DEMO_ACCOUNT_IDS) {
      expect(cdn.certificates.filter((certificate) => certificate.account_id === account)).toHaveLength(2);
    }
    expect(cdn.shielding_pops.length).toBeGreaterThanOrEqual(2);
    for (const account of iam.accounts) {
      expectValid(
        cdnClientSettings,
        {
          id: account.id,
          created: cdnTime(account.created),
          updated: cdnTime(account.updated),
          service: { ...account.service, updated: cdnTime(account.service.updated) },
          utilization_level: account.utilization_level,
          cname: account.cname,
          use_balancer: account.use_balancer,
          auto_suspend_enabled: account.auto_suspend_enabled,
          cdn_resources_rules_max_count: account.cdn_resources_rules_max_count,
        },
        `CDN settings of account ${account.id}`,
      );
    }
    for (const account of DEMO_ACCOUNT_IDS) {
      const features = cdn.features.filter((feature) => feature.account_id === account);
      expect(features.some((feature) => feature.paid) && features.some((feature) => !feature.paid)).toBe(true);
    }
  });

  it("has logs uploader targets whose config the create route would accept", () => {
    for (const target of cdn.logs_uploader_targets) {
      const { directory, endpoint, ...config } = target.config;
      expectValid(
        createLogsUploaderTargetBody,
        {
          storage_type: target.storage_type,
          name: target.name,
          description: target.description,
          config: { ...config, ...(directory === null ? {} : { directory }), ...(endpoint === null ? {} : { endpoint }) },
        },
        `logs uploader target ${target.id}`,
      );
    }
  });
});

describe("the demo edge data", () => {
  const apps1 = edge.apps.filter((app) => app.account_id === 1);

  it("has at least 30 apps in account 1 across every status, both api types, several templates, binaries and plans", () => {
    expect(apps1.length).toBeGreaterThanOrEqual(30);
    expect(new Set(apps1.map((app) => app.status))).toEqual(new Set([0, 1, 2, 3, 4, 5]));
    expect(new Set(apps1.map((app) => app.api_type))).toEqual(new Set(EDGE_API_TYPES));
    expect(new Set(apps1.map((app) => app.template).filter((template) => template !== null)).size).toBeGreaterThanOrEqual(3);
    expect(new Set(apps1.map((app) => app.binary).filter((binary) => binary !== null)).size).toBeGreaterThanOrEqual(3);
    expect(new Set(apps1.map((app) => app.plan_id)).size).toBeGreaterThanOrEqual(2);
    expect(apps1.some((app) => app.binary === null)).toBe(true);
    const names = new Set(apps1.map((app) => app.name));
    expect(names.size).toBe(apps1.length);
    const apps2 = edge.apps.filter((app) => app.account_id === 2);
    expect(apps2.length).toBeGreaterThan(0);
    expect(apps2.some((app) => names.has(app.name))).toBe(true);
  });

  it("has apps that read as the contract's edge apps and whose writable fields the update route accepts", () => {
    for (const app of edge.apps) {
      const template = edge.templates.find((candidate) => candidate.id === app.template);
      const plan = edge.plans.find((candidate) => candidate.id === app.plan_id);
      expectValid(
        edgeApp,
        {
          id: app.id,
          name: app.name,
          url: app.url,
          status: app.status,
          binary: app.binary,
          template: app.template,
          template_name: template?.name ?? null,
          comment: app.comment,
          api_type: app.api_type,
          debug_until: app.debug_until,
          networks: app.networks,
          upgradeable_to: app.upgradeable_to,
          plan_id: app.plan_id,
          plan: plan?.name,
        },
        `edge app ${app.id}`,
      );
      expectValid(
        updateEdgeAppBody,
        { name: app.name, comment: app.comment, env: app.env, rsp_headers: app.rsp_headers, log: app.log, secrets: app.secrets },
        `writable fields of edge app ${app.id}`,
      );
      if (app.status === 1) expect(app.binary).not.toBeNull();
      if (template) expect(template.api_type).toBe(app.api_type);
    }
  });

  it("has public and owned templates with parameters, and secrets the create route would accept", () => {
    expect(edge.templates.filter((template) => template.account_id === null).length).toBeGreaterThanOrEqual(1);
    expect(edge.templates.filter((template) => template.account_id === 1).length).toBeGreaterThanOrEqual(3);
    for (const template of edge.templates) {
      const { account_id: account, created: _created, ...fields } = template;
      expectValid(edgeAppTemplate, { ...fields, owned: account !== null }, `template ${template.id}`);
      expect(template.params.length).toBeGreaterThan(0);
    }
    for (const secret of edge.secrets) {
      expectValid(createEdgeAppSecretBody, { name: secret.name, comment: secret.comment, secret_slots: secret.secret_slots }, `secret ${secret.id}`);
    }
    expect(edge.apps.some((app) => Object.keys(app.secrets).length > 0)).toBe(true);
  });
});

describe("the demo streaming data", () => {
  it("has at least 30 streams in account 1 and some in account 2: live with DVR, live without, and offline", () => {
    const streams1 = streaming.streams.filter((row) => row.account_id === 1);
    expect(streams1.length).toBeGreaterThanOrEqual(30);
    expect(streaming.streams.filter((row) => row.account_id === 2).length).toBeGreaterThan(0);
    for (const account of DEMO_ACCOUNT_IDS) {
      const own = streaming.streams.filter((row) => row.account_id === account);
      expect(own.some((row) => row.live && row.dvr_duration > 0), `account ${account}: live with DVR`).toBe(true);
      expect(own.some((row) => row.live && row.dvr_duration === 0), `account ${account}: live without DVR`).toBe(true);
      expect(own.some((row) => !row.live), `account ${account}: offline`).toBe(true);
    }
    for (const row of streaming.streams) {
      const { account_id: _account, ...fields } = row;
      expectValid(stream, fields, `stream ${row.id}`);
    }
  });

  it("has broadcasts and clips of live DVR streams", () => {
    expect(streaming.broadcasts.length).toBeGreaterThan(0);
    for (const clip of streaming.clips) {
      const { account_id: _account, stream_id: streamId, ...fields } = clip;
      expectValid(clipRecording, fields, `clip ${clip.id}`);
      const source = streaming.streams.find((row) => row.id === streamId);
      expect(source?.live && (source.dvr_duration ?? 0) >= clip.duration).toBe(true);
    }
  });
});

describe("the demo cloud data", () => {
  it("has at least 30 inference models, valid and with distinct ids", () => {
    expect(cloud.inference_models.length).toBeGreaterThanOrEqual(30);
    expect(new Set(cloud.inference_models.map((model) => model.id)).size).toBe(cloud.inference_models.length);
    for (const model of cloud.inference_models) expectValid(inferenceModel, model, `model ${model.name}`);
  });

  it("has GPU images in 2 projects and 2 regions of account 1", () => {
    const images1 = cloud.gpu_images.filter((image) => image.account_id === 1);
    expect(new Set(images1.map((image) => image.project_id)).size).toBeGreaterThanOrEqual(2);
    expect(new Set(images1.map((image) => image.region_id)).size).toBeGreaterThanOrEqual(2);
    for (const image of cloud.gpu_images) {
      const { account_id: _account, project_id: _project, region_id: region, ...fields } = image;
      expectValid(gpuImage, fields, `GPU image ${image.id}`);
      expect(cloud.regions.map((candidate) => candidate.id)).toContain(region);
    }
  });

  it("has usage over 3 months, 2 regions and 3 types, with tags, and exactly one line without a price", () => {
    const lines1 = cloud.usage_lines.filter((line) => line.account_id === 1);
    expect(new Set(lines1.map((line) => line.month)).size).toBeGreaterThanOrEqual(3);
    expect(new Set(lines1.map((line) => line.region_id)).size).toBeGreaterThanOrEqual(2);
    expect(new Set(lines1.map((line) => line.type)).size).toBeGreaterThanOrEqual(3);
    expect(lines1.some((line) => Object.keys(line.tags).length > 0)).toBe(true);
    expect(cloud.usage_lines.filter((line) => line.cost === null)).toHaveLength(1);
    for (const line of cloud.usage_lines) {
      expect(COST_REPORT_TYPES as readonly string[]).toContain(line.type);
      expect(line.month).toMatch(/^\d{4}-(0[1-9]|1[0-2])$/);
      // The platform's unit of the type, and instance or volume type only where the platform has them.
      const unit = (COST_REPORT_UNITS as Record<string, string>)[line.type];
      if (unit) expect(line.billing_value_unit).toBe(unit);
      expect(line.instance_type !== null).toBe(line.type === "egress_traffic");
      expect(line.volume_type !== null).toBe(line.type === "volume" || line.type === "snapshot");
    }
  });

  it("has tasks of both accounts, one still running on the image it holds", () => {
    expect(new Set(cloud.tasks.map((task) => task.account_id))).toEqual(new Set([1, 2]));
    for (const image of cloud.gpu_images.filter((candidate) => candidate.task_id !== null)) {
      expect(cloud.tasks.find((task) => task.id === image.task_id)).toMatchObject({ account_id: image.account_id, state: "RUNNING" });
    }
  });
});

describe("the demo security and storage data", () => {
  it("has profile templates whose fields carry JSON Schemas, one of them required", () => {
    for (const { account_id: _account, accepts_ip_address: _accepts, ...template } of security.profile_templates)
      expectValid(securityProfileTemplate, template, `template ${template.id}`);
    // Common templates, and each account's own.
    expect(new Set(security.profile_templates.map((template) => template.account_id))).toEqual(new Set([null, 1, 2]));
    const fields = security.profile_templates.flatMap((template) => template.fields);
    expect(fields.some((field) => field.required)).toBe(true);
    for (const field of fields) expect(typeof field.validation_schema.type).toBe("string");
  });

  it("has profiles that read as the contract's and give every required field of their template", () => {
    for (const profile of security.profiles) {
      const template = security.profile_templates.find((candidate) => candidate.id === profile.profile_template);
      if (!template) throw new Error(`Profile ${profile.id} has no template.`);
      // An address exactly when the template takes one.
      if (template.accepts_ip_address) expectValid(ipAddress, profile.ip_address, `address of profile ${profile.id}`);
      else expect(profile.ip_address).toBeNull();
      const given = new Set(profile.fields.map((field) => field.base_field));
      for (const field of template.fields.filter((candidate) => candidate.required)) expect(given.has(field.id)).toBe(true);
      expectValid(
        securityProfile,
        {
          id: profile.id,
          profile_template: (({ account_id: _account, accepts_ip_address: _accepts, ...shown }) => shown)(template),
          ip_address: profile.ip_address,
          fields: profile.fields.map((field) => {
            const { id: _templateFieldId, ...base } = template.fields.find((candidate) => candidate.id === field.base_field) ?? { id: 0 };
            return { ...base, id: field.id, base_field: field.base_field, field_value: field.field_value };
          }),
          site: profile.site,
          options: profile.options,
          protocols: profile.protocols,
          status: profile.status,
          plan: profile.plan,
        },
        `profile ${profile.id}`,
      );
    }
  });

  it("has storages with buckets and their CORS origins", () => {
    for (const bucket of storage.buckets) {
      expectValid(bucketName, bucket.name, `bucket ${bucket.id}`);
      expectValid(bucketCors, { data: { allowedOrigins: bucket.allowedOrigins } }, `CORS of bucket ${bucket.id}`);
    }
    expect(storage.buckets.some((bucket) => bucket.allowedOrigins.length === 0)).toBe(true);
    for (const account of DEMO_ACCOUNT_IDS) {
      const names = storage.buckets.filter((bucket) => bucket.account_id === account).map((bucket) => `${bucket.storage_id}/${bucket.name}`);
      expect(new Set(names).size).toBe(names.length);
    }
  });
});
