/**
 * The month's cloud spend for the product's budget page: the cost report's totals summed per currency,
 * with the lines the platform could not price counted apart.
 */
import type { CloudplaneClient } from "@cloudplane/client";
import { asPlatformProblem } from "./problems.js";

export interface MonthlySpend {
  month: string;
  /** Cost per currency, rounded to cents. */
  totals: Record<string, number>;
  /** Results the platform has no cost for yet. */
  unpriced: number;
}

/** The spend of `month` (YYYY-MM), over every region and type. */
export async function monthlySpend(client: CloudplaneClient, month: string): Promise<MonthlySpend> {
  let report;
  try {
    report = await client.cloud.costReports.totals({ time_from: month, time_to: month });
  } catch (error) {
    throw asPlatformProblem(error, `reading the cost report of ${month}`);
  }
  const totals: Record<string, number> = {};
  let unpriced = 0;
  for (const result of report.results) {
    if (result.cost === null) unpriced += 1;
    else totals[result.currency] = Math.round(((totals[result.currency] ?? 0) + result.cost) * 100) / 100;
  }
  return { month, totals, unpriced };
}
