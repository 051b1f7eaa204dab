/**
 * Integration tests of edge app secrets on every engine: create (slots encrypted at rest, never
 * returned), the filtered listing, get, PATCH and PUT of slots, and delete while apps use them.
 */
import { createHash } from "node:crypto";
import type { EdgeAppSecret } from "@cloudplane/contract";
import { decryptSecret, demoFixture, sql, type DemoAccountId, type DemoTokenName } from "@cloudplane/db";
import { selectRows } from "@cloudplane/db/testing";
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi } from "../harness.js";
import { edgeHelpers } from "./shared.js";

const { edgeApps, edgeSecrets } = demoFixture;

const ADMIN_2: [DemoAccountId, DemoTokenName] = [2, "role-1-active"];

function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

const USER_1: [DemoAccountId, DemoTokenName] = [1, "role-2-active"];

const secretsOf = (account: number) => edgeSecrets.filter((secret) => secret.accountId === account);
const appsOf = (account: number) => edgeApps.filter((app) => app.accountId === account);
/** The ids of the secrets an app reads. */
const appSecretIds = (appId: number) => demoFixture.edgeAppSecrets.filter((row) => row.appId === appId).map((row) => row.secretId);
/** A secret's slots, in the fixture's order. */
const slotsOf = (secretId: number) => demoFixture.edgeSecretSlots.filter((slot) => slot.secretId === secretId);

