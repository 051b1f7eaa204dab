/**
 * Integration tests of the cost report's totals and per-resource forms over days and of the usage report:
 * each checked against sums of the demo fixture's usage lines made here, in the test, and the totals
 * against the reservation report's over the same months (one source of usage for every report).
 */
import { demoFixture, type DemoRow } from "@cloudplane/db";
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi } from "../harness.js";

const AGGREGATED = "/cloud/v1/cost_report/totals";
const DETAILED = "/cloud/v1/cost_report/resources";
const USAGE = "/cloud/v1/usage_report";
const { usageLines } = demoFixture;
type Line = DemoRow<"usageLines">;

const ALL_MONTHS = { time_from: "2026-08-01T00:00:00Z", time_to: "2026-11-01T00:00:00Z" };

/** Money and usage summed as the database sums them (exact decimals), compared to 6 places. */
const close = (value: number) => expect.closeTo(value, 6);

/** The fixture's resources of `lines`, each with its lines summed, in the reports' default order. */
function expectedResources(lines: Line[], withCost: boolean) {
  const groups = new Map<string, Line[]>();
  for (const line of lines) {
    const key = JSON.stringify([line.resourceId, line.type, line.regionId, line.projectId, line.flavor, line.billingMetricName, line.billingFeatureName, line.currency]);
    groups.set(key, [...(groups.get(key) ?? []), line]);
  }
  const resources = [...groups.values()].map((group) => {
    const latest = [...group].sort((a, b) => (a.month < b.month ? 1 : a.month > b.month ? -1 : b.id - a.id))[0]!;
    const cost = group.reduce((sum, line) => sum + (line.cost ?? 0), 0);
    return {
      type: latest.type,
      uuid: latest.resourceId,
      last_name: latest.resourceName,
      project_id: latest.projectId,
      region: latest.regionId,
      region_id: latest.regionId,
      first_seen: group.map((line) => line.firstSeen!).sort()[0],
      last_seen: group.map((line) => line.lastSeen!).sort().at(-1),
      flavor: latest.flavor,
      instance_type: latest.instanceType,
      volume_type: latest.volumeType,
      tags: Object.entries(latest.tags)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([key, value]) => ({ key, value })),
      billing_metric_name: latest.billingMetricName,
      billing_feature_name: latest.billingFeatureName,
      billing_value_unit: latest.billingValueUnit,
      billing_value: close(group.reduce((sum, line) => sum + line.billingValue, 0)),
      ...latest.details,
      ...(withCost
        ? { currency: latest.currency, cost: close(Math.round(cost * 1e5) / 1e5), err: group.some((line) => line.cost === null) ? expect.any(String) : null }
        : {}),
    };
  });
  // The default order: type, region, project, last name (code points), then the resource's id.
  const cmp = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);
  return resources.sort((a, b) => cmp(a.type, b.type) || cmp(a.region_id, b.region_id) || cmp(a.project_id!, b.project_id!) || cmp(a.last_name, b.last_name) || cmp(a.uuid, b.uuid));
}

const linesOf = (account: 1 | 2, keep: (line: Line) => boolean = () => true) => usageLines.filter((line) => line.accountId === account && keep(line));

