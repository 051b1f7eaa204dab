/**
 * publishSite and unpublishSite against the platform of @cloudplane/testing: the happy paths, and what
 * the product does when the platform is busy, slow or refuses its token.
 */
import { createTestPlatform, type TestPlatform } from "@cloudplane/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { PlatformProblem, productClient, publishSite, unpublishSite } from "../src/index.js";

let platform: TestPlatform;
beforeAll(async () => {
  platform = await createTestPlatform();
});
afterEach(() => platform.reset());
afterAll(() => platform.close());

const client = () => productClient({ apiKey: platform.administrator.token, baseUrl: platform.baseUrl, fetch: platform.fetch });
const site = { hostname: "static.shop.example", origin: "origin.shop.example:8080" };

describe("publishSite", () => {
  it("makes the site's CDN resource, pulling from its origin", async () => {
    const { resource, created } = await publishSite(client(), site);
    expect(created).toBe(true);
    expect(resource).toMatchObject({ cname: "static.shop.example", description: "Site static.shop.example", active: true });
    const group = await platform.client.cdn.originGroups.get(resource.originGroup);
    expect(group.sources.map((source) => source.source)).toEqual(["origin.shop.example:8080"]);
  });

  it("finds the resource of a site published before instead of making another", async () => {
    const { resource } = await platform.build.cdnResource({ cname: "static.shop.example" });
    const again = await publishSite(client(), site);
    expect(again).toEqual({ resource, created: false });
    expect((await platform.client.cdn.resources.list()).total).toBe(1);
  });

  it("gets through a platform that rate-limits it twice, thanks to the client's retries", async () => {
    platform.faults.rateLimit("cdn.listResources", { times: 2, retryAfter: 0 });
    expect((await publishSite(client(), site)).created).toBe(true);
    expect(platform.calls.map((call) => [call.route, call.status])).toEqual([
      ["cdn.listResources", 429],
      ["cdn.listResources", 429],
      ["cdn.listResources", 200],
      ["cdn.createResource", 201],
    ]);
  });

  it("says the platform is busy when it stays unavailable, and makes nothing", async () => {
    platform.faults.unavailable("cdn.*", { times: Infinity, retryAfter: 0 });
    const problem = await publishSite(client(), site).catch((error: unknown) => error);
    expect(problem).toBeInstanceOf(PlatformProblem);
    expect(problem).toMatchObject({ kind: "busy", message: "The platform is busy; publishing static.shop.example can be tried again in 0 s." });
    platform.faults.clear();
    expect((await platform.client.cdn.resources.list()).total).toBe(0);
  });

  it("publishes once when the create times out and the client sends it again, under the same idempotency key", async () => {
    platform.faults.timeout("cdn.createResource");
    expect((await publishSite(client(), site)).created).toBe(true);
    // The client retries a POST it sent with an idempotency key: the platform does it once.
    expect(platform.calls.filter((call) => call.route === "cdn.createResource")).toHaveLength(2);
    expect((await platform.client.cdn.resources.list()).total).toBe(1);
  });

  it("says the platform did not answer when every try of the create times out, and publishes nothing", async () => {
    platform.faults.timeout("cdn.createResource", { times: 3 });
    const problem = await publishSite(client(), site).catch((error: unknown) => error);
    expect(problem).toMatchObject({ kind: "unreachable", message: "The platform did not answer while publishing static.shop.example." });
    // Three tries (maxRetries 2), none answered.
    expect(platform.calls.filter((call) => call.route === "cdn.createResource")).toHaveLength(3);
    expect((await platform.client.cdn.resources.list()).total).toBe(0);
    // Three tries of 2 s each, and the waits between them.
  }, 15_000);

  it("asks for a new token when the platform refuses it", async () => {
    await platform.faults.expireToken();
    await expect(publishSite(client(), site)).rejects.toMatchObject({ kind: "credentials", message: "The platform refused our API token while publishing static.shop.example: renew it." });
  });

  it("passes on what the platform refuses, with its request id", async () => {
    const problem = await publishSite(client(), { hostname: "not a host name", origin: "origin.shop.example" }).catch((error: unknown) => error);
    expect(problem).toMatchObject({ kind: "rejected", requestId: expect.stringMatching(/^req_/) });
    expect((problem as PlatformProblem).message).toMatch(/^The platform refused publishing not a host name: /);
  });
});

describe("unpublishSite", () => {
  it("deactivates and deletes the site's resource", async () => {
    await publishSite(client(), site);
    const before = platform.calls.length;
    expect(await unpublishSite(client(), site.hostname)).toBe(true);
    expect(platform.calls.slice(before).map((call) => [call.route, call.status])).toEqual([
      ["cdn.listResources", 200],
      ["cdn.updateResource", 200],
      ["cdn.deleteResource", 204],
    ]);
    expect((await platform.client.cdn.resources.list()).total).toBe(0);
  });

  it("answers false for a site that was never published", async () => {
    expect(await unpublishSite(client(), "never.shop.example")).toBe(false);
  });
});
