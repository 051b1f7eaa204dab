/**
 * Tests of the versions of BGP announces the database keeps (`security_announce_versions`): every account
 * with announces has one, after the demo data and after the migration that keeps them; a statement that
 * changes what an account's announces answer gives that account (and only it) a new one; a statement that
 * changes nothing they answer leaves it; a truncate empties them.
 */
import { afterEach, describe, expect, it } from "vitest";
import { sql, type SQL } from "drizzle-orm";
import type { Database } from "./database.js";
import { applyMigrations } from "./migrate.js";
import { migrations } from "./migrations.generated.js";
import { loadDemoData } from "./demo.js";
import { createTestDatabase, engines, selectRows, type TestDatabase } from "./testing.js";

/** The accounts' versions, by account. */
async function versions(db: Database): Promise<Map<number, string>> {
  const rows = await selectRows<{ account_id: number; version: string }>(db, sql`select account_id, version::text as version from security_announce_versions`);
  return new Map(rows.map((row) => [row.account_id, row.version]));
}

/** The accounts whose version `statement` changed (a new one, or none where there was one). */
async function changedBy(db: Database, statement: SQL): Promise<number[]> {
  const before = await versions(db);
  await db.execute(statement);
  const after = await versions(db);
  return [...new Set([...before.keys(), ...after.keys()])].filter((account) => before.get(account) !== after.get(account)).sort((a, b) => a - b);
}

/** The accounts that have announces: a profile or a toggle, live or not. */
const WITH_ANNOUNCES = sql`select account_id from security_profiles union select account_id from security_bgp_announces order by 1`;

describe.each(engines())("BGP announce versions on %s", (engine) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it("change with each statement that changes an account's announces, for that account alone", async () => {
    database = await createTestDatabase({ engine });
    const { db } = database;
    const accounts = (await selectRows<{ account_id: number }>(db, WITH_ANNOUNCES)).map((row) => row.account_id);
    expect(accounts).toEqual([1, 2]);
    expect([...(await versions(db)).keys()].sort()).toEqual(accounts);

    const profile = (await selectRows<{ id: number }>(db, sql`select min(id) as id from security_profiles where account_id = 1 and ip_address is not null and deleted is null`))[0]!.id;
    // What the announces answer: the address, the site, the bgp option, the profile's deletion; a new profile; a toggle.
    expect(await changedBy(db, sql`update security_profiles set ip_address = '192.0.2.77' where id = ${profile}`)).toEqual([1]);
    expect(await changedBy(db, sql`update security_profiles set site = 'VERSIONS' where id = ${profile}`)).toEqual([1]);
    expect(await changedBy(db, sql`update security_profiles set options = options || jsonb_build_object('bgp', not (options ->> 'bgp')::boolean) where id = ${profile}`)).toEqual([1]);
    expect(await changedBy(db, sql`update security_profiles set deleted = now() where id = ${profile}`)).toEqual([1]);
    expect(await changedBy(db, sql`update security_profiles set deleted = null where id = ${profile}`)).toEqual([1]);
    expect(
      await changedBy(db, sql`insert into security_profiles (account_id, template_id, ip_address, site, options, plan)
                              select account_id, template_id, '192.0.2.78', site, options, plan from security_profiles where id = ${profile}`),
    ).toEqual([1]);
    expect(await changedBy(db, sql`insert into security_bgp_announces (account_id, network, enabled) values (2, '192.0.2.1/32', true)`)).toEqual([2]);
    expect(await changedBy(db, sql`update security_bgp_announces set enabled = false where account_id = 2 and network = '192.0.2.1/32'`)).toEqual([2]);
    expect(await changedBy(db, sql`delete from security_bgp_announces where account_id = 2 and network = '192.0.2.1/32'`)).toEqual([2]);
    // One statement over both accounts gives each a new version.
    expect(await changedBy(db, sql`update security_profiles set options = options || '{}' , site = site || '-' where deleted is null`)).toEqual([1, 2]);
    expect(await changedBy(db, sql`delete from security_profiles where ip_address = '192.0.2.78'`)).toEqual([1]);

    // Nothing the announces answer: the profile's status and protocols, the same site again, an update of no row.
    expect(await changedBy(db, sql`update security_profiles set status = '{"phase": "versions"}', protocols = '[]' where id = ${profile}`)).toEqual([]);
    expect(await changedBy(db, sql`update security_profiles set site = site where account_id = 1`)).toEqual([]);
    expect(await changedBy(db, sql`update security_bgp_announces set enabled = true where account_id = -1`)).toEqual([]);

    // A truncate of either table empties the versions: no account is kept until its next write.
    expect(await changedBy(db, sql`truncate security_bgp_announces`)).toEqual(accounts);
    expect((await versions(db)).size).toBe(0);
    expect(await changedBy(db, sql`update security_profiles set site = 'AGAIN' where id = ${profile}`)).toEqual([1]);
  });

  it("are given to the accounts that have announces when the migration that keeps them is applied", async () => {
    database = await createTestDatabase({ engine, migrate: false });
    const { db } = database;
    const at = migrations.findIndex((migration) => migration.name.endsWith("_security_announce_versions_triggers"));
    expect(at).toBeGreaterThan(0);
    await applyMigrations(db, migrations.slice(0, at));
    await loadDemoData(db, { secretsKey: database.secretsKey });
    expect((await versions(db)).size).toBe(0);

    expect(await applyMigrations(db)).toEqual(migrations.slice(at).map((migration) => migration.name));
    const accounts = (await selectRows<{ account_id: number }>(db, WITH_ANNOUNCES)).map((row) => row.account_id);
    expect(accounts.length).toBeGreaterThan(0);
    const kept = await versions(db);
    expect([...kept.keys()].sort()).toEqual(accounts);
    // Each a version of its own.
    expect(new Set(kept.values()).size).toBe(accounts.length);
  });
});
