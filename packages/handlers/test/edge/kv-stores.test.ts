/**
 * Integration tests of edge KV stores: their lifecycle (list, create, get, replace, delete), the apps that
 * use them (`app_count`, the app's `stores`), the 409 of a delete of a store an app reads, and every bad
 * request answered in the envelope with nothing changed.
 */
import { demoFixture, sql } from "@cloudplane/db";
import { selectRows } from "@cloudplane/db/testing";
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi } from "../harness.js";
import { edgeHelpers } from "./shared.js";

const KV = "/fastedge/v1/kv";
const storesOf = (account: number) => demoFixture.edgeKvStores.filter((store) => store.accountId === account).sort((a, b) => a.id - b.id);
const appCount = (storeId: number) => new Set(demoFixture.edgeAppStores.filter((link) => link.storeId === storeId).map((link) => link.appId)).size;

describe.each(engines())("edge KV stores on %s", (engine) => {
  const api = useApi(engine);
  const { createApp, expectNoContent } = edgeHelpers(api);
  const storesTable = async () => ({
    stores: await selectRows(api.database.db, sql`select * from edge_kv_stores order by id`),
    links: await selectRows(api.database.db, sql`select * from edge_app_stores order by app_id, name`),
  });

  it("lists the account's stores by id with the number of apps that use each, paged, and those of one app", async () => {
    const reply = await api.call("GET", KV);
    expect(reply.status, reply.text).toBe(200);
    const own = storesOf(1);
    expect(reply.body).toEqual({
      stores: own.map((store) => ({ id: store.id, name: store.name, comment: store.comment, app_count: appCount(store.id), size: store.size })),
      count: own.length,
    });
    const page = await api.call("GET", `${KV}?limit=1&offset=1`);
    expect(page.body).toMatchObject({ count: own.length, stores: [{ id: own[1]!.id }] });
    const search = demoFixture.edgeApps.find((app) => app.name === "search-suggest" && app.accountId === 1)!;
    const ofApp = await api.call("GET", `${KV}?app_id=${search.id}`);
    expect((ofApp.body as { stores: { id: number }[] }).stores.map((store) => store.id)).toEqual([1, 5]);
    // Another account's app: none, as for an app that does not exist.
    const otherApp = demoFixture.edgeApps.find((app) => app.accountId === 2)!;
    expect((await api.call("GET", `${KV}?app_id=${otherApp.id}`)).body).toEqual({ stores: [], count: 0 });
    expect((await api.call("GET", KV, { as: [2, "role-1-active"] })).body).toMatchObject({ count: storesOf(2).length });
    expectEnvelope(await api.call("GET", `${KV}?limit=0&app_id=x`), 400, "validation_error", { "query.limit": expect.any(Array), "query.app_id": expect.any(Array) });
  });

  it("creates, shows, replaces and deletes a store, its revision counting the replaces", async () => {
    const created = await api.call("POST", KV, { body: { name: "geo-rules", comment: "Country rules." } });
    expect(created.status, created.text).toBe(200);
    const store = created.body as { id: number; revision: number; updated_at: string };
    expect(store).toMatchObject({ name: "geo-rules", comment: "Country rules.", app_count: 0, size: 0, byod: null, revision: 1 });
    expect(Date.parse(store.updated_at)).not.toBeNaN();
    const { id, ...shown } = created.body as Record<string, unknown>;
    expect((await api.call("GET", `${KV}/${store.id}`)).body).toEqual(shown);

    const replaced = await api.call("PUT", `${KV}/${store.id}`, { body: { name: "geo-rules-v2" } });
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.body).toMatchObject({ name: "geo-rules-v2", comment: "", revision: 2 });

    expectNoContent(await api.call("DELETE", `${KV}/${store.id}`));
    expectEnvelope(await api.call("GET", `${KV}/${store.id}`), 404, "not_found");
    expectEnvelope(await api.call("DELETE", `${KV}/${store.id}`), 404, "not_found");
    expect(id).toBe(store.id);
  });

  it("keeps a BYOD store's settings, with no revision of its own, and its kind on replace (409)", async () => {
    const created = await api.call("POST", KV, { body: { name: "own-redis", byod: { prefix: "app:", url: "redis://cache.example.com:6379/1" } } });
    expect(created.status, created.text).toBe(200);
    const { id } = created.body as { id: number };
    expect(created.body).toMatchObject({ byod: { prefix: "app:", url: "redis://cache.example.com:6379/1" }, revision: null, updated_at: null, size: 0 });
    const before = await storesTable();
    expectEnvelope(await api.call("PUT", `${KV}/${id}`, { body: { name: "own-redis" } }), 409, "conflict");
    expectEnvelope(await api.call("PUT", `${KV}/1`, { body: { name: "product-catalog", byod: { prefix: "x", url: "redis://a.example.com" } } }), 409, "conflict");
    expect(await storesTable()).toEqual(before);
    const replaced = await api.call("PUT", `${KV}/${id}`, { body: { name: "own-redis", byod: { prefix: "edge:", url: "redis://cache.example.com:6379/2" } } });
    expect(replaced.body).toMatchObject({ byod: { prefix: "edge:", url: "redis://cache.example.com:6379/2" }, revision: null });
  });

  it("refuses bad bodies naming each field, a password in a URL, a taken name (409), another account's store (404), changing nothing", async () => {
    const before = await storesTable();
    expectEnvelope(
      await api.call("POST", KV, { body: { name: "-bad", comment: 5, byod: { prefix: "", url: "not a url" }, size: 3, extra: true } }),
      400,
      "validation_error",
      { name: expect.any(Array), comment: expect.any(Array), "byod.prefix": expect.any(Array), "byod.url": expect.any(Array), size: expect.any(Array), extra: expect.any(Array) },
    );
    const withPassword = expectEnvelope(await api.call("POST", KV, { body: { name: "leaky", byod: { prefix: "p", url: "redis://user:s3cret-pw@cache.example.com" } } }), 400, "validation_error", {
      "byod.url": expect.any(Array),
    });
    expect(JSON.stringify(withPassword)).not.toContain("s3cret-pw");
    expectEnvelope(await api.call("POST", KV, { body: {} }), 400, "validation_error", { name: expect.any(Array) });
    expectEnvelope(await api.call("POST", KV, { body: { name: "feature-flags" } }), 409, "conflict");
    expectEnvelope(await api.call("PUT", `${KV}/3`, { body: { name: "product-catalog" } }), 409, "conflict");
    const other = storesOf(2)[0]!;
    expectEnvelope(await api.call("GET", `${KV}/${other.id}`), 404, "not_found");
    expectEnvelope(await api.call("PUT", `${KV}/${other.id}`, { body: { name: "mine" } }), 404, "not_found");
    expectEnvelope(await api.call("DELETE", `${KV}/${other.id}`), 404, "not_found");
    expectEnvelope(await api.call("POST", KV, { body: { name: "reader" }, as: [1, "role-2-active"] }), 403, "permission_denied");
    expect(await storesTable()).toEqual(before);
  });

  it("gives stores to an app by name; the app's GET names them; a store in use is not deleted (409) until the app lets it go", async () => {
    const store = (await api.call("POST", KV, { body: { name: "app-data" } })).body as { id: number };
    const binary = demoFixture.edgeBinaries.find((candidate) => candidate.accountId === 1 && candidate.apiType === "wasi-http")!;
    const app = await createApp({ name: "kv-reader", binary: binary.id, stores: { DATA: { id: store.id } } });
    const shown = await api.call("GET", `/fastedge/v1/apps/${app.id}`);
    expect(shown.body).toMatchObject({ stores: { DATA: { id: store.id, name: "app-data", comment: "" } }, secrets: {}, env: {}, rsp_headers: {}, log: "kafka" });
    expect((await api.call("GET", `${KV}/${store.id}`)).body).toMatchObject({ app_count: 1 });
    const refused = expectEnvelope(await api.call("DELETE", `${KV}/${store.id}`), 409, "conflict");
    expect(refused.message).toContain(String(app.id));
    // Another account's store, or none, is 400 on the entry's path, and changes nothing.
    const before = await storesTable();
    expectEnvelope(await api.call("PATCH", `/fastedge/v1/apps/${app.id}`, { body: { stores: { X: { id: storesOf(2)[0]!.id }, Y: { id: 999999 } } } }), 400, "validation_error", {
      "stores.X.id": expect.any(Array),
      "stores.Y.id": expect.any(Array),
    });
    expect(await storesTable()).toEqual(before);
    expect((await api.call("PATCH", `/fastedge/v1/apps/${app.id}`, { body: { stores: {} } })).status).toBe(200);
    expect((await api.call("GET", `/fastedge/v1/apps/${app.id}`)).body).toMatchObject({ stores: {} });
    expectNoContent(await api.call("DELETE", `${KV}/${store.id}`));
  });
});
