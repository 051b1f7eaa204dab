/**
 * Cloud cost and usage reports, all summed in SQL from one source of usage: the reservation report's
 * monthly totals and the cost report's totals over days (JSON, or CSV), from the monthly totals the
 * database keeps, or from the usage lines when the report filters on tags or projects; the cost report
 * per resource and the usage report, from the lines.
 */
import {
  cloudCostReportsRoutes,
  reportDays,
  type CostReportAggregatedBody,
  type CostReportDetailed,
  type CostReportDetailedBody,
  type CostReportTotals,
  type CostReportTotalsBody,
  type UsageReport,
  type UsageReportBody,
} from "@cloudplane/contract";
import { and, arrayLiteral, asc, count, type Database, desc, eq, schema, sql, type SQL } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { likePattern } from "../like.js";
import { type PlaceholderValues, preparedPerShape } from "../prepared.js";
import type { RequestExtension, RouteDeps } from "../types.js";
import { served } from "../served.js";
import { isoTime } from "../format.js";

const { usageLines, usageMonthTotals } = schema;

/** The column of each `schema_filter.field`, a column of both report sources. */
const SCHEMA_FIELDS = {
  flavor: "flavor",
  billing_metric_name: "billingMetricName",
  billing_feature_name: "billingFeatureName",
  instance_type: "instanceType",
  volume_type: "volumeType",
} as const;

/** Decimal places of a cost with `rounding` (the default). */
const COST_DECIMALS = 5;

const UNPRICED = "No price for part of this usage; that part is counted at 0.";

/**
 * The usage a report sums, whatever its form: the account, the months (YYYY-MM, inclusive) and the filters.
 * The reports over days sum the months their days touch.
 */
interface UsageFilter {
  time_from: string;
  time_to: string;
  regions?: number[] | undefined;
  types?: CostReportTotalsBody["types"];
  schema_filter?: CostReportTotalsBody["schema_filter"];
  tags?: CostReportTotalsBody["tags"];
  projects?: number[] | null | undefined;
}

/** The usage filter of a report over days: its months are those of its first and last day. */
function filterOfDays(body: CostReportAggregatedBody | CostReportDetailedBody | UsageReportBody): UsageFilter {
  // The body passed its schema, so both times are times.
  const { first, last } = reportDays(body)!;
  return { ...body, time_from: first.slice(0, 7), time_to: last.slice(0, 7) };
}

/**
 * What the SQL of a cost report without tags depends on: which filters are given and the schema
 * filter's field (24 shapes). Lists are one array parameter each (`= any($n)`): their lengths do not count.
 */
function reportShape(body: UsageFilter): string {
  const parts: string[] = [];
  if (body.regions) parts.push("regions");
  if (body.types) parts.push("types");
  if (body.schema_filter) parts.push(`schema_filter.${body.schema_filter.field}`);
  return parts.join(" ");
}

/**
 * Where a cost report sums from: the monthly totals of the lines (usage_month_totals, kept by the
 * database as lines are written), or the lines themselves when the report filters on tags or projects,
 * which the totals do not keep. Both have the group's columns, the account and the month under the same names.
 */
type ReportSource = typeof usageLines | typeof usageMonthTotals;

/** The WHERE conditions of a cost report (account, months, regions, types, schema filter, tags), values as placeholders. */
function reportConditions(source: ReportSource, body: UsageFilter): SQL | undefined {
  const where: SQL[] = [
    eq(source.accountId, sql.placeholder("accountId")),
    sql`${source.month} between ${sql.placeholder("timeFrom")} and ${sql.placeholder("timeTo")}`,
  ];
  if (body.regions) where.push(sql`${source.regionId} = any(${sql.placeholder("regions")}::integer[])`);
  if (body.types) where.push(sql`${source.type} = any(${sql.placeholder("types")}::text[])`);
  if (body.schema_filter)
    where.push(sql`(${source.type} <> ${sql.placeholder("schemaType")} or ${source[SCHEMA_FIELDS[body.schema_filter.field]]} = any(${sql.placeholder("schemaValues")}::text[]))`);
  if (body.projects) where.push(sql`${usageLines.projectId} = any(${sql.placeholder("projects")}::integer[])`);
  if (body.tags) {
    const conditions = body.tags.conditions.map(({ strict }, index) => {
      const [key, value] = [sql.placeholder(`tagKey${index}`), sql.placeholder(`tagValue${index}`)];
      return strict ? sql`${usageLines.tags} ->> ${key} = ${value}` : sql`${usageLines.tags} ->> ${key} ilike ${value}`;
    });
    where.push(sql`(${sql.join(conditions, body.tags.condition_type === "AND" ? sql` and ` : sql` or `)})`);
  }
  return and(...where);
}

