/**
 * The monthly totals of the usage lines (usage_month_totals) that the database keeps for the cost
 * report: after every kind of write to the lines they must hold exactly the lines summed per month and
 * group, and the report, which reads them when it has no tag filter and the lines when it has one, must
 * answer the same bytes either way.
 */
import { applyMigrations, loadDemoData, migrations, sql, type Database, type SQL } from "@cloudplane/db";
import { createTestDatabase, selectRows } from "@cloudplane/db/testing";
import { describe, expect, it } from "vitest";
import { engines, useApi, type TestApi } from "../harness.js";

const TOTALS = "/cloud/v1/reservation_cost_report/totals";
const GROUP =
  "account_id, month, type, region_id, flavor, instance_type, volume_type, billing_metric_name, billing_feature_name, billing_value_unit, currency";

type Row = Record<string, unknown>;

/** The totals as stored, sums as exact decimal text without trailing zeros, in one order. */
function storedTotals(db: Database): Promise<Row[]> {
  return selectRows(
    db,
    sql.raw(
      `select ${GROUP}, trim_scale(billing_value)::text as billing_value, trim_scale(cost)::text as cost, unpriced_lines, lines ` +
        `from usage_month_totals order by ${GROUP}`,
    ),
  );
}

/** The lines summed per month and group, as the totals must hold them. */
function linesSummed(db: Database): Promise<Row[]> {
  return selectRows(
    db,
    sql.raw(
      `select ${GROUP}, trim_scale(sum(billing_value))::text as billing_value, trim_scale(coalesce(sum(cost), 0))::text as cost, ` +
        `(count(*) filter (where cost is null))::int as unpriced_lines, count(*)::int as lines from usage_lines group by ${GROUP} order by ${GROUP}`,
    ),
  );
}

/** The whole totals table equals the lines summed; returns it. */
async function expectTotalsOfLines(db: Database): Promise<Row[]> {
  const [stored, expected] = [await storedTotals(db), await linesSummed(db)];
  expect(stored).toEqual(expected);
  return stored;
}

/** The stored group of `account_id` and `month` with `type`, if any. */
function groupOf(rows: Row[], accountId: number, month: string, type: string): Row | undefined {
  return rows.find((row) => row.account_id === accountId && row.month === month && row.type === type);
}

/** A tag every line written in this file carries, so that a tag filter on it keeps every line. */
const EVERY_LINE = { condition_type: "AND", conditions: [{ key: "summary-test", value: "all", strict: true }] } as const;

/** An insert of usage lines of account 1 in region 1, tagged with EVERY_LINE's tag. */
function insertLines(values: string): SQL {
  return sql.raw(
    "insert into usage_lines (account_id, month, type, region_id, flavor, instance_type, volume_type, billing_metric_name, " +
      `billing_feature_name, billing_value_unit, currency, billing_value, cost, tags) values ${values}`,
  );
}

const line = (month: string, type: string, instanceType: string | null, volumeType: string | null, value: string, cost: string) =>
  `(1, '${month}', '${type}', 1, 'f-${type}', ${instanceType ? `'${instanceType}'` : "null"}, ${volumeType ? `'${volumeType}'` : "null"}, ` +
  `'metric-${type}', 'feature-${type}', 'unit', 'EUR', ${value}, ${cost}, '{"summary-test": "all"}')`;

/** The report's reply text for `body`, without tags (read from the totals) and with EVERY_LINE's filter (read from the lines). */
async function bothReports(api: TestApi, body: Record<string, unknown>, as: [1 | 2, "role-1-active"] = [1, "role-1-active"]) {
  const [totals, lines] = await Promise.all([
    api.call("POST", TOTALS, { body, as }),
    api.call("POST", TOTALS, { body: { ...body, tags: EVERY_LINE }, as }),
  ]);
  expect(totals.status, totals.text).toBe(200);
  expect(lines.status, lines.text).toBe(200);
  return { totals: totals.text, lines: lines.text };
}

