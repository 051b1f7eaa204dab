/**
 * Integration tests of the lifecycle of security profiles (list, create, get, delete), on the common
 * profile templates and the account's own.
 */
import { demoFixture, sql } from "@cloudplane/db";
import { selectRows } from "@cloudplane/db/testing";
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi, type Reply } from "../harness.js";
import { fieldsOf, fixedOfAccount1, ownOfAccount2, templateAsShown, templates } from "./shared.js";

const { securityProfiles: profiles } = demoFixture;

const PROFILES = "/security/iaas/v2/profiles";

const template = (id: number) => templates.find((candidate) => candidate.id === id)!;
const fieldOf = (templateId: number, name: string) => fieldsOf(templateId).find((field) => field.name === name)!;

const common = template(1);
const deletedOfAccount1 = profiles.find((candidate) => candidate.accountId === 1 && candidate.deleted !== null)!;
const liveOf = (account: number) => profiles.filter((candidate) => candidate.accountId === account && candidate.deleted === null);

function basicBody(overrides: Record<string, unknown> = {}) {
  return {
    profile_template: common.id,
    ip_address: "192.0.2.80",
    fields: [{ base_field: fieldOf(common.id, "tcp_ports").id, field_value: [80, 443] }],
    site: "ED",
    ...overrides,
  };
}