/** The values of `reportConditions`' placeholders. */
function reportValues(accountId: number, body: UsageFilter): PlaceholderValues {
  const values: PlaceholderValues = { accountId, timeFrom: body.time_from, timeTo: body.time_to };
  if (body.regions) values.regions = arrayLiteral(body.regions);
  if (body.projects) values.projects = arrayLiteral(body.projects);
  if (body.types) values.types = arrayLiteral(body.types);
  if (body.schema_filter) {
    values.schemaType = body.schema_filter.type;
    values.schemaValues = arrayLiteral(body.schema_filter.values);
  }
  body.tags?.conditions.forEach(({ key, value, strict }, index) => {
    values[`tagKey${index}`] = key;
    values[`tagValue${index}`] = strict ? value : likePattern(value);
  });
  return values;
}

/** Whether a report must read the lines: the monthly totals keep neither tags nor projects. */
const linesNeeded = (body: UsageFilter) => body.tags !== undefined || (body.projects !== undefined && body.projects !== null);

/**
 * The sums of a group, from either source: numeric sums are exact, so the totals' sums of monthly sums
 * equal the lines' sums to the last digit, and a group is unpriced when any of its lines has no cost.
 */
function reportSums(body: UsageFilter) {
  if (linesNeeded(body))
    return {
      billingValue: sql<number>`sum(${usageLines.billingValue})`.mapWith(Number),
      cost: sql<number>`coalesce(sum(${usageLines.cost}), 0)`.mapWith(Number),
      unpriced: sql<boolean>`bool_or(${usageLines.cost} is null)`,
    };
  return {
    billingValue: sql<number>`sum(${usageMonthTotals.billingValue})`.mapWith(Number),
    cost: sql<number>`sum(${usageMonthTotals.cost})`.mapWith(Number),
    unpriced: sql<boolean>`bool_or(${usageMonthTotals.unpricedLines} > 0)`,
  };
}

/**
 * A cost report's totals per type, region, flavor, metric, feature, unit and currency: from the
 * monthly totals without tags (a few rows per month, whatever the number of lines), from the lines with.
 */
function reportQuery(db: Database, body: UsageFilter) {
  const source: ReportSource = linesNeeded(body) ? usageLines : usageMonthTotals;
  const group = [
    source.type,
    source.regionId,
    source.flavor,
    source.instanceType,
    source.volumeType,
    source.billingMetricName,
    source.billingFeatureName,
    source.billingValueUnit,
    source.currency,
  ] as const;
  return db
    .select({
      type: source.type,
      regionId: source.regionId,
      flavor: source.flavor,
      instanceType: source.instanceType,
      volumeType: source.volumeType,
      billingMetricName: source.billingMetricName,
      billingFeatureName: source.billingFeatureName,
      billingValueUnit: source.billingValueUnit,
      currency: source.currency,
      ...reportSums(body),
    })
    .from(source)
    .where(reportConditions(source, body))
    .groupBy(...group)
    .orderBy(...group.map((column) => asc(column)));
}

type ReportRow = Awaited<ReturnType<typeof reportQuery>>[number];

const CSV_COLUMNS = [
  "type",
  "region",
  "region_id",
  "flavor",
  "instance_type",
  "volume_type",
  "billing_metric_name",
  "billing_feature_name",
  "billing_value_unit",
  "currency",
  "billing_value",
  "cost",
  "err",
] as const;