const REPORT_BODIES: Record<string, unknown>[] = [
  { time_from: "2026-01", time_to: "2026-12" },
  { time_from: "2020-01", time_to: "2030-12", rounding: false },
  { time_from: "2026-09", time_to: "2026-10", regions: [1, 2], types: ["instance", "volume", "egress_traffic"] },
  { time_from: "2026-01", time_to: "2026-12", schema_filter: { type: "egress_traffic", field: "instance_type", values: ["vm"] } },
  { time_from: "2026-01", time_to: "2026-12", schema_filter: { type: "volume", field: "volume_type", values: ["ssd_hiiops"] } },
  { time_from: "2026-01", time_to: "2026-12", response_format: "csv_totals" },
];

/** Every report body answers the same text from the totals and from the lines, for both accounts; no answer is empty. */
async function expectSameReports(api: TestApi): Promise<void> {
  for (const as of [[1, "role-1-active"], [2, "role-1-active"]] satisfies [1 | 2, "role-1-active"][])
    for (const body of REPORT_BODIES) {
      const { totals, lines } = await bothReports(api, body, as);
      expect(totals, JSON.stringify({ as, body })).toBe(lines);
    }
  const { totals } = await bothReports(api, REPORT_BODIES[0]!);
  expect(JSON.parse(totals).count).toBeGreaterThan(0);
}

