/**
 * Integration tests of the Security routes: replacing a protection profile, with its values checked
 * against the template's fields, and rejected writes leaving the stored profiles as they were.
 */
import { demoFixture, sql } from "@cloudplane/db";
import { selectRows } from "@cloudplane/db/testing";
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi, type Reply, type TestApi } from "../harness.js";
import { fieldAsShown, fieldsOf, templateAsShown, templates } from "./shared.js";

const { securityProfiles: profiles } = demoFixture;

const template = (id: number) => templates.find((candidate) => candidate.id === id)!;
const profile = (id: number) => profiles.find((candidate) => candidate.id === id)!;
const fieldNamed = (templateId: number, name: string) => fieldsOf(templateId).find((field) => field.name === name)!;

/** The fixture's profiles of each account, and the templates (platform-wide) the tests use. */
const ours = profiles.find((candidate) => candidate.accountId === 1 && candidate.templateId === 1)!;
const oursToo = profiles.find((candidate) => candidate.accountId === 1 && candidate.templateId === 2)!;
const theirs = profiles.find((candidate) => candidate.accountId === 2)!;
const basic = template(ours.templateId);
const game = template(oursToo.templateId);

const path = (id: number) => `/security/iaas/v2/profiles/${id}`;

/** A valid body for the game template: its required UDP ports and a country list. */
function gameBody(overrides: Record<string, unknown> = {}) {
  return {
    profile_template: game.id,
    ip_address: "2001:db8::20",
    fields: [
      { base_field: fieldNamed(game.id, "udp_ports").id, field_value: [27015, 27020] },
      { base_field: fieldNamed(game.id, "allowed_countries").id, field_value: ["DE", "LU"] },
    ],
    site: "LU",
    ...overrides,
  };
}

/** A valid body for the basic template. */
function basicBody(overrides: Record<string, unknown> = {}) {
  return {
    profile_template: basic.id,
    ip_address: "192.0.2.44",
    fields: [{ base_field: fieldNamed(basic.id, "tcp_ports").id, field_value: [22, 80, 443] }],
    site: "ED",
    ...overrides,
  };
}

