/**
 * Cloud cost and usage reports (v1): the reservation cost report's monthly totals, the cost report's totals
 * and per-resource form over days, and the usage report; their schemas and their routes. Every report sums
 * the same usage lines.
 */
import { z } from "zod";
import { errorResponses, integer, isoTimestamp, listOf, stringEnum, strictObject, withBody } from "../common.js";
import type { ClientMetadata } from "../client-names.js";
import * as examples from "../examples.js";
import { route } from "../route.js";
import { DEMO_REGION_ID, instantOf, isoInstant, read } from "./shared.js";

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

/** The filters every cost and usage report takes: regions, types, a schema filter and tags. */
const reportFilterShape = {
  regions: listOf(integer({ min: 1 }), { max: 100, noun: "regions", description: "Only usage in these region ids. Default: every region." }).optional(),
  types: listOf(stringEnum(COST_REPORT_TYPES), {
    max: COST_REPORT_TYPES.length,
    noun: "types",
    description: "Only usage of these types. Default: every type.",
  }).optional(),
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
};

const rounding = z.boolean().optional().describe("true (default): each cost rounded to 5 decimal places; false: full precision.");

/** 400 on `schema_filter.field` for a field its type does not have. */
function checkSchemaFilter(filter: { type: string; field: (typeof COST_REPORT_SCHEMA_FIELDS)[number] } | undefined, ctx: z.RefinementCtx) {
  const types = filter && (COST_REPORT_SCHEMA_FIELD_TYPES[filter.field] as readonly string[] | undefined);
  if (filter && types && !types.includes(filter.type))
    ctx.addIssue({
      code: z.ZodIssueCode.custom,
      path: ["schema_filter", "field"],
      message: `${filter.field} is a field of ${types.join(" and ")} usage only, not of ${filter.type}.`,
    });
}

const costReportTotalsBodySchema = strictObject({
  time_from: yearMonth.describe("First month of the report, YYYY-MM, inclusive."),
  time_to: yearMonth.describe("Last month of the report, YYYY-MM, inclusive; not before time_from."),
  ...reportFilterShape,
  response_format: stringEnum(["json", "csv_totals"])
    .optional()
    .describe("json (default), or csv_totals: the same totals as text/csv, one row a result with a header row."),
  rounding,
})
  .superRefine((body, ctx) => {
    if (body.time_from > body.time_to)
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["time_to"], message: "Must not be before time_from." });
    checkSchemaFilter(body.schema_filter, ctx);
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



/** A moment of a report's period: ISO 8601, with or without a zone (without one: UTC); the day it falls on counts. */
const reportDay = isoInstant;

const PERIOD_RULE =
  "Usage is kept per month: a report sums the whole months its period touches, from time_from's month to the month of " +
  "the period's last day (the day before time_to, or time_to's own day with enable_last_day).";

/** The period and project filter of the cost and usage reports that take days (the platform's current ones). */
const reportPeriodShape = {
  time_from: reportDay("The first day of the report (ISO 8601; the report starts at the beginning of that day, UTC)."),
  time_to: reportDay("The day the report ends before (ISO 8601, UTC), after time_from's day; with enable_last_day, that day is included."),
  enable_last_day: z.boolean().optional().describe("true: time_to's own day is part of the report; false (default): the report ends before it."),
  projects: listOf(integer({ min: 1 }), { max: 100, noun: "projects", description: "Only usage of these project ids. Default (or null): every project." })
    .nullable()
    .optional(),
};

/**
 * The first day of a report's period and its last, as YYYY-MM-DD (UTC); undefined when either time is no
 * ISO 8601 time (the field's own check says so).
 */
export function reportDays(body: { time_from: string; time_to: string; enable_last_day?: boolean | undefined }): { first: string; last: string } | undefined {
  const from = instantOf(body.time_from);
  const to = instantOf(body.time_to);
  if (!from || !to) return undefined;
  const last = new Date(`${to.toISOString().slice(0, 10)}T00:00:00Z`);
  if (!body.enable_last_day) last.setUTCDate(last.getUTCDate() - 1);
  return { first: from.toISOString().slice(0, 10), last: last.toISOString().slice(0, 10) };
}

function checkPeriod(body: { time_from: string; time_to: string; enable_last_day?: boolean | undefined }, ctx: z.RefinementCtx) {
  const days = reportDays(body);
  if (days && days.last < days.first)
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["time_to"], message: "Must be after time_from's day (or its day, with enable_last_day)." });
}

