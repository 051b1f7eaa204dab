/**
 * Integration tests of the Object storage buckets on every engine: list, create, delete, and setting a
 * bucket's CORS origins, lifecycle and public-read policy.
 */
import { BUCKET_CORS_ORIGINS_MAX, BUCKET_LIFECYCLE_DAYS_MAX, type BucketList } from "@cloudplane/contract";
import { demoFixture, sql, type DemoAccountId, type DemoRow, type DemoTokenName } from "@cloudplane/db";
import { selectRows } from "@cloudplane/db/testing";
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi, type TestApi } from "../harness.js";

const { storages, buckets } = demoFixture;

type DemoStorage = DemoRow<"storages">;

function storagesOf(accountId: DemoAccountId): DemoStorage[] {
  return storages.filter((entry) => entry.accountId === accountId).sort((a, b) => a.id - b.id);
}

function bucketNames(storageId: number): string[] {
  return buckets
    .filter((bucket) => bucket.storageId === storageId)
    .map((bucket) => bucket.name)
    .sort();
}

const [luxStorage, amsStorage] = storagesOf(1);
const theirStorage = storagesOf(2)[0]!;
const theirBucket = buckets.find((bucket) => bucket.storageId === theirStorage.id)!;

const bucketPath = (id: number, name: string) => `/storage/provisioning/v1/storage/${id}/s3/bucket/${name}`;
const bucketsPath = (id: number | string) => `/storage/provisioning/v2/storage/${id}/s3/buckets`;

async function tableCount(api: TestApi, table: "storages" | "buckets"): Promise<number> {
  const [row] = await selectRows<{ total: number }>(api.database.db, sql`select count(*)::int as total from ${sql.identifier(table)}`);
  return row!.total;
}

/** A bucket's lifecycle and policy as the database holds them. */
async function bucketSettings(api: TestApi, storageId: number, name: string): Promise<{ lifecycle_days: number | null; public: boolean } | undefined> {
  const [row] = await selectRows<{ lifecycle_days: number | null; public: boolean }>(
    api.database.db,
    sql`select lifecycle_days, public from buckets where storage_id = ${storageId} and name = ${name}`,
  );
  return row;
}

async function corsOf(api: TestApi, storageId: number, name: string): Promise<string[] | undefined> {
  const [row] = await selectRows<{ allowed_origins: string[] }>(
    api.database.db,
    sql`select allowed_origins from buckets where storage_id = ${storageId} and name = ${name}`,
  );
  return row?.allowed_origins;
}

