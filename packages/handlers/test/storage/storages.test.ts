/**
 * Integration tests of the Object storage lifecycles on every engine: storages (list, get, create,
 * change, delete with their buckets), buckets (list, create, delete) and setting a bucket's CORS
 * origins, lifecycle and public-read policy.
 */
import {
  BUCKET_CORS_ORIGINS_MAX,
  BUCKET_LIFECYCLE_DAYS_MAX,
  storage as storageSchema,
  storageExpiry,
  type BucketList,
  type Storage,
  type StorageList,
} from "@cloudplane/contract";
import { demoFixture, sql, type DemoAccountId, type DemoRow, type DemoTokenName } from "@cloudplane/db";
import { selectRows } from "@cloudplane/db/testing";
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi, type TestApi } from "../harness.js";

const { storages, buckets } = demoFixture;

type DemoStorage = DemoRow<"storages">;

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
    client_id: entry.accountId,
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

const storagePath = (id: number | string) => `/storage/provisioning/v1/storage/${id}`;
const bucketPath = (id: number, name: string) => `/storage/provisioning/v1/storage/${id}/s3/bucket/${name}`;
const bucketsPath = (id: number | string) => `/storage/provisioning/v2/storage/${id}/s3/buckets`;

async function tableCount(api: TestApi, table: "storages" | "buckets"): Promise<number> {
  const [row] = await selectRows<{ total: number }>(api.database.db, sql`select count(*)::int as total from ${sql.identifier(table)}`);
  return row!.total;
}

/** A storage's row as the database holds it, to check that a failed change changed nothing. */
async function storageRow(api: TestApi, id: number): Promise<Record<string, unknown> | undefined> {
  const [row] = await selectRows<Record<string, unknown>>(api.database.db, sql`select * from storages where id = ${id}`);
  return row;
}

/** A bucket's lifecycle and policy as the database holds them. */
async function bucketSettings(api: TestApi, storageId: number, name: string): Promise<{ lifecycle_days: number | null; public: boolean } | undefined> {
  const [row] = await selectRows<{ lifecycle_days: number | null; public: boolean }>(
    api.database.db,
    sql`select lifecycle_days, public from buckets where storage_id = ${storageId} and name = ${name}`,
  );
  return row;
}

