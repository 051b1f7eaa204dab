/**
 * Cloud cost reports: reservation cost report totals summed in SQL (JSON, or CSV with response_format
 * csv_totals) from the monthly totals the database keeps, or from the usage lines when the report
 * filters on tags.
 */
import { cloudCostReportsRoutes, type CostReportTotals, type CostReportTotalsBody } from "@cloudplane/contract";
import { and, arrayLiteral, asc, type Database, eq, schema, sql, type SQL } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { likePattern } from "../like.js";
import { type PlaceholderValues, preparedPerShape } from "../prepared.js";
import type { RequestExtension, RouteDeps } from "../types.js";
import { served } from "../served.js";

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
 * What the SQL of a cost report without tags depends on: which filters are given and the schema
 * filter's field (24 shapes). Lists are one array parameter each (`= any($n)`): their lengths do not count.
 */
function reportShape(body: CostReportTotalsBody): string {
  const parts: string[] = [];
  if (body.regions) parts.push("regions");
  if (body.types) parts.push("types");
  if (body.schema_filter) parts.push(`schema_filter.${body.schema_filter.field}`);
  return parts.join(" ");
}

/**
 * Where a cost report sums from: the monthly totals of the lines (usage_month_totals, kept by the
 * database as lines are written), or the lines themselves when the report filters on tags, which the
 * totals do not keep. Both have the group's columns, the account and the month under the same names.
 */
type ReportSource = typeof usageLines | typeof usageMonthTotals;

/** The WHERE conditions of a cost report (account, months, regions, types, schema filter, tags), values as placeholders. */
function reportConditions(source: ReportSource, body: CostReportTotalsBody): SQL | undefined {
  const where: SQL[] = [
    eq(source.accountId, sql.placeholder("accountId")),
    sql`${source.month} between ${sql.placeholder("timeFrom")} and ${sql.placeholder("timeTo")}`,
  ];
  if (body.regions) where.push(sql`${source.regionId} = any(${sql.placeholder("regions")}::integer[])`);
  if (body.types) where.push(sql`${source.type} = any(${sql.placeholder("types")}::text[])`);
  if (body.schema_filter)
    where.push(sql`(${source.type} <> ${sql.placeholder("schemaType")} or ${source[SCHEMA_FIELDS[body.schema_filter.field]]} = any(${sql.placeholder("schemaValues")}::text[]))`);
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
function reportValues(accountId: number, body: CostReportTotalsBody): PlaceholderValues {
  const values: PlaceholderValues = { accountId, timeFrom: body.time_from, timeTo: body.time_to };
  if (body.regions) values.regions = arrayLiteral(body.regions);
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

/**
 * The sums of a group, from either source: numeric sums are exact, so the totals' sums of monthly sums
 * equal the lines' sums to the last digit, and a group is unpriced when any of its lines has no cost.
 */
function reportSums(body: CostReportTotalsBody) {
  if (body.tags)
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
function reportQuery(db: Database, body: CostReportTotalsBody) {
  const source: ReportSource = body.tags ? usageLines : usageMonthTotals;
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

export function cloudCostReports({ db }: RouteDeps) {
  const reports = preparedPerShape<ReportRow[]>("cost_report_totals");

  return tsr.routerWithMiddleware(served("cloud", cloudCostReportsRoutes))<RequestExtension>({
    getReservationCostReportTotals: async ({ body }, context) => {
      // With tags the SQL grows with the conditions: built for each request rather than prepared. Without
      // tags it reads the monthly totals: one prepared statement per shape.
      const build = () => reportQuery(db, body);
      const statement = body.tags ? build() : reports(reportShape(body), build);
      const rows = await statement.execute(reportValues(context.request.caller.accountId, body));
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
        cost: body.rounding === false ? row.cost : roundCost(row.cost),
        err: row.unpriced ? UNPRICED : null,
      }));
      const report: CostReportTotals = {
        count: results.length,
        price_status: results.some((result) => result.err !== null) ? "error" : "show",
        results,
      };
      if (body.response_format === "csv_totals") {
        const csv = toCsv(report);
        context.request.rawResponse = { contentType: "text/csv; charset=utf-8", body: csv };
        return { status: 200, body: csv };
      }
      return { status: 200, body: report };
    },
  });
}
