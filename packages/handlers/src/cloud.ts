/**
 * Cloud routes: the inference model catalogue, a project's GPU images in a region, and reservation
 * cost report totals summed in SQL (JSON, or CSV with response_format csv_totals).
 */
import { contract, type CostReportTotals, type CostReportTotalsBody, type GpuImage, type InferenceModel } from "@cloudplane/contract";
import { and, arrayLiteral, asc, count, type Database, desc, eq, schema, sql, type SQL } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { notFound } from "./errors.js";
import { likePattern } from "./like.js";
import { isoTime } from "./format.js";
import { type PlaceholderValues, preparedPerShape } from "./prepared.js";
import type { RequestExtension, RouteDeps } from "./types.js";

const { cloudProjects, cloudRegions, gpuImages, inferenceModels, usageLines } = schema;

// Text is ordered by code point (collation "C"): the database's own collation would make the order
// depend on how the server was set up (PGlite sorts "FLUX" before "bge", an en_US server after it).
const MODEL_ORDER = {
  name: sql`${inferenceModels.name} collate "C"`,
  id: sql`${inferenceModels.id}`,
  category: sql`${inferenceModels.category} collate "C"`,
  developer: sql`${inferenceModels.developer} collate "C"`,
} as const;

const SCHEMA_FIELDS = {
  flavor: usageLines.flavor,
  billing_metric_name: usageLines.billingMetricName,
  billing_feature_name: usageLines.billingFeatureName,
} as const;

const UNPRICED = "No price for part of this usage; that part is counted at 0.";

function toInferenceModel(row: typeof inferenceModels.$inferSelect): InferenceModel {
  return {
    id: row.id,
    name: row.name,
    category: row.category,
    default_flavor_id: row.defaultFlavorId,
    description: row.description,
    developer: row.developer,
    documentation_page: row.documentationPage,
    eula_url: row.eulaUrl,
    example_curl_request: row.exampleCurlRequest,
    has_eula: row.hasEula,
    image_registry_id: row.imageRegistryId,
    image_url: row.imageUrl,
    inference_backend: row.inferenceBackend,
    inference_frontend: row.inferenceFrontend,
    model_id: row.modelId,
    openai_compatibility: row.openaiCompatibility,
    port: row.port,
    version: row.version,
  };
}

function toGpuImage(row: typeof gpuImages.$inferSelect): GpuImage {
  return {
    id: row.id,
    name: row.name,
    architecture: row.architecture,
    os_distro: row.osDistro,
    os_type: row.osType,
    os_version: row.osVersion,
    ssh_key: row.sshKey,
    status: row.status,
    visibility: row.visibility,
    created_at: isoTime(row.createdAt),
    updated_at: isoTime(row.updatedAt),
    min_disk: row.minDisk,
    min_ram: row.minRam,
    size: row.size,
    tags: row.tags,
    task_id: row.taskId,
  };
}

/**
 * What the SQL of a cost report without tags depends on: which filters are given and the schema
 * filter's field (16 shapes). Lists are one array parameter each (`= any($n)`): their lengths do not count.
 */
function reportShape(body: CostReportTotalsBody): string {
  const parts: string[] = [];
  if (body.regions) parts.push("regions");
  if (body.types) parts.push("types");
  if (body.schema_filter) parts.push(`schema_filter.${body.schema_filter.field}`);
  return parts.join(" ");
}

