/**
 * Every builder: what it makes is what the API then shows, with the defaults it promises, in the
 * platform's account or in another one; accounts and tokens of a role are held to that role.
 */
import { NotFoundError, PermissionDeniedError } from "@cloudplane/client";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestPlatform, type TestPlatform } from "../src/index.js";

let platform: TestPlatform;
beforeAll(async () => {
  platform = await createTestPlatform();
});
afterEach(() => platform.reset());
afterAll(() => platform.close());

describe("build.account", () => {
  it("makes an account of its own with an Administrator's token by default, whose client sees only that account", async () => {
    const built = await platform.build.account({ name: "Acme" });
    expect(built.account).toMatchObject({ companyName: "Acme", deleted: false, currentUser: built.token.client_user.user_id });
    expect(built.account.users).toHaveLength(1);
    expect(built.account.id).not.toBe(platform.administrator.accountId);
    expect(built.token).toMatchObject({ deleted: false, expired: false, exp_date: null });
    expect(built.token.client_user).toMatchObject({ client_id: built.account.id, role: { id: 1, name: "Administrators" } });
    expect(built.token.token).toMatch(/^cp_[0-9a-f]{64}$/);
    expect(await built.client.iam.account.get()).toEqual(built.account);
    const mine = await platform.build.stream({ name: "platform account's" });
    await expect(built.client.streaming.streams.get(mine.id, { maxRetries: 0 })).rejects.toBeInstanceOf(NotFoundError);
  });

  it("gives a token of the role asked for, held to that role", async () => {
    const built = await platform.build.account({ role: "users" });
    expect(built.token.client_user.role).toEqual({ id: 2, name: "Users" });
    expect((await built.client.streaming.streams.list()).items).toEqual([]);
    await expect(built.client.streaming.streams.create({ name: "not mine to make" }, { maxRetries: 0 })).rejects.toBeInstanceOf(
      PermissionDeniedError,
    );
    // Its Administrator's client makes objects in it.
    const made = await built.administrator.streaming.streams.create({ name: "made by its Administrator" });
    expect((await built.client.streaming.streams.get(made.id)).name).toBe("made by its Administrator");
  });
});

describe("build.token", () => {
  it("makes a token of a role in the platform's account, as the API answers it", async () => {
    const administrators = await platform.build.token();
    expect(administrators.client_user).toMatchObject({ user_id: platform.administrator.userId, role: { id: 1 } });
    const token = await platform.build.token({ role: "engineers", name: "ci", exp_date: "2099-01-01T00:00:00Z" });
    expect(token).toMatchObject({ name: "ci", deleted: false, expired: false, client_user: { client_id: platform.administrator.accountId, role: { id: 5, name: "Engineers" } } });
    expect(Date.parse(token.exp_date!)).toBe(Date.parse("2099-01-01T00:00:00Z"));
    const listed = await platform.client.iam.tokens.get(platform.administrator.accountId, token.id);
    const { token: _secret, ...shown } = token;
    expect(listed).toEqual(shown);
    const made = await platform.clientFor(token.token).streaming.streams.create({ name: "by an engineer" });
    expect(made.name).toBe("by an engineer");
  });

  it("makes a token in another account, given that account", async () => {
    const other = await platform.build.account();
    const token = await platform.build.token({ in: other, role: "users" });
    expect(token.client_user).toMatchObject({ client_id: other.account.id, role: { id: 2 } });
    expect((await platform.clientFor(token.token).iam.account.get()).id).toBe(other.account.id);
  });
});