function roundCost(cost: number): number {
  const scale = 10 ** COST_DECIMALS;
  return Math.round(cost * scale) / scale;
}

function csvCell(value: string | number | null): string {
  const text = value === null ? "" : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function toCsv(report: CostReportTotals): string {
  const lines = [CSV_COLUMNS.join(",")];
  for (const result of report.results) lines.push(CSV_COLUMNS.map((column) => csvCell(result[column])).join(","));
  return `${lines.join("\r\n")}\r\n`;
}

/** A report's totals, from the rows of reportQuery. */
function toTotals(rows: ReportRow[], rounding: boolean | undefined): CostReportTotals {
  const results = rows.map((row) => ({
    type: row.type,
    region: row.regionId,
    region_id: row.regionId,
    flavor: row.flavor,
    instance_type: row.instanceType,
    volume_type: row.volumeType,
    billing_metric_name: row.billingMetricName,
    billing_feature_name: row.billingFeatureName,
    billing_value_unit: row.billingValueUnit,
    currency: row.currency,
    billing_value: row.billingValue,
    cost: rounding === false ? row.cost : roundCost(row.cost),
    err: row.unpriced ? UNPRICED : null,
  }));
  return { count: results.length, price_status: results.some((result) => result.err !== null) ? "error" : "show", results };
}

/** The columns a resource of the per-resource reports is told apart by: its id and what its usage is of. */
const RESOURCE_GROUP = [
  usageLines.resourceId,
  usageLines.type,
  usageLines.regionId,
  usageLines.projectId,
  usageLines.flavor,
  usageLines.instanceType,
  usageLines.volumeType,
  usageLines.billingMetricName,
  usageLines.billingFeatureName,
  usageLines.billingValueUnit,
  usageLines.currency,
] as const;

/** Of a resource's lines, the value in its latest one. */
const latest = <T>(column: SQL | typeof usageLines.resourceName) => sql<T>`(array_agg(${column} order by ${usageLines.month} desc, ${usageLines.id} desc))[1]`;

/** A resource's sums and what its latest month says of it. */
const RESOURCE_FIELDS = {
  firstSeen: sql<Date>`min(coalesce(${usageLines.firstSeen}, (${usageLines.month} || '-01')::timestamptz))`.mapWith(usageLines.firstSeen),
  lastSeen: sql<Date>`max(coalesce(${usageLines.lastSeen}, (${usageLines.month} || '-01')::timestamptz + interval '1 month' - interval '1 minute'))`.mapWith(usageLines.lastSeen),
  lastName: latest<string>(usageLines.resourceName),
  tags: latest<Record<string, string>>(sql`${usageLines.tags}`),
  details: latest<(typeof usageLines.$inferSelect)["details"]>(sql`${usageLines.details}`),
  billingValue: sql<number>`sum(${usageLines.billingValue})`.mapWith(Number),
  cost: sql<number>`coalesce(sum(${usageLines.cost}), 0)`.mapWith(Number),
  unpriced: sql<boolean>`bool_or(${usageLines.cost} is null)`,
};

/** What each `order_by` field of the per-resource reports sorts by. */
const RESOURCE_ORDER: Record<string, SQL> = {
  billing_value: sql`sum(${usageLines.billingValue})`,
  first_seen: sql`min(coalesce(${usageLines.firstSeen}, (${usageLines.month} || '-01')::timestamptz))`,
  last_seen: sql`max(coalesce(${usageLines.lastSeen}, (${usageLines.month} || '-01')::timestamptz + interval '1 month' - interval '1 minute'))`,
  last_name: sql`(array_agg(${usageLines.resourceName} order by ${usageLines.month} desc, ${usageLines.id} desc))[1] collate "C"`,
  project: sql`${usageLines.projectId}`,
  region: sql`${usageLines.regionId}`,
  type: sql`${usageLines.type}`,
};
const DEFAULT_RESOURCE_ORDER = ["type.asc", "region.asc", "project.asc", "last_name.asc"];

/** A page of the resources a report's usage is of, and how many there are. */
async function resourcePage(db: Database, accountId: number, body: CostReportDetailedBody | UsageReportBody) {
  const filter = filterOfDays(body);
  const where = reportConditions(usageLines, filter);
  const values = reportValues(accountId, filter);
  const orders = (body.order_by ?? DEFAULT_RESOURCE_ORDER).map((entry) => {
    const [field, direction] = entry.split(".") as [string, "asc" | "desc"];
    return direction === "asc" ? asc(RESOURCE_ORDER[field]!) : desc(RESOURCE_ORDER[field]!);
  });
  const grouped = db.select({ resourceId: usageLines.resourceId }).from(usageLines).where(where).groupBy(...RESOURCE_GROUP);
  const [rows, [total]] = await Promise.all([
    db
      .select({
        resourceId: usageLines.resourceId,
        type: usageLines.type,
        regionId: usageLines.regionId,
        projectId: usageLines.projectId,
        flavor: usageLines.flavor,
        instanceType: usageLines.instanceType,
        volumeType: usageLines.volumeType,
        billingMetricName: usageLines.billingMetricName,
        billingFeatureName: usageLines.billingFeatureName,
        billingValueUnit: usageLines.billingValueUnit,
        currency: usageLines.currency,
        ...RESOURCE_FIELDS,
      })
      .from(usageLines)
      .where(where)
      .groupBy(...RESOURCE_GROUP)
      .orderBy(...orders, ...RESOURCE_GROUP.map((column) => asc(column)))
      .limit(body.limit ?? 10)
      .offset(body.offset ?? 0)
      .execute(values),
    db.select({ total: count() }).from(grouped.as("resources")).execute(values),
  ]);
  return { rows, count: total?.total ?? 0, filter };
}

type ResourceRow = Awaited<ReturnType<typeof resourcePage>>["rows"][number];

/** A resource's usage as the usage report shows it (the cost report adds its cost). */
function toResourceUsage(row: ResourceRow) {
  return {
    type: row.type,
    uuid: row.resourceId,
    last_name: row.lastName,
    project_id: row.projectId ?? 0,
    region: row.regionId,
    region_id: row.regionId,
    first_seen: isoTime(new Date(row.firstSeen)),
    last_seen: isoTime(new Date(row.lastSeen)),
    flavor: row.flavor,
    instance_type: row.instanceType,
    volume_type: row.volumeType,
    tags: Object.entries(row.tags ?? {})
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, value]) => ({ key, value })),
    billing_metric_name: row.billingMetricName,
    billing_feature_name: row.billingFeatureName,
    billing_value_unit: row.billingValueUnit,
    billing_value: row.billingValue,
    ...row.details,
  };
}

