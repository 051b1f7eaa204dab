/**
 * Integration tests of BGP announces: the account's protected networks (its live profiles' addresses),
 * announced as their profiles' bgp says until toggled, the toggle kept; filters; another account refused.
 */
import { sql } from "@cloudplane/db";
import { selectRows } from "@cloudplane/db/testing";
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi } from "../harness.js";

const ANNOUNCES = "/security/sifter/v2/protected_addresses/announces";

describe.each(engines())("BGP announces on %s", (engine) => {
  const api = useApi(engine);
  const stored = () => selectRows(api.database.db, sql`select account_id, network, enabled from security_bgp_announces order by account_id, network`);

  it("lists the account's protected networks: bgp on by default, a stored toggle over it; deleted profiles and other accounts left out", async () => {
    const reply = await api.call("GET", ANNOUNCES);
    expect(reply.status, reply.text).toBe(200);
    // Profile 1 (bgp on) was toggled off in the demo data; profile 3 has bgp off; profile 7 is deleted; profile 5 has no address.
    expect(reply.body).toEqual([{ client_id: 1, announced: [], not_announced: ["2001:db8::10/128", "203.0.113.10/32"] }]);
    expect((await api.call("GET", `${ANNOUNCES}?site=LU`)).body).toEqual([{ client_id: 1, announced: [], not_announced: ["2001:db8::10/128"] }]);
    // A site without profiles: no network at all.
    expect((await api.call("GET", `${ANNOUNCES}?site=ZZ`)).body).toEqual([{ client_id: 1, announced: [], not_announced: [] }]);
    expect((await api.call("GET", `${ANNOUNCES}?origin=STATIC,DYNAMIC`)).body).toEqual([{ client_id: 1, announced: [], not_announced: [] }]);
    expect((await api.call("GET", `${ANNOUNCES}?origin=IAAS&client_id=1`)).body).toEqual(reply.body);
    expect((await api.call("GET", `${ANNOUNCES}?offset=1`)).body).toEqual([]);
    expect((await api.call("GET", ANNOUNCES, { as: [2, "role-2-active"] })).body).toEqual([{ client_id: 2, announced: ["198.51.100.20/32"], not_announced: [] }]);
    expectEnvelope(await api.call("GET", `${ANNOUNCES}?client_id=2`), 403, "permission_denied");
    expectEnvelope(await api.call("GET", `${ANNOUNCES}?origin=CLOUD&announced=maybe`), 400, "validation_error", { "query.origin.0": expect.any(Array), "query.announced": expect.any(Array) });
  });

  it("lists each network once, announced when any of its profiles has bgp on, in code-point order", async () => {
    // Three more live profiles of account 1 (copies of profile 3's row): two share an address, one of them with bgp on.
    const copy = (address: string, bgp: boolean) => sql`
      insert into security_profiles (account_id, template_id, ip_address, site, options, protocols, status, plan)
      select account_id, template_id, ${address}, site, options || jsonb_build_object('bgp', ${bgp}::boolean), protocols, status, plan from security_profiles where id = 3`;
    for (const statement of [copy("10.0.0.2", false), copy("10.0.0.2", true), copy("10.0.0.10", false)]) await api.database.db.execute(statement);
    try {
      const reply = await api.call("GET", ANNOUNCES);
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toEqual([{ client_id: 1, announced: ["10.0.0.2/32"], not_announced: ["10.0.0.10/32", "2001:db8::10/128", "203.0.113.10/32"] }]);
      // Stored toggles of a network between others and of one no live profile has (left out), beside the demo's.
      await api.database.db.execute(sql`
        insert into security_bgp_announces (account_id, network, enabled, updated)
        values (1, '10.0.0.10/32', true, now()), (1, '10.0.0.1/32', true, now()), (1, '10.0.0.3/32', false, now())`);
      expect((await api.call("GET", ANNOUNCES)).body).toEqual([
        { client_id: 1, announced: ["10.0.0.10/32", "10.0.0.2/32"], not_announced: ["2001:db8::10/128", "203.0.113.10/32"] },
      ]);
    } finally {
      await api.database.db.execute(sql`delete from security_bgp_announces where network like '10.0.0.%'`);
      await api.database.db.execute(sql`delete from security_profiles where ip_address like '10.0.0.%'`);
    }
  });

  it("toggles a protected network on and off, keeping the toggle; the answer is the account's networks as they now are", async () => {
    const on = await api.call("POST", ANNOUNCES, { body: { announce: "2001:db8::10/128", enabled: true } });
    expect(on.status, on.text).toBe(200);
    expect(on.body).toEqual({ client_id: 1, announced: ["2001:db8::10/128"], not_announced: ["203.0.113.10/32"] });
    expect((await api.call("GET", `${ANNOUNCES}?announced=true`)).body).toEqual([{ client_id: 1, announced: ["2001:db8::10/128"], not_announced: [] }]);
    // The address in another spelling is the same network.
    const off = await api.call("POST", `${ANNOUNCES}?client_id=1`, { body: { announce: "2001:0db8:0::10/128", enabled: false } });
    expect(off.body).toEqual({ client_id: 1, announced: [], not_announced: ["2001:db8::10/128", "203.0.113.10/32"] });
    expect(await stored()).toContainEqual({ account_id: 1, network: "2001:db8::10/128", enabled: false });
  });

  it("answers each write at once, on every handler of the database, though each keeps what it answered", async () => {
    const other = api.createHandler();
    const db = api.database.db;
    // The whole account's announces and those of one site, as `handler` answers them; a handler that
    // kept nothing answers them as the database holds them now.
    const answers = async (handler = api.handler) => [
      (await api.call("GET", ANNOUNCES, { handler })).body,
      (await api.call("GET", `${ANNOUNCES}?site=KEPT`, { handler })).body,
    ];
    const writes: [string, () => Promise<unknown>][] = [
      ["a toggle through the other handler", () => api.call("POST", ANNOUNCES, { body: { announce: "2001:db8::10/128", enabled: true }, handler: other })],
      ["a new profile", () => db.execute(sql`
        insert into security_profiles (account_id, template_id, ip_address, site, options, plan)
        select account_id, template_id, '10.1.0.1', site, options || '{"bgp": true}', plan from security_profiles where id = 1`)],
      ["a profile's address", () => db.execute(sql`update security_profiles set ip_address = '10.1.0.2' where ip_address = '10.1.0.1'`)],
      ["a profile's bgp option", () => db.execute(sql`update security_profiles set options = options || '{"bgp": false}' where ip_address = '10.1.0.2'`)],
      ["a profile's site", () => db.execute(sql`update security_profiles set site = 'KEPT' where ip_address = '10.1.0.2'`)],
      ["a profile deleted", () => db.execute(sql`update security_profiles set deleted = now() where ip_address = '10.1.0.2'`)],
      ["the toggles emptied", () => db.execute(sql`truncate security_bgp_announces`)],
      ["a toggle after that", () => api.call("POST", ANNOUNCES, { body: { announce: "203.0.113.10/32", enabled: false } })],
    ];
    try {
      let before = await answers();
      for (const [write, run] of writes) {
        // Both handlers asked twice first: the second answers are the kept ones.
        await answers(other);
        expect(await answers(), write).toEqual(before);
        expect(await answers(other), write).toEqual(before);
        await run();
        const after = await answers();
        expect(after, write).not.toEqual(before);
        expect(after, write).toEqual(await answers(api.createHandler()));
        expect(await answers(other), write).toEqual(after);
        before = after;
      }
    } finally {
      await db.execute(sql`delete from security_profiles where ip_address like '10.1.0.%'`);
      await db.execute(sql`delete from security_bgp_announces`);
      await db.execute(sql`insert into security_bgp_announces (account_id, network, enabled, updated) values (1, '203.0.113.10/32', false, now())`);
    }
  });

  it("refuses a network the account does not protect (400), another account (403), bad bodies and readers, changing nothing", async () => {
    const before = await stored();
    expectEnvelope(await api.call("POST", ANNOUNCES, { body: { announce: "198.51.100.20/32", enabled: true } }), 400, "validation_error", { announce: expect.any(Array) });
    expectEnvelope(await api.call("POST", ANNOUNCES, { body: { announce: "203.0.113.0/24", enabled: true } }), 400, "validation_error", { announce: expect.any(Array) });
    expectEnvelope(await api.call("POST", ANNOUNCES, { body: { announce: "203.0.113.77/32", enabled: true } }), 400, "validation_error", { announce: expect.any(Array) });
    expectEnvelope(await api.call("POST", `${ANNOUNCES}?client_id=2`, { body: { announce: "203.0.113.10/32", enabled: true } }), 403, "permission_denied");
    expectEnvelope(await api.call("POST", ANNOUNCES, { body: { announce: "nowhere", enabled: "yes", origin: "IAAS" } }), 400, "validation_error", {
      announce: expect.any(Array),
      enabled: expect.any(Array),
      origin: expect.any(Array),
    });
    expectEnvelope(await api.call("POST", ANNOUNCES, { body: { announce: "203.0.113.10/32", enabled: true }, as: [1, "role-2-active"] }), 403, "permission_denied");
    expect(await stored()).toEqual(before);
  });
});
