/**
 * Tests of the counts the database keeps on every engine: `listing_counts` (the rows of each counted
 * listing per account and scope) and `origin_groups.related_resources` (the non-deleted resources using
 * each group) equal what counting the rows gives, after the demo data, after the migration that made
 * them counts the rows already there, and after inserts, moves, soft deletes, deletes and truncates.
 */
import { afterEach, describe, expect, it } from "vitest";
import { sql, type SQL } from "drizzle-orm";
import type { Database } from "./database.js";
import { applyMigrations } from "./migrate.js";
import { migrations } from "./migrations.generated.js";
import { loadDemoData } from "./demo.js";
import { createTestDatabase, engines, selectRows, type TestDatabase } from "./testing.js";

type CountRow = {
  account_id: number;
  listing: string;
  scope: string;
  rows: number;
};

/** The counts as the triggers keep them (a count of 0 is the same as no row). */
const KEPT = sql`select account_id, listing, scope, rows::int as rows from listing_counts where rows <> 0 order by 1, 2, 3`;

/** The counts as counting the rows gives them, in the scopes the triggers write. */
const COUNTED = sql`
  select * from (
    select account_id, 'cdn_resources' as listing, '' as scope, count(*)::int as rows from cdn_resources group by 1
    union all
    select account_id, 'origin_groups', '', count(*)::int from origin_groups group by 1
    union all
    select account_id, 'gpu_images', project_id || '/' || region_id || '/' || cluster_type, count(*)::int from gpu_images group by 1, 3
    union all
    select account_id, 'storages', type, count(*)::int from storages where deleted is null group by 1, 3
  ) counted order by 1, 2, 3`;

/** Each group's related resources as kept, and as counting the resources gives them. */
const RELATED = sql`
  select id, related_resources as kept,
    (select count(*)::int from cdn_resources r where r.account_id = g.account_id and r.origin_group_id = g.id and not r.deleted) as counted
  from origin_groups g order by id`;

async function expectCountsTrue(db: Database): Promise<void> {
  const counted = await selectRows<CountRow>(db, COUNTED);
  expect(await selectRows<CountRow>(db, KEPT)).toEqual(counted);
  const related = await selectRows<{ id: number; kept: number; counted: number }>(db, RELATED);
  expect(related.filter((group) => group.kept !== group.counted)).toEqual([]);
}

async function run(db: Database, ...statements: SQL[]): Promise<void> {
  for (const statement of statements) await db.execute(statement);
}

/** `copies` new resources of account 1 made from its first one, with cnames of their own; their ids. */
async function copyResources(db: Database, copies: number, originGroup: number): Promise<number[]> {
  await run(
    db,
    sql`drop table if exists resource_copies`,
    sql`create temp table resource_copies as select r.* from cdn_resources r, generate_series(1, ${copies}) g where r.id = (select min(id) from cdn_resources where account_id = 1)`,
    sql`update resource_copies set id = nextval(pg_get_serial_sequence('cdn_resources', 'id')), deleted = false, origin_group_id = ${originGroup}`,
    sql`update resource_copies set cname = 'copy-' || id || '.counts.example'`,
    sql`insert into cdn_resources overriding system value select * from resource_copies`,
  );
  const rows = await selectRows<{ id: number }>(db, sql`select id from resource_copies order by id`);
  return rows.map((row) => row.id);
}