/** The WHERE conditions of a cost report (account, months, regions, types, schema filter, tags), values as placeholders. */
function reportConditions(body: CostReportTotalsBody): SQL | undefined {
  const where: SQL[] = [
    eq(usageLines.accountId, sql.placeholder("accountId")),
    sql`${usageLines.month} between ${sql.placeholder("timeFrom")} and ${sql.placeholder("timeTo")}`,
  ];
  if (body.regions) where.push(sql`${usageLines.regionId} = any(${sql.placeholder("regions")}::integer[])`);
  if (body.types) where.push(sql`${usageLines.type} = any(${sql.placeholder("types")}::text[])`);
  if (body.schema_filter)
    where.push(sql`(${usageLines.type} <> ${sql.placeholder("schemaType")} or ${SCHEMA_FIELDS[body.schema_filter.field]} = any(${sql.placeholder("schemaValues")}::text[]))`);
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

/** A cost report's totals per type, region, flavor, metric, feature, unit and currency. */
function reportQuery(db: Database, body: CostReportTotalsBody) {
  return db
    .select({
      type: usageLines.type,
      regionId: usageLines.regionId,
      flavor: usageLines.flavor,
      billingMetricName: usageLines.billingMetricName,
      billingFeatureName: usageLines.billingFeatureName,
      billingValueUnit: usageLines.billingValueUnit,
      currency: usageLines.currency,
      billingValue: sql<number>`sum(${usageLines.billingValue})`.mapWith(Number),
      cost: sql<number>`coalesce(sum(${usageLines.cost}), 0)`.mapWith(Number),
      unpriced: sql<boolean>`bool_or(${usageLines.cost} is null)`,
    })
    .from(usageLines)
    .where(reportConditions(body))
    .groupBy(
      usageLines.type,
      usageLines.regionId,
      usageLines.flavor,
      usageLines.billingMetricName,
      usageLines.billingFeatureName,
      usageLines.billingValueUnit,
      usageLines.currency,
    )
    .orderBy(
      asc(usageLines.type),
      asc(usageLines.regionId),
      asc(usageLines.flavor),
      asc(usageLines.billingMetricName),
      asc(usageLines.billingFeatureName),
      asc(usageLines.billingValueUnit),
      asc(usageLines.currency),
    );
}

type ReportRow = Awaited<ReturnType<typeof reportQuery>>[number];

const CSV_COLUMNS = [
  "type",
  "region",
  "region_id",
  "flavor",
  "billing_metric_name",
  "billing_feature_name",
  "billing_value_unit",
  "currency",
  "billing_value",
  "cost",
  "err",
] as const;

function csvCell(value: string | number | null): string {
  const text = value === null ? "" : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function toCsv(report: CostReportTotals): string {
  const lines = [CSV_COLUMNS.join(",")];
  for (const result of report.results) lines.push(CSV_COLUMNS.map((column) => csvCell(result[column])).join(","));
  return `${lines.join("\r\n")}\r\n`;
}

export function cloudRoutes({ db }: RouteDeps) {
  const reports = preparedPerShape<ReportRow[]>("cost_report_totals");

  return tsr.routerWithMiddleware(contract.cloud)<RequestExtension>({
    listInferenceModels: async ({ query }) => {
      const [field, direction] = query.order_by.split(".") as [keyof typeof MODEL_ORDER, "asc" | "desc"];
      const order = direction === "asc" ? asc : desc;
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(inferenceModels)
          .orderBy(order(MODEL_ORDER[field]), asc(inferenceModels.id))
          .limit(query.limit)
          .offset(query.offset),
        db.select({ total: count() }).from(inferenceModels),
      ]);
      return { status: 200, body: { count: total?.total ?? 0, results: rows.map(toInferenceModel) } };
    },

    listGpuImages: async ({ params }, { request: { caller } }) => {
      const [project] = await db
        .select({ id: cloudProjects.id })
        .from(cloudProjects)
        .where(and(eq(cloudProjects.accountId, caller.accountId), eq(cloudProjects.id, params.project_id)));
      if (!project) throw notFound(`Project ${params.project_id}`);
      const [region] = await db.select({ id: cloudRegions.id }).from(cloudRegions).where(eq(cloudRegions.id, params.region_id));
      if (!region) throw notFound(`Region ${params.region_id}`);
      const rows = await db
        .select()
        .from(gpuImages)
        .where(and(eq(gpuImages.accountId, caller.accountId), eq(gpuImages.projectId, params.project_id), eq(gpuImages.regionId, params.region_id)))
        .orderBy(asc(gpuImages.name), asc(gpuImages.id));
      return { status: 200, body: { count: rows.length, results: rows.map(toGpuImage) } };
    },

    getReservationCostReportTotals: async ({ body }, context) => {
      // With tags the SQL grows with the conditions: built for each request rather than prepared.
      const build = () => reportQuery(db, body);
      const statement = body.tags ? build() : reports(reportShape(body), build);
      const rows = await statement.execute(reportValues(context.request.caller.accountId, body));
      const results = rows.map((row) => ({
        type: row.type,
        region: row.regionId,
        region_id: row.regionId,
        flavor: row.flavor,
        billing_metric_name: row.billingMetricName,
        billing_feature_name: row.billingFeatureName,
        billing_value_unit: row.billingValueUnit,
        currency: row.currency,
        billing_value: row.billingValue,
        cost: row.cost,
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
