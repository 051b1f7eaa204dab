/**
 * Concurrent writes: concurrent PATCHes of one CDN resource never lose a change,
 * and concurrent creations of one secret name give exactly one secret and a 409 to every other caller.
 */
import { isDeepStrictEqual } from "node:util";
import { CDN_OPTION_NAMES, cdnOptionSchemas, completeCdnResourceOptions } from "@cloudplane/contract";
import { demoFixture, sha256Hex, sql } from "@cloudplane/db";
import { selectRows } from "@cloudplane/db/testing";
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi } from "./harness.js";

const RESOURCE = 1;

/** A valid value for every option key: the demo fixture's where it has one, else a hand-made one. */
function optionValues(): Record<string, Record<string, unknown>> {
  const values: Record<string, Record<string, unknown>> = {};
  for (const resource of demoFixture.cdnResources)
    for (const [key, option] of Object.entries(resource.options)) values[key] ??= option;
  values.secure_key ??= { enabled: true, key: "concurrency-secure-key", type: 2 };
  values.fastedge ??= { enabled: true, on_request_headers: { app_id: "1", enabled: true, execute_on_edge: true, execute_on_shield: false, interrupt_on_error: true } };
  for (const key of CDN_OPTION_NAMES) values[key] ??= { enabled: true, value: true };
  for (const [key, option] of Object.entries(values)) cdnOptionSchemas[key as keyof typeof cdnOptionSchemas].parse(option);
  return values;
}

/** The top-level fields a round changes, each to a value the resource does not have before that round. */
function fieldsOf(round: 1 | 2): Record<string, unknown> {
  return {
    name: `Concurrency round ${round}`,
    description: `Written in round ${round}.`,
    active: round === 2,
    originProtocol: round === 1 ? "MATCH" : "HTTP",
    secondaryHostnames: [`round-${round}.concurrency.acme.example`],
    proxy_ssl_enabled: round === 2,
    proxy_ssl_ca: round === 1 ? null : 3,
    proxy_ssl_data: round === 1 ? 1 : null,
  };
}

/** As returned: the secure key is a secret and never comes back. */
function shown(key: string, option: Record<string, unknown>): Record<string, unknown> {
  if (key !== "secure_key") return option;
  const { key: _secret, ...rest } = option;
  return rest;
}

describe.each(engines())("concurrent writes on %s", (engine) => {
  const api = useApi(engine);

  const read = async () => {
    // A PATCH without fields changes nothing and answers the resource.
    const reply = await api.call("PATCH", `/cdn/resources/${RESOURCE}`, { body: {} });
    expect(reply.status, reply.text).toBe(200);
    return reply.body;
  };

  it("keeps every change of two rounds of concurrent PATCHes: each of the 53 option keys and 8 fields, twice", async () => {
    expect(CDN_OPTION_NAMES).toHaveLength(53);
    const values = optionValues();
    const start = await read();
    // From no options at all, a key lost in round 1 would be missing; in round 2 it would keep round 1's value.
    const cleared = await api.call("PATCH", `/cdn/resources/${RESOURCE}`, {
      body: { options: Object.fromEntries(Object.keys(start.options).map((key) => [key, null])) },
    });
    // Every option is shown, null when it is not set.
    expect(cleared.body.options).toEqual(Object.fromEntries(CDN_OPTION_NAMES.map((key) => [key, null])));

    let patches = 0;
    let kept = 0;
    for (const round of [1, 2] as const) {
      // Every option changes between rounds: round 1 switches them on, round 2 off.
      const options = Object.fromEntries(CDN_OPTION_NAMES.map((key) => [key, { ...values[key], enabled: round === 1 }]));
      const fields = fieldsOf(round);
      const bodies = [
        ...Object.entries(options).map(([key, option]) => ({ options: { [key]: option } })),
        ...Object.entries(fields).map(([field, value]) => ({ [field]: value })),
      ];
      const started = performance.now();
      const replies = await Promise.all(bodies.map((body) => api.call("PATCH", `/cdn/resources/${RESOURCE}`, { body })));
      const ms = performance.now() - started;
      for (const reply of replies) expect(reply.status, reply.text).toBe(200);

      const after = await read();
      // As answered: every field of each option, null where none was given.
      const expectedOptions: Record<string, unknown> = completeCdnResourceOptions(Object.fromEntries(Object.entries(options).map(([key, option]) => [key, shown(key, option)])));
      const keptOptions = Object.keys(expectedOptions).filter((key) => isDeepStrictEqual(after.options[key], expectedOptions[key]));
      const keptFields = Object.keys(fields).filter((field) => isDeepStrictEqual(after[field], fields[field]));
      patches += bodies.length;
      kept += keptOptions.length + keptFields.length;
      console.log(
        `concurrency (${engine}): round ${round}: ${bodies.length} concurrent PATCHes of resource ${RESOURCE} in ${ms.toFixed(0)} ms; ` +
          `kept ${keptOptions.length}/${CDN_OPTION_NAMES.length} options and ${keptFields.length}/${Object.keys(fields).length} fields`,
      );
      expect(after.options).toEqual(expectedOptions);
      expect(after).toMatchObject(fields);
    }
    console.log(`concurrency (${engine}): ${kept} of ${patches} concurrent changes kept`);
    expect(kept).toBe(patches);
  });

  it("creates a secret once when 50 callers create one name at the same time, and answers 409 to the other 49", async () => {
    const name = "concurrency-one-name";
    const values = Array.from({ length: 50 }, (_, index) => `concurrent-secret-value-${index}`);
    const started = performance.now();
    const replies = await Promise.all(
      values.map((value) => api.call("POST", "/edge/v1/secrets", { body: { name, secret_slots: [{ slot: 0, value }] } })),
    );
    const ms = performance.now() - started;
    const created = replies.filter((reply) => reply.status === 200);
    const refused = replies.filter((reply) => reply.status === 409);
    console.log(`concurrency (${engine}): 50 concurrent creations of secret ${name} in ${ms.toFixed(0)} ms: ${created.length} × 200, ${refused.length} × 409`);
    expect(created).toHaveLength(1);
    expect(refused).toHaveLength(49);
    for (const reply of refused) expectEnvelope(reply, 409, "conflict");

    // The one stored is whole, and is the winner's: its only slot has the checksum of the winner's value.
    const winner = values[replies.indexOf(created[0]!)]!;
    expect(created[0]!.body.secret_slots).toEqual([{ slot: 0, checksum: await sha256Hex(winner) }]);
    const rows = await selectRows<{ id: number; slots: number; checksum: string }>(
      api.database.db,
      sql`select s.id, count(sl.slot)::int as slots, max(sl.checksum) as checksum
          from edge_secrets s left join edge_secret_slots sl on sl.secret_id = s.id and sl.account_id = s.account_id
          where s.name = ${name} group by s.id`,
    );
    expect(rows).toEqual([{ id: created[0]!.body.id, slots: 1, checksum: await sha256Hex(winner) }]);
  });
});
