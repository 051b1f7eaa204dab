/**
 * Cloud cost reports: the totals of the account's reservation cost report (v1), their schemas and their
 * route.
 */
import { z } from "zod";
import { errorResponses, integer, listOf, stringEnum, strictObject, withBody } from "../common.js";
import type { ClientMetadata } from "../client-names.js";
import * as examples from "../examples.js";
import { route } from "../route.js";
import { DEMO_REGION_ID, read } from "./shared.js";

export const COST_REPORT_TYPES = [
  "ai_cluster",
  "ai_virtual_cluster",
  "backup",
  "basic_vm",
  "containers",
  "egress_traffic",
  "file_share",
  "floatingip",
  "image",
  "inference",
  "instance",
  "load_balancer",
  "snapshot",
  "volume",
] as const;

export const COST_REPORT_SCHEMA_FIELDS = ["flavor", "billing_metric_name", "billing_feature_name", "instance_type", "volume_type"] as const;

/** The usage types each schema_filter field may be used with; a field not listed here applies to every type. */
export const COST_REPORT_SCHEMA_FIELD_TYPES: Partial<Record<(typeof COST_REPORT_SCHEMA_FIELDS)[number], readonly (typeof COST_REPORT_TYPES)[number][]>> = {
  instance_type: ["egress_traffic"],
  volume_type: ["volume", "snapshot"],
};

/** The platform's unit of billing_value per usage type; inference is billed in the unit of its flavor's metric. */
export const COST_REPORT_UNITS = {
  ai_cluster: "minutes",
  ai_virtual_cluster: "minutes",
  backup: "gbminutes",
  basic_vm: "minutes",
  containers: "GBS",
  egress_traffic: "bytes",
  file_share: "gbminutes",
  floatingip: "minutes",
  image: "gbminutes",
  instance: "minutes",
  load_balancer: "minutes",
  snapshot: "gbminutes",
  volume: "gbminutes",
} as const satisfies Partial<Record<(typeof COST_REPORT_TYPES)[number], string>>;

const unitsText = Object.entries(COST_REPORT_UNITS)
  .map(([type, unit]) => `${type} ${unit}`)
  .join(", ");

const yearMonth = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, "Must be a month YYYY-MM.");

const costReportTotalsBodySchema = strictObject({
  time_from: yearMonth.describe("First month of the report, YYYY-MM, inclusive."),
  time_to: yearMonth.describe("Last month of the report, YYYY-MM, inclusive; not before time_from."),
  regions: listOf(integer({ min: 1 }), { max: 100, noun: "regions", description: "Only usage in these region ids. Default: every region." }).optional(),
  types: listOf(stringEnum(COST_REPORT_TYPES), {
    max: COST_REPORT_TYPES.length,
    noun: "types",
    description: "Only usage of these types. Default: every type.",
  }).optional(),
  response_format: stringEnum(["json", "csv_totals"])
    .optional()
    .describe("json (default), or csv_totals: the same totals as text/csv, one row a result with a header row."),
  schema_filter: strictObject({
    type: stringEnum(COST_REPORT_TYPES).describe("The usage type the filter applies to."),
    field: stringEnum(COST_REPORT_SCHEMA_FIELDS).describe(
      "The usage field compared: flavor, billing_metric_name, billing_feature_name (any type), instance_type (egress_traffic " +
        "only) or volume_type (volume or snapshot only; 400 `errors.schema_filter.field` for another type).",
    ),
    values: listOf(z.string().max(255), {
      min: 1,
      max: 1000,
      noun: "values",
      description: "Usage of `type` is kept when its `field` is one of these, each at most 255 characters: at least 1.",
    }),
  })
    .optional()
    .describe("Keeps, of the usage of `type`, only the lines whose `field` is one of `values`; other types are not affected."),
  tags: strictObject({
    condition_type: stringEnum(["AND", "OR"]).describe("AND: every condition must match; OR: any one."),
    conditions: listOf(
      strictObject({
        key: z.string().min(1).max(255).describe("The tag's key, at most 255 characters."),
        value: z.string().max(255).describe("The tag value to match (see strict), at most 255 characters."),
        strict: z.boolean().optional().describe("true: the tag value must equal `value`; false (default): contain it, case-insensitively."),
      }),
      { min: 1, max: 100, noun: "conditions", description: "The conditions on resource tags, combined by condition_type: at least 1." },
    ),
  })
    .optional()
    .describe("Only usage whose resource tags match the conditions."),
  rounding: z.boolean().optional().describe("true (default): each cost rounded to 5 decimal places; false: full precision."),
})
  .superRefine((body, ctx) => {
    if (body.time_from > body.time_to)
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["time_to"], message: "Must not be before time_from." });
    const filter = body.schema_filter;
    const types = filter && COST_REPORT_SCHEMA_FIELD_TYPES[filter.field];
    if (filter && types && !types.includes(filter.type))
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ["schema_filter", "field"],
        message: `${filter.field} is a field of ${types.join(" and ")} usage only, not of ${filter.type}.`,
      });
  })
  .describe("The months of the report and the filters of the usage it sums.");
