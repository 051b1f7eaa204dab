/**
 * Integration tests of the Object storage lifecycles on every engine: storages (list, get, create,
 * delete with their buckets), buckets (list, create, delete) and setting a bucket's CORS origins.
 */
import { BUCKET_CORS_ORIGINS_MAX, storage as storageSchema, type BucketList, type Storage, type StorageList } from "@cloudplane/contract";
import { demoFixture, sql, type DemoAccountId, type DemoStorage, type DemoTokenName } from "@cloudplane/db";
import { selectRows } from "@cloudplane/db/testing";
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi, type TestApi } from "./harness.js";

const { storages, buckets } = demoFixture.storage;

const STORAGE_FIELDS = Object.keys(storageSchema.shape).sort();
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A fixture storage as the API shows it. */
function shown(entry: DemoStorage): Storage {
  return {
    id: entry.id,
    name: entry.name,
    type: entry.type as Storage["type"],
    location: entry.location as Storage["location"],
    address: `${entry.location}.storage.cloudplane.example`,
    client_id: entry.account_id,
    created_at: entry.created,
    provisioning_status: "active",
    can_restore: false,
    deleted_at: null,
    expires: null,
    server_alias: null,
    disable_http: false,
    custom_config_file: false,
    rewrite_rules: null,
    reseller_id: null,
  };
}

function storagesOf(accountId: DemoAccountId): DemoStorage[] {
  return storages.filter((entry) => entry.account_id === accountId).sort((a, b) => a.id - b.id);
}

function bucketNames(storageId: number): string[] {
  return buckets
    .filter((bucket) => bucket.storage_id === storageId)
    .map((bucket) => bucket.name)
    .sort();
}

const [luxStorage, amsStorage] = storagesOf(1);
const theirStorage = storagesOf(2)[0]!;
const theirBucket = buckets.find((bucket) => bucket.storage_id === theirStorage.id)!;

const storagePath = (id: number | string) => `/storage/provisioning/v1/storage/${id}`;
const bucketPath = (id: number, name: string) => `/storage/provisioning/v1/storage/${id}/s3/bucket/${name}`;
const bucketsPath = (id: number | string) => `/storage/provisioning/v2/storage/${id}/s3/buckets`;

async function tableCount(api: TestApi, table: "storages" | "buckets"): Promise<number> {
  const [row] = await selectRows<{ total: number }>(api.database.db, sql`select count(*)::int as total from ${sql.identifier(table)}`);
  return row!.total;
}

async function corsOf(api: TestApi, storageId: number, name: string): Promise<string[] | undefined> {
  const [row] = await selectRows<{ allowed_origins: string[] }>(
    api.database.db,
    sql`select allowed_origins from buckets where storage_id = ${storageId} and name = ${name}`,
  );
  return row?.allowed_origins;
}

