/**
 * Integration tests of the Cloud cost reports: the reservation cost report totals checked against sums of
 * the demo fixture's usage lines made here, in the test.
 */
import { byColumnName, demoFixture, type DemoAccountId, type DemoRow, type DemoTokenName } from "@cloudplane/db";
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi, type Reply } from "../harness.js";

const TOTALS = "/cloud/v1/reservation_cost_report/totals";
const { usageLines } = demoFixture;

type DemoUsageLine = DemoRow<"usageLines">;

interface ExpectedTotal {
  type: string;
  region_id: number;
  flavor: string;
  billing_metric_name: string;
  billing_feature_name: string;
  billing_value_unit: string;
  currency: string;
  billing_value: number;
  cost: number;
  unpriced: boolean;
}

const GROUP_FIELDS = ["type", "region_id", "flavor", "billing_metric_name", "billing_feature_name", "billing_value_unit", "currency"] as const;

/** A line's group, from its fields in the API's names. */
function groupKey(line: Partial<Record<(typeof GROUP_FIELDS)[number], unknown>>): string {
  return JSON.stringify(GROUP_FIELDS.map((field) => line[field]));
}

/** The report's results as the fixture says they should be: the lines summed per group. */
function expectedTotals(lines: DemoUsageLine[]): Map<string, ExpectedTotal> {
  const totals = new Map<string, ExpectedTotal>();
  for (const line of lines) {
    const key = groupKey(byColumnName("usageLines", line));
    const total = totals.get(key);
    if (total) {
      total.billing_value += line.billingValue;
      total.cost += line.cost ?? 0;
      total.unpriced ||= line.cost === null;
    } else {
      totals.set(key, {
        type: line.type,
        region_id: line.regionId,
        flavor: line.flavor,
        billing_metric_name: line.billingMetricName,
        billing_feature_name: line.billingFeatureName,
        billing_value_unit: line.billingValueUnit,
        currency: line.currency,
        billing_value: line.billingValue,
        cost: line.cost ?? 0,
        unpriced: line.cost === null,
      });
    }
  }
  return totals;
}

/** The JSON report must hold exactly the groups of `lines`, with their sums. */
function expectReport(reply: Reply, lines: DemoUsageLine[]): void {
  expect(reply.status, reply.text).toBe(200);
  const expected = expectedTotals(lines);
  expect(reply.body.count).toBe(expected.size);
  expect(reply.body.results).toHaveLength(expected.size);
  const seen = new Set<string>();
  for (const result of reply.body.results) {
    const key = groupKey(result);
    expect(seen.has(key), `duplicate result ${key}`).toBe(false);
    seen.add(key);
    const total = expected.get(key);
    expect(total, `unexpected result ${key}`).toBeDefined();
    expect(result.region).toBe(total!.region_id);
    expect(result.billing_value).toBeCloseTo(total!.billing_value, 6);
    expect(result.cost).toBeCloseTo(total!.cost, 6);
    if (total!.unpriced) expect(result.err).toEqual(expect.any(String));
    else expect(result.err).toBeNull();
  }
  expect(reply.body.price_status).toBe([...expected.values()].some((total) => total.unpriced) ? "error" : "show");
}

/** Fixture usage of account 1 (the default caller). */
const accountOneLines = usageLines.filter((line) => line.accountId === 1);
const allMonths = { time_from: "2026-01", time_to: "2026-12" };

