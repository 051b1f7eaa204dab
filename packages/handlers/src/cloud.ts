/**
 * Cloud routes: the account's projects, the inference model catalogue, a project's GPU images in a region (with the finished
 * tasks that upload and delete them), and reservation cost report totals summed in SQL (JSON, or CSV
 * with response_format csv_totals) from the monthly totals the database keeps, or from the usage lines
 * when the report filters on tags.
 */
import {
  contract,
  primaryRoutes,
  type CloudTask,
  type CostReportTotals,
  type CostReportTotalsBody,
  type GpuImage,
  type InferenceModel,
} from "@cloudplane/contract";
import { and, arrayLiteral, asc, count, type Database, desc, eq, schema, sql, type SQL } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { ApiError, conflict, notFound } from "./errors.js";
import { likePattern } from "./like.js";
import { isoTime } from "./format.js";
import { type PlaceholderValues, preparedPerShape } from "./prepared.js";
import type { RequestExtension, RouteDeps } from "./types.js";

const { cloudProjects, cloudRegions, cloudTasks, gpuImages, inferenceModels, usageLines, usageMonthTotals } = schema;

// Text is ordered by code point (collation "C"): the database's own collation would make the order
// depend on how the server was set up (PGlite sorts "FLUX" before "bge", an en_US server after it).
const MODEL_ORDER = {
  name: sql`${inferenceModels.name} collate "C"`,
  id: sql`${inferenceModels.id}`,
  category: sql`${inferenceModels.category} collate "C"`,
  developer: sql`${inferenceModels.developer} collate "C"`,
} as const;

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
    disk_format: row.diskFormat,
    hw_firmware_type: row.hwFirmwareType,
    cuda_toolkit_version: row.cudaToolkitVersion,
    gpu_driver: row.gpuDriver,
    gpu_driver_type: row.gpuDriverType,
    gpu_driver_version: row.gpuDriverVersion,
  };
}

function toTask(row: typeof cloudTasks.$inferSelect): CloudTask {
  const finished = row.finishedOn ?? row.createdOn;
  return {
    id: row.id,
    task_type: row.taskType as CloudTask["task_type"],
    state: row.state,
    detailed_state: row.state,
    created_on: isoTime(row.createdOn),
    updated_on: isoTime(finished),
    finished_on: row.finishedOn ? isoTime(row.finishedOn) : null,
    client_id: row.accountId,
    user_id: row.userId,
    project_id: row.projectId,
    region_id: row.regionId,
    created_resources: row.createdResources?.images ? { images: row.createdResources.images } : null,
    data: row.data,
    error: null,
    acknowledged_at: null,
    acknowledged_by: null,
  };
}

/** 404 unless the project is the account's and the region exists: every image route is under both. */
async function requireProjectRegion(db: Pick<Database, "select">, accountId: number, projectId: number, regionId: number): Promise<void> {
  const [project] = await db
    .select({ id: cloudProjects.id })
    .from(cloudProjects)
    .where(and(eq(cloudProjects.accountId, accountId), eq(cloudProjects.id, projectId)));
  if (!project) throw notFound(`Project ${projectId}`);
  const [region] = await db.select({ id: cloudRegions.id }).from(cloudRegions).where(eq(cloudRegions.id, regionId));
  if (!region) throw notFound(`Region ${regionId}`);
}

/** The condition naming one image of the account in a project and region. */
function imageWhere(accountId: number, params: { project_id: number; region_id: number; image_id: string }) {
  return and(
    eq(gpuImages.accountId, accountId),
    eq(gpuImages.projectId, params.project_id),
    eq(gpuImages.regionId, params.region_id),
    eq(gpuImages.id, params.image_id),
  );
}

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

