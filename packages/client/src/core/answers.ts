/**
 * Answers narrowed by what the request asks for, named by a route's `metadata.client.answer` in the
 * contract: the method's body is a type parameter and it answers this type of it. Each has the name and
 * the meaning of the contract's type of that name; test/api-types.test-d.ts checks that they agree.
 */
import type { CostReportTotals, CostReportTotalsBody } from "./api.generated.js";

/** The answer to a totals request of `Body`: CSV text for `response_format: "csv_totals"`, the JSON totals otherwise. */
export type CostReportTotalsAnswer<Body extends CostReportTotalsBody> = Body extends { response_format: "csv_totals" }
  ? string
  : // A body that leaves the format out has no property in common with this one, so it does not extend it: JSON.
    Body extends { response_format?: infer Format }
    ? "csv_totals" extends Format
      ? CostReportTotals | string
      : CostReportTotals
    : CostReportTotals;
