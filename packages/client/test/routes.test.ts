/**
 * Every route of the contract through the client, against the real handler on the demo data: each
 * method reaches its route and resolves to the body the contract types, with the response metadata.
 */
import { contract, ROUTES } from "@cloudplane/contract";
import { demoFixture } from "@cloudplane/db";
import { routeCases } from "@cloudplane/db/testing";
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
      demoFixture.iam.api_tokens.filter((token) => token.account_id === 1 && !token.deleted).map((token) => token.id),
    );

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

    const features = await client.cdn.features.get();
    expect(features.paid_features.length + features.free_features.length).toBe(
      demoFixture.cdn.features.filter((feature) => feature.account_id === 1).length,
    );

    expect(await client.cdn.clientSettings.update({ utilization_level: 7 })).toMatchObject({ id: 1, utilization_level: 7 });

    expect(await client.cdn.originGroups.get(1)).toMatchObject({ id: 1, has_related_resources: true });

    const apps = await client.edge.apps.list({ limit: 5 });
    expect(apps.items).toHaveLength(5);

    expect(await client.edge.apps.update(1, { comment: "Commented through the client" })).toMatchObject({
      id: 1,
      comment: "Commented through the client",
    });

    expect(await client.edge.templates.get(1001)).toMatchObject({ id: 1001, owned: false });

    const secret = await client.edge.secrets.create({ name: "client-secret", secret_slots: [{ slot: 0, value: "s3cr3t" }] });
    expect(secret).toMatchObject({ name: "client-secret", app_count: 0, secret_slots: [{ slot: 0 }] });
    expect(JSON.stringify(secret)).not.toContain("s3cr3t");

    const streams = await client.streaming.streams.list();
    expect(streams.items).toHaveLength(25);

    expect(await client.streaming.streams.get(1)).toMatchObject({ id: 1, live: true });

    const clip = await client.streaming.streams.createClip(1, { duration: 60 });
    expect(clip).toMatchObject({ duration: 60, vod_required: false });

    const models = await client.cloud.inferenceModels.list({ limit: 3 });
    expect(models.items).toHaveLength(3);

    const images = await client.cloud.gpuImages.list(1, 1);
    expect(images.count).toBe(
      demoFixture.cloud.gpu_images.filter((image) => image.project_id === 1 && image.region_id === 1).length,
    );
    expect(images.results).toHaveLength(images.count);

    const totals = await client.cloud.costReports.totals({ time_from: "2026-08", time_to: "2026-10" });
    expect(totals.count).toBe(totals.results.length);
    expect(totals.count).toBeGreaterThan(0);

    const profile = await client.security.profiles.update(1, {
      profile_template: 1,
      ip_address: "203.0.113.11",
      fields: [{ base_field: 1, field_value: [443] }],
      site: "ED",
    });
    expect(profile).toMatchObject({ id: 1, ip_address: "203.0.113.11", site: "ED" });

    expect(await client.storage.buckets.getCors(1, "media-assets")).toEqual({
      data: { allowedOrigins: ["https://www.acme.example", "https://admin.acme.example"] },
    });

    const served = api.logs.map((entry) => ({ route: matchRoute(entry.method, entry.path), status: entry.status }));
    expect(served.every((entry) => entry.status >= 200 && entry.status < 300)).toBe(true);
    expect(new Set(served.map((entry) => entry.route))).toEqual(new Set(ROUTES.map(({ id }) => id)));
  });

  it("calls every route of the contract by its id with client.request, typed from the contract", async () => {
    const client = api.clientFor([1, "role-1-active"], { validateResponses: contract });
    api.logs.length = 0;
    for (const routeCase of routeCases(demoFixture)) {
      const input = { ...inputOf(routeCase.route.path, routeCase.path(1)), ...(routeCase.body ? { body: routeCase.body(1) } : {}) };
      // The inputs are built at run time from the shared route cases, so their type is the widest one.
      const reply = await client.request(routeCase.id, input as never).withResponse();
      expect(reply.status, routeCase.id).toBe(routeCase.status);
      expect(reply.body, routeCase.id).toBeDefined();
    }
    const served = api.logs.map((entry) => ({ route: matchRoute(entry.method, entry.path), status: entry.status }));
    expect(served.map((entry) => entry.route)).toEqual(ROUTES.map(({ id }) => id));
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
    await expect(api.client.request("cdn.deleteEverything" as RouteId, {})).rejects.toThrow("The contract has no route cdn.deleteEverything.");
    await expect(api.client.request("cdn.constructor" as RouteId, {})).rejects.toThrow("The contract has no route cdn.constructor.");
    await expect(api.client.request("toString.x" as RouteId, {})).rejects.toThrow("The contract has no route toString.x.");
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