export function cloudRoutes({ db }: RouteDeps) {
  const reports = preparedPerShape<ReportRow[]>("cost_report_totals");

  return tsr.routerWithMiddleware(primaryRoutes(contract.cloud))<RequestExtension>({
    listProjects: async ({ query }, { request: { caller } }) => {
      const where = and(eq(cloudProjects.accountId, caller.accountId), query.name === undefined ? undefined : eq(cloudProjects.name, query.name));
      const [field, direction] = query.order_by.split(".") as ["created_at" | "name", "asc" | "desc"];
      const order = direction === "asc" ? asc : desc;
      const column = field === "name" ? sql`${cloudProjects.name} collate "C"` : sql`${cloudProjects.created}`;
      const [rows, [total], [first]] = await Promise.all([
        db.select().from(cloudProjects).where(where).orderBy(order(column), asc(cloudProjects.id)).limit(query.limit).offset(query.offset),
        db.select({ total: count() }).from(cloudProjects).where(where),
        // The default project: the account's oldest, whatever the filter.
        db.select({ id: sql<number>`min(${cloudProjects.id})` }).from(cloudProjects).where(eq(cloudProjects.accountId, caller.accountId)),
      ]);
      const results = rows.map((row) => ({
        id: row.id,
        client_id: row.accountId,
        name: row.name,
        description: row.description,
        is_default: row.id === Number(first?.id),
        state: "ACTIVE",
        created_at: isoTime(row.created),
        deleted_at: null,
        task_id: null,
      }));
      return { status: 200, body: { count: total?.total ?? 0, results } };
    },

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

    getInferenceModel: async ({ params }) => {
      const [row] = await db.select().from(inferenceModels).where(eq(inferenceModels.id, params.model_id));
      if (!row) throw notFound(`Inference model ${params.model_id}`);
      return { status: 200, body: toInferenceModel(row) };
    },

    listGpuImages: async ({ params, query }, { request: { caller } }) => {
      await requireProjectRegion(db, caller.accountId, params.project_id, params.region_id);
      const where = and(
        eq(gpuImages.accountId, caller.accountId),
        eq(gpuImages.projectId, params.project_id),
        eq(gpuImages.regionId, params.region_id),
      );
      const [rows, [total]] = await Promise.all([
        db.select().from(gpuImages).where(where).orderBy(asc(gpuImages.name), asc(gpuImages.id)).limit(query.limit).offset(query.offset),
        db.select({ total: count() }).from(gpuImages).where(where),
      ]);
      return { status: 200, body: { count: total?.total ?? 0, results: rows.map(toGpuImage) } };
    },

    getGpuImage: async ({ params }, { request: { caller } }) => {
      await requireProjectRegion(db, caller.accountId, params.project_id, params.region_id);
      const [row] = await db.select().from(gpuImages).where(imageWhere(caller.accountId, params));
      if (!row) throw notFound(`GPU image ${params.image_id}`);
      return { status: 200, body: toGpuImage(row) };
    },

    uploadGpuImage: async ({ params, body }, { request: { caller } }) => {
      const taskId = await db.transaction(async (tx) => {
        await requireProjectRegion(tx, caller.accountId, params.project_id, params.region_id);
        const now = new Date();
        const [image] = await tx
          .insert(gpuImages)
          .values({
            accountId: caller.accountId,
            projectId: params.project_id,
            regionId: params.region_id,
            name: body.name,
            architecture: body.architecture ?? "x86_64",
            osDistro: body.os_distro ?? null,
            osType: body.os_type ?? "linux",
            osVersion: body.os_version ?? null,
            sshKey: body.ssh_key ?? "allow",
            status: "active",
            visibility: "private",
            createdAt: now,
            updatedAt: now,
            minDisk: 0,
            minRam: 0,
            size: null,
            tags: Object.entries(body.tags ?? {}).map(([key, value]) => ({ key, read_only: false, value })),
            taskId: null,
            diskFormat: body.cow_format ? "raw" : "qcow2",
            cowFormat: body.cow_format ?? false,
            hwFirmwareType: body.hw_firmware_type ?? null,
          })
          .returning({ id: gpuImages.id });
        // The URL is not kept: it may carry credentials, and nothing here fetches it. The task takes the
        // image's id, so that the task id a client gets back names the image too.
        const [task] = await tx
          .insert(cloudTasks)
          .values({
            id: image!.id,
            accountId: caller.accountId,
            userId: caller.userId,
            projectId: params.project_id,
            regionId: params.region_id,
            taskType: "upload_gpu_virtual_image",
            state: "FINISHED",
            createdResources: { images: [image!.id] },
            data: { image_name: body.name },
            createdOn: now,
            finishedOn: now,
          })
          .returning({ id: cloudTasks.id });
        return task!.id;
      });
      return { status: 200, body: { tasks: [taskId] } };
    },

    deleteGpuImage: async ({ params }, { request: { caller } }) => {
      const taskId = await db.transaction(async (tx) => {
        await requireProjectRegion(tx, caller.accountId, params.project_id, params.region_id);
        const [image] = await tx
          .select({ id: gpuImages.id, visibility: gpuImages.visibility, taskId: gpuImages.taskId })
          .from(gpuImages)
          .where(imageWhere(caller.accountId, params))
          .for("update");
        if (!image) throw notFound(`GPU image ${params.image_id}`);
        if (image.taskId !== null) throw conflict(`GPU image ${image.id} is held by task ${image.taskId}; try again once it has finished.`);
        if (image.visibility !== "private")
          throw new ApiError("permission_denied", `GPU image ${image.id} is one of the platform's ${image.visibility} images; only the project's own images can be deleted.`);
        await tx.delete(gpuImages).where(imageWhere(caller.accountId, params));
        const now = new Date();
        const [task] = await tx
          .insert(cloudTasks)
          .values({
            accountId: caller.accountId,
            userId: caller.userId,
            projectId: params.project_id,
            regionId: params.region_id,
            taskType: "delete_gpu_virtual_image",
            state: "FINISHED",
            createdResources: null,
            data: { image_id: image.id },
            createdOn: now,
            finishedOn: now,
          })
          .returning({ id: cloudTasks.id });
        return task!.id;
      });
      return { status: 200, body: { tasks: [taskId] } };
    },

    getTask: async ({ params }, { request: { caller } }) => {
      const [row] = await db
        .select()
        .from(cloudTasks)
        .where(and(eq(cloudTasks.accountId, caller.accountId), eq(cloudTasks.id, params.task_id)));
      if (!row) throw notFound(`Task ${params.task_id}`);
      return { status: 200, body: toTask(row) };
    },

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
