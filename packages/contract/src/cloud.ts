/**
 * Cloud area: inference models (v2), GPU images of a project and region (v3) with the tasks that change
 * them (v1), and reservation cost report totals (v1).
 */
import { initContract } from "@ts-rest/core";
import { z } from "zod";
import { alias } from "./alias.js";
import { booleanQuery, errorResponses, idParam, integer, integerParam, isoTimestamp, listOf, mapOf, pageOf, paging, stringEnum, strictObject, uuid, withBody } from "./common.js";
import type { ClientMetadata } from "./client-names.js";
import * as examples from "./examples.js";
import type { RouteMetadata } from "./roles.js";
import { route } from "./route.js";
import { uniqueName, type CaseWorld } from "./route-case.js";

const c = initContract();

const inferenceModelSchema = z
  .object({
    id: uuid.describe("The model id, a UUID."),
    name: z.string(),
    category: z.string().describe('What the model does, e.g. "Text Generation".'),
    default_flavor_id: z.string().describe("The flavor a deployment of the model gets unless told otherwise."),
    description: z.string(),
    developer: z.string(),
    documentation_page: z.string().describe("URL of the model's documentation."),
    eula_url: z.string().describe('URL of the model\'s licence; "" when it has none (see has_eula).'),
    example_curl_request: z.string().describe("A curl command that calls a deployment of the model."),
    has_eula: z.boolean().describe("Whether using the model needs accepting a licence."),
    image_registry_id: z.string(),
    image_url: z.string().describe("The container image of the model."),
    inference_backend: z.string().describe('The engine that serves the model, e.g. "vllm".'),
    inference_frontend: z.string().describe('What a deployment of the model offers its callers, e.g. "openai" (an OpenAI-style API) or "gradio" (a web UI).'),
    model_id: z.string().describe("The model's id at its developer, e.g. on a model hub."),
    openai_compatibility: z.string().describe('Which OpenAI API the model speaks, e.g. "chat_completions"; "" if none.'),
    port: integer().describe("The port the model's container listens on."),
    version: z.string(),
  })
  .strict()
  .describe("An inference model from the catalogue that can be deployed.");
export interface InferenceModelSchema extends InferenceModelSchemaType {}
type InferenceModelSchemaType = typeof inferenceModelSchema;
export const inferenceModel: InferenceModelSchema = inferenceModelSchema;

export type InferenceModel = z.infer<typeof inferenceModel>;

export const INFERENCE_MODEL_ORDER_FIELDS = ["name", "id", "category", "developer"] as const;
export const INFERENCE_MODEL_ORDERS = INFERENCE_MODEL_ORDER_FIELDS.flatMap((field) => [`${field}.asc`, `${field}.desc`] as const) as [
  `${(typeof INFERENCE_MODEL_ORDER_FIELDS)[number]}.${"asc" | "desc"}`,
  ...`${(typeof INFERENCE_MODEL_ORDER_FIELDS)[number]}.${"asc" | "desc"}`[],
];

const listInferenceModelsQuerySchema = z.object({
  limit: integerParam({ min: 1, max: 1000, description: "Page size, 1 to 1000. Default 1000." }).default(1000),
  offset: integerParam({ min: 0, description: "Number of leading records skipped. Default 0." }).default(0),
  order_by: stringEnum(INFERENCE_MODEL_ORDERS)
    .default("name.asc")
    .describe(
      "`<field>.<asc|desc>` over name, id, category or developer. Default name.asc. Text is compared character by " +
        "character (capital letters before small ones), the same on every server; ties are broken by id.",
    ),
});
export interface ListInferenceModelsQuerySchema extends ListInferenceModelsQuerySchemaType {}
type ListInferenceModelsQuerySchemaType = typeof listInferenceModelsQuerySchema;
export const listInferenceModelsQuery: ListInferenceModelsQuerySchema = listInferenceModelsQuerySchema;

export type ListInferenceModelsQuery = z.input<typeof listInferenceModelsQuery>;

const inferenceModelListSchema = z
  .object({
    count: integer().describe("The total number of models, before limit and offset."),
    results: z.array(inferenceModel),
  })
  .strict()
  .describe("A page of inference models, and the number of all the models.");
export interface InferenceModelListSchema extends InferenceModelListSchemaType {}
type InferenceModelListSchemaType = typeof inferenceModelListSchema;
export const inferenceModelList: InferenceModelListSchema = inferenceModelListSchema;