describe.each(engines())("edge apps area on %s", (engine) => {
  const api = useApi(engine);

  describe("POST /edge/v1/secrets", () => {
    async function slotRows(secretId: number): Promise<Record<string, unknown>[]> {
      return selectRows(api.database.db, sql`select slot, value_encrypted, checksum from edge_secret_slots where secret_id = ${secretId} order by slot`);
    }

    it("creates the secret: slots by slot with the SHA-256 of each value, values never returned, encrypted at rest", async () => {
      const slots = [
        { slot: 1_800_000_000, value: "second-plaintext-Zq81" },
        { slot: 0, value: "first-plaintext-Kw42" },
        { slot: 1_700_000_000, value: "ünïcödé-plaintext-Xy09" },
      ];
      const reply = await api.call("POST", "/edge/v1/secrets", { body: { name: "Payment_Key-1", comment: "PSP key", secret_slots: slots } });
      expect(reply.status, reply.text).toBe(200);
      const secret = reply.body as EdgeAppSecret;
      const bySlot = [...slots].sort((a, b) => a.slot - b.slot);
      expect(secret).toEqual({
        id: expect.any(Number) as number,
        name: "Payment_Key-1",
        comment: "PSP key",
        app_count: 0,
        secret_slots: bySlot.map(({ slot, value }) => ({ slot, checksum: sha256(value) })),
      });
      for (const { value } of slots) expect(reply.text).not.toContain(value);
      expect(reply.text).not.toContain('"value"');

      const rows = await slotRows(secret.id);
      expect(rows.map((row) => row.slot)).toEqual(bySlot.map((item) => item.slot));
      for (const [index, row] of rows.entries()) {
        const stored = row.value_encrypted as string;
        expect(stored).not.toContain(bySlot[index]!.value);
        expect(stored.startsWith("v1.")).toBe(true);
        expect(row.checksum).toBe(sha256(bySlot[index]!.value));
        // The ciphertext is the value under the account's key, not something unrelated.
        expect(await decryptSecret(api.database.secretsKey, stored)).toBe(bySlot[index]!.value);
      }
      const [stored] = await selectRows(api.database.db, sql`select account_id, name, comment from edge_secrets where id = ${secret.id}`);
      expect(stored).toEqual({ account_id: 1, name: "Payment_Key-1", comment: "PSP key" });
    });

    it("comment defaults to an empty string", async () => {
      const reply = await api.call("POST", "/edge/v1/secrets", { body: { name: "no-comment", secret_slots: [{ slot: 0, value: "v" }] } });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toMatchObject({ name: "no-comment", comment: "", app_count: 0, secret_slots: [{ slot: 0, checksum: sha256("v") }] });
    });

    it("a name the account already has is 409; a name only the other account has is fine", async () => {
      const mine = edgeSecrets.find((secret) => secret.accountId === 1)!;
      const theirsOnly = edgeSecrets.find(
        (secret) => secret.accountId === 2 && !edgeSecrets.some((other) => other.accountId === 1 && other.name === secret.name),
      )!;
      const [{ total: before }] = (await selectRows(api.database.db, sql`select count(*)::int as total from edge_secrets`)) as [{ total: number }];
      expectEnvelope(
        await api.call("POST", "/edge/v1/secrets", { body: { name: mine.name, secret_slots: [{ slot: 0, value: "x" }] } }),
        409,
        "conflict",
      );
      const [{ total: after }] = (await selectRows(api.database.db, sql`select count(*)::int as total from edge_secrets`)) as [{ total: number }];
      expect(after).toBe(before);

      const reply = await api.call("POST", "/edge/v1/secrets", { body: { name: theirsOnly.name, secret_slots: [{ slot: 0, value: "x" }] } });
      expect(reply.status, reply.text).toBe(200);
      expect((reply.body as EdgeAppSecret).name).toBe(theirsOnly.name);
    });

    it("the same name in both accounts: account 2 may create a name account 1 has", async () => {
      const mineOnly = edgeSecrets.find(
        (secret) => secret.accountId === 1 && !edgeSecrets.some((other) => other.accountId === 2 && other.name === secret.name),
      )!;
      const reply = await api.call("POST", "/edge/v1/secrets", { as: ADMIN_2, body: { name: mineOnly.name, secret_slots: [{ slot: 0, value: "y" }] } });
      expect(reply.status, reply.text).toBe(200);
      const [row] = await selectRows(api.database.db, sql`select account_id from edge_secrets where id = ${(reply.body as EdgeAppSecret).id}`);
      expect(row).toEqual({ account_id: 2 });
    });

    it("a duplicate slot is 400 on the repeated slot", async () => {
      const reply = await api.call("POST", "/edge/v1/secrets", {
        body: { name: "dup-slot", secret_slots: [{ slot: 5, value: "a" }, { slot: 5, value: "b" }] },
      });
      expectEnvelope(reply, 400, "validation_error", ["secret_slots.1.slot"]);
      expect(reply.text).not.toContain('"a"');
    });

    it("a value of 4096 characters is fine; 4097 is 400, and the value is not echoed", async () => {
      const longest = "k".repeat(4096);
      const ok = await api.call("POST", "/edge/v1/secrets", { body: { name: "longest-value", secret_slots: [{ slot: 0, value: longest }] } });
      expect(ok.status, ok.text).toBe(200);
      expect(ok.body).toMatchObject({ secret_slots: [{ slot: 0, checksum: sha256(longest) }] });

      const tooLong = "q".repeat(4097);
      const reply = await api.call("POST", "/edge/v1/secrets", { body: { name: "too-long-value", secret_slots: [{ slot: 0, value: tooLong }] } });
      expectEnvelope(reply, 400, "validation_error", ["secret_slots.0.value"]);
      expect(reply.text).not.toContain(tooLong);
    });

    it.each([
      [{ name: "-bad", secret_slots: [{ slot: 0, value: "v" }] }, "name"],
      [{ name: "x".repeat(129), secret_slots: [{ slot: 0, value: "v" }] }, "name"],
      [{ name: "no-slots", secret_slots: [] }, "secret_slots"],
      [{ name: "neg-slot", secret_slots: [{ slot: -1, value: "v" }] }, "secret_slots.0.slot"],
      [{ name: "read-only", app_count: 3, secret_slots: [{ slot: 0, value: "v" }] }, "app_count"],
    ])("%j is 400 %s", async (body, field) => {
      expectEnvelope(await api.call("POST", "/edge/v1/secrets", { body }), 400, "validation_error", [field]);
    });

    it("10 concurrent creations of one new name: exactly one 200, the rest 409, one row", async () => {
      const name = "race-condition-secret";
      const replies = await Promise.all(
        Array.from({ length: 10 }, (_, index) =>
          api.call("POST", "/edge/v1/secrets", { body: { name, secret_slots: [{ slot: 0, value: `value-${index}` }] } }),
        ),
      );
      const statuses = replies.map((reply) => reply.status).sort();
      expect(statuses).toEqual([200, ...Array<number>(9).fill(409)]);
      for (const reply of replies.filter((candidate) => candidate.status === 409)) expectEnvelope(reply, 409, "conflict");
      const rows = await selectRows(api.database.db, sql`select id from edge_secrets where account_id = 1 and name = ${name}`);
      expect(rows).toEqual([{ id: (replies.find((reply) => reply.status === 200)!.body as EdgeAppSecret).id }]);
      const slots = await slotRows(rows[0]!.id as number);
      expect(slots).toHaveLength(1);
    });

    it("is refused to the read-only Users role", async () => {
      expectEnvelope(
        await api.call("POST", "/edge/v1/secrets", { as: [1, "role-2-active"], body: { name: "by-a-user", secret_slots: [{ slot: 0, value: "v" }] } }),
        403,
        "permission_denied",
      );
    });
  });
});