describe("storageExpiry", () => {
  const now = new Date("2026-01-31T10:00:00.000Z");
  const at = (value: string) => {
    const expiry = storageExpiry(value, now);
    return expiry instanceof Date ? expiry.toISOString() : expiry.error;
  };

  it("counts a duration from now, years and months by the calendar (the month's last day when it has fewer)", () => {
    expect(at("30 days")).toBe("2026-03-02T10:00:00.000Z");
    expect(at("1 month")).toBe("2026-02-28T10:00:00.000Z");
    expect(at("1 year 1 month")).toBe("2027-02-28T10:00:00.000Z");
    expect(at("2 years 6 months 2 weeks 3 days 5 hours 10 minutes 15 seconds")).toBe("2028-08-17T15:10:15.000Z");
    expect(at("1 Week")).toBe("2026-02-07T10:00:00.000Z");
    expect(at("  90 minutes ")).toBe("2026-01-31T11:30:00.000Z");
    expect(at("100 years")).toBe("2126-01-31T10:00:00.000Z");
  });

  it("takes a time with its offset as it is", () => {
    expect(at("2027-01-01T00:00:00Z")).toBe("2027-01-01T00:00:00.000Z");
    expect(at("2027-01-01T02:30+02:00")).toBe("2027-01-01T00:30:00.000Z");
    expect(at("2026-01-31T10:00:00.001Z")).toBe("2026-01-31T10:00:00.001Z");
  });

  it.each([
    "soon",
    "30",
    "days",
    "30 fortnights",
    "1 day 2 days",
    "-1 days",
    "1.5 days",
    "12345678 seconds",
    "2027-01-01",
    "2027-01-01T00:00:00",
    "2027-02-30T00:00:00Z",
    "2027-13-01T00:00:00Z",
  ])("refuses %j", (value) => {
    expect(at(value)).toMatch(/^Must be a duration/);
  });

  it("refuses now, the past and more than 100 years ahead", () => {
    expect(at("0 days")).toMatch(/after the current time/);
    expect(at("2026-01-31T10:00:00Z")).toMatch(/after the current time/);
    expect(at("2020-01-01T00:00:00Z")).toMatch(/after the current time/);
    expect(at("100 years 1 day")).toMatch(/at most 100 years/);
    expect(at("101 years")).toMatch(/at most 100 years/);
    expect(at("9999999 days")).toMatch(/at most 100 years/);
    expect(at("2126-01-31T10:00:01Z")).toMatch(/at most 100 years/);
  });
});

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
        ...shown({ id: made.id, accountId: 1, name: "acme_archive-2", type: "s3", location: "fra", created: made.created_at, expires: null, serverAlias: null }),
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

  describe("PATCH /storage/provisioning/v2/storage/{id}", () => {
    const patchPath = (id: number | string) => `/storage/provisioning/v2/storage/${id}`;

    async function sftpStorage(name: string): Promise<Storage> {
      const reply = await call("POST", "/storage/provisioning/v2/storage", { name, type: "sftp", location: "ams" });
      expect(reply.status, reply.text).toBe(201);
      return reply.body as Storage;
    }

    it("changes only the fields given and answers the storage as the GET does", async () => {
      const made = await sftpStorage("patch-sftp");
      expect(made).toMatchObject({ expires: null, server_alias: null });

      const aliased = await call("PATCH", patchPath(made.id), { server_alias: "Files.Acme.example" });
      expect(aliased.status, aliased.text).toBe(200);
      expect(aliased.body).toEqual({ ...made, server_alias: "files.acme.example" });
      expect((await call("GET", storagePath(made.id))).body).toEqual(aliased.body);

      const expiring = await call("PATCH", patchPath(made.id), { expires: "30 days" });
      expect(expiring.status, expiring.text).toBe(200);
      const expires = (expiring.body as Storage).expires!;
      expect(expires).toMatch(ISO);
      expect(Math.abs(Date.parse(expires) - (Date.now() + 30 * 86_400_000))).toBeLessThan(60_000);
      expect(expiring.body).toEqual({ ...made, server_alias: "files.acme.example", expires });
      expect((await call("GET", storagePath(made.id))).body).toEqual(expiring.body);

      // No field: nothing changes.
      expect((await call("PATCH", patchPath(made.id), {})).body).toEqual(expiring.body);

      const dated = await call("PATCH", patchPath(made.id), { expires: "2099-12-31T23:00:00-01:00" });
      expect(dated.body).toEqual({ ...made, server_alias: "files.acme.example", expires: "2100-01-01T00:00:00.000Z" });

      // Empty and null remove them, one at a time.
      const unaliased = await call("PATCH", patchPath(made.id), { server_alias: "" });
      expect(unaliased.body).toEqual({ ...made, expires: "2100-01-01T00:00:00.000Z" });
      const cleared = await call("PATCH", patchPath(made.id), { expires: null, server_alias: null });
      expect(cleared.body).toEqual(made);
      expect(await storageRow(api, made.id)).toMatchObject({ expires: null, server_alias: null });
      // Every list shows the change too.
      const listed = (await call("GET", `/storage/provisioning/v3/storage?id=${made.id}`)).body as StorageList;
      expect(listed.results).toEqual([made]);
    });

    it.each<[string, unknown, string[]]>([
      ["a word for expires", { expires: "soon" }, ["expires"]],
      ["an unknown unit", { expires: "2 fortnights" }, ["expires"]],
      ["a unit twice", { expires: "1 day 1 day" }, ["expires"]],
      ["a time in the past", { expires: "2020-01-01T00:00:00Z" }, ["expires"]],
      ["a date that does not exist", { expires: "2030-02-30T00:00:00Z" }, ["expires"]],
      ["a time without its offset", { expires: "2030-01-01T00:00:00" }, ["expires"]],
      ["more than 100 years", { expires: "101 years" }, ["expires"]],
      ["a number for expires", { expires: 30 }, ["expires"]],
      ["201 characters of expires", { expires: "1 day".padEnd(201, " ") }, ["expires"]],
      ["a server alias with a space", { server_alias: "not a host" }, ["server_alias"]],
      ["a one-label server alias", { server_alias: "files" }, ["server_alias"]],
      ["a server alias with a scheme", { server_alias: "https://files.acme.example" }, ["server_alias"]],
      ["a server alias over 253 characters", { server_alias: `${"a".repeat(63)}.${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(61)}.ex` }, ["server_alias"]],
      ["both bad", { expires: "later", server_alias: "-bad-.example", colour: "red" }, ["expires", "server_alias", "colour"]],
      ["the fields fixed at creation", { name: "renamed", type: "s3", location: "fra" }, ["name", "type", "location"]],
      ["read-only fields", { id: 9, created_at: "2026-01-01T00:00:00.000Z", disable_http: true, rewrite_rules: {} }, ["id", "created_at", "disable_http", "rewrite_rules"]],
      ["an SFTP password", { sftp_password: "correct horse battery" }, ["sftp_password"]],
      ["a good field beside a bad one", { server_alias: "ok.acme.example", expires: "never" }, ["expires"]],
    ])("%s is 400 naming the fields, and changes nothing", async (_what, body, fields) => {
      const made = await sftpStorage(`patch-bad-${Math.random().toString(36).slice(2, 10)}`);
      await call("PATCH", patchPath(made.id), { server_alias: `keep-${made.id}.acme.example`, expires: "10 days" });
      const before = await storageRow(api, made.id);
      const reply = await call("PATCH", patchPath(made.id), body);
      expectEnvelope(reply, 400, "validation_error", fields);
      expect(reply.text).not.toContain("correct horse battery");
      expect(await storageRow(api, made.id)).toEqual(before);
    });

    it("a body that is not an object is 400", async () => {
      expectEnvelope(await call("PATCH", patchPath(luxStorage!.id), ["expires"]), 400, "validation_error");
      expectEnvelope(await call("PATCH", patchPath(luxStorage!.id), "30 days"), 400, "validation_error");
    });

    it("an S3 storage takes no expiry or alias (422, nothing changed); removing them is accepted and changes nothing", async () => {
      const before = await storageRow(api, luxStorage!.id);
      expectEnvelope(await call("PATCH", patchPath(luxStorage!.id), { expires: "30 days" }), 422, "unprocessable");
      expectEnvelope(await call("PATCH", patchPath(luxStorage!.id), { server_alias: "s3.acme.example", expires: null }), 422, "unprocessable");
      expect(await storageRow(api, luxStorage!.id)).toEqual(before);
      const cleared = await call("PATCH", patchPath(luxStorage!.id), { expires: "", server_alias: null });
      expect(cleared.status, cleared.text).toBe(200);
      expect(cleared.body).toEqual(shown(luxStorage!));
      expect(await storageRow(api, luxStorage!.id)).toEqual(before);
    });

    it("a server alias another storage has, in any account, is 409 and changes nothing; a storage may set its own again", async () => {
      const first = await sftpStorage("alias-owner");
      const second = await sftpStorage("alias-wanter");
      expect((await call("PATCH", patchPath(first.id), { server_alias: "shared.acme.example" })).status).toBe(200);
      const before = await storageRow(api, second.id);
      expectEnvelope(await call("PATCH", patchPath(second.id), { server_alias: "SHARED.acme.example", expires: "1 day" }), 409, "conflict");
      expect(await storageRow(api, second.id)).toEqual(before);

      const theirs = (await call("POST", "/storage/provisioning/v2/storage", { name: "their-sftp", type: "sftp", location: "ams" }, [2, "role-1-active"])).body as Storage;
      const conflict = await call("PATCH", patchPath(theirs.id), { server_alias: "shared.acme.example" }, [2, "role-1-active"]);
      expectEnvelope(conflict, 409, "conflict");
      // Nothing says which storage has it.
      expect(conflict.body.message).not.toContain(String(first.id));
      expect(conflict.text).not.toContain("alias-owner");

      const again = await call("PATCH", patchPath(first.id), { server_alias: "Shared.Acme.Example" });
      expect(again.status, again.text).toBe(200);
      expect(again.body).toMatchObject({ server_alias: "shared.acme.example" });
      // Once the first lets it go, the second may take it.
      await call("PATCH", patchPath(first.id), { server_alias: null });
      expect((await call("PATCH", patchPath(second.id), { server_alias: "shared.acme.example" })).body).toMatchObject({ server_alias: "shared.acme.example" });
    });

    it("another account's storage and unknown ids are 404 and change nothing; Users may not change a storage", async () => {
      const theirs = (await call("POST", "/storage/provisioning/v2/storage", { name: "their-sftp-2", type: "sftp", location: "ams" }, [2, "role-1-active"])).body as Storage;
      const theirsBefore = await storageRow(api, theirs.id);
      const reply = await call("PATCH", patchPath(theirs.id), { server_alias: "stolen.acme.example" });
      expectEnvelope(reply, 404, "not_found");
      expect(reply.text).not.toContain("their-sftp-2");
      expectEnvelope(await call("PATCH", patchPath(theirStorage.id), { expires: null }), 404, "not_found");
      expect(await storageRow(api, theirs.id)).toEqual(theirsBefore);
      expectEnvelope(await call("PATCH", patchPath(999_999), {}), 404, "not_found");
      expectEnvelope(await call("PATCH", patchPath("x"), {}), 400, "validation_error", ["path.id"]);

      const mine = await sftpStorage("patch-by-user");
      const before = await storageRow(api, mine.id);
      expectEnvelope(await call("PATCH", patchPath(mine.id), { server_alias: "user.acme.example" }, [1, "role-2-active"]), 403, "permission_denied");
      expect(await storageRow(api, mine.id)).toEqual(before);
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