describe.each(engines())("listing counts on %s", (engine) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it("hold for the demo data, and across inserts, moves, soft deletes, deletes and truncates", async () => {
    database = await createTestDatabase({ engine });
    const { db } = database;
    await expectCountsTrue(db);
    expect((await selectRows(db, KEPT)).length).toBeGreaterThan(3);

    // Two new groups in account 1, then three resources on one of them, one statement each.
    const groups = await selectRows<{ id: number }>(db, sql`insert into origin_groups (account_id, name) values (1, 'counts-a'), (1, 'counts-b') returning id`);
    const [a, b] = groups.map((group) => group.id) as [number, number];
    const copies = await copyResources(db, 3, a);
    await expectCountsTrue(db);
    expect((await selectRows<{ kept: number }>(db, sql`select related_resources as kept from origin_groups where id = ${a}`))[0]?.kept).toBe(3);

    // One moves to the other group, one is marked deleted, one is deleted; a move of a deleted one counts nowhere.
    await run(
      db,
      sql`update cdn_resources set origin_group_id = ${b} where id = ${copies[0]}`,
      sql`update cdn_resources set deleted = true where id = ${copies[1]}`,
      sql`update cdn_resources set origin_group_id = ${b} where id = ${copies[1]}`,
    );
    await expectCountsTrue(db);
    await run(db, sql`delete from cdn_resources where id = ${copies[2]}`, sql`delete from origin_groups where id = ${a}`);
    await expectCountsTrue(db);

    // GPU images: a new scope (another cluster type), then some of it deleted.
    await run(
      db,
      sql`insert into gpu_images (account_id, project_id, region_id, cluster_type, name)
          select i.account_id, i.project_id, i.region_id, 'baremetal', 'counts-' || g from (select * from gpu_images order by id limit 1) i, generate_series(1, 4) g`,
      sql`delete from gpu_images where name in ('counts-1', 'counts-2')`,
    );
    await expectCountsTrue(db);
    expect((await selectRows<CountRow>(db, KEPT)).some((row) => row.listing === "gpu_images" && row.scope.endsWith("/baremetal") && row.rows >= 2)).toBe(true);

    // Storages: live ones only, per type; a soft delete leaves the count, a restore rejoins it, a deleted
    // storage's purge changes nothing, an update that keeps it live changes nothing.
    const made = await selectRows<{ id: number }>(
      db,
      sql`insert into storages (account_id, name, type, location) select 1, 'counts-' || g, case when g % 2 = 0 then 's3' else 'sftp' end, 'ams'
          from generate_series(1, 6) g returning id`,
    );
    const [s1, s2, s3] = made.map((storage) => storage.id) as [number, number, number];
    await expectCountsTrue(db);
    await run(db, sql`update storages set deleted = now() where id in (${s1}, ${s2}, ${s3})`);
    await expectCountsTrue(db);
    await run(db, sql`update storages set deleted = null where id = ${s1}`, sql`update storages set deleted = now() - interval '1 day' where id = ${s2}`);
    await expectCountsTrue(db);
    await run(db, sql`update storages set http_disabled = true where id = ${s1}`, sql`delete from storages where deleted is not null`);
    await expectCountsTrue(db);
    await run(db, sql`delete from storages where name like 'counts-%'`);
    await expectCountsTrue(db);
    const live = await selectRows<{ rows: number }>(db, sql`select count(*)::int as rows from storages where account_id = 1 and deleted is null`);
    expect(live[0]!.rows).toBeGreaterThan(0);

    // A truncate empties its table's counts and the groups' related resources.
    await run(db, sql`truncate cdn_resources cascade`, sql`truncate storages cascade`);
    await expectCountsTrue(db);
    expect(await selectRows(db, sql`select id from origin_groups where related_resources <> 0`)).toEqual([]);
  });

  it("are counted from the rows already there when the migration that keeps them is applied", async () => {
    database = await createTestDatabase({ engine, migrate: false });
    const { db } = database;
    // Up to the migration that adds the triggers: the tables exist, nothing counts yet.
    const at = migrations.findIndex((migration) => migration.name.endsWith("_listing_counts_triggers"));
    expect(at).toBeGreaterThan(0);
    await applyMigrations(db, migrations.slice(0, at));
    await loadDemoData(db, { secretsKey: database.secretsKey });
    expect(await selectRows(db, KEPT)).toEqual([]);
    expect((await selectRows<CountRow>(db, COUNTED)).length).toBeGreaterThan(3);

    expect(await applyMigrations(db)).toEqual(migrations.slice(at).map((migration) => migration.name));
    await expectCountsTrue(db);
    expect((await selectRows(db, sql`select id from origin_groups where related_resources > 0`)).length).toBeGreaterThan(0);
  });
});