describe.each(engines())("usage_month_totals on %s", (engine) => {
  const api = useApi(engine);
  const db = () => api.database.db;
  const run = (statement: SQL) => db().execute(statement);

  it("holds the demo data's lines summed per month and group", async () => {
    const stored = await expectTotalsOfLines(db());
    expect(stored.length).toBeGreaterThan(10);
    // A group with an unpriced line counts it.
    expect(stored.some((row) => Number(row.unpriced_lines) > 0)).toBe(true);
  });

  it("adds the lines a statement inserts: one row, then many rows in one statement", async () => {
    await run(insertLines(line("2026-03", "instance", null, null, "60", "1.25")));
    let stored = await expectTotalsOfLines(db());
    expect(groupOf(stored, 1, "2026-03", "instance")).toMatchObject({ billing_value: "60", cost: "1.25", unpriced_lines: 0, lines: 1 });

    await run(
      insertLines(
        [
          line("2026-03", "instance", null, null, "30.5", "0.00001"),
          line("2026-03", "instance", null, null, "0.125", "null"),
          line("2026-03", "egress_traffic", "vm", null, "1000", "0.33333"),
          line("2026-03", "egress_traffic", "router", null, "10", "0.1"),
          line("2026-03", "volume", null, "ssd_hiiops", "7", "0.7"),
          line("2026-03", "volume", null, "standard", "8", "null"),
          line("2026-04", "volume", null, null, "9", "0.9"),
        ].join(", "),
      ),
    );
    stored = await expectTotalsOfLines(db());
    expect(groupOf(stored, 1, "2026-03", "instance")).toMatchObject({ billing_value: "90.625", cost: "1.25001", unpriced_lines: 1, lines: 3 });
  });

  it("follows updates: of a value, of a group's column, of cost to null and back, and of tags alone", async () => {
    await run(sql`update usage_lines set billing_value = billing_value * 3 + 0.5 where month = '2026-03' and type = 'egress_traffic'`);
    await expectTotalsOfLines(db());

    // Lines move to another month, region and volume type: their old groups lose them, new ones get them.
    await run(sql`update usage_lines set month = '2026-05', region_id = 2, volume_type = null where month = '2026-03' and type = 'volume'`);
    let stored = await expectTotalsOfLines(db());
    expect(groupOf(stored, 1, "2026-03", "volume")).toBeUndefined();
    expect(groupOf(stored, 1, "2026-05", "volume")).toMatchObject({ lines: 2, unpriced_lines: 1, volume_type: null });
    await run(sql`update usage_lines set volume_type = 'ssd_hiiops' where month = '2026-05' and type = 'volume' and cost is null`);
    await expectTotalsOfLines(db());

    await run(sql`update usage_lines set cost = null where account_id = 1 and month = '2026-09' and type = 'instance'`);
    stored = await expectTotalsOfLines(db());
    expect(stored.filter((row) => row.month === "2026-09" && row.type === "instance" && row.account_id === 1).every((row) => row.unpriced_lines === row.lines)).toBe(
      true,
    );
    await run(sql`update usage_lines set cost = billing_value / 1000 where account_id = 1 and month = '2026-09' and type = 'instance'`);
    stored = await expectTotalsOfLines(db());
    expect(stored.filter((row) => row.month === "2026-09" && row.type === "instance" && row.account_id === 1).every((row) => row.unpriced_lines === 0)).toBe(true);

    // Tags are not in the totals: they stay as they were.
    await run(sql`update usage_lines set tags = tags || '{"summary-test": "all"}'`);
    expect(await expectTotalsOfLines(db())).toEqual(stored);
  });

  it("reads the totals without tags and the lines with them, and both answer the same", async () => {
    await expectSameReports(api);
    // The reports do read different tables: a change to the totals alone shows in the report without tags only.
    await run(sql`update usage_month_totals set billing_value = billing_value + 1 where account_id = 1`);
    try {
      const { totals, lines } = await bothReports(api, REPORT_BODIES[0]!);
      expect(totals).not.toBe(lines);
    } finally {
      await run(sql`update usage_month_totals set billing_value = billing_value - 1 where account_id = 1`);
    }
    await expectTotalsOfLines(db());
  });

  it("takes out deleted lines and the groups they leave empty", async () => {
    await run(sql`delete from usage_lines where month = '2026-03' and type = 'instance' and cost is null`);
    let stored = await expectTotalsOfLines(db());
    expect(groupOf(stored, 1, "2026-03", "instance")).toMatchObject({ lines: 2, unpriced_lines: 0 });

    await run(sql`delete from usage_lines where month in ('2026-03', '2026-04')`);
    stored = await expectTotalsOfLines(db());
    expect(stored.filter((row) => row.month === "2026-03" || row.month === "2026-04")).toEqual([]);
    await expectSameReports(api);

    // A delete of no line changes nothing.
    await run(sql`delete from usage_lines where month = '1999-01'`);
    expect(await expectTotalsOfLines(db())).toEqual(stored);
  });

  it("empties when the lines are truncated", async () => {
    expect((await storedTotals(db())).length).toBeGreaterThan(0);
    await run(sql`truncate usage_lines`);
    expect(await expectTotalsOfLines(db())).toEqual([]);
    const reply = await api.call("POST", TOTALS, { body: REPORT_BODIES[0] });
    expect(reply.body).toEqual({ count: 0, price_status: "show", results: [] });
    // And fills again from the next insert.
    await run(insertLines(line("2026-06", "instance", null, null, "5", "0.5")));
    expect(await expectTotalsOfLines(db())).toHaveLength(1);
  });

  it("sums the lines already there when the migration creates the triggers", async () => {
    const fresh = await createTestDatabase({ engine, migrate: false });
    try {
      const last = migrations.findIndex((migration) => migration.name.endsWith("_usage_month_totals_triggers"));
      expect(last).toBeGreaterThan(0);
      // Every migration but the triggers' (the demo data has the columns later migrations add); the migrations
      // are applied by name, so the last call below applies the triggers' alone, on the lines already there.
      await applyMigrations(fresh.db, migrations.filter((_, index) => index !== last));
      await loadDemoData(fresh.db, { secretsKey: fresh.secretsKey });
      expect(await storedTotals(fresh.db)).toEqual([]);
      await applyMigrations(fresh.db);
      expect((await expectTotalsOfLines(fresh.db)).length).toBeGreaterThan(10);
    } finally {
      await fresh.close();
    }
    // It makes, migrates and seeds a database of its own (no run image): seconds alone, many times that under CI's load.
  }, 120_000);
});
