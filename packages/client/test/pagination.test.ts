/**
 * Paged lists against the real handler: a list call resolves to its page, and iterating it yields
 * exactly the demo data's items, in the API's order, across every page.
 */
import { demoFixture } from "@cloudplane/db";
import { describe, expect, it } from "vitest";
import { engines, useClientApi } from "./api.js";

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

const byId = (a: { id: number }, b: { id: number }) => a.id - b.id;

const appIds = (accountId: number) =>
  demoFixture.edgeApps
    .filter((app) => app.accountId === accountId)
    .sort(byId)
    .map((app) => app.id);

const streamIds = (accountId: number) =>
  demoFixture.streams
    .filter((stream) => stream.accountId === accountId)
    .sort(byId)
    .reverse()
    .map((stream) => stream.id);

const modelIdsByName = () =>
  [...demoFixture.inferenceModels]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : 1))
    .map((model) => model.id);

describe.each(engines())("pagination on %s", (engine) => {
  const api = useClientApi(engine);

  it("edge apps: every app of the account, by limit and offset, one request a page", async () => {
    api.logs.length = 0;
    const apps = await collect(api.client.edge.apps.list({ limit: 10 }));
    expect(apps.map((app) => app.id)).toEqual(appIds(1));
    expect(appIds(1).length).toBeGreaterThan(30);
    expect(api.logs.map((entry) => entry.path)).toEqual(Array(Math.ceil(appIds(1).length / 10)).fill("/edge/v1/apps"));
  });

  it("edge apps: filters and ordering carry over to every page", async () => {
    const enabled = demoFixture.edgeApps.filter((app) => app.accountId === 1 && app.status === 1);
    const expected = enabled.sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : b.id - a.id)).map((app) => app.id);
    const apps = await collect(api.client.edge.apps.list({ status: 1, ordering: "-name", limit: 3 }));
    expect(apps.map((app) => app.id)).toEqual(expected);
    expect(expected.length).toBeGreaterThan(3);
  });

  it("edge apps: the page holds the body, the total and the way on", async () => {
    const first = await api.client.edge.apps.list({ limit: 20 });
    expect(first.items.map((app) => app.id)).toEqual(appIds(1).slice(0, 20));
    expect(first.body.apps).toBe(first.items);
    expect(first.total).toBe(appIds(1).length);
    expect(first.body.count).toBe(appIds(1).length);
    expect(first.requestId).toMatch(/^req_/);
    expect(first.hasNextPage()).toBe(true);
    const second = await first.getNextPage();
    expect(second.items.map((app) => app.id)).toEqual(appIds(1).slice(20));
    expect(second.hasNextPage()).toBe(false);
    expect(() => second.getNextPage()).toThrow(RangeError);
    // Iterating a page starts from that page.
    expect((await collect(second)).map((app) => app.id)).toEqual(appIds(1).slice(20));
    const pages = await collect(first.iterPages());
    expect(pages.map((page) => page.items.length)).toEqual([20, appIds(1).length - 20]);
  });

  it("edge apps: iteration from an offset yields the rest only", async () => {
    const apps = await collect(api.client.edge.apps.list({ offset: 30, limit: 4 }));
    expect(apps.map((app) => app.id)).toEqual(appIds(1).slice(30));
  });

  it("edge apps: an empty result is one empty page", async () => {
    const page = await api.client.edge.apps.list({ name: "no-such-app" });
    expect(page.items).toEqual([]);
    expect(page.hasNextPage()).toBe(false);
    expect(await collect(api.client.edge.apps.list({ name: "no-such-app" }))).toEqual([]);
  });

  it("inference models: the whole catalogue by limit and offset, by name", async () => {
    api.logs.length = 0;
    const models = await collect(api.client.cloud.inference.models.list({ limit: 10 }));
    expect(models.map((model) => model.id)).toEqual(modelIdsByName());
    expect(api.logs).toHaveLength(Math.ceil(demoFixture.inferenceModels.length / 10));
    const page = await api.client.cloud.inference.models.list();
    expect(page.items).toHaveLength(demoFixture.inferenceModels.length);
    expect(page.total).toBe(demoFixture.inferenceModels.length);
    expect(page.hasNextPage()).toBe(false);
  });

  it("streams: every stream of the account, newest first, by page number and X-Total-Count", async () => {
    api.logs.length = 0;
    const streams = await collect(api.client.streaming.streams.list());
    expect(streams.map((stream) => stream.id)).toEqual(streamIds(1));
    expect(api.logs).toHaveLength(Math.ceil(streamIds(1).length / 25));
    const first = await api.client.streaming.streams.list();
    expect(first.total).toBe(streamIds(1).length);
    expect(first.headers.get("x-total-count")).toBe(String(streamIds(1).length));
    expect(first.body).toBe(first.items);
  });

  it("streams: iteration from page 2, and an account with a single page", async () => {
    const rest = await collect(api.client.streaming.streams.list({ page: 2, with_broadcasts: 1 }));
    expect(rest.map((stream) => stream.id)).toEqual(streamIds(1).slice(25));
    expect(rest.every((stream) => Array.isArray(stream.broadcasts))).toBe(true);
    const other = await api.clientFor([2, "role-1-active"]).streaming.streams.list();
    expect(other.items.map((stream) => stream.id)).toEqual(streamIds(2));
    expect(other.hasNextPage()).toBe(false);
  });

  it("withResponse() on a list gives the page with the response", async () => {
    const { body, status, headers } = await api.client.streaming.streams.list().withResponse();
    expect(status).toBe(200);
    expect(body.items).toHaveLength(25);
    expect(headers.get("x-total-count")).toBe(String(streamIds(1).length));
  });
});
