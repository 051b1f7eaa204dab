/**
 * createTestPlatform: the client, fetch and loopback server reach the real API; the presets; reset()
 * back to the seeded state (rows and id sequences); a seed of the platform's own; the call log; close().
 */
import { createClient, NotFoundError } from "@cloudplane/client";
import { demoFixture, streams } from "@cloudplane/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestPlatform, IN_PROCESS_BASE_URL, platformCatalog, type TestPlatform } from "../src/index.js";

describe("a platform with the empty preset", () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await createTestPlatform();
  });
  afterAll(() => platform.close());

  it("calls the API in the process as the account's Administrator", async () => {
    const account = await platform.client.iam.account.get();
    expect(account).toMatchObject({ id: platform.administrator.accountId, companyName: "Test account", currentUser: platform.administrator.userId });
    expect(account.users).toEqual([expect.objectContaining({ id: platform.administrator.userId, groups: [{ id: 1, name: "Administrators" }] })]);
    expect(platform.baseUrl).toBe(IN_PROCESS_BASE_URL);
    expect(platform.administrator.token).toMatch(/^cp_[0-9a-f]{64}$/);
  });

  it("holds the platform's catalog and nothing of an account", async () => {
    const models = await platform.client.cloud.inference.models.list({ limit: 1000 });
    expect(models.total).toBe(platformCatalog().inferenceModels.length);
    expect(models.total).toBeGreaterThan(0);
    expect((await platform.client.streaming.streams.list()).items).toEqual([]);
    expect((await platform.client.edge.apps.list()).total).toBe(0);
  });

  it("answers fetch given a path, a URL or a Request, in the API's envelope for what fails", async () => {
    const authorization = `apikey ${platform.administrator.token}`;
    const byPath = await platform.fetch("/iam/clients/me", { headers: { authorization } });
    expect(byPath.status).toBe(200);
    expect(((await byPath.json()) as { id: number }).id).toBe(platform.administrator.accountId);
    const byUrl = await platform.fetch(new URL("/streaming/streams/4242", "https://anything.example"), { headers: { authorization } });
    expect(byUrl.status).toBe(404);
    expect(await byUrl.json()).toEqual({ message: expect.any(String), code: "not_found", request_id: byUrl.headers.get("x-request-id") });
    const unauthenticated = await platform.fetch(new Request(`${IN_PROCESS_BASE_URL}/iam/clients/me`));
    expect(unauthenticated.status).toBe(401);
  });

  it("gives what createClient needs to call it", async () => {
    const client = createClient({ ...platform.clientOptions, maxRetries: 0 });
    await expect(client.streaming.streams.get(999)).rejects.toBeInstanceOf(NotFoundError);
    expect(platform.clientOptions).toEqual({ apiKey: platform.administrator.token, baseUrl: IN_PROCESS_BASE_URL, fetch: expect.any(Function) });
  });

  it("logs every call with its route id and status, and emptied by reset()", async () => {
    await platform.reset();
    await platform.client.streaming.streams.list();
    // Without a token: the API authenticates before it looks the route up.
    await platform.fetch("/nowhere/at/all");
    expect(platform.calls).toEqual([
      { route: "streaming.listStreams", method: "GET", path: "/streaming/streams", status: 200, fault: null },
      { route: null, method: "GET", path: "/nowhere/at/all", status: 401, fault: null },
    ]);
    await platform.reset();
    expect(platform.calls).toEqual([]);
  });

  it("goes back to the seeded state on reset(): rows and id sequences", async () => {
    const first = await platform.build.stream({ name: "before reset" });
    await platform.build.stream();
    await platform.reset();
    expect((await platform.client.streaming.streams.list()).items).toEqual([]);
    const again = await platform.build.stream({ name: "after reset" });
    expect(again.id).toBe(first.id);
    // A row changed in place comes back too.
    await platform.db.update(streams).set({ name: "changed" });
    await platform.reset();
    expect((await platform.client.streaming.streams.list()).items).toEqual([]);
  });

  it("serves the same platform over HTTP on loopback once asked", async () => {
    const baseUrl = await platform.listen();
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(platform.baseUrl).toBe(baseUrl);
    expect(await platform.listen()).toBe(baseUrl);
    const made = await platform.build.stream({ name: "seen over HTTP" });
    const response = await fetch(`${baseUrl}/streaming/streams/${made.id}`, { headers: { authorization: `apikey ${platform.administrator.token}` } });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { name: string }).name).toBe("seen over HTTP");
    const overHttp = createClient({ apiKey: platform.administrator.token, baseUrl });
    expect((await overHttp.streaming.streams.get(made.id)).id).toBe(made.id);
    expect(platform.calls.at(-1)).toEqual({ route: "streaming.getStream", method: "GET", path: `/streaming/streams/${made.id}`, status: 200, fault: null });
  });
});

describe("a platform with the demo preset", () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await createTestPlatform({ preset: "demo" });
  });
  afterAll(() => platform.close());

  it("holds the demo data and calls as demo account 1's Administrator", async () => {
    const account = await platform.client.iam.account.get();
    expect(account.id).toBe(1);
    const apps = await platform.client.edge.apps.list({ limit: 1000 });
    expect(apps.total).toBe(demoFixture.edgeApps.filter((app) => app.accountId === 1).length);
  });

  it("comes back to the demo data after reset()", async () => {
    const [stream] = demoFixture.streams.filter((item) => item.accountId === 1);
    await platform.client.streaming.streams.delete(stream!.id);
    await expect(platform.client.streaming.streams.get(stream!.id)).rejects.toBeInstanceOf(NotFoundError);
    await platform.reset();
    expect((await platform.client.streaming.streams.get(stream!.id)).name).toBe(stream!.name);
  });
});

describe("a platform with a seed of its own", () => {
  let platform: TestPlatform;
  let seededId = 0;
  beforeAll(async () => {
    platform = await createTestPlatform({
      seed: async (seeding) => {
        seededId = (await seeding.build.stream({ name: "seeded" })).id;
      },
    });
  });
  afterAll(() => platform.close());

  it("starts with what the seed made, and reset() returns to it", async () => {
    expect(platform.calls).toEqual([]);
    expect((await platform.client.streaming.streams.list()).items.map((stream) => stream.name)).toEqual(["seeded"]);
    const later = await platform.build.stream({ name: "later" });
    expect(later.id).toBe(seededId + 1);
    await platform.reset();
    expect((await platform.client.streaming.streams.list()).items.map((stream) => stream.name)).toEqual(["seeded"]);
    expect((await platform.build.stream({ name: "again" })).id).toBe(seededId + 1);
  });
});

describe("closing a platform", () => {
  it("refuses calls after close, and the next platform starts in the seeded state", async () => {
    const first = await createTestPlatform();
    await first.build.stream({ name: "left behind" });
    await first.listen();
    await first.close();
    await expect(first.client.streaming.streams.list({}, { maxRetries: 0 })).rejects.toThrow("The test platform is closed.");
    await expect(first.reset()).rejects.toThrow("The test platform is closed.");
    const second = await createTestPlatform();
    try {
      expect((await second.client.streaming.streams.list()).items).toEqual([]);
    } finally {
      await second.close();
    }
  });

  it("refuses a preset it does not have", async () => {
    await expect(createTestPlatform({ preset: "full" as "demo" })).rejects.toThrow('preset must be "empty" or "demo", not "full".');
  });
});