const costReportAggregatedBodySchema = strictObject({
  ...reportPeriodShape,
  ...reportFilterShape,
  response_format: stringEnum(["json", "csv_totals"])
    .optional()
    .describe("json (default), or csv_totals: the same totals as text/csv, one row a result with a header row."),
  rounding,
})
  .superRefine((body, ctx) => {
    checkPeriod(body, ctx);
    checkSchemaFilter(body.schema_filter, ctx);
  })
  .describe("The days of the report and the filters of the usage it sums.");
export interface CostReportAggregatedBodySchema extends CostReportAggregatedBodySchemaType {}
type CostReportAggregatedBodySchemaType = typeof costReportAggregatedBodySchema;
export const costReportAggregatedBody: CostReportAggregatedBodySchema = costReportAggregatedBodySchema;
export type CostReportAggregatedBody = z.input<typeof costReportAggregatedBody>;

export const REPORT_RESOURCE_ORDER_FIELDS = ["billing_value", "first_seen", "last_name", "last_seen", "project", "region", "type"] as const;
export const REPORT_RESOURCE_ORDERS = REPORT_RESOURCE_ORDER_FIELDS.flatMap((field) => [`${field}.asc`, `${field}.desc`] as const) as [
  `${(typeof REPORT_RESOURCE_ORDER_FIELDS)[number]}.${"asc" | "desc"}`,
  ...`${(typeof REPORT_RESOURCE_ORDER_FIELDS)[number]}.${"asc" | "desc"}`[],
];

/** Paging and order of the reports that list resources. */
const resourcePageShape = {
  limit: integer({ min: 1, max: 1000 }).optional().describe("Resources a page, 1 to 1000. Default 10."),
  offset: integer({ min: 0 }).optional().describe("Resources skipped. Default 0."),
  order_by: listOf(stringEnum(REPORT_RESOURCE_ORDERS), {
    max: 7,
    noun: "orders",
    description:
      "`<field>.<asc|desc>` over billing_value, first_seen, last_name, last_seen, project, region and type, the first deciding " +
      "first. Default: type, region, project, last_name, each ascending; ties are broken by the resource's id.",
  }).optional(),
};

const costReportDetailedBodySchema = strictObject({
  ...reportPeriodShape,
  ...reportFilterShape,
  ...resourcePageShape,
  response_format: stringEnum(["json", "csv_records"])
    .optional()
    .describe("json (default), or csv_records: the page of resources as text/csv, one row a resource with a header row."),
  rounding,
})
  .superRefine((body, ctx) => {
    checkPeriod(body, ctx);
    checkSchemaFilter(body.schema_filter, ctx);
  })
  .describe("The days of the report, the filters of the usage it sums, and the page of resources.");
export interface CostReportDetailedBodySchema extends CostReportDetailedBodySchemaType {}
type CostReportDetailedBodySchemaType = typeof costReportDetailedBodySchema;
export const costReportDetailedBody: CostReportDetailedBodySchema = costReportDetailedBodySchema;
export type CostReportDetailedBody = z.input<typeof costReportDetailedBody>;

const usageReportBodySchema = strictObject({ ...reportPeriodShape, ...reportFilterShape, ...resourcePageShape })
  .superRefine((body, ctx) => {
    checkPeriod(body, ctx);
    checkSchemaFilter(body.schema_filter, ctx);
  })
  .describe("The days of the report, the filters of the usage it sums, and the page of resources.");
export interface UsageReportBodySchema extends UsageReportBodySchemaType {}
type UsageReportBodySchemaType = typeof usageReportBodySchema;
export const usageReportBody: UsageReportBodySchema = usageReportBodySchema;
export type UsageReportBody = z.input<typeof usageReportBody>;

/** A resource's usage over the report, as the usage report shows it (the cost report adds its cost). */
const resourceUsageShape = {
  type: z.string().describe("Usage type, e.g. instance or egress_traffic."),
  uuid: z.string().describe("The resource's id."),
  last_name: z.string().describe("The resource's name when last seen."),
  project_id: integer().describe("The project the resource is in."),
  region: integer().describe("The region id (the platform's name for it in this report)."),
  region_id: integer().describe("The region id."),
  first_seen: isoTimestamp.describe("When the resource was first seen in the report's months."),
  last_seen: isoTimestamp.describe("When the resource was last seen in the report's months."),
  flavor: z.string().describe("The flavor the usage was on; empty when it has none."),
  instance_type: z.string().nullable().describe('What sent the traffic, "vm", "baremetal" or "router", for egress_traffic; null for other types.'),
  volume_type: z.string().nullable().describe("The volume type for volume and snapshot usage; null for other types."),
  tags: z
    .array(z.object({ key: z.string().describe("The tag's key."), value: z.string().describe("The tag's value.") }).strict())
    .describe("The resource's tags when last seen, in key order."),
  billing_metric_name: z.string().describe("The billed metric, e.g. vm_minutes."),
  billing_feature_name: z.string().describe("The billed feature."),
  billing_value_unit: z.string().describe(`The unit of billing_value, the platform's per type: ${unitsText}.`),
  billing_value: z.number().describe("Summed usage, in billing_value_unit."),
  ip_address: z.string().optional().describe("A floating IP's address (floatingip only)."),
  port_id: z.string().optional().describe("The port the traffic left by (egress_traffic only)."),
  vm_id: z.string().optional().describe("The instance that sent the traffic (egress_traffic only)."),
  instance_name: z.string().nullable().optional().describe("The name of that instance (egress_traffic only)."),
  size_unit: z.string().optional().describe('The unit of last_size, "GiB" (volume), or "bytes" for egress_traffic.'),
  last_size: integer().optional().describe("A volume's size when last seen, in size_unit (volume only)."),
  attached_to_vm: z.string().nullable().optional().describe("The instance a volume was attached to when last seen, or null (volume only)."),
};

