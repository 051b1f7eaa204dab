/**
 * Every route of the contract through the client, against the real handler on the demo data: each
 * method reaches its route and resolves to the body the contract types, with the response metadata.
 */
import { clientMethodOf, contract, madeObject, routeById, routeCases, ROUTES, type CaseObject, type RouteCase } from "@cloudplane/contract";
import { byColumnName, demoFixture } from "@cloudplane/db";
import { describe, expect, it } from "vitest";
import { routesByArea } from "../src/core/routes.generated.js";
import type { RouteId } from "../src/index.js";
import { engines, useClientApi } from "./api.js";

/** The contract route a served request matched, found from its method and concrete path. */
function matchRoute(method: string, path: string): string | undefined {
  return ROUTES.find(({ route }) => {
    const pattern = new RegExp(`^${route.path.replace(/:\w+/g, "[^/]+")}$`);
    return route.method === method && pattern.test(path);
  })?.id;
}

/** The path parameters and query a concrete path (`/cdn/resources/1?x=y`) gives a route's pattern. */
function inputOf(pattern: string, path: string): { params?: Record<string, string>; query?: Record<string, string> } {
  const [pathname = "", search] = path.split("?");
  const names = [...pattern.matchAll(/:(\w+)/g)].map((match) => match[1]!);
  const values = new RegExp(`^${pattern.replace(/:\w+/g, "([^/]+)")}$`).exec(pathname);
  if (!values) throw new Error(`${path} does not match ${pattern}`);
  return {
    ...(names.length > 0 ? { params: Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(values[index + 1]!)])) } : {}),
    ...(search ? { query: Object.fromEntries(new URLSearchParams(search)) } : {}),
  };
}

/** The input of `client.request` for a route case on account 1's objects; built at run time, so its type is the widest one. */
function inputFor(routeCase: RouteCase, made?: CaseObject): never {
  return {
    ...inputOf(routeCase.route.path, routeCase.path(1, made)),
    ...(routeCase.body ? { body: routeCase.body(1) } : {}),
  } as never;
}

/** Calls a case's maker through `client.request`; what it made, as `routeCasePath` gives it to the case (`madeObject`). */
async function makeWith(client: { request: (id: RouteId, input: never) => PromiseLike<unknown> }, maker: RouteCase): Promise<CaseObject> {
  const input = inputFor(maker) as { body?: unknown };
  return madeObject(input.body, await client.request(maker.id as RouteId, input as never));
}

describe("the route tables", () => {
  it("hold exactly the contract's routes, with its methods and paths, in its order", () => {
    const fromClient = Object.values(routesByArea)
      .flatMap((routes) => Object.values(routes))
      .map((route) => `${route.area}.${route.name} ${route.method} ${route.path}`);
    const fromContract = ROUTES.map(({ id, route }) => `${id} ${route.method} ${route.path}`);
    expect(fromClient).toEqual(fromContract);
  });
});