export type InferenceModelList = z.infer<typeof inferenceModelList>;

const gpuImageSchema = z
  .object({
    id: uuid,
    name: z.string(),
    architecture: z.string().describe('CPU architecture, e.g. "x86_64".'),
    os_distro: z.string().nullable().describe('The OS distribution, e.g. "ubuntu"; null when the upload did not say.'),
    os_type: z.string().describe('"linux" or "windows".'),
    os_version: z.string().nullable().describe('The OS version, e.g. "22.04"; null when the upload did not say.'),
    ssh_key: z.string().describe('"allow", "deny" or "required": whether an SSH key can be given at boot.'),
    status: z.string().describe('"active" when the image can be used.'),
    visibility: z.string().describe('"public" for the platform\'s images, "private" for the project\'s own.'),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
    min_disk: integer().describe("Minimum disk, GiB."),
    min_ram: integer().describe("Minimum memory, MiB."),
    size: integer({ column: "bigint" })
      .nullable()
      .describe("Image size in bytes; null for an uploaded image (the service does not fetch the URL, so it never learns the size)."),
    tags: z
      .array(
        z
          .object({
            key: z.string().describe("The tag's key."),
            read_only: z.boolean().describe("Whether the tag is set by the platform and cannot be changed."),
            value: z.string().describe("The tag's value."),
          })
          .strict(),
      )
      .describe("Key-value tags of the image."),
    task_id: z.string().nullable().describe("The task that is changing the image (and locks it), or null."),
    disk_format: z.string().describe('How the image is stored: "qcow2", or "raw" for one uploaded with cow_format true.'),
    hw_firmware_type: z.string().nullable().describe('The firmware the guest boots with, "bios" or "uefi"; null: the platform\'s default.'),
    cuda_toolkit_version: z.string().nullable().describe("The CUDA toolkit installed on the image, or null."),
    gpu_driver: z.string().nullable().describe('The GPU driver\'s vendor, e.g. "nvidia", or null (no driver installed, or not known).'),
    gpu_driver_type: z.string().nullable().describe('The kind of GPU driver, e.g. "open" or "proprietary", or null.'),
    gpu_driver_version: z.string().nullable().describe('The GPU driver\'s version, e.g. "550.127.05", or null.'),
  })
  .strict()
  .describe("An image for virtual GPU clusters.");
export interface GpuImageSchema extends GpuImageSchemaType {}
type GpuImageSchemaType = typeof gpuImageSchema;
export const gpuImage: GpuImageSchema = gpuImageSchema;

export type GpuImage = z.infer<typeof gpuImage>;

const gpuImageListSchema = z
  .object({ count: integer().describe("The number of all the images, before limit and offset."), results: z.array(gpuImage) })
  .strict()
  .describe("A page of GPU images, and the number of all of them.");
export interface GpuImageListSchema extends GpuImageListSchemaType {}
type GpuImageListSchemaType = typeof gpuImageListSchema;
export const gpuImageList: GpuImageListSchema = gpuImageListSchema;

export type GpuImageList = z.infer<typeof gpuImageList>;

const listGpuImagesQuerySchema = z.object({
  limit: integerParam({ min: 1, max: 1000, description: "Page size, 1 to 1000. Default 1000." }).default(1000),
  offset: integerParam({ min: 0, description: "Number of leading images skipped. Default 0." }).default(0),
});
export interface ListGpuImagesQuerySchema extends ListGpuImagesQuerySchemaType {}
type ListGpuImagesQuerySchemaType = typeof listGpuImagesQuerySchema;
export const listGpuImagesQuery: ListGpuImagesQuerySchema = listGpuImagesQuerySchema;

export type ListGpuImagesQuery = z.input<typeof listGpuImagesQuery>;

