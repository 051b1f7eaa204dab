/**
 * Integration tests of the Object storage storages on every engine: list, get, create, change, delete
 * with their buckets; and the expiry a storage takes.
 */
import {
  storage as storageSchema,
  storageExpiry,
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

describe.each(engines())("Object storage storages on %s", (engine) => {
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

    it("pages from either end as from the first, with the count of live storages, across creates, deletes and restores", async () => {
      const list = async (path: string, query: string) => {
        const reply = await call("GET", `${path}?${query}`);
        expect(reply.status, reply.text).toBe(200);
        return reply.body as { count: number; results: { id: number }[] };
      };
      /** Every page of `limit` (the far ones read from the listing's other end) is the slice of the whole listing. */
      const expectPages = async (path: string, query: string, count: number) => {
        const whole = await list(path, `${query}&limit=1000`);
        expect(whole.count).toBe(count);
        expect(whole.results).toHaveLength(count);
        for (const limit of [1, 2, 3])
          for (let offset = 0; offset <= count; offset++)
            expect(await list(path, `${query}&limit=${limit}&offset=${offset}`)).toEqual({ count, results: whole.results.slice(offset, offset + limit) });
      };
      const made: Storage[] = [];
      for (const [name, type] of [["page-b", "s3"], ["page-a", "sftp"], ["page-d", "s3"], ["page-c", "sftp"], ["page-e", "s3"]] as const) {
        const reply = await call("POST", "/storage/provisioning/v2/storage", { name, type, location: "ams" });
        expect(reply.status, reply.text).toBe(201);
        made.push(reply.body as Storage);
      }
      const live = storagesOf(1).length + made.length;
      const v3 = "/storage/provisioning/v3/storage";
      for (const order of ["order_by=id", "order_by=id&order_direction=desc", "order_by=name", "order_by=name&order_direction=desc", "order_by=type", "order_by=created_at&order_direction=desc"])
        await expectPages(v3, order, live);
      await expectPages(v3, "type=sftp", 2);
      await expectPages(v3, "type=s3&status=active", live - 2);
      await expectPages("/storage/v4/object_storages", "order_by=-name", live - 2);
      await expectPages("/storage/v4/sftp_storages", "order_by=id", 2);

      // A deleted storage leaves the counts (and shows with show_deleted), a restored one rejoins them; another account's never counts.
      const gone = made[2]!;
      expect((await call("DELETE", `/storage/v4/object_storages/${gone.id}`)).status).toBe(204);
      await expectPages(v3, "order_by=name", live - 1);
      await expectPages("/storage/v4/object_storages", "order_by=id", live - 3);
      expect((await list(v3, "show_deleted=true")).count).toBe(live);
      expect((await list(v3, "show_deleted=true&status=deleted")).results.map((entry) => entry.id)).toEqual([gone.id]);
      expect((await call("POST", `/storage/v4/object_storages/${gone.id}/restore`, {})).status).toBe(204);
      await expectPages(v3, "order_by=id&order_direction=desc", live);
      expect((await call("DELETE", storagePath(made[1]!.id))).status).toBe(204);
      await expectPages("/storage/v4/sftp_storages", "order_by=-created_at", 1);
      expect((await list(v3, "limit=1")).count).toBe(live - 1);
      expect((await call("GET", v3, undefined, [2, "role-1-active"])).body).toEqual({ count: 1, results: [shown(theirStorage)] });
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
        ...shown({
          id: made.id,
          accountId: 1,
          name: "acme_archive-2",
          type: "s3",
          location: "fra",
          created: made.created_at,
          expires: null,
          serverAlias: null,
          deleted: null,
          passwordEncrypted: null,
          httpDisabled: false,
          customConfigFile: false,
        }),
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

});