describe.each(engines())("security profiles and templates on %s", (engine) => {
  const api = useApi(engine);

  async function stored() {
    return {
      profiles: await selectRows(api.database.db, sql`select * from security_profiles order by id`),
      fields: await selectRows(api.database.db, sql`select * from security_profile_fields order by id`),
    };
  }

  async function expectRefusedUnchanged(send: () => Promise<Reply>): Promise<Reply> {
    const before = await stored();
    const reply = await send();
    expect(reply.status, reply.text).toBeGreaterThanOrEqual(400);
    expect(await stored()).toEqual(before);
    return reply;
  }

  describe("GET /security/iaas/v2/profiles", () => {
    it("lists the account's live profiles by id; deleted ones only with include_deleted", async () => {
      const reply = await api.call("GET", PROFILES, { as: [1, "role-2-active"] });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body.map((profile: { id: number }) => profile.id)).toEqual(liveOf(1).map((profile) => profile.id));
      const withDeleted = await api.call("GET", `${PROFILES}?include_deleted=true`);
      expect(withDeleted.body.map((profile: { id: number }) => profile.id)).toEqual(
        profiles.filter((profile) => profile.accountId === 1).map((profile) => profile.id),
      );
      const shownDeleted = withDeleted.body.find((profile: { id: number }) => profile.id === deletedOfAccount1.id);
      expect(shownDeleted.options.active).toBe(false);
      expect(shownDeleted.status).toEqual(deletedOfAccount1.status);

      const theirs = await api.call("GET", PROFILES, { as: [2, "role-1-active"] });
      expect(theirs.body.map((profile: { id: number }) => profile.id)).toEqual(liveOf(2).map((profile) => profile.id));
    });

    it("filters by ip_address, site and exclude_empty_address, and pages", async () => {
      const first = liveOf(1)[0]!;
      const byAddress = await api.call("GET", `${PROFILES}?ip_address=${encodeURIComponent(first.ipAddress!)}`);
      expect(byAddress.body.map((profile: { id: number }) => profile.id)).toEqual([first.id]);
      const bySite = await api.call("GET", `${PROFILES}?site=LU`);
      expect(bySite.body.map((profile: { id: number }) => profile.id)).toEqual(liveOf(1).filter((profile) => profile.site === "LU").map((profile) => profile.id));
      expect(liveOf(1).some((profile) => profile.ipAddress === null)).toBe(true);
      const withAddress = await api.call("GET", `${PROFILES}?exclude_empty_address=true`);
      expect(withAddress.body.map((profile: { id: number }) => profile.id)).toEqual(
        liveOf(1).filter((profile) => profile.ipAddress !== null).map((profile) => profile.id),
      );
      const page = await api.call("GET", `${PROFILES}?limit=1&offset=1`);
      expect(page.body.map((profile: { id: number }) => profile.id)).toEqual([liveOf(1)[1]!.id]);
    });

    it.each(["include_deleted=1", "exclude_empty_address=TRUE", "limit=1001", `site=${"x".repeat(65)}`])("answers 400 for %s", async (query) => {
      expectEnvelope(await api.call("GET", `${PROFILES}?${query}`), 400, "validation_error", [`query.${query.split("=")[0]}`]);
    });
  });

  describe("the life of a profile: create → get → list → replace → delete → 404", () => {
    it("creates (201) with the service's defaults, shows it, replaces it, deletes it (204) and lists it only with include_deleted", async () => {
      const body = basicBody();
      const created = await api.call("POST", PROFILES, { body, as: [1, "role-5-active"] });
      expect(created.status, created.text).toBe(201);
      const tcp = fieldOf(common.id, "tcp_ports");
      expect(created.body).toEqual({
        id: expect.any(Number),
        profile_template: templateAsShown(common),
        ip_address: body.ip_address,
        fields: [{ ...templateAsShown(common).fields[0], field_value: [80, 443], base_field: tcp.id }],
        site: "ED",
        options: { bgp: false, active: true, price: "0.00" },
        protocols: [],
        status: { status: "active", updated: expect.any(String) },
        plan: "standard",
      });
      const id = created.body.id as number;

      const got = await api.call("GET", `${PROFILES}/${id}`, { as: [1, "role-2-active"] });
      expect(got.body).toEqual(created.body);
      expect((await api.call("GET", PROFILES)).body).toContainEqual(created.body);
      expectEnvelope(await api.call("GET", `${PROFILES}/${id}`, { as: [2, "role-1-active"] }), 404, "not_found");

      const replaced = await api.call("PUT", `${PROFILES}/${id}`, { body: basicBody({ ip_address: "192.0.2.81", site: "LU" }) });
      expect(replaced.status, replaced.text).toBe(200);
      expect(replaced.body).toMatchObject({ id, ip_address: "192.0.2.81", site: "LU" });

      // Another account cannot delete it.
      expectEnvelope(await expectRefusedUnchanged(() => api.call("DELETE", `${PROFILES}/${id}`, { as: [2, "role-1-active"] })), 404, "not_found");

      const deleted = await api.call("DELETE", `${PROFILES}/${id}`);
      expect(deleted.status, deleted.text).toBe(204);
      expect(deleted.text).toBe("");

      expectEnvelope(await api.call("GET", `${PROFILES}/${id}`), 404, "not_found");
      expectEnvelope(await api.call("DELETE", `${PROFILES}/${id}`), 404, "not_found");
      expectEnvelope(await expectRefusedUnchanged(() => api.call("PUT", `${PROFILES}/${id}`, { body: basicBody() })), 404, "not_found");
      expect((await api.call("GET", PROFILES)).body.map((profile: { id: number }) => profile.id)).not.toContain(id);
      const listed = (await api.call("GET", `${PROFILES}?include_deleted=true`)).body.find((profile: { id: number }) => profile.id === id);
      expect(listed).toMatchObject({ id, ip_address: "192.0.2.81", options: { active: false }, status: { status: "deleted" } });
    });

    it("creates a profile of a fixed-address template without an address, and of the account's own template", async () => {
      const fixed = await api.call("POST", PROFILES, {
        body: { profile_template: fixedOfAccount1.id, site: "ED", fields: [{ base_field: fieldsOf(fixedOfAccount1.id)[0]!.id, field_value: [443] }] },
      });
      expect(fixed.status, fixed.text).toBe(201);
      expect(fixed.body).toMatchObject({ ip_address: null, profile_template: templateAsShown(fixedOfAccount1) });
      const own = await api.call("POST", PROFILES, {
        as: [2, "role-1-active"],
        body: { profile_template: ownOfAccount2.id, ip_address: "2001:db8::99", site: "ED", fields: [{ base_field: fieldsOf(ownOfAccount2.id)[0]!.id, field_value: [27015] }] },
      });
      expect(own.status, own.text).toBe(201);
      expect(own.body.profile_template.id).toBe(ownOfAccount2.id);
    });
  });

  describe("refused creations change nothing", () => {
    it.each<[string, Record<string, unknown>, string[]]>([
      ["another account's template", basicBody({ profile_template: ownOfAccount2.id, fields: [] }), ["profile_template"]],
      ["an unknown template", basicBody({ profile_template: 999_999 }), ["profile_template"]],
      ["no address for a template that takes one", basicBody({ ip_address: undefined }), ["ip_address"]],
      ["a null address for a template that takes one", basicBody({ ip_address: null }), ["ip_address"]],
      [
        "an address for a fixed-address template",
        basicBody({ profile_template: fixedOfAccount1.id, fields: [{ base_field: fieldsOf(fixedOfAccount1.id)[0]!.id, field_value: [443] }] }),
        ["ip_address"],
      ],
      ["a missing required field", basicBody({ fields: [] }), ["fields"]],
      ["a field of another template", basicBody({ fields: [{ base_field: fieldOf(2, "udp_ports").id, field_value: [1] }] }), ["fields", "fields.0.base_field"]],
      ["a value its schema refuses", basicBody({ fields: [{ base_field: fieldOf(common.id, "tcp_ports").id, field_value: [70000] }] }), ["fields.0.field_value"]],
      ["no site", basicBody({ site: undefined }), ["site"]],
      ["a bad address", basicBody({ ip_address: "192.0.2.300" }), ["ip_address"]],
      ["a read-only field", basicBody({ plan: "premium" }), ["plan"]],
      ["an unknown field", basicBody({ colour: "blue" }), ["colour"]],
    ])("with %s: 400 naming it", async (_what, body, fields) => {
      expectEnvelope(await expectRefusedUnchanged(() => api.call("POST", PROFILES, { body })), 400, "validation_error", fields);
    });

    it("refuses Users and the Purge and Prefetch roles (403) for create and delete", async () => {
      const live = liveOf(1)[0]!;
      for (const token of ["role-2-active", "role-3022-active", "role-3009-active"] as const) {
        expectEnvelope(await expectRefusedUnchanged(() => api.call("POST", PROFILES, { body: basicBody(), as: [1, token] })), 403, "permission_denied");
        expectEnvelope(await expectRefusedUnchanged(() => api.call("DELETE", `${PROFILES}/${live.id}`, { as: [1, token] })), 403, "permission_denied");
      }
    });

    it("answers 404 for a deleted profile, another account's and an unknown one", async () => {
      for (const id of [deletedOfAccount1.id, liveOf(2)[0]!.id, 999_999]) {
        expectEnvelope(await api.call("GET", `${PROFILES}/${id}`), 404, "not_found");
        expectEnvelope(await expectRefusedUnchanged(() => api.call("DELETE", `${PROFILES}/${id}`)), 404, "not_found");
      }
    });
  });
});
