/**
 * Cloud area: inference models (v2), GPU images of a project and region (v3), and reservation cost
 * report totals (v1).
 */
import { initContract } from "@ts-rest/core";
import { z } from "zod";
import { errorResponses, idParam, integer, integerParam, isoTimestamp, listOf, stringEnum, strictObject, uuid, withBody } from "./common.js";
import type { RouteMetadata } from "./roles.js";

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
    os_distro: z.string(),
    os_type: z.string(),
    os_version: z.string(),
    ssh_key: z.string().describe('"allow", "deny" or "required": whether an SSH key can be given at boot.'),
    status: z.string().describe('"active" when the image can be used.'),
    visibility: z.string().describe('"public" for the platform\'s images, "private" for the project\'s own.'),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
    min_disk: integer().describe("Minimum disk, GiB."),
    min_ram: integer().describe("Minimum memory, MiB."),
    size: integer({ column: "bigint" }).describe("Image size in bytes."),
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
    task_id: z.string().nullable().describe("The task that is changing the image, or null."),
  })
  .strict()
  .describe("An image for virtual GPU clusters.");
export interface GpuImageSchema extends GpuImageSchemaType {}
type GpuImageSchemaType = typeof gpuImageSchema;
export const gpuImage: GpuImageSchema = gpuImageSchema;

export type GpuImage = z.infer<typeof gpuImage>;

const gpuImageListSchema = z
  .object({ count: integer(), results: z.array(gpuImage) })
  .strict()
  .describe("The GPU images, and their number.");
export interface GpuImageListSchema extends GpuImageListSchemaType {}
type GpuImageListSchemaType = typeof gpuImageListSchema;
export const gpuImageList: GpuImageListSchema = gpuImageListSchema;

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

export const COST_REPORT_SCHEMA_FIELDS = ["flavor", "billing_metric_name", "billing_feature_name"] as const;

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
    field: stringEnum(COST_REPORT_SCHEMA_FIELDS).describe("The usage field compared."),
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
})
  .superRefine((body, ctx) => {
    if (body.time_from > body.time_to)
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["time_to"], message: "Must not be before time_from." });
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
            billing_metric_name: z.string().describe("The billed metric, e.g. vm_hours."),
            billing_feature_name: z.string().describe("The billed feature, e.g. instance_g1-standard-2-4."),
            billing_value_unit: z.string().describe("The unit of billing_value, e.g. hours or GiB."),
            currency: z.string(),
            billing_value: z.number().describe("Summed usage, in billing_value_unit."),
            cost: z.number().describe("Summed cost, in currency; usage without a price adds 0."),
            err: z.string().nullable().describe("null, or why part of the cost could not be priced."),
          })
          .strict(),
      )
      .describe("One line per type, region, flavor, metric, feature, unit and currency."),
  })
  .strict()
  .describe("Usage and cost summed per type, region, flavor, metric, feature, unit and currency.");
export interface CostReportTotalsSchema extends CostReportTotalsSchemaType {}
type CostReportTotalsSchemaType = typeof costReportTotalsSchema;
export const costReportTotals: CostReportTotalsSchema = costReportTotalsSchema;

export type CostReportTotals = z.infer<typeof costReportTotals>;

const read: RouteMetadata = { access: "read" };

export const cloudContract = c.router({
  listInferenceModels: {
    method: "GET",
    path: "/cloud/v2/inference/models",
    query: listInferenceModelsQuery,
    responses: { 200: inferenceModelList, ...errorResponses() },
    summary: "List inference models",
    description:
      "The catalogue of inference models, paged by `limit` (default and maximum 1000) and `offset`, ordered by " +
      "`order_by` (default name.asc). The envelope is `{ count, results }`, as in the rest of the Cloud area.",
    metadata: read,
  },
  listGpuImages: {
    method: "GET",
    path: "/cloud/v3/gpu/virtual/:project_id/:region_id/images",
    pathParams: z.object({ project_id: idParam("The project id."), region_id: idParam("The region id.") }),
    responses: { 200: gpuImageList, ...errorResponses() },
    summary: "List GPU images",
    description: "The images available to virtual GPU clusters of a project in a region. The project must be the account's (404 otherwise).",
    metadata: read,
  },
  getReservationCostReportTotals: {
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
      "metric, feature, unit and currency, after the region, type, schema and tag filters. Pricing problems do not fail " +
      "the request: a result's `err` says what could not be priced and `price_status` is \"error\". A read: Users may call it.",
    metadata: read,
  },
});