describe.each(engines())("security routes on %s", (engine) => {
  const api = useApi(engine);

  /** Everything stored about profiles, read past the schema's mapping. */
  async function storedProfiles() {
    return {
      profiles: await selectRows(api.database.db, sql`select * from security_profiles order by id`),
      fields: await selectRows(api.database.db, sql`select * from security_profile_fields order by id`),
    };
  }

  /** The PUT must be refused and leave every stored profile and value as it was. */
  async function expectRefusedUnchanged(id: number, body: unknown, as: Parameters<TestApi["call"]>[2] = {}): Promise<Reply> {
    const before = await storedProfiles();
    const reply = await api.call("PUT", path(id), { ...as, body });
    expect(reply.status, reply.text).toBeGreaterThanOrEqual(400);
    expect(await storedProfiles()).toEqual(before);
    return reply;
  }

  describe("PUT /security/iaas/v2/profiles/{id}", () => {
    it("replaces template, address, fields and site, and answers the profile with its template", async () => {
      const body = gameBody();
      const reply = await api.call("PUT", path(ours.id), { body });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toEqual({
        id: ours.id,
        profile_template: templateAsShown(game),
        ip_address: body.ip_address,
        fields: body.fields.map((value) => ({
          ...fieldAsShown(fieldsOf(game.id).find((field) => field.id === value.base_field)!),
          field_value: value.field_value,
          base_field: value.base_field,
        })),
        site: body.site,
        // Set by the service: a replace leaves them alone.
        options: ours.options,
        protocols: ours.protocols,
        status: ours.status,
        plan: ours.plan,
      });

      const [stored] = await selectRows(api.database.db, sql`select template_id, ip_address, site from security_profiles where id = ${ours.id}`);
      expect(stored).toEqual({ template_id: game.id, ip_address: body.ip_address, site: body.site });
      const values = await selectRows<{ base_field_id: number; field_value: unknown }>(
        api.database.db,
        sql`select base_field_id, field_value from security_profile_fields where profile_id = ${ours.id} order by base_field_id`,
      );
      expect(values).toEqual(body.fields.map((value) => ({ base_field_id: value.base_field, field_value: value.field_value })));
    });

    it("replaces the values whole: fields left out are gone", async () => {
      const bandwidth = fieldNamed(basic.id, "bandwidth_limit_mbps");
      const first = await api.call("PUT", path(ours.id), {
        body: basicBody({ fields: [...basicBody().fields, { base_field: bandwidth.id, field_value: [500] }] }),
      });
      expect(first.status, first.text).toBe(200);
      expect(first.body.fields.map((value: { base_field: number }) => value.base_field).sort()).toEqual(
        [fieldNamed(basic.id, "tcp_ports").id, bandwidth.id].sort(),
      );

      const second = await api.call("PUT", path(ours.id), { body: basicBody() });
      expect(second.status, second.text).toBe(200);
      expect(second.body.profile_template).toEqual(templateAsShown(basic));
      expect(second.body.fields).toEqual([
        { ...fieldAsShown(fieldNamed(basic.id, "tcp_ports")), field_value: [22, 80, 443], base_field: fieldNamed(basic.id, "tcp_ports").id },
      ]);
      const stored = await selectRows(api.database.db, sql`select base_field_id from security_profile_fields where profile_id = ${ours.id}`);
      expect(stored).toEqual([{ base_field_id: fieldNamed(basic.id, "tcp_ports").id }]);
    });

    it.each(["192.0.2.1", "0.0.0.0", "255.255.255.255", "2001:db8::1", "::1", "2001:0db8:0000:0000:0000:ff00:0042:8329", "::ffff:192.0.2.1"])(
      "accepts the address %s",
      async (address) => {
        const reply = await api.call("PUT", path(oursToo.id), { body: gameBody({ ip_address: address }) });
        expect(reply.status, reply.text).toBe(200);
        expect(reply.body.ip_address).toBe(address);
      },
    );

    it("stores a JSON null where the field's schema allows it", async () => {
      // No template of the fixture takes null, so the test adds one to the platform's templates.
      const [added] = await selectRows<{ id: number }>(
        api.database.db,
        sql`insert into security_profile_templates (name) values ('Nullable note') returning id`,
      );
      const [note] = await selectRows<{ id: number }>(
        api.database.db,
        sql`insert into security_template_fields (template_id, position, name, field_type, validation_schema)
            values (${added!.id}, 0, 'note', 'str', ${JSON.stringify({ type: ["string", "null"] })}::jsonb) returning id`,
      );
      const reply = await api.call("PUT", path(oursToo.id), {
        body: { profile_template: added!.id, ip_address: "192.0.2.7", fields: [{ base_field: note!.id, field_value: null }], site: "ED" },
      });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body.fields).toEqual([expect.objectContaining({ base_field: note!.id, field_value: null })]);
      const [stored] = await selectRows(
        api.database.db,
        sql`select jsonb_typeof(field_value) as type from security_profile_fields where profile_id = ${oursToo.id}`,
      );
      expect(stored).toEqual({ type: "null" });
    });

    it("lets an Engineer replace a profile, and a profile of the other account by its own token", async () => {
      const engineer = await api.call("PUT", path(oursToo.id), { as: [1, "role-5-active"], body: gameBody({ site: "ED" }) });
      expect(engineer.status, engineer.text).toBe(200);
      expect(engineer.body.site).toBe("ED");
      const own = await api.call("PUT", path(theirs.id), { as: [2, "role-1-active"], body: basicBody({ ip_address: theirs.ipAddress }) });
      expect(own.status, own.text).toBe(200);
      expect(own.body.id).toBe(theirs.id);
      expect(own.body.options).toEqual(theirs.options);
    });

    it("answers 400 errors.profile_template for an unknown template, changing nothing", async () => {
      const reply = await expectRefusedUnchanged(ours.id, basicBody({ profile_template: 999_999 }));
      expectEnvelope(reply, 400, "validation_error", ["profile_template"]);
    });

    it("answers 400 errors[fields.0.base_field] for a field of another template, changing nothing", async () => {
      const otherTemplatesField = fieldNamed(game.id, "udp_ports");
      const reply = await expectRefusedUnchanged(
        ours.id,
        basicBody({ fields: [{ base_field: otherTemplatesField.id, field_value: [27015] }, ...basicBody().fields] }),
      );
      expectEnvelope(reply, 400, "validation_error", ["fields.0.base_field"]);
    });

    it("answers 400 errors.fields naming a missing required field, changing nothing", async () => {
      const udp = fieldNamed(game.id, "udp_ports");
      expect(udp.required).toBe(true);
      const reply = await expectRefusedUnchanged(
        oursToo.id,
        gameBody({ fields: gameBody().fields.filter((value) => value.base_field !== udp.id) }),
      );
      const messages = expectEnvelope(reply, 400, "validation_error", ["fields"]).errors!.fields!;
      expect(messages.join(" ")).toContain(udp.name);
    });

    it.each([
      ["a port above 65535", "tcp_ports", [80, 70000], /70000.*65535/],
      ["a port below 0", "tcp_ports", [-1], /-1.*0/],
      ["a text instead of a list", "tcp_ports", "80", /array/],
      ["a fraction", "tcp_ports", [80.5], /integer/],
      ["a repeated port", "tcp_ports", [80, 80], /[Dd]uplicate/],
      ["null", "tcp_ports", null, /array/],
      ["too low a limit", "bandwidth_limit_mbps", [5], /5.*10/],
      ["no limit at all", "bandwidth_limit_mbps", [], /1/],
    ])("answers 400 errors[fields.<i>.field_value] for %s, changing nothing", async (_case, name, value, message) => {
      const field = fieldNamed(basic.id, name);
      const valid = basicBody().fields.filter((given) => given.base_field !== field.id);
      // The bad value goes last, so the index in the error path is not always 0.
      const reply = await expectRefusedUnchanged(ours.id, basicBody({ fields: [...valid, { base_field: field.id, field_value: value }] }));
      const messages = expectEnvelope(reply, 400, "validation_error", [`fields.${valid.length}.field_value`]).errors![`fields.${valid.length}.field_value`]!;
      expect(messages.join(" ")).toMatch(message);
      for (const text of messages) expect(text).not.toMatch(/\[object|undefined/);
    });

    it("names every problem of a value, at the value and inside it", async () => {
      const tcp = fieldNamed(basic.id, "tcp_ports");
      const reply = await expectRefusedUnchanged(ours.id, basicBody({ fields: [{ base_field: tcp.id, field_value: [80, 80, 70000] }] }));
      const messages = expectEnvelope(reply, 400, "validation_error", ["fields.0.field_value"]).errors!["fields.0.field_value"]!;
      expect(messages.join(" ")).toMatch(/[Dd]uplicate/);
      expect(messages.join(" ")).toMatch(/70000/);
    });

    it("checks the values of the template given, not the profile's current one", async () => {
      const countries = fieldNamed(game.id, "allowed_countries");
      const reply = await expectRefusedUnchanged(
        ours.id,
        gameBody({ fields: [gameBody().fields[0], { base_field: countries.id, field_value: ["DE", "lux"] }] }),
      );
      expect(expectEnvelope(reply, 400, "validation_error", ["fields.1.field_value"]).errors!["fields.1.field_value"]!.join(" ")).toMatch(/lux|pattern/);
    });

    it("reports every problem of the fields together", async () => {
      const tcp = fieldNamed(game.id, "tcp_ports");
      const reply = await expectRefusedUnchanged(
        oursToo.id,
        gameBody({ fields: [{ base_field: tcp.id, field_value: [99999] }, { base_field: fieldNamed(basic.id, "tcp_ports").id, field_value: [80] }] }),
      );
      expectEnvelope(reply, 400, "validation_error", ["fields", "fields.0.field_value", "fields.1.base_field"]);
    });

    it.each(["1.2.3.256", "192.0.2", "192.0.2.1/32", "2001:db8:::1", "2001:db8::1::2", "2001:db8::g", "not an address", "", " 192.0.2.1", 3232235521])(
      "answers 400 errors.ip_address for %o, changing nothing",
      async (address) => {
        expectEnvelope(await expectRefusedUnchanged(ours.id, basicBody({ ip_address: address })), 400, "validation_error", ["ip_address"]);
      },
    );

    it.each([
      [{ ...basicBody(), profile_template: undefined }, "profile_template"],
      [{ ...basicBody(), site: "" }, "site"],
      [{ ...basicBody(), fields: undefined }, "fields"],
      [basicBody({ fields: [{ base_field: 1 }] }), "fields.0.field_value"],
      [basicBody({ fields: [...basicBody().fields, ...basicBody().fields] }), "fields.1.base_field"],
      [basicBody({ plan: "premium" }), "plan"],
      [basicBody({ options: { bgp: false, active: true, price: "0" } }), "options"],
      [basicBody({ colour: "blue" }), "colour"],
    ])("answers 400 for %o at %s, changing nothing", async (body, field) => {
      expectEnvelope(await expectRefusedUnchanged(ours.id, body), 400, "validation_error", [field]);
    });

    it("answers 404 for the other account's profile, as for one that does not exist, changing nothing", async () => {
      for (const id of [theirs.id, 999_999]) {
        const reply = await expectRefusedUnchanged(id, basicBody());
        expectEnvelope(reply, 404, "not_found");
      }
    });

    it("refuses Users and the Purge and Prefetch roles (a write), changing nothing", async () => {
      for (const token of ["role-2-active", "role-3022-active", "role-3009-active"] as const) {
        const reply = await expectRefusedUnchanged(ours.id, basicBody(), { as: [1, token] });
        expectEnvelope(reply, 403, "permission_denied");
      }
    });

    it("still holds the fixture's other profiles as they were", async () => {
      // Account 2's profile was replaced above with its own address; account 1's writes never reached it.
      const [stored] = await selectRows(api.database.db, sql`select account_id, ip_address from security_profiles where id = ${theirs.id}`);
      expect(stored).toEqual({ account_id: theirs.accountId, ip_address: profile(theirs.id).ipAddress });
    });
  });
});
