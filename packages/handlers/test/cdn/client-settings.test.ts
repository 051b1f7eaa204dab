/**
 * Integration tests of the account's CDN settings: GET, PUT (utilization_level, the only writable one) and
 * PATCH as an alias of PUT, each account's settings its own.
 */
import { demoFixture, sql, type DemoAccountId } from "@cloudplane/db";
import { selectRows } from "@cloudplane/db/testing";
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi } from "../harness.js";

const { accounts } = demoFixture;

/** The CDN area's timestamp (`YYYY-MM-DD HH:MM:SS.ffffff+00:00`) of a fixture ISO time. */
function cdnTime(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)}000+00:00`;
}

const CDN_TIME = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}\+00:00$/;

describe.each(engines())("the account's CDN settings on %s", (engine) => {
  const api = useApi(engine);

  const as = (account: DemoAccountId, role: "role-1-active" | "role-2-active" = "role-1-active") => ({ as: [account, role] as [DemoAccountId, typeof role] });

  describe("the account's CDN settings", () => {
    const settingsOf = (id: DemoAccountId) => {
      const account = accounts.find((candidate) => candidate.id === id)!;
      return { id: account.id, cname: account.cname, utilization_level: account.utilizationLevel, use_balancer: account.useBalancer };
    };

    it("GET /cdn/clients/me answers the settings the change operation answers", async () => {
      for (const account of [1, 2] as const) {
        const reply = await api.call("GET", "/cdn/clients/me", as(account, "role-2-active"));
        expect(reply.status, reply.text).toBe(200);
        expect(reply.body).toMatchObject(settingsOf(account));
      }
      const changed = await api.call("PUT", "/cdn/clients/me", { body: { utilization_level: 11 } });
      expect(changed.status, changed.text).toBe(200);
      expect((await api.call("GET", "/cdn/clients/me")).body).toEqual(changed.body);
    });

    it("PATCH /cdn/clients/me is the same operation as PUT", async () => {
      const reply = await api.call("PATCH", "/cdn/clients/me", { body: { utilization_level: 12 } });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toMatchObject({ id: 1, utilization_level: 12, updated: expect.stringMatching(CDN_TIME) });
      expect((await api.call("GET", "/cdn/clients/me")).body).toEqual(reply.body);
      expectEnvelope(await api.call("PATCH", "/cdn/clients/me", { body: { utilization_level: -1 } }), 400, "validation_error", ["utilization_level"]);
      expectEnvelope(await api.call("PATCH", "/cdn/clients/me", { body: { cname: "x.example" } }), 400, "validation_error", ["utilization_level", "cname"]);
      expect((await api.call("GET", "/cdn/clients/me", as(2))).body.utilization_level).toBe(settingsOf(2).utilization_level);
      expectEnvelope(await api.call("PATCH", "/cdn/clients/me", { body: { utilization_level: 1 }, ...as(1, "role-2-active") }), 403, "permission_denied");
    });
  });

  // The GET above answers the fixture's settings: these changes come after it.
  describe("PUT /cdn/clients/me", () => {
    it("PUT /cdn/clients/me sets utilization_level and answers the account's settings", async () => {
      const account = accounts.find((candidate) => candidate.id === 1)!;
      const level = account.utilizationLevel + 4;
      const reply = await api.call("PUT", "/cdn/clients/me", { body: { utilization_level: level } });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toEqual({
        id: 1,
        created: cdnTime(account.created),
        updated: expect.stringMatching(CDN_TIME),
        service: { enabled: account.cdnServiceEnabled, status: account.cdnServiceStatus, updated: cdnTime(account.cdnServiceUpdated) },
        utilization_level: level,
        cname: account.cname,
        use_balancer: account.useBalancer,
        auto_suspend_enabled: account.autoSuspendEnabled,
        cdn_resources_rules_max_count: account.cdnResourcesRulesMaxCount,
      });
      expect(reply.body.updated > cdnTime(account.updated)).toBe(true);

      // Account 2's settings are its own.
      const [other] = await selectRows(api.database.db, sql`select utilization_level from accounts where id = 2`);
      expect(other!.utilization_level).toBe(accounts.find((candidate) => candidate.id === 2)!.utilizationLevel);
    });

    it.each([
      ["a negative utilization_level", { utilization_level: -1 }, ["utilization_level"]],
      ["a fractional utilization_level", { utilization_level: 1.5 }, ["utilization_level"]],
      ["no utilization_level", {}, ["utilization_level"]],
      ["a read-only cname", { utilization_level: 1, cname: "mine.example.com" }, ["cname"]],
      ["read-only use_balancer and service", { utilization_level: 1, use_balancer: false, service: { enabled: false } }, ["use_balancer", "service"]],
    ])("PUT /cdn/clients/me answers 400 for %s and changes nothing", async (_what, body, fields) => {
      const read = async () => (await selectRows(api.database.db, sql`select * from accounts where id = 1`))[0];
      const before = await read();
      expectEnvelope(await api.call("PUT", "/cdn/clients/me", { body }), 400, "validation_error", fields);
      expect(await read()).toEqual(before);
    });
  });
});
