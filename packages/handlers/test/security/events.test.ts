/**
 * Integration tests of security events (the attacks the demo generator recorded on the demo profiles'
 * addresses): the list's filters, ordering and paging, one event with its breakdowns, and another
 * account's events answered as missing ones.
 */
import { DEMO_EVENTS_PER_ADDRESS, demoFixture, sql } from "@cloudplane/db";
import { selectRows } from "@cloudplane/db/testing";
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi } from "../harness.js";

const EVENTS = "/security/notifier/v1/event_logs";
const addressesOf = (account: number) => demoFixture.securityProfiles.filter((profile) => profile.accountId === account && profile.ipAddress !== null);

interface Event {
  id: string;
  alert_type: string;
  attack_start_time: string;
  attack_power_bps: number;
  targeted_ip_addresses: string;
  client_id: number;
}

describe.each(engines())("security events on %s", (engine) => {
  const api = useApi(engine);

  it("lists the account's events newest first, every field of the platform's model, paged by limit and offset", async () => {
    const all = await api.call("GET", `${EVENTS}?limit=1000`);
    expect(all.status, all.text).toBe(200);
    const { count, results } = all.body as { count: number; results: Event[] };
    expect(count).toBe(addressesOf(1).length * DEMO_EVENTS_PER_ADDRESS);
    expect(results).toHaveLength(count);
    expect(results.every((event) => event.client_id === 1)).toBe(true);
    const times = results.map((event) => event.attack_start_time);
    expect(times).toEqual([...times].sort().reverse());
    expect(Object.keys(results[0]!).sort()).toEqual(
      ["alert_type", "attack_power_bps", "attack_power_pps", "attack_start_time", "client_id", "id", "notification_type", "number_of_ip_involved_in_attack", "targeted_ip_addresses"].sort(),
    );
    const page = await api.call("GET", `${EVENTS}?limit=2&offset=3`);
    expect(page.body).toEqual({ count, results: results.slice(3, 5) });
    // The default page is 25.
    expect((await api.call("GET", EVENTS)).body).toMatchObject({ count, results: results.slice(0, 25) });
  });

  it("filters by kind, start time (a date alone is its whole day) and address, and orders by the platform's fields", async () => {
    const all = ((await api.call("GET", `${EVENTS}?limit=1000`)).body as { results: Event[] }).results;
    const rtbh = (await api.call("GET", `${EVENTS}?alert_type=rtbh_alert&limit=1000`)).body as { count: number; results: Event[] };
    expect(rtbh.results.map((event) => event.id)).toEqual(all.filter((event) => event.alert_type === "rtbh_alert").map((event) => event.id));
    const address = addressesOf(1)[0]!.ipAddress!;
    const ofAddress = (await api.call("GET", `${EVENTS}?targeted_ip_addresses=${encodeURIComponent(address)}&limit=1000`)).body as { results: Event[] };
    expect(ofAddress.results.length).toBe(DEMO_EVENTS_PER_ADDRESS);
    const day = all[0]!.attack_start_time.slice(0, 10);
    const ofDay = (await api.call("GET", `${EVENTS}?date_from=${day}&date_to=${day}&limit=1000`)).body as { results: Event[] };
    expect(ofDay.results.map((event) => event.id)).toEqual(all.filter((event) => event.attack_start_time.startsWith(day)).map((event) => event.id));
    const from = all[2]!.attack_start_time;
    const since = (await api.call("GET", `${EVENTS}?date_from=${from}&limit=1000`)).body as { results: Event[] };
    expect(since.results.map((event) => event.id)).toEqual(all.filter((event) => event.attack_start_time >= from).map((event) => event.id));
    const strongest = (await api.call("GET", `${EVENTS}?ordering=-attack_power_bps&limit=1000`)).body as { results: Event[] };
    const powers = strongest.results.map((event) => event.attack_power_bps);
    expect(powers).toEqual([...powers].sort((a, b) => b - a));
    expectEnvelope(await api.call("GET", `${EVENTS}?alert_type=flood&ordering=size&date_from=yesterday&limit=0`), 400, "validation_error", {
      "query.alert_type": expect.any(Array),
      "query.ordering": expect.any(Array),
      "query.date_from": expect.any(Array),
      "query.limit": expect.any(Array),
    });
  });

  it("shows one event with its breakdowns, as stored; another account's or an unknown id is 404, a malformed one 400", async () => {
    const [stored] = await selectRows<{ id: string; details: Record<string, unknown> }>(
      api.database.db,
      sql`select id::text as id, details from security_events where account_id = 1 order by attack_start_time desc limit 1`,
    );
    const reply = await api.call("GET", `${EVENTS}/${stored!.id}`);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toMatchObject({ id: stored!.id, client_id: 1, ...stored!.details });
    expect((reply.body as { attack_traffic: unknown[] }).attack_traffic).toHaveLength(6);
    const [other] = await selectRows<{ id: string }>(api.database.db, sql`select id::text as id from security_events where account_id = 2 limit 1`);
    expectEnvelope(await api.call("GET", `${EVENTS}/${other!.id}`), 404, "not_found");
    expectEnvelope(await api.call("GET", `${EVENTS}/00000000-0000-4000-8000-000000000000`), 404, "not_found");
    expectEnvelope(await api.call("GET", `${EVENTS}/42`), 400, "validation_error", { "path.event_log_id": expect.any(Array) });
    // Account 2 sees its own.
    const theirs = await api.call("GET", EVENTS, { as: [2, "role-2-active"] });
    expect(theirs.body).toMatchObject({ count: addressesOf(2).length * DEMO_EVENTS_PER_ADDRESS });
  });
});