describe("build.stream", () => {
  it("makes a stream with a default name, as GET shows it, in the account asked for", async () => {
    const stream = await platform.build.stream();
    expect(stream.name).toMatch(/^stream-\d+$/);
    expect(await platform.client.streaming.streams.get(stream.id)).toEqual(stream);
    const named = await platform.build.stream({ name: "Main stage", auto_record: true });
    expect(named).toMatchObject({ name: "Main stage", auto_record: true });
    const other = await platform.build.account();
    const theirs = await platform.build.stream({ name: "theirs" }, { in: other });
    expect((await other.client.streaming.streams.get(theirs.id)).name).toBe("theirs");
    await expect(platform.client.streaming.streams.get(theirs.id, { maxRetries: 0 })).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("build.edgeApp", () => {
  it("makes an app from the platform's first public template by default, as GET shows it", async () => {
    const app = await platform.build.edgeApp();
    expect(app.name).toMatch(/^app-\d+$/);
    expect(app.template).toEqual(expect.any(Number));
    // GET shows the app as the create answered it, with its settings (none yet) beside.
    expect(await platform.client.edge.apps.get(app.id)).toEqual({ ...app, env: {}, rsp_headers: {}, secrets: {}, stores: {}, log: "kafka" });
    const listed = await platform.client.edge.apps.list();
    expect(listed.total).toBe(1);
  });

  it("takes the fields given", async () => {
    const first = await platform.build.edgeApp();
    const app = await platform.build.edgeApp({ name: "resizer", template: first.template!, status: 1, comment: "for the images" });
    expect(app).toMatchObject({ name: "resizer", template: first.template, status: 1, comment: "for the images" });
  });
});

describe("build.originGroup and build.cdnResource", () => {
  it("make an origin group with one enabled source by default, as GET shows it", async () => {
    const group = await platform.build.originGroup();
    expect(group.name).toMatch(/^origin-group-\d+$/);
    expect(group.sources).toEqual([expect.objectContaining({ source: expect.stringMatching(/^origin-\d+\.example\.com$/), enabled: true, backup: false })]);
    expect(await platform.client.cdn.originGroups.get(group.id)).toEqual(group);
  });

  it("make a CDN resource with an origin group of its own, both as the API shows them", async () => {
    const { resource, originGroup } = await platform.build.cdnResource({ description: "images" });
    expect(resource).toMatchObject({ cname: expect.stringMatching(/^cdn-\d+\.test\.example$/), originGroup: originGroup.id, description: "images", active: true });
    expect(await platform.client.cdn.resources.get(resource.id)).toEqual(resource);
    expect(await platform.client.cdn.originGroups.get(originGroup.id)).toEqual(originGroup);
  });

  it("use the origin group given, or the one the API makes for `origin`", async () => {
    const group = await platform.build.originGroup({ name: "shared" });
    const onShared = await platform.build.cdnResource({ originGroup: group.id, cname: "static.shop.example" });
    expect(onShared.resource).toMatchObject({ cname: "static.shop.example", originGroup: group.id });
    expect(onShared.originGroup).toEqual(await platform.client.cdn.originGroups.get(group.id));
    const fromOrigin = await platform.build.cdnResource({ origin: "backend.shop.example:8080" });
    expect(fromOrigin.originGroup.sources.map((source) => source.source)).toEqual(["backend.shop.example:8080"]);
    expect(fromOrigin.resource.originGroup).toBe(fromOrigin.originGroup.id);
  });
});

describe("build.usageLines", () => {
  it("adds usage lines with defaults that the cost report then sums, in the account asked for", async () => {
    const lines = await platform.build.usageLines([{ month: "2026-05", billingValue: 120, cost: 2.5 }, { month: "2026-05", billingValue: 30, cost: 0.5 }]);
    expect(lines).toEqual([
      expect.objectContaining({ accountId: platform.administrator.accountId, month: "2026-05", type: "instance", currency: "EUR", billingValue: 120, cost: 2.5, tags: {} }),
      expect.objectContaining({ billingValue: 30, cost: 0.5 }),
    ]);
    expect(lines[1]!.id).toBe(lines[0]!.id + 1);
    const report = await platform.client.cloud.costReports.totals({ time_from: "2026-05", time_to: "2026-05" });
    expect(report.results).toEqual([expect.objectContaining({ type: "instance", billing_value: 150, cost: 3, currency: "EUR", region_id: lines[0]!.regionId })]);

    const other = await platform.build.account();
    await platform.build.usageLines([{ month: "2026-05", cost: 100 }], { in: other });
    const again = await platform.client.cloud.costReports.totals({ time_from: "2026-05", time_to: "2026-05" });
    expect(again.results).toEqual(report.results);
    const theirs = await other.client.cloud.costReports.totals({ time_from: "2026-05", time_to: "2026-05" });
    expect(theirs.results).toEqual([expect.objectContaining({ cost: 100 })]);
  });

  it("are gone from the cost report after a reset, which the database's monthly totals follow", async () => {
    const month = { time_from: "2026-07", time_to: "2026-07" };
    await platform.build.usageLines([{ month: "2026-07", billingValue: 10, cost: 1 }]);
    expect((await platform.client.cloud.costReports.totals(month)).results).toEqual([expect.objectContaining({ billing_value: 10, cost: 1 })]);
    await platform.reset();
    expect((await platform.client.cloud.costReports.totals(month)).results).toEqual([]);
    await platform.build.usageLines([{ month: "2026-07", billingValue: 4, cost: 0.25 }]);
    expect((await platform.client.cloud.costReports.totals(month)).results).toEqual([expect.objectContaining({ billing_value: 4, cost: 0.25 })]);
  });

  it("defaults to this month", async () => {
    const [line] = await platform.build.usageLines([{}]);
    expect(line!.month).toBe(new Date().toISOString().slice(0, 7));
  });
});