const resourceCostSchema = z
  .object({
    ...resourceUsageShape,
    currency: z.string(),
    cost: z.number().describe("Summed cost, in currency; usage without a price adds 0."),
    err: z.string().nullable().describe("null, or why part of the cost could not be priced."),
  })
  .strict()
  .describe("A resource's usage and cost over the report; the fields after billing_value are those of its type only.");

const costReportDetailedSchema = z
  .object({
    count: integer().describe("The number of resources that match, before limit and offset."),
    price_status: stringEnum(["show", "error"]).describe('"error" when any resource of the page has a non-null err, else "show".'),
    results: z.array(resourceCostSchema).describe("The resources of this page."),
  })
  .strict()
  .describe("A page of the resources the report's usage is of, each with its usage and cost summed over the report.");
export interface CostReportDetailedSchema extends CostReportDetailedSchemaType {}
type CostReportDetailedSchemaType = typeof costReportDetailedSchema;
export const costReportDetailed: CostReportDetailedSchema = costReportDetailedSchema;
export type CostReportDetailed = z.infer<typeof costReportDetailed>;

const usageReportSchema = z
  .object({
    count: integer().describe("The number of resources that match, before limit and offset."),
    resources: z.array(z.object(resourceUsageShape).strict()).describe("The resources of this page, each with its usage summed over the report."),
    totals: z
      .array(
        z
          .object({
            type: resourceUsageShape.type,
            region: resourceUsageShape.region,
            region_id: resourceUsageShape.region_id,
            flavor: resourceUsageShape.flavor,
            instance_type: resourceUsageShape.instance_type,
            volume_type: resourceUsageShape.volume_type,
            billing_metric_name: resourceUsageShape.billing_metric_name,
            billing_value_unit: resourceUsageShape.billing_value_unit,
            billing_value: z.number().describe("Summed usage of every matching resource, not only this page's."),
          })
          .strict(),
      )
      .describe("The usage of every matching resource summed per type, region, flavor, instance type, volume type, metric and unit."),
  })
  .strict()
  .describe("A usage report: a page of resources with their usage, and the totals of all of them.");
export interface UsageReportSchema extends UsageReportSchemaType {}
type UsageReportSchemaType = typeof usageReportSchema;
export const usageReport: UsageReportSchema = usageReportSchema;
export type UsageReport = z.infer<typeof usageReport>;

// The examples' objects: the demo data's, of account 1.
const demoInstanceResource = {
  type: "instance",
  uuid: "114b76b9-f9fd-443d-9465-db1a752d05e9",
  last_name: "instance-lux",
  project_id: 1,
  region: 1,
  region_id: 1,
  first_seen: "2026-08-03T00:00:00.000Z",
  last_seen: "2026-10-31T23:59:00.000Z",
  flavor: "g1-standard-4-16",
  instance_type: null,
  volume_type: null,
  tags: [
    { key: "env", value: "production" },
    { key: "team", value: "web-platform" },
  ],
  billing_metric_name: "vm_minutes",
  billing_feature_name: "instance",
  billing_value_unit: "minutes",
  billing_value: 142560,
} satisfies z.input<z.ZodObject<typeof resourceUsageShape>>;

