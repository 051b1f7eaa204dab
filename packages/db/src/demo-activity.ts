/**
 * The demo data's activity: the calls the demo's edge apps served and the attacks the protection saw on
 * the demo's protected addresses. Too many rows for the fixture, so each is made by one INSERT … SELECT
 * over generate_series, every value arithmetic on the object's id and the hour (or the event's number):
 * the same rows on every load and every engine, never random. Idempotent, as the fixture's rows are:
 * the ids are derived the same way, and a row already there is left alone.
 */
import { sql } from "drizzle-orm";
import type { DatabaseTransaction } from "./database.js";
import type { DemoFixture } from "./demo-fixture.js";

/** The first hour of the demo apps' calls: a week of them, hour by hour. */
export const DEMO_CALLS_FROM = "2026-11-02T00:00:00.000Z";
export const DEMO_CALLS_HOURS = 7 * 24;
/** The first day of the demo's security events: ten per protected address, five days apart. */
export const DEMO_EVENTS_FROM = "2026-10-01T00:00:00.000Z";
export const DEMO_EVENTS_PER_ADDRESS = 10;

/** The statuses of apps that serve calls: enabled, or stopped by a call limit after serving up to it. */
const SERVING = new Set([1, 3, 4]);

/** Makes the activity of the fixture's apps and profiles (none for a fixture without them, as the platform's catalog); the rows made, by table. */
export async function generateDemoActivity(tx: DatabaseTransaction, fixture: DemoFixture): Promise<Record<string, number>> {
  const apps = fixture.edgeApps.filter((app) => SERVING.has(app.status) && app.binaryId !== null).map((app) => app.id);
  const profiles = fixture.securityProfiles.filter((profile) => profile.ipAddress !== null).map((profile) => profile.id);
  const made: Record<string, number> = { edge_app_calls: 0, security_events: 0 };
  if (apps.length) {
    // Each hour, 1 to 4 calls per app; mostly 200, with some redirects, 404s and 500s (the slowest).
    const calls = await tx.execute(sql`
      insert into edge_app_calls (id, account_id, app_id, time, status, duration_us, edge, network, client_ip, request_id, log)
      select a.id * 10000 + h * 10 + c, a.account_id, a.id,
        ${DEMO_CALLS_FROM}::timestamptz + make_interval(hours => h, mins => (a.id * 17 + c * 23 + h * 7) % 60, secs => (c * 13 + h * 5 + a.id) % 60),
        s.status,
        400 + (a.id * 131 + h * 57 + c * 29) % 3600 + case when s.status = 500 then 15000 else 0 end,
        case n.network
          when 'edge-eu' then (array['ams-1', 'fra-1'])[1 + (h + c) % 2]
          when 'edge-us' then (array['nyc-1', 'sjc-1'])[1 + (h + c) % 2]
          when 'edge-asia' then (array['sin-1', 'tyo-1'])[1 + (h + c) % 2]
          else (array['ams-1', 'nyc-1', 'sin-1'])[1 + (h + c) % 3]
        end,
        n.network,
        '198.51.100.' || (1 + (a.id * 7 + h + c) % 254),
        md5('edge-call:' || a.id || ':' || h || ':' || c),
        (array['GET', 'GET', 'GET', 'POST'])[1 + (h + c) % 4] || ' ' || (array['/', '/api/items', '/images/hero.jpg', '/checkout', '/health'])[1 + (a.id + h * c) % 5]
          || ' answered ' || s.status || ' in ' || (400 + (a.id * 131 + h * 57 + c * 29) % 3600 + case when s.status = 500 then 15000 else 0 end) || ' us'
      from edge_apps a
      cross join generate_series(0, ${DEMO_CALLS_HOURS - 1}::int) as h
      cross join lateral generate_series(1, 1 + (a.id * 7 + h * 13) % 4) as c
      cross join lateral (select case
          when (a.id + h + c) % 17 = 0 then 500
          when (a.id + h * 3 + c) % 11 = 0 then 404
          when (a.id * 5 + h + c) % 13 = 0 then 302
          else 200 end as status) as s
      cross join lateral (select coalesce(a.networks[1 + (h + c) % greatest(cardinality(a.networks), 1)], 'edge-global') as network) as n
      where a.id in ${apps}
      on conflict (id) do nothing
      returning 1`);
    made.edge_app_calls = rowCount(calls);
  }
  if (profiles.length) {
    // Ten attacks per protected address, one every five days; every fourth made the service black-hole the address.
    const events = await tx.execute(sql`
      insert into security_events (id, account_id, alert_type, notification_type, attack_start_time, attack_power_bps, attack_power_pps, ips_involved, targeted_ip_addresses, details)
      select md5('security-event:' || p.id || ':' || k)::uuid, p.account_id,
        case when k % 4 = 3 then 'rtbh_alert' else 'ddos_alert' end,
        case when k % 4 = 3 then 'blackhole_started' else 'attack_started' end,
        t.start, t.bps, round(t.bps / (8 * t.packet)), 50 + (p.id * 131 + k * 977) % 20000, p.ip_address,
        jsonb_build_object(
          'attack_packet_sizes', jsonb_build_array(
            jsonb_build_object('size', '64-127', 'percent', 40 + (k * 7 + p.id) % 30),
            jsonb_build_object('size', '128-511', 'percent', 10 + (k * 3) % 20),
            jsonb_build_object('size', '512-1500', 'percent', 50 - (k * 7 + p.id) % 30 - (k * 3) % 20)),
          'attack_top_destination_ports', jsonb_build_array(
            jsonb_build_object('port', (array[80, 443, 53, 27015])[1 + (k + p.id) % 4], 'percent', 60 + (k * 11) % 30),
            jsonb_build_object('port', (array[22, 8080, 123, 3074])[1 + (k * 3 + p.id) % 4], 'percent', 40 - (k * 11) % 30)),
          'attack_top_protocols', jsonb_build_array(
            jsonb_build_object('protocol', 'UDP', 'percent', 55 + (k * 13 + p.id) % 40),
            jsonb_build_object('protocol', 'TCP', 'percent', 45 - (k * 13 + p.id) % 40)),
          'attack_top_source_countries', jsonb_build_array(
            jsonb_build_object('country', (array['CN', 'US', 'BR', 'RU', 'IN', 'VN'])[1 + (k + p.id) % 6], 'percent', 30 + (k * 5) % 25),
            jsonb_build_object('country', (array['DE', 'ID', 'TR', 'KR', 'AR', 'NL'])[1 + (k * 2 + p.id) % 6], 'percent', 20 + (k * 3) % 10)),
          'attack_top_source_ips', jsonb_build_array(
            jsonb_build_object('ip', '192.0.2.' || (1 + (p.id * 29 + k * 41) % 254), 'percent', 3 + k % 5),
            jsonb_build_object('ip', '192.0.2.' || (1 + (p.id * 53 + k * 17) % 254), 'percent', 2 + k % 3)),
          'attack_top_source_ports', jsonb_build_array(
            jsonb_build_object('port', (array[123, 53, 1900, 11211])[1 + (k + p.id * 3) % 4], 'percent', 70 + (k * 7) % 25),
            jsonb_build_object('port', (array[19, 389, 161, 3702])[1 + (k + p.id) % 4], 'percent', 30 - (k * 7) % 25)),
          'attack_traffic', (
            select jsonb_agg(jsonb_build_object(
                'time', to_char((t.start + make_interval(mins => m * 5)) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
                'bps', round(t.bps * (4 + (m * 3 + k) % 7) / 10),
                'pps', round(t.bps * (4 + (m * 3 + k) % 7) / 10 / (8 * t.packet)))
              order by m)
            from generate_series(0, 5) as m))
      from security_profiles p
      cross join generate_series(0, ${DEMO_EVENTS_PER_ADDRESS - 1}::int) as k
      cross join lateral (select
          ${DEMO_EVENTS_FROM}::timestamptz + make_interval(days => k * 5 + p.id % 3, hours => (p.id * 5 + k * 7) % 24, mins => (p.id * 11 + k * 13) % 60) as start,
          (1 + (p.id * 37 + k * 101) % 90)::float8 * 100000000 as bps,
          (200 + (k * 53 + p.id * 7) % 1200)::float8 as packet) as t
      where p.id in ${profiles} and p.ip_address is not null
      on conflict (id) do nothing
      returning 1`);
    made.security_events = rowCount(events);
  }
  return made;
}

/** The rows a statement with `returning 1` gave, on either driver (postgres.js answers an array, PGlite `{ rows }`). */
export function rowCount(result: unknown): number {
  if (Array.isArray(result)) return result.length;
  const rows = (result as { rows?: unknown[] }).rows;
  return Array.isArray(rows) ? rows.length : 0;
}
