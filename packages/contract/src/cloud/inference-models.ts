/**
 * Cloud inference models: the catalogue of inference models (v2; the area's router serves them under v3
 * too), their schemas and their routes.
 */
import { z } from "zod";
import { errorResponses, integer, integerParam, stringEnum, uuid } from "../common.js";
import * as examples from "../examples.js";
import { route } from "../route.js";
import { inferenceMetadata } from "./inference-shared.js";

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

// The examples' objects: the demo data's.
/** The first inference model of the demo data's catalog. */
const demoModelId = "3374e2b7-2871-41fe-8b39-1164b7eb7ded";

export const cloudInferenceModelsRoutes = {
  listInferenceModels: route({
    method: "GET",
    path: "/cloud/v2/inference/models",
    query: listInferenceModelsQuery,
    responses: { 200: inferenceModelList, ...errorResponses() },
    summary: "List inference models",
    description:
      "The catalogue of inference models, paged by `limit` (default and maximum 1000) and `offset`, ordered by " +
      "`order_by` (default name.asc). The envelope is `{ count, results }`, as in the rest of the Cloud area.",
    // Named: the inference family's `/inference/{project_id}/…` paths make `inference` a collection to the naming rule.
    metadata: inferenceMetadata("read", "models"),
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
    // Named: the inference family's `/inference/{project_id}/…` paths make `inference` a collection to the naming rule.
    metadata: inferenceMetadata("read", "models"),
  }, {
    example: {
      pathParams: { model_id: demoModelId },
      response: { ...examples.inferenceModelExample, id: demoModelId },
    },
    case: { path: (w) => `/cloud/v2/inference/models/${w.first("cloud.listInferenceModels").id}`, ownsObjects: false },
  }),
} as const;