describe.each(engines())("cloud cost reports on %s", (engine) => {
  const api = useApi(engine);

  describe("POST /cloud/v1/reservation_cost_report/totals", () => {
    const totals = (body: unknown, as: [DemoAccountId, DemoTokenName] = [1, "role-1-active"]) => api.call("POST", TOTALS, { body, as });

    it("sums all of the account's usage, with err and price_status error for unpriced usage", async () => {
      expect(accountOneLines.some((line) => line.cost === null)).toBe(true);
      const reply = await totals(allMonths);
      expectReport(reply, accountOneLines);
      expect(reply.body.price_status).toBe("error");
    });

    it("counts only the caller's account's usage", async () => {
      const theirs = usageLines.filter((line) => line.accountId === 2);
      expect(theirs.length).toBeGreaterThan(0);
      expectReport(await totals(allMonths, [2, "role-1-active"]), theirs);
    });

    it.each([
      ["2026-09", "2026-09"],
      ["2026-08", "2026-09"],
      ["2026-09", "2026-10"],
      ["2026-10", "2027-03"],
    ])("takes months %s to %s, both inclusive", async (from, to) => {
      const lines = accountOneLines.filter((line) => line.month >= from && line.month <= to);
      expect(lines.length).toBeGreaterThan(0);
      expectReport(await totals({ time_from: from, time_to: to }), lines);
    });

    it("answers an empty report for months with no usage", async () => {
      const reply = await totals({ time_from: "2024-01", time_to: "2025-12" });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toEqual({ count: 0, price_status: "show", results: [] });
    });

    it("keeps only the regions asked for", async () => {
      for (const regionIds of [[2], [1, 3], [3]]) {
        expectReport(
          await totals({ ...allMonths, regions: regionIds }),
          accountOneLines.filter((line) => regionIds.includes(line.regionId)),
        );
      }
    });

    it("keeps only the types asked for", async () => {
      for (const types of [["instance"], ["floatingip", "inference"], ["backup"]]) {
        expectReport(
          await totals({ ...allMonths, types }),
          accountOneLines.filter((line) => types.includes(line.type)),
        );
      }
    });

    it("combines months, regions and types", async () => {
      const lines = accountOneLines.filter(
        (line) => line.month >= "2026-09" && line.regionId === 2 && ["inference", "volume"].includes(line.type),
      );
      expectReport(await totals({ time_from: "2026-09", time_to: "2026-10", regions: [2], types: ["inference", "volume"] }), lines);
    });

    it.each([
      ["instance", "flavor", ["g2-gpu-1xl40s"]],
      ["instance", "billing_feature_name", ["instance", "no such feature"]],
      ["floatingip", "billing_metric_name", ["no such metric"]],
      ["backup", "flavor", ["anything"]],
    ] as const)("schema_filter on %s.%s keeps those lines of that type only", async (type, field, values) => {
      const lines = accountOneLines.filter((line) => line.type !== type || (values as readonly string[]).includes(byColumnName("usageLines", line)[field] as string));
      const reply = await totals({ ...allMonths, schema_filter: { type, field, values } });
      expectReport(reply, lines);
      // Other types keep every line.
      const others = (lines: DemoUsageLine[]) => lines.filter((line) => line.type !== type).length;
      expect(others(lines)).toBe(others(accountOneLines));
    });

    describe("tags", () => {
      const lineTag = (line: DemoUsageLine, key: string) => line.tags[key];
      const matches = (line: DemoUsageLine, { key, value, strict }: { key: string; value: string; strict?: boolean }) => {
        const tag = lineTag(line, key);
        if (tag === undefined) return false;
        return strict ? tag === value : tag.toLowerCase().includes(value.toLowerCase());
      };

      it.each([
        { key: "env", value: "staging", strict: true },
        { key: "env", value: "Staging", strict: true },
        { key: "env", value: "Staging", strict: false },
        { key: "env", value: "prod" },
        { key: "env", value: "prod", strict: true },
        { key: "team", value: "ml-research", strict: true },
        { key: "team", value: "ml-research", strict: false },
        { key: "team", value: "ML-Research", strict: true },
        { key: "team", value: "-" },
        { key: "team", value: "_" },
        { key: "team", value: "%" },
        { key: "env", value: "" },
        { key: "owner", value: "" },
      ])("one condition %o", async (condition) => {
        const lines = accountOneLines.filter((line) => matches(line, condition));
        expectReport(await totals({ ...allMonths, tags: { condition_type: "AND", conditions: [condition] } }), lines);
      });

      it("AND needs every condition, OR any one", async () => {
        const conditions = [
          { key: "env", value: "staging", strict: true },
          { key: "team", value: "research", strict: false },
        ];
        const both = accountOneLines.filter((line) => conditions.every((condition) => matches(line, condition)));
        const either = accountOneLines.filter((line) => conditions.some((condition) => matches(line, condition)));
        // The two must differ, or this test could not tell AND from OR.
        expect(both.length).toBeGreaterThan(0);
        expect(either.length).toBeGreaterThan(both.length);
        expectReport(await totals({ ...allMonths, tags: { condition_type: "AND", conditions } }), both);
        expectReport(await totals({ ...allMonths, tags: { condition_type: "OR", conditions } }), either);
      });

      it("OR of conditions on one key", async () => {
        const conditions = [
          { key: "env", value: "production", strict: true },
          { key: "env", value: "STAG" },
        ];
        const lines = accountOneLines.filter((line) => conditions.some((condition) => matches(line, condition)));
        expect(lines.length).toBeLessThan(accountOneLines.length);
        expectReport(await totals({ ...allMonths, tags: { condition_type: "OR", conditions } }), lines);
      });

      it("combines tags with the other filters", async () => {
        const lines = accountOneLines.filter(
          (line) => line.month === "2026-10" && line.type === "instance" && matches(line, { key: "team", value: "WEB" }),
        );
        expect(lines.length).toBeGreaterThan(0);
        expectReport(
          await totals({
            time_from: "2026-10",
            time_to: "2026-10",
            types: ["instance"],
            tags: { condition_type: "OR", conditions: [{ key: "team", value: "WEB" }] },
          }),
          lines,
        );
      });
    });

    it("answers the same totals as CSV with response_format csv_totals", async () => {
      const reply = await totals({ ...allMonths, response_format: "csv_totals" });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.headers.get("content-type")).toMatch(/^text\/csv\b/);
      const rows = reply.text.split(/\r?\n/).filter((row) => row !== "");
      // No value of the fixture holds a comma or a quote, so splitting on commas reads the CSV.
      expect(reply.text).not.toContain('"');
      const [header, ...data] = rows.map((row) => row.split(","));
      expect(header).toEqual(expect.arrayContaining([...GROUP_FIELDS, "billing_value", "cost", "err"]));
      const column = (name: string) => header!.indexOf(name);
      const expected = expectedTotals(accountOneLines);
      expect(data).toHaveLength(expected.size);
      for (const row of data) {
        expect(row).toHaveLength(header!.length);
        const key = groupKey({
          type: row[column("type")]!,
          region_id: Number(row[column("region_id")]),
          flavor: row[column("flavor")]!,
          billing_metric_name: row[column("billing_metric_name")]!,
          billing_feature_name: row[column("billing_feature_name")]!,
          billing_value_unit: row[column("billing_value_unit")]!,
          currency: row[column("currency")]!,
        });
        const total = expected.get(key);
        expect(total, `unexpected row ${key}`).toBeDefined();
        expect(Number(row[column("billing_value")])).toBeCloseTo(total!.billing_value, 6);
        expect(Number(row[column("cost")])).toBeCloseTo(total!.cost, 6);
        expect(row[column("err")] !== "").toBe(total!.unpriced);
        expected.delete(key);
      }
      expect(expected.size).toBe(0);
    });

    it("answers json with response_format json", async () => {
      const reply = await totals({ time_from: "2026-08", time_to: "2026-08", response_format: "json" });
      expect(reply.headers.get("content-type")).toMatch(/^application\/json\b/);
      expectReport(reply, accountOneLines.filter((line) => line.month === "2026-08"));
    });

    it("shows instance_type for egress traffic and volume_type for volumes, null elsewhere, and the platform's unit per type", async () => {
      const reply = await totals(allMonths);
      expect(reply.status, reply.text).toBe(200);
      const units: Record<string, string> = { instance: "minutes", egress_traffic: "bytes", volume: "gbminutes", floatingip: "minutes" };
      for (const result of reply.body.results) {
        expect(result.instance_type).toBe(result.type === "egress_traffic" ? "vm" : null);
        expect(result.volume_type).toBe(result.type === "volume" ? "ssd_hiiops" : null);
        if (units[result.type]) expect(result.billing_value_unit).toBe(units[result.type]);
      }
      expect(new Set(reply.body.results.map((result: { type: string }) => result.type))).toEqual(new Set(accountOneLines.map((line) => line.type)));
    });

    it.each([
      ["egress_traffic", "instance_type", ["vm"], (line: DemoUsageLine) => line.type !== "egress_traffic" || line.instanceType === "vm"],
      ["egress_traffic", "instance_type", ["router"], (line: DemoUsageLine) => line.type !== "egress_traffic"],
      ["volume", "volume_type", ["ssd_hiiops"], () => true],
      ["volume", "volume_type", ["standard"], (line: DemoUsageLine) => line.type !== "volume"],
    ] as const)("schema_filter on %s.%s %o", async (type, field, values, keeps) => {
      expectReport(await totals({ ...allMonths, schema_filter: { type, field, values } }), accountOneLines.filter(keeps));
    });

    it.each([
      ["instance", "instance_type"],
      ["volume", "instance_type"],
      ["instance", "volume_type"],
    ])("answers 400 schema_filter.field for %s with %s", async (type, field) => {
      expectEnvelope(await totals({ ...allMonths, schema_filter: { type, field, values: ["x"] } }), 400, "validation_error", { "schema_filter.field": [expect.any(String)] });
    });

    it("rounds each cost to 5 decimals unless rounding is false", async () => {
      const [rounded, full] = await Promise.all([totals({ ...allMonths, types: ["egress_traffic"] }), totals({ ...allMonths, types: ["egress_traffic"], rounding: false })]);
      expect(rounded.body.results.length).toBeGreaterThan(0);
      rounded.body.results.forEach((result: { cost: number }, index: number) => {
        expect(result.cost).toBe(Math.round(full.body.results[index].cost * 1e5) / 1e5);
      });
      expectEnvelope(await totals({ ...allMonths, rounding: "yes" }), 400, "validation_error", { rounding: [expect.any(String)] });
    });

    it("may be called by Users and Engineers (it is a read), not by the Purge and Prefetch roles", async () => {
      expectReport(await totals(allMonths, [1, "role-2-active"]), accountOneLines);
      expectReport(await totals(allMonths, [2, "role-5-active"]), usageLines.filter((line) => line.accountId === 2));
      for (const role of ["role-3022-active", "role-3009-active"] as const) {
        const reply = await totals(allMonths, [1, role]);
        expectEnvelope(reply, 403, "permission_denied");
      }
    });

    it("answers 400 errors.time_to when time_to is before time_from", async () => {
      expectEnvelope(await totals({ time_from: "2026-10", time_to: "2026-09" }), 400, "validation_error", { "time_to": [expect.any(String)] });
    });

    // A body whose time_to is before time_from as sent also names time_to, even when time_from is not a month.
    it.each<[Record<string, unknown>, string, string[]?]>([
      [{ time_from: "2026-13", time_to: "2026-12" }, "time_from", ["time_to"]],
      [{ time_from: "2026-01", time_to: "2026-1" }, "time_to"],
      [{ time_to: "2026-12" }, "time_from"],
      [{ ...allMonths, types: ["instance", "spaceship"] }, "types.1"],
      [{ ...allMonths, response_format: "xml" }, "response_format"],
      [{ ...allMonths, tags: { condition_type: "XOR", conditions: [{ key: "env", value: "x" }] } }, "tags.condition_type"],
      [{ ...allMonths, schema_filter: { type: "instance", field: "cost", values: ["1"] } }, "schema_filter.field"],
      [{ ...allMonths, regions: ["one"] }, "regions.0"],
      [{ ...allMonths, currency: "EUR" }, "currency"],
    ])("answers 400 for %o at %s", async (body, field, others = []) => {
      const errors = Object.fromEntries([field, ...others].map((name) => [name, [expect.any(String)]]));
      expectEnvelope(await totals(body), 400, "validation_error", errors);
    });
  });
});