/** The usage report's totals: the usage of every matching resource per type, region, flavor, instance and volume type, metric and unit. */
async function usageTotals(db: Database, accountId: number, filter: UsageFilter) {
  const group = [
    usageLines.type,
    usageLines.regionId,
    usageLines.flavor,
    usageLines.instanceType,
    usageLines.volumeType,
    usageLines.billingMetricName,
    usageLines.billingValueUnit,
  ] as const;
  const rows = await db
    .select({
      type: usageLines.type,
      regionId: usageLines.regionId,
      flavor: usageLines.flavor,
      instanceType: usageLines.instanceType,
      volumeType: usageLines.volumeType,
      billingMetricName: usageLines.billingMetricName,
      billingValueUnit: usageLines.billingValueUnit,
      billingValue: sql<number>`sum(${usageLines.billingValue})`.mapWith(Number),
    })
    .from(usageLines)
    .where(reportConditions(usageLines, filter))
    .groupBy(...group)
    .orderBy(...group.map((column) => asc(column)))
    .execute(reportValues(accountId, filter));
  return rows.map((row) => ({
    type: row.type,
    region: row.regionId,
    region_id: row.regionId,
    flavor: row.flavor,
    instance_type: row.instanceType,
    volume_type: row.volumeType,
    billing_metric_name: row.billingMetricName,
    billing_value_unit: row.billingValueUnit,
    billing_value: row.billingValue,
  }));
}