const sinceAugust = { time_from: "2026-08-01T00:00:00Z", time_to: "2026-11-01T00:00:00Z" } as const;

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
  getCostReportAggregated: route({
    method: "POST",
    path: "/cloud/v1/cost_report/totals",
    body: costReportAggregatedBody,
    responses: {
      200: costReportTotals.or(z.string().describe("text/csv, with response_format csv_totals.")),
      ...errorResponses(withBody),
    },
    summary: "Get the cost report's totals",
    description:
      "Sums the account's usage and cost over the report's days per type, region, flavor, instance type, volume type, " +
      `metric, feature, unit and currency, after the project, region, type, schema and tag filters, as the reservation ` +
      `report's totals do for months (the same sums from the same usage). ${PERIOD_RULE} Pricing problems do not fail the ` +
      "request: a result's `err` says what could not be priced and `price_status` is \"error\". A read: Users may call it.",
    metadata: { ...read, client: { resource: "costReports", method: "getAggregated" } } satisfies ClientMetadata,
  }, {
    example: {
      body: { ...sinceAugust, projects: [1], types: ["instance"], schema_filter: { type: "instance", field: "flavor", values: ["g1-standard-4-16"] } },
      response: {
        count: 1,
        price_status: "show",
        results: [
          {
            type: "instance",
            region: 1,
            region_id: 1,
            flavor: "g1-standard-4-16",
            instance_type: null,
            volume_type: null,
            billing_metric_name: "vm_minutes",
            billing_feature_name: "instance",
            billing_value_unit: "minutes",
            currency: "EUR",
            billing_value: 142560,
            cost: 201.96,
            err: null,
          },
        ],
      },
    },
    case: {
      path: () => "/cloud/v1/cost_report/totals",
      ownsObjects: false,
      body: () => ({ ...sinceAugust, regions: [DEMO_REGION_ID], projects: [1, 2], tags: { condition_type: "OR", conditions: [{ key: "env", value: "prod" }] } }),
    },
  }),
  getCostReportDetailed: route({
    method: "POST",
    path: "/cloud/v1/cost_report/resources",
    body: costReportDetailedBody,
    responses: {
      200: costReportDetailed.or(z.string().describe("text/csv, with response_format csv_records.")),
      ...errorResponses(withBody),
    },
    summary: "Get the cost report per resource",
    description:
      "The resources the account's usage over the report's days is of, each with its usage and cost summed (per type, " +
      "region, project, flavor, metric, feature, unit and currency), after the same filters as the totals, ordered by " +
      `\`order_by\` and paged by \`limit\` (default 10) and \`offset\`; \`count\` is the number of all of them. ${PERIOD_RULE} ` +
      "A resource's name, tags and type's own fields are those of its latest month. A read: Users may call it.",
    metadata: { ...read, client: { resource: "costReports", method: "getDetailed" } } satisfies ClientMetadata,
  }, {
    example: {
      body: { ...sinceAugust, types: ["instance"], regions: [1], limit: 1, order_by: ["billing_value.desc"] },
      response: { count: 2, price_status: "show", results: [{ ...demoInstanceResource, currency: "EUR", cost: 201.96, err: null }] },
    },
    case: {
      path: () => "/cloud/v1/cost_report/resources",
      ownsObjects: false,
      body: () => ({ ...sinceAugust, enable_last_day: true, limit: 5, order_by: ["last_name.asc", "billing_value.desc"], types: ["instance", "volume", "egress_traffic", "floatingip"] }),
    },
  }),
  getUsageReport: route({
    method: "POST",
    path: "/cloud/v1/usage_report",
    body: usageReportBody,
    responses: { 200: usageReport, ...errorResponses(withBody) },
    summary: "Get the usage report",
    description:
      "The account's usage over the report's days, without its cost: a page of the resources it is of (as the cost " +
      "report per resource lists them, ordered by `order_by` and paged by `limit`, default 10, and `offset`), and the " +
      `totals of every matching resource per type, region, flavor, instance type, volume type, metric and unit. ${PERIOD_RULE} ` +
      "A read: Users may call it.",
    metadata: { ...read, client: { resource: "usageReports", method: "get" } } satisfies ClientMetadata,
  }, {
    example: {
      body: { ...sinceAugust, types: ["instance"], regions: [1], limit: 1 },
      response: {
        count: 2,
        resources: [demoInstanceResource],
        totals: [
          { type: "instance", region: 1, region_id: 1, flavor: "g1-standard-4-16", instance_type: null, volume_type: null, billing_metric_name: "vm_minutes", billing_value_unit: "minutes", billing_value: 142560 },
          { type: "instance", region: 1, region_id: 1, flavor: "g2-gpu-1xl40s", instance_type: null, volume_type: null, billing_metric_name: "vm_minutes", billing_value_unit: "minutes", billing_value: 31680 },
        ],
      },
    },
    case: {
      path: () => "/cloud/v1/usage_report",
      ownsObjects: false,
      body: () => ({ ...sinceAugust, projects: null, limit: 3, offset: 1, schema_filter: { type: "volume", field: "volume_type", values: ["ssd_hiiops"] } }),
    },
  }),
} as const;
