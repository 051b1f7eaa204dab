/**
 * Tests of the migrator on every engine: a fresh database gets the whole schema, a second run changes
 * nothing, concurrent runs apply each migration once, and an edited migration is refused. Also that
 * the migrations match src/schema, and that what the schema cannot declare (UNLOGGED) is in place.
 */
import { spawnSync } from "node:child_process";
import { cp, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { createDatabase } from "./database.js";
import { applyMigrations, cloudplaneMigrations, type Migration } from "./migrate.js";
import { migrations } from "./migrations.generated.js";
import { loadDemoData } from "./demo.js";
import { demoFixture } from "./demo-fixture.js";
import { createTestDatabase, engines, selectRows, type TestDatabase } from "./testing.js";

/** Every table the migrations make, in code-point order (the query below sorts so on both engines). */
const EXPECTED_TABLES = [
  "accounts",
  "ai_tasks",
  "api_tokens",
  "broadcast_streams",
  "broadcasts",
  "buckets",
  "cdn_applied_presets",
  "cdn_audit_log",
  "cdn_cache_requests",
  "cdn_feature_periods",
  "cdn_features",
  "cdn_request_logs",
  "cdn_resource_hostnames",
  "cdn_resource_rules",
  "cdn_resources",
  "cdn_rule_templates",
  "cdn_usage",
  "certificate_keys",
  "certificates",
  "clips",
  "cloud_projects",
  "cloud_regions",
  "cloud_secrets",
  "cloud_tasks",
  "cloudplane_migrations",
  "edge_app_calls",
  "edge_app_secrets",
  "edge_app_stores",
  "edge_apps",
  "edge_binaries",
  "edge_kv_stores",
  "edge_plans",
  "edge_secret_slots",
  "edge_secrets",
  "edge_template_params",
  "edge_templates",
  "gpu_images",
  "idempotency_keys",
  "inference_api_keys",
  "inference_application_deployments",
  "inference_application_templates",
  "inference_deployment_logs",
  "inference_deployments",
  "inference_flavors",
  "inference_models",
  "inference_region_flavors",
  "inference_registry_credentials",
  "inference_secrets",
  "logs_uploader_config_resources",
  "listing_counts",
  "logs_uploader_configs",
  "logs_uploader_policies",
  "logs_uploader_targets",
  "origin_group_sources",
  "origin_groups",
  "playlist_videos",
  "rate_limit_buckets",
  "restreams",
  "security_announce_versions",
  "security_bgp_announces",
  "security_events",
  "security_profile_fields",
  "security_profile_templates",
  "security_profiles",
  "security_template_fields",
  "shielding_pops",
  "storage_access_keys",
  "storage_ssh_key_links",
  "storage_ssh_keys",
  "storage_usage",
  "storages",
  "streaming_cdn_views",
  "streaming_live_minutes",
  "streaming_player_events",
  "streaming_vod_usage",
  "stream_overlays",
  "streaming_default_quality_sets",
  "streaming_quality_sets",
  "streams",
  "usage_lines",
  "usage_month_totals",
  "users",
  "video_directories",
  "video_players",
  "video_playlists",
  "video_subtitles",
  "videos",
].sort();

async function tableNames(database: TestDatabase): Promise<string[]> {
  const rows = await selectRows<{ table_name: string }>(
    database.db,
    sql`select table_name from information_schema.tables where table_schema = current_schema() order by table_name collate "C"`,
  );
  return rows.map((row) => row.table_name);
}

describe("the bundled migrations", () => {
  it("are the SQL files of drizzle/, in journal order (run `pnpm generate` after changing the schema)", async () => {
    const journal = JSON.parse(await readFile(new URL("../drizzle/meta/_journal.json", import.meta.url), "utf8")) as {
      entries: { tag: string }[];
    };
    expect(migrations.map((migration) => migration.name)).toEqual(journal.entries.map((entry) => entry.tag));
    for (const migration of migrations) {
      const text = await readFile(new URL(`../drizzle/${migration.name}.sql`, import.meta.url), "utf8");
      const { createHash } = await import("node:crypto");
      expect(migration.hash).toBe(createHash("sha256").update(text).digest("hex"));
    }
  });

  it("are all src/schema asks for: drizzle-kit generate finds nothing to add", async () => {
    // On a copy of drizzle/, so that a difference shows as a new file here rather than in the repository.
    const copy = await mkdtemp(join(tmpdir(), "cloudplane-drizzle-"));
    try {
      await cp(new URL("../drizzle", import.meta.url), join(copy, "drizzle"), { recursive: true });
      const before = await readdir(join(copy, "drizzle"), { recursive: true });
      const drizzleKit = spawnSync(
        fileURLToPath(new URL("../node_modules/.bin/drizzle-kit", import.meta.url)),
        ["generate", "--dialect", "postgresql", "--schema", fileURLToPath(new URL("./schema/index.ts", import.meta.url)), "--out", "drizzle"],
        { cwd: copy, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 20_000, shell: process.platform === "win32" },
      );
      expect(drizzleKit.status, drizzleKit.stderr).toBe(0);
      expect(drizzleKit.stdout).toContain("No schema changes");
      expect((await readdir(join(copy, "drizzle"), { recursive: true })).sort()).toEqual(before.sort());
    } finally {
      await rm(copy, { recursive: true, force: true });
    }
  });
});

describe.each(engines())("migrations on %s", (engine) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it("create every table on a fresh database and record themselves", async () => {
    database = await createTestDatabase({ engine, migrate: false });
    expect(await tableNames(database)).toEqual([]);

    expect(await applyMigrations(database.db)).toEqual(migrations.map((migration) => migration.name));
    expect(await tableNames(database)).toEqual(EXPECTED_TABLES);
    const recorded = await database.db.select().from(cloudplaneMigrations);
    expect(recorded.map((row) => [row.name, row.hash])).toEqual(migrations.map((migration) => [migration.name, migration.hash]));
  });

  it("are harmless when applied again", async () => {
    database = await createTestDatabase({ engine });
    const before = await tableNames(database);
    expect(await applyMigrations(database.db)).toEqual([]);
    expect(await applyMigrations(database.db)).toEqual([]);
    expect(await tableNames(database)).toEqual(before);
    expect(await database.db.select().from(cloudplaneMigrations)).toHaveLength(migrations.length);
    // The data survives too: nothing was recreated.
    const [accounts] = await selectRows<{ count: number }>(database.db, sql`select count(*)::int as count from accounts`);
    expect(accounts?.count).toBe(2);
  });

  it("apply each migration once when several runs start at the same time", async () => {
    database = await createTestDatabase({ engine, migrate: false });
    // On PostgreSQL these are separate connections racing for the advisory lock; PGlite has one.
    const others = database.url ? await Promise.all([1, 2].map(() => createDatabase({ url: database?.url, migrate: false, max: 2 }))) : [];
    try {
      const runs = await Promise.all([database.db, ...others.map((other) => other.db)].map((db) => applyMigrations(db)));
      // Each migration is applied by whichever run takes its lock first, so the runs may share the work:
      // together they applied every migration exactly once.
      expect(runs.flat().sort()).toEqual(migrations.map((migration) => migration.name).sort());
      expect(await tableNames(database)).toEqual(EXPECTED_TABLES);
    } finally {
      await Promise.all(others.map((other) => other.close()));
    }
  });

  it("make the rate-limit buckets unlogged and cover the cost report's columns with one index", async () => {
    database = await createTestDatabase({ engine, seed: false });
    const [buckets] = await selectRows<{ persistence: string }>(
      database.db,
      sql`select relpersistence as persistence from pg_class where oid = 'rate_limit_buckets'::regclass`,
    );
    expect(buckets?.persistence).toBe("u");
    // The report reads every column of usage_lines but id and tags: all of them in the index make it
    // an index-only scan.
    const indexed = await selectRows<{ column: string }>(
      database.db,
      sql`select a.attname as column from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
          where i.indexrelid = 'usage_lines_cost_report_idx'::regclass order by array_position(i.indkey::int2[], a.attnum)`,
    );
    expect(indexed.map((row) => row.column)).toEqual([
      "account_id",
      "month",
      "type",
      "region_id",
      "flavor",
      "billing_metric_name",
      "billing_feature_name",
      "billing_value_unit",
      "currency",
      "instance_type",
      "volume_type",
      "billing_value",
      "cost",
    ]);
  });

  it("refuse a migration that was edited after it was applied", async () => {
    database = await createTestDatabase({ engine, seed: false });
    const edited: Migration[] = migrations.map((migration) => ({ ...migration, hash: "0".repeat(64) }));
    await expect(applyMigrations(database.db, edited)).rejects.toThrow(/was changed after it was applied/);
  });

  it("broadcast_streams: each broadcast keeps its one stream as its first", async () => {
    database = await createTestDatabase({ engine, migrate: false });
    const at = migrations.findIndex((migration) => migration.name.endsWith("_broadcast_streams"));
    expect(at).toBeGreaterThan(0);
    await applyMigrations(database.db, migrations.slice(0, at));
    // The demo data's accounts, users and streams alone: the rest of the fixture has the current schema's
    // columns, which tables of the schema before the migration may not have yet.
    const only = (tables: (keyof typeof demoFixture)[]) =>
      Object.fromEntries(Object.entries(demoFixture).map(([name, rows]) => [name, tables.includes(name as keyof typeof demoFixture) ? rows : []])) as typeof demoFixture;
    await loadDemoData(database.db, { secretsKey: database.secretsKey, fixture: only(["accounts", "users", "streams"]) });
    await database.db.execute(sql`insert into broadcasts (id, account_id, stream_id, name) values (1, 1, 9, 'Keynote'), (2, 2, 2, 'Town hall'), (3, 1, 9, 'Encore')`);
    expect(await applyMigrations(database.db)).toEqual(migrations.slice(at).map((migration) => migration.name));
    expect(await selectRows(database.db, sql`select account_id, broadcast_id, position, stream_id from broadcast_streams order by broadcast_id`)).toEqual([
      { account_id: 1, broadcast_id: 1, position: 0, stream_id: 9 },
      { account_id: 2, broadcast_id: 2, position: 0, stream_id: 2 },
      { account_id: 1, broadcast_id: 3, position: 0, stream_id: 9 },
    ]);
    expect(await selectRows(database.db, sql`select column_name from information_schema.columns where table_name = 'broadcasts' and column_name = 'stream_id'`)).toEqual([]);
  });

  it("apply a later migration, and roll it back whole when it fails", async () => {
    database = await createTestDatabase({ engine, seed: false });
    const later: Migration = { name: "9999_test_later", hash: "1".repeat(64), statements: ['create table "later_things" ("id" integer primary key)'] };
    const broken: Migration = {
      name: "9999_test_broken",
      hash: "2".repeat(64),
      statements: ['create table "half_done" ("id" integer primary key)', "select * from no_such_table"],
    };
    await expect(applyMigrations(database.db, [...migrations, broken])).rejects.toThrow();
    expect(await tableNames(database)).not.toContain("half_done");
    expect(await applyMigrations(database.db, [...migrations, later])).toEqual(["9999_test_later"]);
    expect(await tableNames(database)).toContain("later_things");
  });
});
