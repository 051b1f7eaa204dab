/**
 * The demo activity generator on every engine: the same rows on every load (ids and values arithmetic on
 * the demo's objects), made once however often the demo data is loaded, only for the apps that serve calls
 * and the profiles that protect an address.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_CALLS_HOURS, DEMO_EVENTS_PER_ADDRESS } from "./demo-activity.js";
import { demoFixture } from "./demo-fixture.js";
import { loadDemoData } from "./demo.js";
import { createTestDatabase, engines, selectRows, type TestDatabase } from "./testing.js";

describe.each(engines())("demo activity on %s", (engine) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase({ engine });
  });
  afterAll(async () => {
    await database.close();
  });

  it("makes the calls of the serving apps and the events of the protected addresses, once", async () => {
    const serving = demoFixture.edgeApps.filter((app) => [1, 3, 4].includes(app.status) && app.binaryId !== null);
    const calls = await selectRows<{ app_id: number; hours: number; calls: number }>(
      database.db,
      sql`select app_id, count(distinct date_trunc('hour', time))::int as hours, count(*)::int as calls from edge_app_calls group by app_id order by app_id`,
    );
    expect(calls.map((row) => row.app_id)).toEqual(serving.map((app) => app.id).sort((a, b) => a - b));
    for (const row of calls) {
      expect(row.hours).toBe(DEMO_CALLS_HOURS);
      expect(row.calls).toBeGreaterThanOrEqual(DEMO_CALLS_HOURS);
      expect(row.calls).toBeLessThanOrEqual(4 * DEMO_CALLS_HOURS);
    }
    const protectedAddresses = demoFixture.securityProfiles.filter((profile) => profile.ipAddress !== null);
    const [events] = await selectRows<{ count: number }>(database.db, sql`select count(*)::int as count from security_events`);
    expect(events!.count).toBe(protectedAddresses.length * DEMO_EVENTS_PER_ADDRESS);
    // Deterministic: a known row has known values.
    const [first] = await selectRows<Record<string, unknown>>(
      database.db,
      sql`select status, duration_us, client_ip, request_id from edge_app_calls where id = ${serving[0]!.id * 10000 + 1}`,
    );
    expect(first).toBeDefined();
    const again = await loadDemoData(database.db, { secretsKey: database.secretsKey });
    expect(again.generated).toEqual({ edge_app_calls: 0, security_events: 0 });
  });
});