export interface CostReportTotalsBodySchema extends CostReportTotalsBodySchemaType {}
type CostReportTotalsBodySchemaType = typeof costReportTotalsBodySchema;
export const costReportTotalsBody: CostReportTotalsBodySchema = costReportTotalsBodySchema;

export type CostReportTotalsBody = z.input<typeof costReportTotalsBody>;

const costReportTotalsSchema = z
  .object({
    count: integer().describe("The number of results."),
    price_status: stringEnum(["show", "error"]).describe('"error" when any result has a non-null err, else "show".'),
    results: z
      .array(
        z
          .object({
            type: z.string().describe("Usage type, e.g. instance or egress_traffic."),
            region: integer().describe("The region id (the platform's name for it in this report)."),
            region_id: integer().describe("The region id."),
            flavor: z
              .string()
              .describe("The flavor the usage was on: a machine type such as g1-standard-2-4, or a volume type; empty when it has none."),
            billing_metric_name: z.string().describe("The billed metric, e.g. vm_minutes."),
            billing_feature_name: z.string().describe("The billed feature, e.g. instance_g1-standard-2-4."),
            instance_type: z
              .string()
              .nullable()
              .describe('What sent the traffic, "vm", "baremetal" or "router", for egress_traffic; null for other types.'),
            volume_type: z.string().nullable().describe('The volume type, e.g. "ssd_hiiops", for volume and snapshot usage; null for other types.'),
            billing_value_unit: z.string().describe(`The unit of billing_value, the platform's per type: ${unitsText}.`),
            currency: z.string(),
            billing_value: z.number().describe("Summed usage, in billing_value_unit."),
            cost: z.number().describe("Summed cost, in currency; usage without a price adds 0."),
            err: z.string().nullable().describe("null, or why part of the cost could not be priced."),
          })
          .strict(),
      )
      .describe("One line per type, region, flavor, instance type, volume type, metric, feature, unit and currency."),
  })
  .strict()
  .describe("Usage and cost summed per type, region, flavor, instance type, volume type, metric, feature, unit and currency.");
export interface CostReportTotalsSchema extends CostReportTotalsSchemaType {}
type CostReportTotalsSchemaType = typeof costReportTotalsSchema;
export const costReportTotals: CostReportTotalsSchema = costReportTotalsSchema;

export type CostReportTotals = z.infer<typeof costReportTotals>;

/** The answer to a totals request of `Body`: CSV text for `response_format: "csv_totals"`, the JSON totals otherwise. */
export type CostReportTotalsAnswer<Body extends CostReportTotalsBody> = Body extends { response_format: "csv_totals" }
  ? string
  : // A body that leaves the format out has no property in common with this one, so it does not extend it: JSON.
    Body extends { response_format?: infer Format }
    ? "csv_totals" extends Format
      ? CostReportTotals | string
      : CostReportTotals
    : CostReportTotals;

export const cloudCostReportsRoutes = {
  getReservationCostReportTotals: route({
    method: "POST",
    path: "/cloud/v1/reservation_cost_report/totals",
    body: costReportTotalsBody,
    responses: {
      200: costReportTotals.or(z.string().describe("text/csv, with response_format csv_totals.")),
      ...errorResponses(withBody),
    },
    summary: "Get cost report totals",
    description:
      "Sums the account's usage and cost from `time_from` to `time_to` (months, inclusive) per type, region, flavor, " +
      "instance type, volume type, metric, feature, unit and currency, after the region, type, schema and tag filters. " +
      "Pricing problems do not fail the request: a result's `err` says what could not be priced and `price_status` is " +
      "\"error\". The sums are exact (decimal arithmetic in the database, then costs rounded as `rounding` says) and take " +
      "in every usage line written before the request, whatever the span of months: the monthly totals they are read " +
      "from change in the same transaction as the lines they sum, never later. A read: Users may call it.",
    // A report's totals are asked for with a POST, which the rule would call creating them; the answer is CSV text when asked for.
    metadata: { ...read, client: { resource: "costReports", method: "totals", answer: "CostReportTotalsAnswer" } } satisfies ClientMetadata,
  }, {
    example: {
      body: examples.costReportTotalsRequestExample,
      response: examples.costReportTotalsExample,
    },
    case: {
      path: () => "/cloud/v1/reservation_cost_report/totals",
      ownsObjects: false,
      // Lists as filters too: every deployment's driver must send them as arrays.
      body: () => ({
        time_from: "2026-08",
        time_to: "2026-10",
        types: ["instance", "egress_traffic", "volume"],
        regions: [DEMO_REGION_ID],
        schema_filter: { type: "instance", field: "flavor", values: ["g1-gpu-1", "it's \"quoted\""] },
      }),
    },
  }),
} as const;