describe.each(engines())("Object storage buckets on %s", (engine) => {
  const api = useApi(engine);

  function call(method: string, path: string, body?: unknown, as: [DemoAccountId, DemoTokenName] = [1, "role-1-active"]) {
    return api.call(method, path, { body, as });
  }

  describe("buckets", () => {
    it("lists a storage's buckets by name, paged, with count; Users may read", async () => {
      const names = bucketNames(luxStorage!.id);
      const reply = await call("GET", bucketsPath(luxStorage!.id), undefined, [1, "role-2-active"]);
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toEqual({ count: names.length, results: names.map((name) => ({ name, lifecycle: null })) });
      const page = (await call("GET", `${bucketsPath(luxStorage!.id)}?limit=1&offset=1`)).body as BucketList;
      expect(page).toEqual({ count: names.length, results: [{ name: names[1], lifecycle: null }] });
      expectEnvelope(await call("GET", bucketsPath(theirStorage.id)), 404, "not_found");
      expectEnvelope(await call("GET", bucketsPath(999_999)), 404, "not_found");
      expectEnvelope(await call("GET", `${bucketsPath(luxStorage!.id)}?limit=1001`), 400, "validation_error", ["query.limit"]);
    });

    it("makes a bucket (201, the bucket), lists it, sets its CORS, and deletes it (204)", async () => {
      const storageId = amsStorage!.id;
      const made = await call("POST", bucketPath(storageId, "press-kit"));
      expect(made.status, made.text).toBe(201);
      expect(made.body).toEqual({ name: "press-kit", lifecycle: null });
      expect((await call("GET", bucketsPath(storageId))).body).toEqual({
        count: bucketNames(storageId).length + 1,
        results: [...bucketNames(storageId), "press-kit"].sort().map((name) => ({ name, lifecycle: null })),
      });
      expect((await call("GET", `${bucketPath(storageId, "press-kit")}/cors`)).body).toEqual({ data: { allowedOrigins: [] } });

      const deleted = await call("DELETE", bucketPath(storageId, "press-kit"));
      expect(deleted.status, deleted.text).toBe(204);
      expect(deleted.text).toBe("");
      expectEnvelope(await call("GET", `${bucketPath(storageId, "press-kit")}/cors`), 404, "not_found");
      expectEnvelope(await call("DELETE", bucketPath(storageId, "press-kit")), 404, "not_found");
      expect((await call("GET", bucketsPath(storageId))).body).toMatchObject({ count: bucketNames(storageId).length });
    });

    it("takes no body or an empty object; a field in the body is 400 and makes nothing", async () => {
      const storageId = amsStorage!.id;
      expect((await call("POST", bucketPath(storageId, "with-empty-body"), {})).status).toBe(201);
      const before = await tableCount(api, "buckets");
      expectEnvelope(await call("POST", bucketPath(storageId, "with-a-field"), { name: "with-a-field" }), 400, "validation_error", ["name"]);
      expect(await tableCount(api, "buckets")).toBe(before);
    });

    it("a name the storage has is 409; the same name in another storage is fine", async () => {
      const before = await tableCount(api, "buckets");
      const existing = bucketNames(luxStorage!.id)[0]!;
      expectEnvelope(await call("POST", bucketPath(luxStorage!.id, existing)), 409, "conflict");
      expect(await tableCount(api, "buckets")).toBe(before);
      expect((await call("POST", bucketPath(amsStorage!.id, existing))).status).toBe(201);
    });

    it("another account's storage and unknown ids are 404 and change nothing; Users may not write", async () => {
      const before = await tableCount(api, "buckets");
      expectEnvelope(await call("POST", bucketPath(theirStorage.id, "mine-now")), 404, "not_found");
      expectEnvelope(await call("POST", bucketPath(999_999, "mine-now")), 404, "not_found");
      expectEnvelope(await call("DELETE", bucketPath(theirStorage.id, theirBucket.name)), 404, "not_found");
      expectEnvelope(await call("DELETE", bucketPath(luxStorage!.id, "no-such-bucket")), 404, "not_found");
      expectEnvelope(await call("POST", bucketPath(luxStorage!.id, "by-a-user"), undefined, [1, "role-2-active"]), 403, "permission_denied");
      expectEnvelope(await call("DELETE", bucketPath(luxStorage!.id, bucketNames(luxStorage!.id)[0]!), undefined, [1, "role-2-active"]), 403, "permission_denied");
      expect(await tableCount(api, "buckets")).toBe(before);
      expectEnvelope(await call("POST", bucketPath(luxStorage!.id, "Upper")), 400, "validation_error", ["path.name"]);
    });
  });

  describe("a bucket's lifecycle and policy", () => {
    const lifecyclePath = (storageId: number | string, name: string) => `${bucketPath(Number(storageId), name)}/lifecycle`;
    const policyPath = (storageId: number | string, name: string) => `${bucketPath(Number(storageId), name)}/policy`;

    it("sets the lifecycle (the bucket, as the listing shows it), replaces it, and removes it (204, also when there is none)", async () => {
      const storageId = amsStorage!.id;
      expect((await call("POST", bucketPath(storageId, "expiring"))).status).toBe(201);
      const set = await call("POST", lifecyclePath(storageId, "expiring"), { expiration_days: 30 });
      expect(set.status, set.text).toBe(200);
      expect(set.body).toEqual({ name: "expiring", lifecycle: 30 });
      expect(((await call("GET", bucketsPath(storageId))).body as BucketList).results).toContainEqual({ name: "expiring", lifecycle: 30 });
      expect((await call("POST", lifecyclePath(storageId, "expiring"), { expiration_days: BUCKET_LIFECYCLE_DAYS_MAX })).body).toEqual({
        name: "expiring",
        lifecycle: BUCKET_LIFECYCLE_DAYS_MAX,
      });
      expect(await bucketSettings(api, storageId, "expiring")).toEqual({ lifecycle_days: BUCKET_LIFECYCLE_DAYS_MAX, public: false });

      const removed = await call("DELETE", lifecyclePath(storageId, "expiring"));
      expect(removed.status, removed.text).toBe(204);
      expect(removed.text).toBe("");
      expect(((await call("GET", bucketsPath(storageId))).body as BucketList).results).toContainEqual({ name: "expiring", lifecycle: null });
      expect((await call("DELETE", lifecyclePath(storageId, "expiring"))).status).toBe(204);
      expect(await bucketSettings(api, storageId, "expiring")).toEqual({ lifecycle_days: null, public: false });
    });

    it.each<[string, unknown, string[]]>([
      ["no expiration_days", {}, ["expiration_days"]],
      ["zero days", { expiration_days: 0 }, ["expiration_days"]],
      ["negative days", { expiration_days: -1 }, ["expiration_days"]],
      [`${BUCKET_LIFECYCLE_DAYS_MAX + 1} days`, { expiration_days: BUCKET_LIFECYCLE_DAYS_MAX + 1 }, ["expiration_days"]],
      ["a fraction", { expiration_days: 1.5 }, ["expiration_days"]],
      ["a string", { expiration_days: "30" }, ["expiration_days"]],
      ["null", { expiration_days: null }, ["expiration_days"]],
      ["an unknown field", { expiration_days: 30, prefix: "logs/" }, ["prefix"]],
    ])("a lifecycle with %s is 400 naming the fields, and changes nothing", async (_what, body, fields) => {
      const storageId = amsStorage!.id;
      const name = `bad-lifecycle-${Math.random().toString(36).slice(2, 10)}`;
      expect((await call("POST", bucketPath(storageId, name))).status).toBe(201);
      await call("POST", lifecyclePath(storageId, name), { expiration_days: 7 });
      const before = await bucketSettings(api, storageId, name);
      expectEnvelope(await call("POST", lifecyclePath(storageId, name), body), 400, "validation_error", fields);
      expect(await bucketSettings(api, storageId, name)).toEqual(before);
      expect(before).toMatchObject({ lifecycle_days: 7 });
    });

    it("makes a bucket public and private again; the GET answers true or false; repeats answer the same", async () => {
      const storageId = amsStorage!.id;
      expect((await call("POST", bucketPath(storageId, "public-site"))).status).toBe(201);
      const initial = await call("GET", policyPath(storageId, "public-site"), undefined, [1, "role-2-active"]);
      expect(initial.status, initial.text).toBe(200);
      expect(initial.text).toBe("false");

      const made = await call("POST", policyPath(storageId, "public-site"));
      expect(made.status, made.text).toBe(200);
      expect(made.body).toBe(true);
      expect((await call("POST", policyPath(storageId, "public-site"), {})).body).toBe(true);
      expect((await call("GET", policyPath(storageId, "public-site"))).body).toBe(true);
      expect(await bucketSettings(api, storageId, "public-site")).toEqual({ lifecycle_days: null, public: true });

      const removed = await call("DELETE", policyPath(storageId, "public-site"));
      expect(removed.status, removed.text).toBe(204);
      expect(removed.text).toBe("");
      expect((await call("GET", policyPath(storageId, "public-site"))).body).toBe(false);
      expect((await call("DELETE", policyPath(storageId, "public-site"))).status).toBe(204);
      expect(await bucketSettings(api, storageId, "public-site")).toEqual({ lifecycle_days: null, public: false });

      // The policy and lifecycle go with the bucket; a new bucket of the name starts without them.
      await call("POST", policyPath(storageId, "public-site"));
      await call("POST", lifecyclePath(storageId, "public-site"), { expiration_days: 3 });
      expect((await call("DELETE", bucketPath(storageId, "public-site"))).status).toBe(204);
      expect((await call("POST", bucketPath(storageId, "public-site"))).body).toEqual({ name: "public-site", lifecycle: null });
      expect((await call("GET", policyPath(storageId, "public-site"))).body).toBe(false);
    });

    it("a field in the policy body is 400 and changes nothing", async () => {
      const storageId = luxStorage!.id;
      const name = bucketNames(storageId)[0]!;
      const before = await bucketSettings(api, storageId, name);
      expectEnvelope(await call("POST", policyPath(storageId, name), { public: true }), 400, "validation_error", ["public"]);
      expect(await bucketSettings(api, storageId, name)).toEqual(before);
    });

    it("another account's bucket and unknown buckets are 404 and change nothing; Users may read the policy but not write", async () => {
      const theirBefore = await bucketSettings(api, theirStorage.id, theirBucket.name);
      for (const [method, path, body] of [
        ["POST", lifecyclePath(theirStorage.id, theirBucket.name), { expiration_days: 1 }],
        ["DELETE", lifecyclePath(theirStorage.id, theirBucket.name), undefined],
        ["GET", policyPath(theirStorage.id, theirBucket.name), undefined],
        ["POST", policyPath(theirStorage.id, theirBucket.name), undefined],
        ["DELETE", policyPath(theirStorage.id, theirBucket.name), undefined],
        ["POST", lifecyclePath(luxStorage!.id, "no-such-bucket"), { expiration_days: 1 }],
        ["DELETE", lifecyclePath(luxStorage!.id, "no-such-bucket"), undefined],
        ["GET", policyPath(luxStorage!.id, "no-such-bucket"), undefined],
        ["POST", policyPath(999_999, "no-such-bucket"), undefined],
        ["DELETE", policyPath(999_999, "no-such-bucket"), undefined],
      ] as const) {
        const reply = await call(method, path, body);
        expectEnvelope(reply, 404, "not_found", undefined, `${method} ${path}`);
      }
      expect(await bucketSettings(api, theirStorage.id, theirBucket.name)).toEqual(theirBefore);

      const own = bucketNames(luxStorage!.id)[0]!;
      const before = await bucketSettings(api, luxStorage!.id, own);
      const user: [DemoAccountId, DemoTokenName] = [1, "role-2-active"];
      expect((await call("GET", policyPath(luxStorage!.id, own), undefined, user)).status).toBe(200);
      expectEnvelope(await call("POST", lifecyclePath(luxStorage!.id, own), { expiration_days: 1 }, user), 403, "permission_denied");
      expectEnvelope(await call("DELETE", lifecyclePath(luxStorage!.id, own), undefined, user), 403, "permission_denied");
      expectEnvelope(await call("POST", policyPath(luxStorage!.id, own), undefined, user), 403, "permission_denied");
      expectEnvelope(await call("DELETE", policyPath(luxStorage!.id, own), undefined, user), 403, "permission_denied");
      expect(await bucketSettings(api, luxStorage!.id, own)).toEqual(before);
    });
  });

  describe("POST /storage/provisioning/v1/storage/{id}/s3/bucket/{name}/cors", () => {
    const corsPath = (storageId: number, name: string) => `${bucketPath(storageId, name)}/cors`;

    it("replaces the origins and answers them as the GET does; repeats are kept once; [] allows none", async () => {
      const bucket = buckets.find((item) => item.storageId === luxStorage!.id && item.allowedOrigins.length > 0)!;
      const origins = ["https://cdn.acme.example", "http://localhost:5173", "https://cdn.acme.example", "*"];
      const reply = await call("POST", corsPath(luxStorage!.id, bucket.name), { allowedOrigins: origins });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toEqual({ data: { allowedOrigins: ["https://cdn.acme.example", "http://localhost:5173", "*"] } });
      expect((await call("GET", corsPath(luxStorage!.id, bucket.name))).body).toEqual(reply.body);
      const cleared = await call("POST", corsPath(luxStorage!.id, bucket.name), { allowedOrigins: [] });
      expect(cleared.body).toEqual({ data: { allowedOrigins: [] } });
      expect(await corsOf(api, luxStorage!.id, bucket.name)).toEqual([]);
    });

    it.each<[string, unknown, string[]]>([
      ["no allowedOrigins", {}, ["allowedOrigins"]],
      ["a path in an origin", { allowedOrigins: ["https://acme.example/app"] }, ["allowedOrigins.0"]],
      ["an origin without scheme", { allowedOrigins: ["https://ok.example", "acme.example"] }, ["allowedOrigins.1"]],
      ["a wildcard host", { allowedOrigins: ["https://*.acme.example"] }, ["allowedOrigins.0"]],
      ["a string instead of a list", { allowedOrigins: "*" }, ["allowedOrigins"]],
      [`${BUCKET_CORS_ORIGINS_MAX + 1} origins`, { allowedOrigins: Array.from({ length: BUCKET_CORS_ORIGINS_MAX + 1 }, (_, n) => `https://o${n}.example`) }, ["allowedOrigins"]],
      ["an unknown field", { allowedOrigins: [], maxAgeSeconds: 60 }, ["maxAgeSeconds"]],
    ])("%s is 400 naming the fields, and changes nothing", async (_what, body, fields) => {
      const bucket = buckets.find((item) => item.storageId === luxStorage!.id && item.allowedOrigins.length > 0)!;
      const before = await corsOf(api, luxStorage!.id, bucket.name);
      expectEnvelope(await call("POST", corsPath(luxStorage!.id, bucket.name), body), 400, "validation_error", fields);
      expect(await corsOf(api, luxStorage!.id, bucket.name)).toEqual(before);
    });

    it("another account's bucket and unknown buckets are 404 and change nothing; Users may not set CORS", async () => {
      expectEnvelope(await call("POST", corsPath(theirStorage.id, theirBucket.name), { allowedOrigins: ["*"] }), 404, "not_found");
      expect(await corsOf(api, theirStorage.id, theirBucket.name)).toEqual(theirBucket.allowedOrigins);
      expectEnvelope(await call("POST", corsPath(luxStorage!.id, "no-such-bucket"), { allowedOrigins: ["*"] }), 404, "not_found");
      const own = bucketNames(luxStorage!.id)[0]!;
      const before = await corsOf(api, luxStorage!.id, own);
      expectEnvelope(await call("POST", corsPath(luxStorage!.id, own), { allowedOrigins: ["*"] }, [1, "role-2-active"]), 403, "permission_denied");
      expect(await corsOf(api, luxStorage!.id, own)).toEqual(before);
    });
  });
});