describe.each(engines())("every route through the client on %s", (engine) => {
  const api = useClientApi(engine);

  it("calls each of the contract's routes once, each answering 2xx", async () => {
    const { client } = api;
    api.logs.length = 0;

    const tokens = await client.iam.tokens.list(1, { deleted: true });
    expect(tokens.map((token) => token.id)).toEqual(
      demoFixture.apiTokens.filter((token) => token.accountId === 1 && !token.deleted).map((token) => token.id),
    );
    const issued = await client.iam.tokens.create(1, { name: "client-token", exp_date: "2099-01-01T00:00:00Z" });
    expect(issued).toMatchObject({ name: "client-token", exp_date: "2099-01-01 00:00:00+00:00", token: expect.stringMatching(/^cp_[0-9a-f]{64}$/) });
    const { token: _issuedToken, ...shownToken } = issued;
    expect(await client.iam.tokens.get(1, issued.id)).toEqual(shownToken);
    expect(await client.iam.tokens.delete(1, issued.id)).toBeUndefined();
    expect(await client.iam.account.get()).toMatchObject({ id: 1, currentUser: demoFixture.apiTokens.find((token) => token.accountId === 1 && token.name === "role-1-active")!.userId });

    const updated = await client.cdn.resources.update(1, { description: "Updated through the client" });
    expect(updated).toMatchObject({ id: 1, description: "Updated through the client" });

    const replaced = await client.cdn.resources.replace(3, { originGroup: 1, name: "Replaced through the client" });
    expect(replaced).toMatchObject({ id: 3, originGroup: 1, name: "Replaced through the client", secondaryHostnames: [] });

    expect(await client.cdn.resources.updateShielding(3, { shielding_pop: 2 })).toEqual({ shielding_pop: 2 });

    const target = await client.cdn.logsUploader.targets.create({
      storage_type: "s3_vendor",
      name: "Client logs",
      description: "Made by the client test",
      config: { access_key_id: "AKIACLIENT", secret_access_key: "client-logs-secret-key", region: "eu-west-1", bucket_name: "client-logs" },
    });
    expect(target).toMatchObject({ name: "Client logs", client_id: 1, status: { status: "in_progress" } });
    expect(JSON.stringify(target)).not.toContain("client-logs-secret-key");

    // The logs uploader: every route of its targets, policies and configs.
    const logs = client.cdn.logsUploader;
    expect((await logs.targets.list({ search: "Client logs" })).items.map((row) => row.id)).toEqual([target.id]);
    expect(await logs.targets.get(target.id)).toEqual(target);
    expect(await logs.targets.update(target.id, { description: "Changed by the client" })).toMatchObject({ description: "Changed by the client" });
    const replacedTarget = await logs.targets.replace(target.id, {
      storage_type: "s3_other",
      config: { access_key_id: "AKIACLIENT", secret_access_key: "client-logs-secret-key-2", region: "eu-west-1", bucket_name: "client-logs" },
    });
    expect(replacedTarget).toMatchObject({ storage_type: "s3_other", name: "Client logs", description: "" });
    expect(await logs.targets.validate(target.id)).toMatchObject({ status: "failed", code: 400 });
    expect(await logs.policies.getFields()).toContain("remote_addr");
    const policy = await logs.policies.create({ name: "Client policy", fields: ["remote_addr", "status"] });
    expect((await logs.policies.list({ config_ids: [1] })).items.map((row) => row.id)).toEqual([1]);
    expect(await logs.policies.get(policy.id)).toEqual(policy);
    expect(await logs.policies.update(policy.id, { log_sample_rate: 0.5 })).toMatchObject({ log_sample_rate: 0.5 });
    expect(await logs.policies.replace(policy.id, { name: "Client policy", fields: ["status"] })).toMatchObject({ fields: ["status"], log_sample_rate: 1 });
    const logsConfig = await logs.configs.create({ name: "Client config", policy: policy.id, target: target.id, for_all_resources: true });
    expect((await logs.configs.list({ search: "Client config" })).items.map((row) => row.id)).toEqual([logsConfig.id]);
    expect(await logs.configs.get(logsConfig.id)).toEqual(logsConfig);
    expect(await logs.configs.update(logsConfig.id, { enabled: false })).toMatchObject({ enabled: false });
    const replacedConfig = await logs.configs.replace(logsConfig.id, { name: "Client config", policy: policy.id, target: target.id, resources: [1] });
    expect(replacedConfig).toMatchObject({ resources: [1], enabled: true, for_all_resources: false });
    // Its target is an s3_other storage without an endpoint: the check fails.
    expect(await logs.configs.validate(logsConfig.id)).toMatchObject({ status: "failed", code: 400 });
    expect(await logs.configs.delete(logsConfig.id)).toBeUndefined();
    expect(await logs.policies.delete(policy.id)).toBeUndefined();
    expect(await logs.targets.delete(target.id)).toBeUndefined();

    const features = await client.cdn.features.get();
    expect(features.paid_features.length + features.free_features.length).toBe(
      demoFixture.cdnFeatures.filter((feature) => feature.accountId === 1).length,
    );

    expect(await client.cdn.clientSettings.replace({ utilization_level: 7 })).toMatchObject({ id: 1, utilization_level: 7 });

    expect(await client.cdn.originGroups.get(1)).toMatchObject({ id: 1, has_related_resources: true });

    // The CDN resource and origin group lifecycles, the shielding read, the POPs and the settings read.
    expect((await client.cdn.resources.list({ originGroup: 1, limit: 100 })).items.map((row) => row.id)).toContain(1);
    const group = await client.cdn.originGroups.create({ name: "client-origins", sources: [{ source: "client.acme.example", host_header_override: "www.acme.example" }] });
    expect(group).toMatchObject({ name: "client-origins", has_related_resources: false });
    expect((await client.cdn.originGroups.list({ name: "client-origins" })).items).toEqual([group]);
    expect(await client.cdn.originGroups.update(group.id, { path: "/client" })).toMatchObject({ path: "/client" });
    expect(await client.cdn.originGroups.replace(group.id, { name: "client-origins", use_next: false, sources: [{ source: "client.acme.example" }] })).toMatchObject({ path: "" });
    const resource = await client.cdn.resources.create({ cname: "client.acme.example", originGroup: group.id, active: false });
    expect(await client.cdn.resources.get(resource.id)).toEqual(resource);
    expect(await client.cdn.resources.getShielding(resource.id)).toEqual({ shielding_pop: null });
    expect(await client.cdn.resources.delete(resource.id)).toBeUndefined();
    expect(await client.cdn.originGroups.delete(group.id)).toBeUndefined();
    expect((await client.cdn.shieldingPops.list()).items.length).toBe(demoFixture.shieldingPops.length);
    expect(await client.cdn.clientSettings.get()).toMatchObject({ id: 1, utilization_level: 7 });

    const apps = await client.edge.apps.list({ limit: 5 });
    expect(apps.items).toHaveLength(5);

    expect(await client.edge.apps.replace(1, { comment: "Commented through the client" })).toMatchObject({
      id: 1,
      comment: "Commented through the client",
    });
    expect(await client.edge.apps.update(1, { comment: "Patched through the client" })).toMatchObject({ id: 1, comment: "Patched through the client" });

    expect(await client.edge.templates.get(1001)).toMatchObject({ id: 1001, owned: false });

    const secret = await client.edge.secrets.create({ name: "client-secret", secret_slots: [{ slot: 0, value: "s3cr3t" }] });
    expect(secret).toMatchObject({ name: "client-secret", app_count: 0, secret_slots: [{ slot: 0 }] });
    expect(JSON.stringify(secret)).not.toContain("s3cr3t");

    const store = await client.edge.kvStores.create({ name: "client-store", comment: "From the client." });
    expect(store).toMatchObject({ name: "client-store", app_count: 0, revision: 1, byod: null });
    const app = await client.edge.apps.create({ name: "client-app", binary: 1, stores: { DATA: { id: store.id } } });
    expect(await client.edge.apps.get(app.id)).toEqual({
      ...app,
      env: {},
      rsp_headers: {},
      log: "kafka",
      secrets: {},
      stores: { DATA: { id: store.id, name: "client-store", comment: "From the client." } },
    });
    expect((await client.edge.kvStores.list({ app_id: app.id })).items.map((item) => item.id)).toEqual([store.id]);
    expect(await client.edge.kvStores.get(store.id)).toMatchObject({ app_count: 1 });
    expect(await client.edge.kvStores.replace(store.id, { name: "client-store" })).toMatchObject({ revision: 2, comment: "" });
    await client.edge.apps.delete(app.id);
    expect(await client.edge.kvStores.delete(store.id)).toBeUndefined();
    const week = { from: "2026-11-02T00:00:00Z", to: "2026-11-03T00:00:00Z" };
    expect((await client.edge.apps.logs.list(1, { ...week, limit: 2 })).logs).toHaveLength(2);
    expect((await client.edge.statistics.getCallSeries({ ...week, step: 3600 })).stats).toHaveLength(24);
    expect((await client.edge.statistics.getDurationSeries({ ...week, step: 86400, id: 1 })).stats).toHaveLength(1);
    expect(await client.edge.account.get()).toMatchObject({ app_count: demoFixture.edgeApps.filter((row) => row.accountId === 1).length, plan: "basic" });
    const template = await client.edge.templates.create({ binary_id: 1, name: "Client template", params: [] });
    expect((await client.edge.templates.list({ only_mine: true, limit: 1000 })).items.map((item) => item.id)).toContain(template.id);
    expect(await client.edge.templates.replace(template.id, { binary_id: 1, name: "Client template 2", params: [] })).toMatchObject({ name: "Client template 2" });
    await client.edge.templates.delete(template.id, { force: true });
    expect((await client.edge.secrets.list({ secret_name: "client-secret" })).items).toEqual([{ id: secret.id, name: "client-secret", comment: "", app_count: 0 }]);
    expect(await client.edge.secrets.get(secret.id)).toEqual(secret);
    expect(await client.edge.secrets.update(secret.id, { comment: "patched" })).toMatchObject({ comment: "patched" });
    expect(await client.edge.secrets.replace(secret.id, { name: "client-secret-2" })).toMatchObject({ name: "client-secret-2", comment: "" });
    await client.edge.secrets.delete(secret.id);
    const binaries = await client.edge.binaries.list();
    expect(await client.edge.binaries.get(binaries.items[0]!.id)).toEqual(binaries.items[0]);
    const uploadedBinary = await client.edge.binaries.upload(new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]));
    expect(uploadedBinary).toMatchObject({ api_type: "wasi-http", status: 1, source: 0, unref_since: null });
    expect(await client.edge.binaries.delete(uploadedBinary.id)).toBeUndefined();

    const streams = await client.streaming.streams.list();
    expect(streams.items).toHaveLength(25);

    expect(await client.streaming.streams.get(1)).toMatchObject({ id: 1, live: true });

    const clip = await client.streaming.streams.createClipRecording(1, { duration: 60 });
    expect(clip).toMatchObject({ duration: 60, vod_required: false });
    expect(await client.streaming.streams.listClipRecordings(1)).toContainEqual(clip);
    const madeStream = await client.streaming.streams.create({ name: "Client stream", dvr_enabled: true });
    expect(madeStream).toMatchObject({ name: "Client stream", dvr_enabled: true, live: false });
    expect(await client.streaming.streams.update(madeStream.id, { stream: { auto_record: true } })).toMatchObject({ id: madeStream.id, auto_record: true });
    expect(await client.streaming.streams.delete(madeStream.id)).toBeUndefined();

    const models = await client.cloud.inference.models.list({ limit: 3 });
    expect(models.items).toHaveLength(3);

    const model = demoFixture.inferenceModels[0]!;
    expect(await client.cloud.inference.models.get(model.id)).toEqual(byColumnName("inferenceModels", model));

    const images = await client.cloud.gpu.images.list(1, 1, { limit: 10 });
    expect(images.total).toBe(
      demoFixture.gpuImages.filter((image) => image.clusterType === "virtual" && image.projectId === 1 && image.regionId === 1).length,
    );
    expect(images.items).toHaveLength(images.total!);
    expect(await client.cloud.gpu.images.get(1, 1, images.items[0]!.id)).toEqual(images.items[0]);
    const uploaded = await client.cloud.gpu.images.create(1, 1, { name: "client-image", url: "https://images.acme.example/client.qcow2" });
    const uploadTask = await client.cloud.tasks.get(uploaded.tasks[0]!);
    // The image is there at once; its task reports RUNNING for its first seconds.
    expect(uploadTask).toMatchObject({ state: "RUNNING", created_resources: { images: [uploaded.tasks[0]] } });
    expect((await client.cloud.gpu.images.delete(1, 1, uploadTask.created_resources!.images![0]!)).tasks).toHaveLength(1);

    const totals = await client.cloud.costReports.totals({ time_from: "2026-08", time_to: "2026-10" });
    expect(totals.count).toBe(totals.results.length);
    expect(totals.count).toBeGreaterThan(0);

    const profile = await client.security.profiles.replace(1, {
      profile_template: 1,
      ip_address: "203.0.113.11",
      fields: [{ base_field: 1, field_value: [443] }],
      site: "ED",
    });
    expect(profile).toMatchObject({ id: 1, ip_address: "203.0.113.11", site: "ED" });
    expect((await client.security.profileTemplates.list({ accepts_ip_address: true })).items.map((template) => template.id)).toEqual([1, 2]);
    const madeProfile = await client.security.profiles.create({ profile_template: 1, ip_address: "203.0.113.12", fields: [{ base_field: 1, field_value: [80] }], site: "ED" });
    expect(await client.security.profiles.get(madeProfile.id)).toEqual(madeProfile);
    expect((await client.security.profiles.list({ ip_address: "203.0.113.12" })).items).toEqual([madeProfile]);
    expect(await client.security.profiles.recreate(madeProfile.id, { profile_template: 1, ip_address: "203.0.113.12", fields: [{ base_field: 1, field_value: [443] }] })).toMatchObject({
      id: madeProfile.id,
      site: "ED",
    });
    expect(await client.security.profiles.delete(madeProfile.id)).toBeUndefined();
    const events = await client.security.events.list({ alert_type: "ddos_alert", limit: 3 });
    expect(events.items).toHaveLength(3);
    expect(await client.security.events.get(events.items[0]!.id)).toMatchObject({ id: events.items[0]!.id, client_id: 1 });
    expect(await client.security.bgpAnnounces.toggle({ announce: "203.0.113.11/32", enabled: true })).toMatchObject({ client_id: 1, announced: ["203.0.113.11/32"] });
    expect((await client.security.bgpAnnounces.list({ announced: true })).items).toEqual([{ client_id: 1, announced: ["203.0.113.11/32"], not_announced: [] }]);

    expect(await client.storage.s3.buckets.getCors(1, "media-assets")).toEqual({
      data: { allowedOrigins: ["https://www.acme.example", "https://admin.acme.example"] },
    });
    expect(await client.storage.s3.buckets.setCors(1, "backups", { allowedOrigins: ["https://admin.acme.example"] })).toEqual({
      data: { allowedOrigins: ["https://admin.acme.example"] },
    });
    expect(await client.storage.s3.buckets.create(1, "client-bucket")).toEqual({ name: "client-bucket", lifecycle: null });
    expect((await client.storage.s3.buckets.list(1)).items).toContainEqual({ name: "client-bucket", lifecycle: null });
    expect(await client.storage.s3.buckets.setLifecycle(1, "client-bucket", { expiration_days: 30 })).toEqual({ name: "client-bucket", lifecycle: 30 });
    expect(await client.storage.s3.buckets.deleteLifecycle(1, "client-bucket")).toBeUndefined();
    expect(await client.storage.s3.buckets.getPolicy(1, "client-bucket")).toBe(false);
    expect(await client.storage.s3.buckets.setPolicy(1, "client-bucket")).toBe(true);
    expect(await client.storage.s3.buckets.deletePolicy(1, "client-bucket")).toBeUndefined();
    expect(await client.storage.s3.buckets.delete(1, "client-bucket")).toBeUndefined();
    expect((await client.storage.storages.list({ order_by: "name" })).items.map((entry) => entry.name)).toEqual(["acme-s3-ams", "acme-s3-lux"]);
    expect(await client.storage.storages.get(1)).toMatchObject({ id: 1, name: "acme-s3-lux", type: "s3" });
    const madeStorage = await client.storage.storages.create({ name: "client-storage", type: "s3", location: "fra" });
    expect(madeStorage).toMatchObject({ name: "client-storage", client_id: 1, provisioning_status: "active" });
    const sftpStorage = await client.storage.storages.create({ name: "client-sftp", type: "sftp", location: "ams" });
    expect(await client.storage.storages.update(sftpStorage.id, { server_alias: "files.client.example" })).toEqual({
      ...sftpStorage,
      server_alias: "files.client.example",
    });
    expect(await client.storage.storages.delete(madeStorage.id)).toBeUndefined();

    const served = api.logs.map((entry) => ({ route: matchRoute(entry.method, entry.path), status: entry.status }));
    expect(served.every((entry) => entry.status >= 200 && entry.status < 300)).toBe(true);
  });

  it("reaches every primary route through its named method, with the route's case as its arguments", async () => {
    const client = api.clientFor([1, "role-1-active"], { validateResponses: contract });
    const cases = await routeCases((account, method, path, body) => api.call(method, path, { body, as: [account, "role-1-active"] }));
    api.logs.length = 0;
    const primaries = cases.filter(({ id }) => !routeById(id as RouteId).aliasOf);
    for (const routeCase of primaries) {
      // A route that uses its object up (a delete) gets one made first, through client.request.
      const made = routeCase.maker ? await makeWith(client, routeCase.maker) : undefined;
      const { params = {}, query } = inputOf(routeCase.route.path, routeCase.path(1, made));
      const named = clientMethodOf(routeCase.id as RouteId);
      const area = client[routeById(routeCase.id as RouteId).area] as unknown as Record<string, unknown>;
      const resource = named.resource.reduce((parent, key) => parent[key] as Record<string, unknown>, area);
      const args: unknown[] = named.args.map(({ param }) => params[param]);
      if (named.body) args.push(routeCase.body?.(1));
      if (named.query) args.push(query);
      await (resource[named.method] as (...values: unknown[]) => Promise<unknown>).apply(resource, args);
    }
    const served = api.logs.map((entry) => ({ route: matchRoute(entry.method, entry.path), status: entry.status }));
    expect(served.filter((entry) => entry.status >= 300)).toEqual([]);
    expect(served.map((entry) => entry.route)).toEqual(primaries.flatMap(({ id, maker }) => (maker ? [maker.id, id] : [id])));
  });

  it("calls every route of the contract by its id with client.request, typed from the contract", async () => {
    const client = api.clientFor([1, "role-1-active"], { validateResponses: contract });
    // The cases find their objects through the API's read routes first; the walk's log starts after.
    const cases = await routeCases((account, method, path, body) => api.call(method, path, { body, as: [account, "role-1-active"] }));
    api.logs.length = 0;
    for (const routeCase of cases) {
      // A route that uses its object up (a delete) gets one made first, through the client too.
      const made = routeCase.maker ? await makeWith(client, routeCase.maker) : undefined;
      const reply = await client.request(routeCase.id as RouteId, inputFor(routeCase, made)).withResponse();
      expect(reply.status, routeCase.id).toBe(routeCase.status);
      if (routeCase.status !== 204) expect(reply.body, routeCase.id).toBeDefined();
    }
    const served = api.logs.map((entry) => ({ route: matchRoute(entry.method, entry.path), status: entry.status }));
    expect(served.map((entry) => entry.route)).toEqual(cases.flatMap(({ id, maker }) => (maker ? [maker.id, id] : [id])));
    expect(served.every((entry) => entry.status >= 200 && entry.status < 300)).toBe(true);
  });

  it("answers the same body through client.request as through the named method", async () => {
    const byId = await api.client.request("cdn.getOriginGroup", { params: { origin_group_id: 1 } });
    expect(byId).toEqual(await api.client.cdn.originGroups.get(1));
    const page = await api.client.request("edge.listApps", { query: { limit: 2, offset: 1 } });
    expect(page.apps.map((app) => app.id)).toEqual((await api.client.edge.apps.list({ limit: 2, offset: 1 })).items.map((app) => app.id));
    expect(await api.client.request("cdn.getClientFeatures")).toEqual(await api.client.cdn.features.get());
  });

  it("rejects an id the contract does not have, without a request", async () => {
    api.logs.length = 0;
    await expect(api.client.request("cdn.deleteEverything" as RouteId, {} as never)).rejects.toThrow("The contract has no route cdn.deleteEverything.");
    await expect(api.client.request("cdn.constructor" as RouteId, {} as never)).rejects.toThrow("The contract has no route cdn.constructor.");
    await expect(api.client.request("toString.x" as RouteId, {} as never)).rejects.toThrow("The contract has no route toString.x.");
    expect(api.logs).toEqual([]);
  });

  it("gives the cost report as CSV text with response_format csv_totals", async () => {
    const csv = await api.client.cloud.costReports.totals({ time_from: "2026-08", time_to: "2026-10", response_format: "csv_totals" });
    expect(typeof csv).toBe("string");
    expect(csv.split("\n")[0]).toContain("billing_value");
  });

  it("gives status, headers and request id with withResponse()", async () => {
    const { body, status, headers, requestId, response } = await api.client.streaming.streams.get(1).withResponse();
    expect(body.id).toBe(1);
    expect(status).toBe(200);
    expect(requestId).toMatch(/^req_/);
    expect(headers.get("x-request-id")).toBe(requestId);
    expect(response.ok).toBe(true);
  });

  it("gives a returned object its request id as _request_id, which JSON, spreads and equality leave out", async () => {
    const client = api.clientFor([1, "role-1-active"], { headers: { "x-request-id": "object-id" } });
    const resource = await client.cdn.resources.get(1);
    expect(resource._request_id).toBe("object-id");
    expect(Object.keys(resource)).not.toContain("_request_id");
    expect(JSON.stringify(resource)).not.toContain("_request_id");
    expect({ ...resource }).not.toHaveProperty("_request_id");
    expect(resource).toStrictEqual(JSON.parse(JSON.stringify(resource)));
    // Each answer's own id; a page keeps its id as requestId, its items have none.
    expect((await api.client.cdn.resources.get(1))._request_id).toMatch(/^req_/);
    const page = await api.client.edge.apps.list({ limit: 1 });
    expect(page.requestId).toMatch(/^req_/);
    expect(page.items[0]).not.toHaveProperty("_request_id");
    expect(page).not.toHaveProperty("_request_id");
    // A body that is not an object is as it was.
    expect(typeof (await api.client.cloud.costReports.totals({ time_from: "2026-08", time_to: "2026-10", response_format: "csv_totals" }))).toBe("string");
  });

  it("sends the caller's headers, per client and per call", async () => {
    const client = api.clientFor([1, "role-1-active"], { headers: { "x-request-id": "client-wide-id" } });
    expect((await client.cdn.features.get().withResponse()).requestId).toBe("client-wide-id");
    const perCall = await client.cdn.features.get({ headers: { "x-request-id": "per-call-id" } }).withResponse();
    expect(perCall.requestId).toBe("per-call-id");
  });

  it("checks responses against the contract when given it", async () => {
    const client = api.clientFor([1, "role-1-active"], { validateResponses: contract });
    const stream = await client.streaming.streams.get(1);
    expect(stream.id).toBe(1);
    const page = await client.edge.apps.list({ limit: 2 });
    expect(page.items).toHaveLength(2);
  });
});
