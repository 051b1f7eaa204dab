/**
 * Integration tests of the object storages at the current paths on every engine: listing, details,
 * creation with its first access key (shown once), deletion into the grace period and restore; their
 * access keys (secrets encrypted, never shown again) and buckets (CORS, lifecycle and policy in one PATCH).
 */
import { routeExample, STORAGE_RESTORE_DAYS, type S3Storage, type S3StorageCreated } from "@cloudplane/contract";
import { sql } from "@cloudplane/db";
import { selectRows } from "@cloudplane/db/testing";
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi, type TestApi } from "../harness.js";

const V4 = "/storage/v4/object_storages";

async function rows(api: TestApi, query: ReturnType<typeof sql>): Promise<Record<string, unknown>[]> {
  return selectRows<Record<string, unknown>>(api.database.db, query);
}

/** A made storage as the GET shows it: without its access keys. */
function withoutKeys({ access_keys: _keys, ...storage }: S3StorageCreated): S3Storage {
  return storage;
}

describe.each(engines())("object storages at the current paths on %s", (engine) => {
  const api = useApi(engine);
  const call = (method: string, path: string, body?: unknown, as?: [1 | 2, "role-1-active" | "role-2-active"]) =>
    api.call(method, path, { ...(body === undefined ? {} : { body }), ...(as ? { as } : {}) });

  it("lists the account's object storages as the examples show them, filtered, sorted and paged", async () => {
    const example = routeExample("storage.listObjectStorages")!;
    const reply = await call("GET", `${V4}?limit=100&offset=0&order_by=name`);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toEqual(example.response);
    const byId = (await call("GET", V4)).body as { count: number; results: S3Storage[] };
    expect(byId.results.map((storage) => storage.id)).toEqual([1, 3]);
    expect(((await call("GET", `${V4}?order_by=-id&limit=1`)).body as { results: S3Storage[] }).results.map((s) => s.id)).toEqual([3]);
    expect((await call("GET", `${V4}?limit=1&offset=1`)).body).toEqual({ count: 2, results: [byId.results[1]] });
    expect(((await call("GET", `${V4}?location_name=s-ams1`)).body as { count: number }).count).toBe(1);
    expect(((await call("GET", `${V4}?name=acme-s3-lux`)).body as { count: number }).count).toBe(1);
    expect(((await call("GET", `${V4}?id=2`)).body as { count: number }).count).toBe(0);
    expect(((await call("GET", `${V4}?provisioning_status=creating`)).body as { count: number }).count).toBe(0);
    for (const [query, field] of [
      ["limit=0", "query.limit"],
      ["order_by=size", "query.order_by"],
      ["provisioning_status=gone", "query.provisioning_status"],
      ["show_deleted=yes", "query.show_deleted"],
      ["id=x", "query.id"],
    ])
      expectEnvelope(await call("GET", `${V4}?${query}`), 400, "validation_error", [field!]);
  });

  it("shows one object storage; an SFTP storage, another account's and an unknown id are 404", async () => {
    const example = routeExample("storage.getObjectStorage")!;
    const reply = await call("GET", `${V4}/1`);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toEqual(example.response);
    expectEnvelope(await call("GET", `${V4}/2`), 404, "not_found");
    expectEnvelope(await call("GET", `${V4}/999999`), 404, "not_found");
    const sftp = await call("POST", "/storage/v4/sftp_storages", { name: "files-1", location_name: "ams", password_mode: "none" });
    expect(sftp.status, sftp.text).toBe(201);
    expectEnvelope(await call("GET", `${V4}/${(sftp.body as { id: number }).id}`), 404, "not_found");
  });

  it("makes a storage with one access key whose secret is shown once and kept encrypted; a taken name is 409", async () => {
    const reply = await call("POST", V4, { name: "acme-new", location_name: "s-ed1" });
    expect(reply.status, reply.text).toBe(201);
    const made = reply.body as S3StorageCreated;
    expect(made).toMatchObject({ name: "acme-new", full_name: "1-acme-new", location_name: "s-ed1", provisioning_status: "active", address: "s-ed1.storage.cloudplane.example" });
    expect(made.access_keys).toHaveLength(1);
    const [pair] = made.access_keys;
    expect(pair!.access_key).toMatch(/^CP[A-Z0-9]{18}$/);
    expect(pair!.secret_key).toMatch(/^[A-Za-z0-9]{40}$/);
    const stored = await rows(api, sql`select * from storage_access_keys where access_key = ${pair!.access_key}`);
    expect(JSON.stringify(stored)).not.toContain(pair!.secret_key);
    // Never shown again.
    const keys = await call("GET", `${V4}/${made.id}/access_keys`);
    expect(keys.text).not.toContain(pair!.secret_key);
    expect((keys.body as { count: number }).count).toBe(1);
    const got = await call("GET", `${V4}/${made.id}`);
    expect(got.body).toEqual(withoutKeys(made));

    const before = await rows(api, sql`select count(*)::int as n from storages`);
    expectEnvelope(await call("POST", V4, { name: "acme-new", location_name: "s-ams1" }), 409, "conflict");
    expectEnvelope(await call("POST", V4, { name: "x", location_name: "fra" }), 400, "validation_error", ["location_name"]);
    expectEnvelope(await call("POST", V4, { name: "a b", location_name: "s-ed1", id: 3, colour: "red" }), 400, "validation_error", ["name", "id", "colour"]);
    expect(await rows(api, sql`select count(*)::int as n from storages`)).toEqual(before);
    // Another account may use the name.
    expect((await call("POST", V4, { name: "acme-new", location_name: "s-ed1" }, [2, "role-1-active"])).status).toBe(201);
    // Users may not make storages.
    expectEnvelope(await call("POST", V4, { name: "by-user", location_name: "s-ed1" }, [1, "role-2-active"]), 403, "permission_denied");
  });

  it(`deletes a storage into its ${STORAGE_RESTORE_DAYS}-day grace period, restores it with its buckets and keys, and forgets it after`, async () => {
    const made = (await call("POST", V4, { name: "acme-restorable", location_name: "s-ed1" })).body as S3StorageCreated;
    expect((await call("POST", `${V4}/${made.id}/buckets`, { name: "kept" })).status).toBe(201);
    const deleted = await call("DELETE", `${V4}/${made.id}`);
    expect(deleted.status, deleted.text).toBe(204);
    expect(deleted.text).toBe("");
    expectEnvelope(await call("GET", `${V4}/${made.id}`), 404, "not_found");
    expectEnvelope(await call("DELETE", `${V4}/${made.id}`), 404, "not_found");
    expectEnvelope(await call("GET", `${V4}/${made.id}/buckets`), 404, "not_found");
    expectEnvelope(await call("GET", `/storage/provisioning/v1/storage/${made.id}/s3/bucket/kept/cors`), 404, "not_found");
    expect(((await call("GET", V4)).body as { results: S3Storage[] }).results.map((s) => s.id)).not.toContain(made.id);
    const shown = (await call("GET", `${V4}?show_deleted=true&provisioning_status=deleted`)).body as { results: S3Storage[] };
    expect(shown.results).toEqual([{ ...withoutKeys(made), provisioning_status: "deleted" }]);
    const older = (await call("GET", `/storage/provisioning/v3/storage?show_deleted=true&id=${made.id}`)).body as { results: Array<Record<string, unknown>> };
    expect(older.results[0]).toMatchObject({ provisioning_status: "deleted", can_restore: true, deleted_at: expect.any(String) });

    // Another account cannot restore it; the owner can, with its bucket and key.
    expectEnvelope(await call("POST", `${V4}/${made.id}/restore`, {}, [2, "role-1-active"]), 404, "not_found");
    const restored = await call("POST", `${V4}/${made.id}/restore`);
    expect(restored.status, restored.text).toBe(204);
    expect((await call("GET", `${V4}/${made.id}`)).body).toMatchObject({ id: made.id, provisioning_status: "active" });
    expect(((await call("GET", `${V4}/${made.id}/buckets`)).body as { count: number }).count).toBe(1);
    expect(((await call("GET", `${V4}/${made.id}/access_keys`)).body as { count: number }).count).toBe(1);
    // A storage that is not deleted: the same 204, nothing changed.
    expect((await call("POST", `${V4}/${made.id}/restore`)).status).toBe(204);

    // Its name taken while it was deleted: 409, and it stays deleted.
    expect((await call("DELETE", `${V4}/${made.id}`)).status).toBe(204);
    expect((await call("POST", V4, { name: "acme-restorable", location_name: "s-ed1" })).status).toBe(201);
    expectEnvelope(await call("POST", `${V4}/${made.id}/restore`), 409, "conflict");

    // Past the grace period: gone (404), and purged by the account's next delete.
    await api.database.db.execute(sql`update storages set deleted = now() - interval '15 days' where id = ${made.id}`);
    expectEnvelope(await call("POST", `${V4}/${made.id}/restore`), 404, "not_found");
    expect(((await call("GET", `${V4}?show_deleted=true&id=${made.id}`)).body as { count: number }).count).toBe(0);
    const other = (await call("POST", V4, { name: "acme-other", location_name: "s-ed1" })).body as S3StorageCreated;
    expect((await call("DELETE", `${V4}/${other.id}`)).status).toBe(204);
    expect(await rows(api, sql`select id from storages where id = ${made.id}`)).toEqual([]);
    expect(await rows(api, sql`select id from buckets where storage_id = ${made.id}`)).toEqual([]);
  });

  it("makes, lists, shows and deletes access keys; another storage's or account's are 404", async () => {
    const made = await call("POST", `${V4}/1/access_keys`);
    expect(made.status, made.text).toBe(201);
    const key = made.body as { access_key: string; secret_key: string; created_at: string };
    expect(Object.keys(key).sort()).toEqual(["access_key", "created_at", "secret_key"]);
    const list = (await call("GET", `${V4}/1/access_keys`)).body as { count: number; results: Array<{ access_key: string }> };
    expect(list.count).toBe(2);
    expect(list.results.map((entry) => entry.access_key)).toEqual(["CPDEMOACME0000000001", key.access_key]);
    expect(JSON.stringify(list)).not.toContain(key.secret_key);
    const got = await call("GET", `${V4}/1/access_keys/${key.access_key}`);
    expect(got.body).toEqual({ access_key: key.access_key, created_at: key.created_at });
    expectEnvelope(await call("GET", `${V4}/3/access_keys/${key.access_key}`), 404, "not_found");
    expectEnvelope(await call("GET", `${V4}/2/access_keys/CPDEMOGLOBEX00000002`), 404, "not_found");
    expectEnvelope(await call("DELETE", `${V4}/2/access_keys/CPDEMOGLOBEX00000002`), 404, "not_found");
    expectEnvelope(await call("GET", `${V4}/1/access_keys/not-a-key`), 400, "validation_error", ["path.access_key"]);
    expectEnvelope(await call("POST", `${V4}/1/access_keys`, { secret_key: "mine" }), 400, "validation_error", ["secret_key"]);
    const deleted = await call("DELETE", `${V4}/1/access_keys/${key.access_key}`);
    expect(deleted.status, deleted.text).toBe(204);
    expectEnvelope(await call("GET", `${V4}/1/access_keys/${key.access_key}`), 404, "not_found");
    expect(api.logs.map((entry) => JSON.stringify(entry)).join("\n")).not.toContain(key.secret_key);
  });

  it("makes, lists, shows, changes and deletes buckets with their CORS, lifecycle and policy", async () => {
    expect((await call("GET", `${V4}/1/buckets`)).body).toEqual(routeExample("storage.listObjectStorageBuckets")!.response);
    expect((await call("GET", `${V4}/1/buckets/media-assets`)).body).toEqual(routeExample("storage.getObjectStorageBucket")!.response);
    const made = await call("POST", `${V4}/1/buckets`, { name: "v4-bucket" });
    expect(made.status, made.text).toBe(201);
    expect(made.body).toEqual({ name: "v4-bucket", storage_id: 1, cors: { allowed_origins: [] }, lifecycle: { expiration_days: 0 }, policy: { is_public: false } });
    expectEnvelope(await call("POST", `${V4}/1/buckets`, { name: "v4-bucket" }), 409, "conflict");
    expectEnvelope(await call("POST", `${V4}/1/buckets`, { name: "No_Caps" }), 400, "validation_error", ["name"]);
    expectEnvelope(await call("POST", `${V4}/2/buckets`, { name: "theirs" }), 404, "not_found");

    const patched = await call("PATCH", `${V4}/1/buckets/v4-bucket`, {
      cors: { allowed_origins: ["https://a.example", "https://a.example", "*"] },
      lifecycle: { expiration_days: 7 },
      policy: { is_public: true },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toEqual({ name: "v4-bucket", storage_id: 1, cors: { allowed_origins: ["https://a.example", "*"] }, lifecycle: { expiration_days: 7 }, policy: { is_public: true } });
    // The older routes see the same bucket.
    expect((await call("GET", "/storage/provisioning/v1/storage/1/s3/bucket/v4-bucket/policy")).body).toBe(true);
    expect((await call("GET", "/storage/provisioning/v1/storage/1/s3/bucket/v4-bucket/cors")).body).toEqual({ data: { allowedOrigins: ["https://a.example", "*"] } });
    // One setting at a time; the others keep theirs. 0 or null removes the lifecycle.
    expect(((await call("PATCH", `${V4}/1/buckets/v4-bucket`, { lifecycle: { expiration_days: null } })).body as { lifecycle: unknown; policy: unknown }).lifecycle).toEqual({ expiration_days: 0 });
    expect((await call("PATCH", `${V4}/1/buckets/v4-bucket`, { lifecycle: { expiration_days: 0 } })).body).toMatchObject({ policy: { is_public: true }, lifecycle: { expiration_days: 0 } });
    const before = await rows(api, sql`select * from buckets where name = 'v4-bucket'`);
    expectEnvelope(
      await call("PATCH", `${V4}/1/buckets/v4-bucket`, { cors: { allowed_origins: ["ftp://x"] }, lifecycle: { expiration_days: -1 }, policy: {}, name: "x" }),
      400,
      "validation_error",
      ["cors.allowed_origins.0", "lifecycle.expiration_days", "policy.is_public", "name"],
    );
    expect(await rows(api, sql`select * from buckets where name = 'v4-bucket'`)).toEqual(before);
    expectEnvelope(await call("PATCH", `${V4}/2/buckets/media-assets`, { policy: { is_public: true } }), 404, "not_found");
    expectEnvelope(await call("GET", `${V4}/1/buckets/nothing-here`), 404, "not_found");
    expectEnvelope(await call("PATCH", `${V4}/1/buckets/v4-bucket`, { policy: { is_public: false } }, [1, "role-2-active"]), 403, "permission_denied");

    const deleted = await call("DELETE", `${V4}/1/buckets/v4-bucket`);
    expect(deleted.status, deleted.text).toBe(204);
    expectEnvelope(await call("DELETE", `${V4}/1/buckets/v4-bucket`), 404, "not_found");
  });
});