describe.each(engines())("edge lifecycles on %s", (engine) => {
  const api = useApi(engine);

  const { rows, edgeCounts, expectNoContent, createSecret } = edgeHelpers(api);





  describe("secrets", () => {
    async function appCounts(): Promise<Map<number, number>> {
      const counted = await rows(sql`select secret_id, count(distinct app_id)::int as apps from edge_app_secrets group by secret_id`);
      return new Map(counted.map((row) => [row.secret_id as number, row.apps as number]));
    }

    it("lists the account's secrets by id with app_count; secret_name, search and app_id filter; limit and offset page", async () => {
      const used = await appCounts();
      const mine = secretsOf(1).sort((a, b) => a.id - b.id);
      const view = (secret: (typeof mine)[number]) => ({ id: secret.id, name: secret.name, comment: secret.comment, app_count: used.get(secret.id) ?? 0 });
      expect((await api.call("GET", "/edge/v1/secrets")).body).toEqual({ secrets: mine.map(view), count: mine.length });
      expect(mine.some((secret) => (used.get(secret.id) ?? 0) > 1)).toBe(true);

      const named = mine[1]!;
      expect((await api.call("GET", `/edge/v1/secrets?secret_name=${encodeURIComponent(named.name)}`)).body).toEqual({ secrets: [view(named)], count: 1 });
      expect((await api.call("GET", `/edge/v1/secrets?secret_name=${encodeURIComponent(named.name.toUpperCase())}x`)).body).toEqual({ secrets: [], count: 0 });

      const search = "KEY";
      const found = mine.filter((secret) => secret.name.toLowerCase().includes(search.toLowerCase()));
      expect(found.length).toBeGreaterThan(0);
      expect((await api.call("GET", `/edge/v1/secrets?search=${search}`)).body).toEqual({ secrets: found.map(view), count: found.length });

      const app = appsOf(1).find((candidate) => appSecretIds(candidate.id).length > 1)!;
      const ids = new Set(appSecretIds(app.id));
      const ofApp = mine.filter((secret) => ids.has(secret.id));
      expect((await api.call("GET", `/fastedge/v1/secrets?app_id=${app.id}`)).body).toEqual({ secrets: ofApp.map(view), count: ofApp.length });
      expect((await api.call("GET", `/edge/v1/secrets?app_id=${appsOf(2)[3]!.id}`)).body).toEqual({ secrets: [], count: 0 });

      expect((await api.call("GET", "/edge/v1/secrets?limit=1&offset=1")).body).toEqual({ secrets: [view(mine[1]!)], count: mine.length });
      expectEnvelope(await api.call("GET", "/edge/v1/secrets?limit=1001"), 400, "validation_error", ["query.limit"]);
      expectEnvelope(await api.call("GET", "/edge/v1/secrets?app_id=x"), 400, "validation_error", ["query.app_id"]);
    });

    it("get shows each slot's checksum by slot, never a value; the other account's secret is 404", async () => {
      const secret = secretsOf(1).find((candidate) => slotsOf(candidate.id).length > 1)!;
      const reply = await api.call("GET", `/edge/v1/secrets/${secret.id}`);
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toEqual({
        id: secret.id,
        name: secret.name,
        comment: secret.comment,
        app_count: (await appCounts()).get(secret.id) ?? 0,
        secret_slots: [...slotsOf(secret.id)].sort((a, b) => a.slot - b.slot).map(({ slot, value }) => ({ slot, checksum: sha256(value) })),
      });
      for (const { value } of slotsOf(secret.id)) expect(reply.text).not.toContain(value);
      expectEnvelope(await api.call("GET", `/edge/v1/secrets/${secretsOf(2)[0]!.id}`), 404, "not_found");
    });

    it("PATCH changes the fields given; a listed slot without a value keeps it, a new value is stored encrypted, unlisted slots go", async () => {
      const secret = await createSecret("patch-me", [
        { slot: 0, value: "first-value-1717" },
        { slot: 100, value: "second-value-2828" },
      ]);
      const comment = await api.call("PATCH", `/edge/v1/secrets/${secret.id}`, { body: { comment: "only the comment" } });
      expect(comment.body).toEqual({ ...secret, comment: "only the comment" });

      const reply = await api.call("PATCH", `/edge/v1/secrets/${secret.id}`, {
        body: { secret_slots: [{ slot: 0 }, { slot: 200, value: "third-value-3939" }] },
      });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toEqual({
        ...secret,
        comment: "only the comment",
        secret_slots: [
          { slot: 0, checksum: sha256("first-value-1717") },
          { slot: 200, checksum: sha256("third-value-3939") },
        ],
      });
      expect(reply.text).not.toContain("third-value-3939");
      const stored = await rows(sql`select slot, value_encrypted from edge_secret_slots where secret_id = ${secret.id} order by slot`);
      expect(await Promise.all(stored.map((row) => decryptSecret(api.database.secretsKey, row.value_encrypted as string)))).toEqual([
        "first-value-1717",
        "third-value-3939",
      ]);
    });

    it("a slot without a value that has none stored is 400 on that slot, and nothing changes", async () => {
      const secret = await createSecret("no-stored-slot");
      const before = await rows(sql`select * from edge_secret_slots where secret_id = ${secret.id}`);
      expectEnvelope(
        await api.call("PATCH", `/edge/v1/secrets/${secret.id}`, { body: { comment: "x", secret_slots: [{ slot: 0 }, { slot: 5 }] } }),
        400,
        "validation_error",
        ["secret_slots.1.value"],
      );
      expect(await rows(sql`select * from edge_secret_slots where secret_id = ${secret.id}`)).toEqual(before);
      expect(((await api.call("GET", `/edge/v1/secrets/${secret.id}`)).body as EdgeAppSecret).comment).toBe("");
    });

    it.each([
      [{ secret_slots: [] }, "secret_slots"],
      [{ secret_slots: [{ slot: 1, value: "a" }, { slot: 1, value: "b" }] }, "secret_slots.1.slot"],
      [{ name: "-bad" }, "name"],
      [{ app_count: 2 }, "app_count"],
      [{ secret_slots: [{ slot: 0, value: "q".repeat(4097) }] }, "secret_slots.0.value"],
    ])("PATCH %j is 400 %s", async (body, field) => {
      const secret = secretsOf(1)[0]!;
      const reply = await api.call("PATCH", `/edge/v1/secrets/${secret.id}`, { body });
      expectEnvelope(reply, 400, "validation_error", [field]);
      expect(reply.text).not.toContain("qqqq");
    });

    it("PUT needs a name and sets the comment (empty when absent); the slots stay unless given", async () => {
      const secret = await createSecret("put-me");
      await api.call("PATCH", `/edge/v1/secrets/${secret.id}`, { body: { comment: "will be cleared" } });
      expectEnvelope(await api.call("PUT", `/edge/v1/secrets/${secret.id}`, { body: { comment: "x" } }), 400, "validation_error", ["name"]);
      const reply = await api.call("PUT", `/fastedge/v1/secrets/${secret.id}`, { body: { name: "put-me-renamed" } });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toEqual({ ...secret, name: "put-me-renamed", comment: "" });
    });

    it("a name another secret of the account has is 409 on PATCH and PUT, and nothing changes", async () => {
      const [first, second] = secretsOf(1) as [(typeof edgeSecrets)[number], (typeof edgeSecrets)[number]];
      const before = await rows(sql`select * from edge_secrets where id = ${first.id}`);
      expectEnvelope(await api.call("PATCH", `/edge/v1/secrets/${first.id}`, { body: { name: second.name, comment: "x" } }), 409, "conflict");
      expectEnvelope(await api.call("PUT", `/edge/v1/secrets/${first.id}`, { body: { name: second.name } }), 409, "conflict");
      expect(await rows(sql`select * from edge_secrets where id = ${first.id}`)).toEqual(before);
      expect((await api.call("PATCH", `/edge/v1/secrets/${first.id}`, { body: { name: first.name } })).status).toBe(200);
    });

    it("the other account's secret is 404 to change and delete, and stays", async () => {
      const theirs = secretsOf(2)[0]!;
      const before = await rows(sql`select * from edge_secrets where id = ${theirs.id}`);
      expectEnvelope(await api.call("PATCH", `/edge/v1/secrets/${theirs.id}`, { body: { comment: "mine" } }), 404, "not_found");
      expectEnvelope(await api.call("PUT", `/edge/v1/secrets/${theirs.id}`, { body: { name: "mine" } }), 404, "not_found");
      expectEnvelope(await api.call("DELETE", `/edge/v1/secrets/${theirs.id}?force=true`), 404, "not_found");
      expect(await rows(sql`select * from edge_secrets where id = ${theirs.id}`)).toEqual(before);
    });

    it("deleting a secret apps use is 409 and changes nothing; force=true takes it out of the apps and deletes it", async () => {
      const used = secretsOf(1).find((secret) => edgeApps.some((app) => appSecretIds(app.id).includes(secret.id)))!;
      const before = await edgeCounts();
      expectEnvelope(await api.call("DELETE", `/edge/v1/secrets/${used.id}`), 409, "conflict");
      expect(await edgeCounts()).toEqual(before);

      expectNoContent(await api.call("DELETE", `/edge/v1/secrets/${used.id}?force=true`));
      expectEnvelope(await api.call("GET", `/edge/v1/secrets/${used.id}`), 404, "not_found");
      expect(await rows(sql`select app_id from edge_app_secrets where secret_id = ${used.id}`)).toEqual([]);
      expect(await rows(sql`select slot from edge_secret_slots where secret_id = ${used.id}`)).toEqual([]);
    });

    it("an unused secret is deleted at once, through the alias too", async () => {
      const secret = await createSecret("delete-me");
      expectNoContent(await api.call("DELETE", `/fastedge/v1/secrets/${secret.id}`));
      expectEnvelope(await api.call("GET", `/edge/v1/secrets/${secret.id}`), 404, "not_found");
      expectEnvelope(await api.call("DELETE", `/edge/v1/secrets/${secret.id}`), 404, "not_found");
    });

    it("Users may read secrets, not change or delete them", async () => {
      const secret = await createSecret("read-by-users");
      expect((await api.call("GET", `/edge/v1/secrets/${secret.id}`, { as: USER_1 })).status).toBe(200);
      expectEnvelope(await api.call("PATCH", `/edge/v1/secrets/${secret.id}`, { as: USER_1, body: { comment: "x" } }), 403, "permission_denied");
      expectEnvelope(await api.call("DELETE", `/edge/v1/secrets/${secret.id}?force=true`, { as: USER_1 }), 403, "permission_denied");
    });
  });
});