const imageUrl = z
  .string()
  .max(2048, "At most 2048 characters.")
  .url("Must be a URL.")
  .refine((value) => /^https?:\/\//i.test(value), "Must be an http or https URL.");

const uploadGpuImageBodySchema = strictObject(
  {
    name: z.string().min(1, "Must not be empty.").max(255, "At most 255 characters.").describe("The image's name, 1 to 255 characters."),
    url: imageUrl.describe("Where the image file is, an http or https URL of at most 2048 characters. Never shown back."),
    architecture: stringEnum(["aarch64", "x86_64"]).nullable().optional().describe("aarch64 or x86_64 (default, also for null)."),
    cow_format: z
      .boolean()
      .optional()
      .describe("true: stored raw (disk_format \"raw\"), and deletable only once no volume made from it is left; false (default): qcow2."),
    hw_firmware_type: stringEnum(["bios", "uefi"]).nullable().optional().describe("bios or uefi; null or left out: the platform's default."),
    os_distro: z.string().min(1).max(255).nullable().optional().describe('The OS distribution, e.g. "ubuntu"; at most 255 characters.'),
    os_type: stringEnum(["linux", "windows"]).nullable().optional().describe("linux (default, also for null) or windows."),
    os_version: z.string().min(1).max(255).nullable().optional().describe('The OS version, e.g. "22.04"; at most 255 characters.'),
    ssh_key: stringEnum(["allow", "deny", "required"]).optional().describe("Whether instances of the image take an SSH key: allow (default), deny or required."),
    tags: mapOf(z.string().min(1, "Must not be empty.").max(255, "At most 255 characters."), z.string().max(255, "At most 255 characters."), {
      max: 100,
      noun: "tags",
      description: "Key-value tags of the image, keys 1 to 255 characters and values at most 255; they show as tags with read_only false.",
    }).optional(),
  },
  { readOnly: ["id", "status", "visibility", "size", "disk_format", "task_id", "created_at", "updated_at", "min_disk", "min_ram"] },
).describe("The image to upload: its name and URL, and what it holds.");
export interface UploadGpuImageBodySchema extends UploadGpuImageBodySchemaType {}
type UploadGpuImageBodySchemaType = typeof uploadGpuImageBodySchema;
export const uploadGpuImageBody: UploadGpuImageBodySchema = uploadGpuImageBodySchema;

export type UploadGpuImageBody = z.input<typeof uploadGpuImageBody>;

const taskIdListSchema = z
  .object({ tasks: z.array(uuid).describe("The ids of the tasks the operation started; see GET /cloud/v1/tasks/{task_id}.") })
  .strict()
  .describe("The tasks an asynchronous operation started.");
export interface TaskIdListSchema extends TaskIdListSchemaType {}
type TaskIdListSchemaType = typeof taskIdListSchema;
export const taskIdList: TaskIdListSchema = taskIdListSchema;

export type TaskIdList = z.infer<typeof taskIdList>;

export const CLOUD_TASK_TYPES = ["upload_gpu_virtual_image", "delete_gpu_virtual_image"] as const;

const cloudTaskSchema = z
  .object({
    id: uuid.describe("The task id."),
    task_type: stringEnum(CLOUD_TASK_TYPES).describe("What the task does: upload_gpu_virtual_image or delete_gpu_virtual_image."),
    state: z.string().describe('"FINISHED": every task of this service finishes in the request that starts it.'),
    detailed_state: z.string().nullable().describe('"FINISHED", as state.'),
    created_on: isoTimestamp,
    updated_on: isoTimestamp.describe("When the task last changed: when it finished."),
    finished_on: isoTimestamp.nullable().describe("When the task finished."),
    client_id: integer().describe("The account id."),
    user_id: integer().describe("The user whose token started the task."),
    project_id: integer().nullable(),
    region_id: integer().nullable(),
    created_resources: z
      .object({ images: z.array(z.string()).describe("The ids of the images the task made.") })
      .strict()
      .nullable()
      .describe("What the task made, or null when it made nothing (a deletion)."),
    data: z.record(z.unknown()).nullable().describe("What the task was asked: image_name for an upload, image_id for a deletion."),
    error: z.string().nullable().describe("Why the task failed, or null."),
    acknowledged_at: isoTimestamp.nullable().describe("Always null: tasks are not acknowledged here."),
    acknowledged_by: integer().nullable().describe("Always null."),
  })
  .strict()
  .describe("A task: the record of an asynchronous operation on the account's cloud resources.");
export interface CloudTaskSchema extends CloudTaskSchemaType {}
type CloudTaskSchemaType = typeof cloudTaskSchema;
export const cloudTask: CloudTaskSchema = cloudTaskSchema;

export type CloudTask = z.infer<typeof cloudTask>;

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

const read: RouteMetadata = { access: "read" };
const write: RouteMetadata = { access: "write" };

const imagePathParams = z.object({ project_id: idParam("The project id."), region_id: idParam("The region id.") });
const imageIdPathParams = imagePathParams.extend({ image_id: uuid.describe("The image id, a UUID.") });

// ---------------------------------------------------------------------------------------------
// Projects
// ---------------------------------------------------------------------------------------------

export const CLOUD_PROJECT_ORDERS = ["created_at.asc", "created_at.desc", "name.asc", "name.desc"] as const;

const cloudProjectSchema = z
  .object({
    id: integer(),
    client_id: integer().describe("The account id."),
    name: z.string().describe("The project's name, unique in the account."),
    description: z.string().nullable().describe("What the project is for; empty when none was given."),
    is_default: z.boolean().describe("Whether it is the account's default project: its oldest one (the lowest id). An account has exactly one."),
    state: z.string().describe('The project\'s state: "ACTIVE" for every project served here.'),
    created_at: isoTimestamp,
    deleted_at: isoTimestamp.nullable().describe("When the project was deleted: always null, as deleted projects are not kept here."),
    task_id: z.string().nullable().describe("The task changing the project's state: always null, as projects change at once here."),
  })
  .strict()
  .describe("A cloud project of the account: the GPU images and tasks of the Cloud area belong to one.");
export interface CloudProjectSchema extends CloudProjectSchemaType {}
type CloudProjectSchemaType = typeof cloudProjectSchema;
export const cloudProject: CloudProjectSchema = cloudProjectSchema;

export type CloudProject = z.infer<typeof cloudProject>;

const listCloudProjectsQuerySchema = z.object({
  ...paging("projects", 1000, 1000),
  name: z.string().max(255).optional().describe("Only the project of this name (exact, case-sensitive)."),
  order_by: stringEnum(CLOUD_PROJECT_ORDERS)
    .default("created_at.asc")
    .describe("`created_at` or `name`, `.asc` or `.desc`. Default created_at.asc; ties are broken by id."),
  include_deleted: booleanQuery("Taken as the platform takes it; deleted projects are not kept here, so it changes nothing.").optional(),
});
export interface ListCloudProjectsQuerySchema extends ListCloudProjectsQuerySchemaType {}
type ListCloudProjectsQuerySchemaType = typeof listCloudProjectsQuerySchema;
export const listCloudProjectsQuery: ListCloudProjectsQuerySchema = listCloudProjectsQuerySchema;

export type ListCloudProjectsQuery = z.input<typeof listCloudProjectsQuery>;

const cloudProjectListSchema = pageOf(cloudProject, "projects");
export interface CloudProjectListSchema extends CloudProjectListSchemaType {}
type CloudProjectListSchemaType = typeof cloudProjectListSchema;
export const cloudProjectList: CloudProjectListSchema = cloudProjectListSchema;

export type CloudProjectList = z.infer<typeof cloudProjectList>;

// The examples' objects: the demo data's, of account 1.
/** A GPU image of the demo data: account 1's project 1 ("production") in region 1. */
const demoImageId = "d342b423-7ae4-4628-ab4f-3c665cb04dcd";
const uploadTaskId = "0d3f7c52-8e61-4d2a-9b7e-3c1a5f9e2b40";
/** Account 1's own image of the demo data (project 3, "research", region 1), and the task that uploaded it. */
const demoPrivateImageId = "a38cee96-647e-42be-8b60-2b98d82b9e2a";
const demoTaskId = "27f197ca-ad26-40dd-ad43-3e8918557fd9";
/** The first inference model of the demo data's catalog. */
const demoModelId = "3374e2b7-2871-41fe-8b39-1164b7eb7ded";

// The cases' objects. The GPU images are those of the account's default project in the region the demo data's images are in.
const DEMO_REGION_ID = 1;
const projectOf = (w: CaseWorld) => w.first("cloud.listProjects", { where: (project) => project.is_default === true });
const imagesPath = (w: CaseWorld) => `/cloud/v3/gpu/virtual/${projectOf(w).id}/${DEMO_REGION_ID}/images`;
const imageOf = (w: CaseWorld) => w.first("cloud.listGpuImages", { params: { project_id: projectOf(w).id, region_id: DEMO_REGION_ID } });

const cloudRoutes = {
  listProjects: route({
    method: "GET",
    path: "/cloud/v1/projects",
    query: listCloudProjectsQuery,
    responses: { 200: cloudProjectList, ...errorResponses() },
    summary: "List cloud projects",
    description:
      "The account's projects that match `name` (exact), ordered by `order_by` (default created_at.asc, ties by id) and " +
      "paged by `limit` (default and maximum 1000) and `offset`; `count` is the number of all matches. The oldest " +
      "project is the account's default one (`is_default`). Projects are made and removed by the service, not " +
      "through this API.",
    metadata: read,
  }, {
    example: {
      query: { limit: 100, offset: 0, order_by: "created_at.asc" },
      response: {
        count: 2,
        results: [
          { id: 1, client_id: 1, name: "production", description: "Customer-facing workloads.", is_default: true, state: "ACTIVE", created_at: "2026-01-13T09:00:00.000Z", deleted_at: null, task_id: null },
          { id: 3, client_id: 1, name: "research", description: "Model training experiments.", is_default: false, state: "ACTIVE", created_at: "2026-01-14T09:00:00.000Z", deleted_at: null, task_id: null },
        ],
      },
    },
    case: { path: () => "/cloud/v1/projects?order_by=name.asc", ownsObjects: false },
  }),
  listInferenceModels: route({
    method: "GET",
    path: "/cloud/v2/inference/models",
    query: listInferenceModelsQuery,
    responses: { 200: inferenceModelList, ...errorResponses() },
    summary: "List inference models",
    description:
      "The catalogue of inference models, paged by `limit` (default and maximum 1000) and `offset`, ordered by " +
      "`order_by` (default name.asc). The envelope is `{ count, results }`, as in the rest of the Cloud area.",
    metadata: read,
  }, {
    example: {
      query: { limit: 100, offset: 0, order_by: "name.asc" },
      response: { count: 1, results: [examples.inferenceModelExample] },
    },
    case: { path: () => "/cloud/v2/inference/models?limit=5", ownsObjects: false },
  }),
  getInferenceModel: route({
    method: "GET",
    path: "/cloud/v2/inference/models/:model_id",
    pathParams: z.object({ model_id: uuid.describe("The model's id (its `id`, a UUID; not its `model_id` at the developer).") }),
    responses: { 200: inferenceModel, ...errorResponses() },
    summary: "Get an inference model",
    description:
      "One model of the catalogue by its `id`. The catalogue is the platform's: every account sees the same models. " +
      "An id that is not a UUID answers 400 `path.model_id`, an unknown one 404.",
    metadata: read,
  }, {
    example: {
      pathParams: { model_id: demoModelId },
      response: { ...examples.inferenceModelExample, id: demoModelId },
    },
    case: { path: (w) => `/cloud/v2/inference/models/${w.first("cloud.listInferenceModels").id}`, ownsObjects: false },
  }),
  listGpuImages: route({
    method: "GET",
    path: "/cloud/v3/gpu/virtual/:project_id/:region_id/images",
    pathParams: imagePathParams,
    query: listGpuImagesQuery,
    responses: { 200: gpuImageList, ...errorResponses() },
    summary: "List GPU images",
    description:
      "The images available to virtual GPU clusters of a project in a region, ordered by name then id, paged by `limit` " +
      "(default and maximum 1000) and `offset`; `count` is the number of all of them. The project must be the account's " +
      "and the region must exist (404 otherwise).",
    metadata: read,
  }, {
    example: {
      // Project 1 ("production") of the demo data; region 1 is the region of the cost report example.
      pathParams: { project_id: 1, region_id: examples.costReportTotalsExample.results[0]!.region_id },
      query: { limit: 100, offset: 0 },
      response: { count: 1, results: [examples.gpuImageExample] },
    },
    case: { path: (w) => `${imagesPath(w)}?limit=10`, ownsObjects: true },
  }),
  getGpuImage: route({
    method: "GET",
    path: "/cloud/v3/gpu/virtual/:project_id/:region_id/images/:image_id",
    pathParams: imageIdPathParams,
    responses: { 200: gpuImage, ...errorResponses() },
    summary: "Get a GPU image",
    description:
      "One image of a project in a region. 404 when the project is not the account's, or the image is not in that " +
      "project and region.",
    metadata: read,
  }, {
    example: {
      pathParams: { project_id: 1, region_id: 1, image_id: demoImageId },
      response: { ...examples.gpuImageExample, id: demoImageId },
    },
    case: { path: (w) => `${imagesPath(w)}/${imageOf(w).id}`, ownsObjects: true },
  }),
  uploadGpuImage: route({
    method: "POST",
    path: "/cloud/v3/gpu/virtual/:project_id/:region_id/images",
    pathParams: imagePathParams,
    body: uploadGpuImageBody,
    responses: { 200: taskIdList, ...errorResponses(withBody) },
    summary: "Upload a GPU image",
    description:
      "Adds an image to the project in the region from a URL, and answers the id of the task that does it, as the " +
      "platform does. This service does not fetch the URL: the task finishes at once and the image is there when the " +
      "answer arrives, with status \"active\", visibility \"private\", size null, min_disk and min_ram 0 and no task_id; " +
      "the task's created_resources.images names it (GET /cloud/v1/tasks/{task_id}). Names need not be unique. The URL is " +
      "kept nowhere and never shown back.",
    metadata: write,
  }, {
    example: {
      pathParams: { project_id: 1, region_id: 1 },
      body: {
        name: "acme-finetune-base",
        url: "https://images.acme.example/acme-finetune-base.qcow2",
        architecture: "x86_64",
        os_distro: "ubuntu",
        os_type: "linux",
        os_version: "24.04",
        ssh_key: "required",
        tags: { team: "research" },
      },
      response: { tasks: [uploadTaskId] },
    },
    case: {
      path: (w) => imagesPath(w),
      ownsObjects: true,
      body: () => ({ name: uniqueName("route-case-image"), url: "https://images.cloud-cases.example/route-case.qcow2", tags: { made_by: "route cases" } }),
    },
  }),
  deleteGpuImage: route({
    method: "DELETE",
    path: "/cloud/v3/gpu/virtual/:project_id/:region_id/images/:image_id",
    pathParams: imageIdPathParams,
    responses: { 200: taskIdList, ...errorResponses([409]) },
    summary: "Delete a GPU image",
    description:
      "Deletes one of the project's own (private) images and answers the id of the task that does it, as the platform " +
      "does; here the task finishes at once, and the image is gone when the answer arrives. The platform's public " +
      "images cannot be deleted (403), and an image a task still holds (task_id set) answers 409 first. No volumes are " +
      "made from images here, so cow_format never holds a deletion back.",
    metadata: write,
  }, {
    example: {
      // Only a project's own images can be deleted, not the platform's public ones.
      pathParams: { project_id: 3, region_id: 1, image_id: demoPrivateImageId },
      response: { tasks: ["5b2e8d17-4c3a-4f9e-a6d0-8e1f2a3b4c5d"] },
    },
    case: {
      // An upload's task id is the new image's id.
      path: (w, made) => `${imagesPath(w)}/${(made?.tasks as string[] | undefined)?.[0] ?? `00000000-0000-4000-8000-00000000000${w.account}`}`,
      ownsObjects: true,
      makes: "cloud.uploadGpuImage",
    },
  }),
  getTask: route({
    method: "GET",
    path: "/cloud/v1/tasks/:task_id",
    pathParams: z.object({ task_id: uuid.describe("The task id, a UUID.") }),
    responses: { 200: cloudTask, ...errorResponses() },
    summary: "Get a task",
    description:
      "A task of the account, as started by an image upload or deletion. Every task here is already FINISHED when its " +
      "id is answered, so one look is enough. Another account's task answers 404.",
    metadata: read,
  }, {
    example: {
      // A task of the demo data: an upload still running.
      pathParams: { task_id: demoTaskId },
      response: {
        id: demoTaskId,
        task_type: "upload_gpu_virtual_image",
        state: "RUNNING",
        detailed_state: "RUNNING",
        created_on: "2026-03-12T09:03:00.000Z",
        updated_on: "2026-03-12T09:03:00.000Z",
        finished_on: null,
        client_id: 1,
        user_id: 1,
        project_id: 3,
        region_id: 2,
        created_resources: null,
        data: { image_name: "debian-12-x64-nvidia-535" },
        error: null,
        acknowledged_at: null,
        acknowledged_by: null,
      },
    },
    case: { path: (w, made) => `/cloud/v1/tasks/${(made?.tasks as string[] | undefined)?.[0] ?? `00000000-0000-4000-8000-00000000001${w.account}`}`, ownsObjects: true, makes: "cloud.uploadGpuImage" },
  }),
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

export const cloudContract = c.router({
  ...cloudRoutes,
  listInferenceModelsV3: alias(cloudRoutes, "listInferenceModels", { path: "/cloud/v3/inference/models" }),
  getInferenceModelV3: alias(cloudRoutes, "getInferenceModel", { path: "/cloud/v3/inference/models/:model_id" }),
});