describe.each(engines())("cost and usage reports on %s", (engine) => {
  const api = useApi(engine);

  describe("POST /cloud/v1/cost_report/totals", () => {
    it("answers the reservation report's totals over the same months, to Users too", async () => {
      const reply = await api.call("POST", AGGREGATED, { body: ALL_MONTHS, as: [1, "role-2-active"] });
      expect(reply.status, reply.text).toBe(200);
      const monthly = await api.call("POST", "/cloud/v1/reservation_cost_report/totals", { body: { time_from: "2026-08", time_to: "2026-10" } });
      expect(reply.body).toEqual(monthly.body);
      expect(reply.body.price_status).toBe("error");
      expect(reply.body.count).toBeGreaterThan(5);
    });

    it("sums the months the days touch: the last day is the day before time_to, or time_to's with enable_last_day", async () => {
      const september = await api.call("POST", AGGREGATED, { body: { time_from: "2026-09-15T00:00:00Z", time_to: "2026-10-01T00:00:00Z" } });
      const monthlySeptember = await api.call("POST", "/cloud/v1/reservation_cost_report/totals", { body: { time_from: "2026-09", time_to: "2026-09" } });
      expect(september.body).toEqual(monthlySeptember.body);
      const withOctober = await api.call("POST", AGGREGATED, { body: { time_from: "2026-09-15T00:00:00", time_to: "2026-10-01T00:00:00Z", enable_last_day: true } });
      const monthlyBoth = await api.call("POST", "/cloud/v1/reservation_cost_report/totals", { body: { time_from: "2026-09", time_to: "2026-10" } });
      expect(withOctober.body).toEqual(monthlyBoth.body);
      expect(withOctober.body).not.toEqual(september.body);
    });

    it("filters by project (reading the lines) and answers CSV when asked", async () => {
      const reply = await api.call("POST", AGGREGATED, { body: { ...ALL_MONTHS, projects: [3], types: ["instance"] } });
      const lines = linesOf(1, (line) => line.projectId === 3 && line.type === "instance");
      expect(lines.length).toBeGreaterThan(0);
      const groups = (list: { region: number; flavor: string }[]) => [...new Set(list.map((item) => `${item.region} ${item.flavor}`))].sort();
      expect(groups(reply.body.results)).toEqual(groups(lines.map((line) => ({ region: line.regionId, flavor: line.flavor }))));
      const sum = lines.reduce((total, line) => total + line.billingValue, 0);
      expect(reply.body.results.reduce((total: number, result: { billing_value: number }) => total + result.billing_value, 0)).toBeCloseTo(sum, 6);
      // Another account's project adds nothing.
      expect((await api.call("POST", AGGREGATED, { body: { ...ALL_MONTHS, projects: [2, 4] } })).body).toEqual({ count: 0, price_status: "show", results: [] });
      const csv = await api.call("POST", AGGREGATED, { body: { ...ALL_MONTHS, projects: [3], types: ["instance"], response_format: "csv_totals" } });
      expect(csv.status, csv.text).toBe(200);
      expect(csv.headers.get("content-type")).toMatch(/^text\/csv/);
      expect(csv.text.split("\r\n")[0]).toBe("type,region,region_id,flavor,instance_type,volume_type,billing_metric_name,billing_feature_name,billing_value_unit,currency,billing_value,cost,err");
      expect(csv.text.split("\r\n").filter(Boolean)).toHaveLength(reply.body.count + 1);
    });

    it.each<[string, Record<string, unknown>, string[]]>([
      ["time_to before time_from", { time_from: "2026-09-02T00:00:00Z", time_to: "2026-09-01T00:00:00Z" }, ["time_to"]],
      ["time_to on time_from's day", { time_from: "2026-09-01T08:00:00Z", time_to: "2026-09-01T20:00:00Z" }, ["time_to"]],
      ["a month instead of a time", { time_from: "2026-09", time_to: "2026-10" }, ["time_from", "time_to"]],
      ["a project id of 0", { ...ALL_MONTHS, projects: [0] }, ["projects.0"]],
      ["a CSV of records", { ...ALL_MONTHS, response_format: "csv_records" }, ["response_format"]],
      ["a schema filter of another type's field", { ...ALL_MONTHS, schema_filter: { type: "instance", field: "volume_type", values: ["x"] } }, ["schema_filter.field"]],
    ])("answers 400 for %s", async (_what, body, fields) => {
      expectEnvelope(await api.call("POST", AGGREGATED, { body }), 400, "validation_error", fields);
    });
  });

  describe("POST /cloud/v1/cost_report/resources", () => {
    it("lists each resource with its usage and cost summed, its latest name, tags and details, paged with a count of all", async () => {
      for (const account of [1, 2] as const) {
        const expected = expectedResources(linesOf(account), true);
        const reply = await api.call("POST", DETAILED, { body: { ...ALL_MONTHS, limit: 1000 }, as: [account, "role-2-active"] });
        expect(reply.status, reply.text).toBe(200);
        expect(reply.body).toEqual({ count: expected.length, price_status: account === 1 ? "error" : "show", results: expected });
      }
      const expected = expectedResources(linesOf(1), true);
      const page = await api.call("POST", DETAILED, { body: { ...ALL_MONTHS, limit: 2, offset: 3 } });
      expect(page.body).toEqual({ count: expected.length, price_status: expect.any(String), results: expected.slice(3, 5) });
      const defaultPage = await api.call("POST", DETAILED, { body: ALL_MONTHS });
      expect(defaultPage.body.results).toHaveLength(Math.min(10, expected.length));
      // The fields of a resource's type: an address, a volume's size, traffic's port.
      expect(expected.find((resource) => resource.type === "floatingip")).toHaveProperty("ip_address");
      expect(expected.find((resource) => resource.type === "volume")).toMatchObject({ last_size: 250, size_unit: "GiB" });
      expect(expected.find((resource) => resource.type === "egress_traffic")).toHaveProperty("port_id");
    });

    it("orders by the fields given, the first deciding first, and filters as the totals do", async () => {
      const byValue = await api.call("POST", DETAILED, { body: { ...ALL_MONTHS, limit: 1000, types: ["instance", "volume"], order_by: ["billing_value.desc"] } });
      const values = byValue.body.results.map((resource: { billing_value: number }) => resource.billing_value);
      expect(values).toEqual([...values].sort((a, b) => b - a));
      expect(new Set(byValue.body.results.map((resource: { type: string }) => resource.type))).toEqual(new Set(["instance", "volume"]));
      const byRegionThenName = await api.call("POST", DETAILED, { body: { ...ALL_MONTHS, limit: 1000, order_by: ["region.desc", "last_name.asc"] } });
      const keys = byRegionThenName.body.results.map((resource: { region_id: number; last_name: string }) => [resource.region_id, resource.last_name] as const);
      expect(keys).toEqual([...keys].sort((a, b) => b[0] - a[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0)));
      const tagged = await api.call("POST", DETAILED, { body: { ...ALL_MONTHS, limit: 1000, tags: { condition_type: "AND", conditions: [{ key: "team", value: "ml-research" }] } } });
      expect(tagged.body.results).toEqual(expectedResources(linesOf(1, (line) => line.tags.team?.toLowerCase().includes("ml-research") ?? false), true));
      const october = await api.call("POST", DETAILED, { body: { time_from: "2026-10-01T00:00:00Z", time_to: "2026-10-31T00:00:00Z", enable_last_day: true, limit: 1000, projects: [1] } });
      expect(october.body.results).toEqual(expectedResources(linesOf(1, (line) => line.month === "2026-10" && line.projectId === 1), true));
    });

    it("answers the page as CSV records when asked", async () => {
      const csv = await api.call("POST", DETAILED, { body: { ...ALL_MONTHS, limit: 3, response_format: "csv_records" } });
      expect(csv.status, csv.text).toBe(200);
      expect(csv.headers.get("content-type")).toMatch(/^text\/csv/);
      const rows = csv.text.split("\r\n").filter(Boolean);
      expect(rows[0]!.split(",").slice(0, 3)).toEqual(["type", "uuid", "last_name"]);
      expect(rows).toHaveLength(4);
      expect(rows[1]).toContain(expectedResources(linesOf(1), true)[0]!.uuid);
    });

    it.each<[string, Record<string, unknown>, string[]]>([
      ["limit 0", { ...ALL_MONTHS, limit: 0 }, ["limit"]],
      ["limit 1001", { ...ALL_MONTHS, limit: 1001 }, ["limit"]],
      ["a negative offset", { ...ALL_MONTHS, offset: -1 }, ["offset"]],
      ["an unknown order", { ...ALL_MONTHS, order_by: ["cost.asc"] }, ["order_by.0"]],
      ["CSV totals", { ...ALL_MONTHS, response_format: "csv_totals" }, ["response_format"]],
      ["an unknown field", { ...ALL_MONTHS, page: 2 }, ["page"]],
    ])("answers 400 for %s", async (_what, body, fields) => {
      expectEnvelope(await api.call("POST", DETAILED, { body }), 400, "validation_error", fields);
    });
  });

  describe("POST /cloud/v1/usage_report", () => {
    it("answers a page of resources with their usage and the totals of all of them, without costs", async () => {
      const lines = linesOf(1, (line) => line.type !== "inference");
      const expected = expectedResources(lines, false);
      const reply = await api.call("POST", USAGE, { body: { ...ALL_MONTHS, types: ["instance", "volume", "egress_traffic", "floatingip"], limit: 4, offset: 2 }, as: [1, "role-2-active"] });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body.count).toBe(expected.length);
      expect(reply.body.resources).toEqual(expected.slice(2, 6));
      const totals = new Map<string, number>();
      for (const line of lines) {
        const key = [line.type, line.regionId, line.flavor, line.billingMetricName].join("|");
        totals.set(key, (totals.get(key) ?? 0) + line.billingValue);
      }
      expect(reply.body.totals).toHaveLength(totals.size);
      for (const total of reply.body.totals) {
        expect(total.billing_value).toBeCloseTo(totals.get([total.type, total.region_id, total.flavor, total.billing_metric_name].join("|"))!, 6);
        expect(total).not.toHaveProperty("cost");
      }
      expect(reply.text).not.toContain('"cost"');
      // Account 2 sees its own usage only.
      const theirs = await api.call("POST", USAGE, { body: { ...ALL_MONTHS, limit: 1000 }, as: [2, "role-1-active"] });
      expect(theirs.body.resources).toEqual(expectedResources(linesOf(2), false));
    });

    it("answers an empty report for months without usage, and 400 for a bad body", async () => {
      expect((await api.call("POST", USAGE, { body: { time_from: "2025-01-01T00:00:00Z", time_to: "2025-02-01T00:00:00Z" } })).body).toEqual({ count: 0, resources: [], totals: [] });
      expectEnvelope(await api.call("POST", USAGE, { body: { ...ALL_MONTHS, rounding: true } }), 400, "validation_error", ["rounding"]);
      expectEnvelope(await api.call("POST", USAGE, { body: { time_from: "2026-08-01T00:00:00Z" } }), 400, "validation_error", ["time_to"]);
      expectEnvelope(await api.call("POST", USAGE, { body: { ...ALL_MONTHS, projects: ["one"] } }), 400, "validation_error", ["projects.0"]);
    });
  });
});