describe.each(engines())("Object storage lifecycles on %s", (engine) => {
  const api = useApi(engine);

  function call(method: string, path: string, body?: unknown, as: [DemoAccountId, DemoTokenName] = [1, "role-1-active"]) {
    return api.call(method, path, { body, as });
  }

  it("the fixture has two storages in account 1 and one in account 2, with buckets", () => {
    expect(luxStorage).toBeDefined();
    expect(amsStorage).toBeDefined();
    expect(bucketNames(luxStorage!.id).length).toBeGreaterThanOrEqual(2);
    expect(theirBucket).toBeDefined();
  });

  describe("GET /storage/provisioning/v3/storage", () => {
    it("lists the account's storages by id with count; Users may read", async () => {
      const reply = await call("GET", "/storage/provisioning/v3/storage", undefined, [1, "role-2-active"]);
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toEqual({ count: storagesOf(1).length, results: storagesOf(1).map(shown) });
      for (const entry of (reply.body as StorageList).results) expect(Object.keys(entry).sort()).toEqual(STORAGE_FIELDS);
      const theirs = await call("GET", "/storage/provisioning/v3/storage", undefined, [2, "role-1-active"]);
      expect(theirs.body).toEqual({ count: 1, results: [shown(theirStorage)] });
    });

    it("filters, sorts and pages", async () => {
      const list = async (query: string) => {
        const reply = await call("GET", `/storage/provisioning/v3/storage?${query}`);
        expect(reply.status, reply.text).toBe(200);
        return reply.body as StorageList;
      };
      const byName = [...storagesOf(1)].sort((a, b) => a.name.localeCompare(b.name));
      expect(await list("order_by=name")).toEqual({ count: 2, results: byName.map(shown) });
      expect(await list("order_by=name&order_direction=desc")).toEqual({ count: 2, results: [...byName].reverse().map(shown) });
      expect(await list("order_direction=desc&limit=1")).toEqual({ count: 2, results: [shown(storagesOf(1).at(-1)!)] });
      expect(await list("limit=1&offset=1")).toEqual({ count: 2, results: [shown(storagesOf(1)[1]!)] });
      expect(await list(`name=${amsStorage!.name}`)).toEqual({ count: 1, results: [shown(amsStorage!)] });
      expect(await list(`id=${luxStorage!.id}`)).toEqual({ count: 1, results: [shown(luxStorage!)] });
      expect(await list(`location=${amsStorage!.location}`)).toEqual({ count: 1, results: [shown(amsStorage!)] });
      expect(await list("type=sftp")).toEqual({ count: 0, results: [] });
      expect(await list("status=active&show_deleted=true")).toEqual({ count: 2, results: storagesOf(1).map(shown) });
      expect(await list("status=deleted")).toEqual({ count: 0, results: [] });
      // Another account's storage id or name matches nothing.
      expect(await list(`id=${theirStorage.id}`)).toEqual({ count: 0, results: [] });
      expect(await list(`name=${theirStorage.name}`)).toEqual({ count: 0, results: [] });
    });

    it.each([
      ["limit=0", "query.limit"],
      ["limit=1001", "query.limit"],
      ["offset=-1", "query.offset"],
      ["order_by=size", "query.order_by"],
      ["order_direction=up", "query.order_direction"],
      ["type=ftp", "query.type"],
      ["location=moon", "query.location"],
      ["show_deleted=yes", "query.show_deleted"],
      ["name=a%20b", "query.name"],
    ])("%s is 400 %s", async (query, field) => {
      expectEnvelope(await call("GET", `/storage/provisioning/v3/storage?${query}`), 400, "validation_error", [field]);
    });
  });

  describe("GET /storage/provisioning/v1/storage/{id}", () => {
    it("answers the account's storage; another account's and unknown ids are 404", async () => {
      const reply = await call("GET", storagePath(luxStorage!.id));
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toEqual(shown(luxStorage!));
      const theirs = await call("GET", storagePath(theirStorage.id));
      expectEnvelope(theirs, 404, "not_found");
      expect(theirs.text).not.toContain(theirStorage.name);
      expectEnvelope(await call("GET", storagePath(999_999)), 404, "not_found");
      expectEnvelope(await call("GET", storagePath("x")), 400, "validation_error", ["path.id"]);
    });
  });

  describe("POST and DELETE of storages", () => {
    it("makes a storage, shows it, and deletes it with its buckets (204, no body); a second delete is 404", async () => {
      const before = await tableCount(api, "storages");
      const reply = await call("POST", "/storage/provisioning/v2/storage", { name: "acme_archive-2", type: "s3", location: "fra" });
      expect(reply.status, reply.text).toBe(201);
      const made = reply.body as Storage;
      expect(made).toEqual({
        ...shown({ id: made.id, account_id: 1, name: "acme_archive-2", type: "s3", location: "fra", created: made.created_at }),
      });
      expect(made.created_at).toMatch(ISO);
      expect(Math.abs(Date.parse(made.created_at) - Date.now())).toBeLessThan(60_000);
      expect(made.id).toBeGreaterThan(Math.max(...storages.map((entry) => entry.id)));
      expect(await tableCount(api, "storages")).toBe(before + 1);
      expect((await call("GET", storagePath(made.id))).body).toEqual(made);

      for (const name of ["one", "two"]) expect((await call("POST", bucketPath(made.id, name))).status).toBe(201);
      const bucketsBefore = await tableCount(api, "buckets");
      const deleted = await call("DELETE", storagePath(made.id));
      expect(deleted.status, deleted.text).toBe(204);
      expect(deleted.text).toBe("");
      expect(await tableCount(api, "storages")).toBe(before);
      expect(await tableCount(api, "buckets")).toBe(bucketsBefore - 2);
      expectEnvelope(await call("GET", storagePath(made.id)), 404, "not_found");
      expectEnvelope(await call("DELETE", storagePath(made.id)), 404, "not_found");
    });

    it("an SFTP storage has no buckets: creating one is 422, listing them is empty", async () => {
      const made = (await call("POST", "/storage/provisioning/v2/storage", { name: "acme-sftp", type: "sftp", location: "ams" })).body as Storage;
      expect(made).toMatchObject({ type: "sftp", location: "ams", address: "ams.storage.cloudplane.example" });
      const before = await tableCount(api, "buckets");
      expectEnvelope(await call("POST", bucketPath(made.id, "files")), 422, "unprocessable");
      expect(await tableCount(api, "buckets")).toBe(before);
      expect((await call("GET", bucketsPath(made.id))).body).toEqual({ count: 0, results: [] });
    });

    it("a name the account already has is 409; another account may use it", async () => {
      const before = await tableCount(api, "storages");
      expectEnvelope(await call("POST", "/storage/provisioning/v2/storage", { name: luxStorage!.name, type: "s3", location: "s-ed1" }), 409, "conflict");
      expect(await tableCount(api, "storages")).toBe(before);
      const theirs = await call("POST", "/storage/provisioning/v2/storage", { name: luxStorage!.name, type: "s3", location: "s-ed1" }, [2, "role-1-active"]);
      expect(theirs.status, theirs.text).toBe(201);
    });

    it.each<[string, unknown, string[]]>([
      ["no fields", {}, ["name", "type", "location"]],
      ["a name with a space", { name: "a b", type: "s3", location: "s-ed1" }, ["name"]],
      ["a name of 256 characters", { name: "a".repeat(256), type: "s3", location: "s-ed1" }, ["name"]],
      ["an unknown type", { name: "a", type: "ftp", location: "s-ed1" }, ["type"]],
      ["an unknown location", { name: "a", type: "s3", location: "moon" }, ["location"]],
      ["an SFTP password", { name: "a", type: "sftp", location: "ams", sftp_password: "correct horse battery" }, ["sftp_password"]],
      ["generate_sftp_password", { name: "a", type: "sftp", location: "ams", generate_sftp_password: true }, ["generate_sftp_password"]],
      ["read-only and unknown fields", { name: "a", type: "s3", location: "s-ed1", id: 9, credentials: {}, colour: "red" }, ["id", "credentials", "colour"]],
    ])("%s is 400 naming the fields, and makes nothing", async (_what, body, fields) => {
      const before = await tableCount(api, "storages");
      const reply = await call("POST", "/storage/provisioning/v2/storage", body);
      expectEnvelope(reply, 400, "validation_error", fields);
      expect(reply.text).not.toContain("correct horse battery");
      expect(await tableCount(api, "storages")).toBe(before);
    });

    it("another account's storage and an unknown id are 404 and delete nothing; Users may neither make nor delete", async () => {
      const before = await tableCount(api, "storages");
      expectEnvelope(await call("DELETE", storagePath(theirStorage.id)), 404, "not_found");
      expectEnvelope(await call("DELETE", storagePath(999_999)), 404, "not_found");
      expectEnvelope(await call("DELETE", storagePath(luxStorage!.id), undefined, [1, "role-2-active"]), 403, "permission_denied");
      expectEnvelope(await call("POST", "/storage/provisioning/v2/storage", { name: "b", type: "s3", location: "s-ed1" }, [1, "role-2-active"]), 403, "permission_denied");
      expect(await tableCount(api, "storages")).toBe(before);
    });
  });

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

  describe("POST /storage/provisioning/v1/storage/{id}/s3/bucket/{name}/cors", () => {
    const corsPath = (storageId: number, name: string) => `${bucketPath(storageId, name)}/cors`;

    it("replaces the origins and answers them as the GET does; repeats are kept once; [] allows none", async () => {
      const bucket = buckets.find((item) => item.storage_id === luxStorage!.id && item.allowedOrigins.length > 0)!;
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
      const bucket = buckets.find((item) => item.storage_id === luxStorage!.id && item.allowedOrigins.length > 0)!;
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
