/**
 * monthlySpend against the platform of @cloudplane/testing, with usage lines made by its builder.
 */
import { createTestPlatform, type TestPlatform } from "@cloudplane/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { monthlySpend, PlatformProblem } from "../src/index.js";

let platform: TestPlatform;
beforeAll(async () => {
  platform = await createTestPlatform();
});
afterEach(() => platform.reset());
afterAll(() => platform.close());

describe("monthlySpend", () => {
  it("sums the month's cost per currency, over regions and types", async () => {
    await platform.build.usageLines([
      { month: "2026-03", cost: 10.125 },
      { month: "2026-03", cost: 5, regionId: 2 },
      { month: "2026-03", type: "egress_traffic", billingMetricName: "egress_traffic", billingFeatureName: "egress", billingValueUnit: "bytes", cost: 0.5, currency: "USD" },
      { month: "2026-04", cost: 99 },
    ]);
    expect(await monthlySpend(platform.client, "2026-03")).toEqual({ month: "2026-03", totals: { EUR: 15.13, USD: 0.5 }, unpriced: 0 });
  });

  it("is empty for a month without usage", async () => {
    expect(await monthlySpend(platform.client, "2026-01")).toEqual({ month: "2026-01", totals: {}, unpriced: 0 });
  });

  it("says the platform is busy when the report stays unavailable", async () => {
    platform.faults.unavailable("cloud.getReservationCostReportTotals", { times: 3, retryAfter: 0 });
    const problem = await monthlySpend(platform.client, "2026-03").catch((error: unknown) => error);
    expect(problem).toBeInstanceOf(PlatformProblem);
    expect(problem).toMatchObject({ kind: "busy" });
    expect(platform.calls).toHaveLength(3);
  });
});
