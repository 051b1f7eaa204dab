/**
 * Integration tests of a profile's re-create: the same id built again on the template given, the values
 * checked as on create, the protection set up anew; bad requests change nothing.
 */
import { sql } from "@cloudplane/db";
import { selectRows } from "@cloudplane/db/testing";
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi } from "../harness.js";
import { templateAsShown, templates } from "./shared.js";

const PROFILES = "/security/iaas/v2/profiles";

describe.each(engines())("re-creating a security profile on %s", (engine) => {
  const api = useApi(engine);
  const stored = async () => ({
    profiles: await selectRows(api.database.db, sql`select * from security_profiles order by id`),
    fields: await selectRows(api.database.db, sql`select * from security_profile_fields order by id`),
  });

  it("moves a profile to another template under the same id, keeping its site, bgp, price and plan, set up anew", async () => {
    const before = (await api.call("GET", `${PROFILES}/1`)).body as Record<string, unknown> & { options: Record<string, unknown> };
    const reply = await api.call("PUT", `${PROFILES}/1/recreate`, {
      body: { profile_template: 2, ip_address: "203.0.113.10", fields: [{ base_field: 4, field_value: [27015] }, { base_field: 5, field_value: ["DE"] }] },
    });
    expect(reply.status, reply.text).toBe(200);
    const after = reply.body as Record<string, unknown> & { status: { status: string; updated: string }; fields: { base_field: number; field_type: string }[] };
    expect(after).toMatchObject({
      id: 1,
      profile_template: templateAsShown(templates.find((template) => template.id === 2)!),
      ip_address: "203.0.113.10",
      site: before.site,
      options: { ...before.options, active: true },
      protocols: [],
      plan: before.plan,
    });
    expect(after.status.status).toBe("active");
    expect(after.fields.map((field) => [field.base_field, field.field_type])).toEqual([
      [4, "int"],
      [5, "str"],
    ]);
    expect((await api.call("GET", `${PROFILES}/1`)).body).toEqual(after);
    // The site may be given.
    const moved = await api.call("PUT", `${PROFILES}/1/recreate`, { body: { profile_template: 1, ip_address: "203.0.113.10", site: "LU", fields: [{ base_field: 1, field_value: [443] }] } });
    expect(moved.body).toMatchObject({ site: "LU", profile_template: { id: 1 } });
  });

  it("refuses values the template does not take, a deleted or another account's profile, and readers, changing nothing", async () => {
    const before = await stored();
    expectEnvelope(await api.call("PUT", `${PROFILES}/1/recreate`, { body: { profile_template: 2, ip_address: "203.0.113.10", fields: [{ base_field: 1, field_value: [80] }] } }), 400, "validation_error", {
      "fields.0.base_field": expect.any(Array),
      fields: expect.any(Array),
    });
    expectEnvelope(await api.call("PUT", `${PROFILES}/1/recreate`, { body: { profile_template: 99, fields: [], status: {} } }), 400, "validation_error", { status: expect.any(Array) });
    expectEnvelope(await api.call("PUT", `${PROFILES}/1/recreate`, { body: { profile_template: 99, fields: [] } }), 400, "validation_error", { profile_template: expect.any(Array) });
    const body = { profile_template: 1, ip_address: "203.0.113.10", fields: [{ base_field: 1, field_value: [80] }] };
    expectEnvelope(await api.call("PUT", `${PROFILES}/7/recreate`, { body }), 404, "not_found");
    expectEnvelope(await api.call("PUT", `${PROFILES}/2/recreate`, { body }), 404, "not_found");
    expectEnvelope(await api.call("PUT", `${PROFILES}/1/recreate`, { body, as: [1, "role-2-active"] }), 403, "permission_denied");
    expect(await stored()).toEqual(before);
  });
});