/** CSV text of rows, the columns in the order given; a field missing from a row is an empty cell. */
function csvOf(columns: readonly string[], rows: readonly Record<string, unknown>[]): string {
  const cell = (value: unknown) => csvCell(value === undefined || value === null ? null : typeof value === "object" ? JSON.stringify(value) : (value as string | number));
  const lines = [columns.join(","), ...rows.map((row) => columns.map((column) => cell(row[column])).join(","))];
  return `${lines.join("\r\n")}\r\n`;
}

const RECORD_COLUMNS = [
  "type",
  "uuid",
  "last_name",
  "project_id",
  "region",
  "region_id",
  "first_seen",
  "last_seen",
  "flavor",
  "instance_type",
  "volume_type",
  "billing_metric_name",
  "billing_feature_name",
  "billing_value_unit",
  "currency",
  "billing_value",
  "cost",
  "err",
  "ip_address",
  "port_id",
  "vm_id",
  "instance_name",
  "size_unit",
  "last_size",
  "attached_to_vm",
  "tags",
] as const;

export function cloudCostReports({ db }: RouteDeps) {
  const reports = preparedPerShape<ReportRow[]>("cost_report_totals");

  /** The totals of a report: one prepared statement per shape from the monthly totals, or built from the lines. */
  const totals = async (accountId: number, filter: UsageFilter, rounding: boolean | undefined) => {
    // With tags or projects the SQL reads the lines and grows with the conditions: built for each request
    // rather than prepared. Otherwise it reads the monthly totals: one prepared statement per shape.
    const build = () => reportQuery(db, filter);
    const statement = linesNeeded(filter) ? build() : reports(reportShape(filter), build);
    return toTotals(await statement.execute(reportValues(accountId, filter)), rounding);
  };

  return tsr.routerWithMiddleware(served("cloud", cloudCostReportsRoutes))<RequestExtension>({
    getReservationCostReportTotals: async ({ body }, context) => {
      const report = await totals(context.request.caller.accountId, body, body.rounding);
      if (body.response_format === "csv_totals") {
        const csv = toCsv(report);
        context.request.rawResponse = { contentType: "text/csv; charset=utf-8", body: csv };
        return { status: 200, body: csv };
      }
      return { status: 200, body: report };
    },

    getCostReportAggregated: async ({ body }, context) => {
      const report = await totals(context.request.caller.accountId, filterOfDays(body), body.rounding);
      if (body.response_format === "csv_totals") {
        const csv = toCsv(report);
        context.request.rawResponse = { contentType: "text/csv; charset=utf-8", body: csv };
        return { status: 200, body: csv };
      }
      return { status: 200, body: report };
    },

    getCostReportDetailed: async ({ body }, context) => {
      const page = await resourcePage(db, context.request.caller.accountId, body);
      const results: CostReportDetailed["results"] = page.rows.map((row) => ({
        ...toResourceUsage(row),
        currency: row.currency,
        cost: body.rounding === false ? row.cost : roundCost(row.cost),
        err: row.unpriced ? UNPRICED : null,
      }));
      if (body.response_format === "csv_records") {
        const csv = csvOf(RECORD_COLUMNS, results);
        context.request.rawResponse = { contentType: "text/csv; charset=utf-8", body: csv };
        return { status: 200, body: csv };
      }
      const report: CostReportDetailed = { count: page.count, price_status: results.some((result) => result.err !== null) ? "error" : "show", results };
      return { status: 200, body: report };
    },

    getUsageReport: async ({ body }, context) => {
      const accountId = context.request.caller.accountId;
      const page = await resourcePage(db, accountId, body);
      const report: UsageReport = { count: page.count, resources: page.rows.map(toResourceUsage), totals: await usageTotals(db, accountId, page.filter) };
      return { status: 200, body: report };
    },
  });
}
