/**
 * Cloud inference API keys: the keys callers of a project's deployments authenticate with (v3); their
 * schemas and routes. A key's secret is answered once, when it is made, and never again.
 */
import { initContract } from "@ts-rest/core";
import { z } from "zod";
import { errorResponses, isoTimestamp, pageOf, paging, strictObject, withBody } from "../common.js";
import { route } from "../route.js";
import { uniqueName } from "../route-case.js";
import { caseProjectOf, inferenceMetadata, inferenceName, INFERENCE_NAME_RULE, projectPathParams } from "./inference-shared.js";

const c = initContract();

const apiKeyFields = {
  name: z.string().describe("The key's name, unique in the project; deployments name it in `api_keys`."),
  description: z.string().nullable().describe("What the key is for, or null."),
  expires_at: isoTimestamp.nullable().describe("When the key stops working, or null for never."),
  created_at: isoTimestamp,
  deployment_names: z.array(z.string()).describe("The project's deployments that take the key (their `api_keys`), by name."),
};

const inferenceApiKeySchema = z.object(apiKeyFields).strict().describe("An API key of a project's deployments. Its secret is never shown after it is made.");
export interface InferenceApiKeySchema extends InferenceApiKeySchemaType {}
type InferenceApiKeySchemaType = typeof inferenceApiKeySchema;
export const inferenceApiKey: InferenceApiKeySchema = inferenceApiKeySchema;

export type InferenceApiKey = z.infer<typeof inferenceApiKey>;

const inferenceApiKeyCreatedSchema = z
  .object({
    ...apiKeyFields,
    secret: z.string().describe("The key itself, to send as `Authorization: Bearer <secret>` or `X-Api-Key: <secret>`. Shown in this answer only: only its hash is kept."),
  })
  .strict()
  .describe("A new API key, with its secret, shown this once.");
export interface InferenceApiKeyCreatedSchema extends InferenceApiKeyCreatedSchemaType {}
type InferenceApiKeyCreatedSchemaType = typeof inferenceApiKeyCreatedSchema;
export const inferenceApiKeyCreated: InferenceApiKeyCreatedSchema = inferenceApiKeyCreatedSchema;

export type InferenceApiKeyCreated = z.infer<typeof inferenceApiKeyCreated>;

const inferenceApiKeyListSchema = pageOf(inferenceApiKey, "API keys");
export interface InferenceApiKeyListSchema extends InferenceApiKeyListSchemaType {}
type InferenceApiKeyListSchemaType = typeof inferenceApiKeyListSchema;
export const inferenceApiKeyList: InferenceApiKeyListSchema = inferenceApiKeyListSchema;

const description = z.string().max(1024, "At most 1024 characters.");

const createInferenceApiKeyBodySchema = strictObject(
  {
    name: inferenceName.describe(`The key's name: ${INFERENCE_NAME_RULE}; unique in the project (409 otherwise).`),
    description: description.optional().describe("What the key is for, at most 1024 characters."),
    expires_at: isoTimestamp
      .optional()
      .describe("When the key stops working, an ISO 8601 UTC time in the future (400 otherwise); left out: never."),
  },
  { readOnly: ["created_at", "deployment_names", "secret"] },
).describe("The new API key.");
export interface CreateInferenceApiKeyBodySchema extends CreateInferenceApiKeyBodySchemaType {}
type CreateInferenceApiKeyBodySchemaType = typeof createInferenceApiKeyBodySchema;
export const createInferenceApiKeyBody: CreateInferenceApiKeyBodySchema = createInferenceApiKeyBodySchema;

const updateInferenceApiKeyBodySchema = strictObject(
  { description: description.nullable().optional().describe("The key's new description, at most 1024 characters; null clears it. Left out: unchanged.") },
  {
    readOnly: ["created_at", "deployment_names", "secret"],
    rejected: { name: "The name cannot be changed: it is the path's.", expires_at: "The expiry cannot be changed: make a new key instead." },
  },
).describe("What to change of the key: its description.");
export interface UpdateInferenceApiKeyBodySchema extends UpdateInferenceApiKeyBodySchemaType {}
type UpdateInferenceApiKeyBodySchemaType = typeof updateInferenceApiKeyBodySchema;
export const updateInferenceApiKeyBody: UpdateInferenceApiKeyBodySchema = updateInferenceApiKeyBodySchema;

const apiKeyPathParams = projectPathParams.extend({ api_key_name: inferenceName.describe("The key's name.") });

/** The demo data's first key of account 1's project 1. */
const demoApiKey: InferenceApiKey = {
  name: "acme-prod-key",
  description: "The product's calls to the chat model.",
  expires_at: null,
  created_at: "2026-05-07T09:00:00.000Z",
  deployment_names: ["acme-chat"],
};

const basePath = (w: Parameters<typeof caseProjectOf>[0]) => `/cloud/v3/inference/${caseProjectOf(w).id}/api_keys`;
const firstKeyOf = (w: Parameters<typeof caseProjectOf>[0]) => w.first("cloud.listInferenceApiKeys", { params: { project_id: caseProjectOf(w).id } });

export const cloudInferenceApiKeysRoutes = {
  listInferenceApiKeys: route({
    method: "GET",
    path: "/cloud/v3/inference/:project_id/api_keys",
    pathParams: projectPathParams,
    query: z.object(paging("API keys", 1000)),
    responses: { 200: inferenceApiKeyList, ...errorResponses() },
    summary: "List inference API keys",
    description:
      "The project's API keys, ordered by name, paged by `limit` (default and maximum 1000) and `offset`; `count` is the " +
      "number of all of them. Expired keys are listed too (see `expires_at`). Another account's project answers 404.",
    metadata: inferenceMetadata("read", "apiKeys"),
  }, {
    example: { pathParams: { project_id: 1 }, query: { limit: 100, offset: 0 }, response: { count: 1, results: [demoApiKey] } },
    case: { path: (w) => basePath(w), ownsObjects: true },
  }),
  createInferenceApiKey: route({
    method: "POST",
    path: "/cloud/v3/inference/:project_id/api_keys",
    pathParams: projectPathParams,
    body: createInferenceApiKeyBody,
    responses: { 200: inferenceApiKeyCreated, ...errorResponses([409, ...withBody]) },
    summary: "Create an inference API key",
    description:
      "Makes a key for calling the project's deployments and answers it with its `secret`, which is shown this once: only " +
      "its hash is kept. Give its name to a deployment's `api_keys` for the deployment to take it. A name the project's " +
      "keys have answers 409.",
    metadata: inferenceMetadata("write", "apiKeys"),
  }, {
    example: {
      pathParams: { project_id: 1 },
      body: { name: "acme-staging-key", description: "Staging calls.", expires_at: "2027-12-31T00:00:00.000Z" },
      response: {
        name: "acme-staging-key",
        description: "Staging calls.",
        expires_at: "2027-12-31T00:00:00.000Z",
        created_at: "2026-11-26T20:00:00.000Z",
        deployment_names: [],
        secret: "cpik_3n8Vq2LxR7tYpW4mK9sD1fGhJ6zB0cXe5aUoNiQr",
      },
    },
    case: { path: (w) => basePath(w), ownsObjects: true, body: () => ({ name: uniqueName("rc-key"), description: "Made by the route cases." }) },
  }),
  getInferenceApiKey: route({
    method: "GET",
    path: "/cloud/v3/inference/:project_id/api_keys/:api_key_name",
    pathParams: apiKeyPathParams,
    responses: { 200: inferenceApiKey, ...errorResponses() },
    summary: "Get an inference API key",
    description: "One of the project's API keys by name, without its secret. Another account's project answers 404.",
    metadata: inferenceMetadata("read", "apiKeys"),
  }, {
    example: {
      pathParams: { project_id: 1, api_key_name: "acme-staging-key" },
      response: { name: "acme-staging-key", description: "Staging calls.", expires_at: "2027-12-31T00:00:00.000Z", created_at: "2026-11-26T20:00:00.000Z", deployment_names: [] },
    },
    case: { path: (w) => `${basePath(w)}/${firstKeyOf(w).name as string}`, ownsObjects: true },
  }),
  updateInferenceApiKey: route({
    method: "PATCH",
    path: "/cloud/v3/inference/:project_id/api_keys/:api_key_name",
    pathParams: apiKeyPathParams,
    body: updateInferenceApiKeyBody,
    responses: { 200: inferenceApiKey, ...errorResponses(withBody) },
    summary: "Update an inference API key",
    description: "Changes the key's description (null clears it); its name, expiry and secret stay. Answers the key, without its secret.",
    metadata: inferenceMetadata("write", "apiKeys"),
  }, {
    example: {
      pathParams: { project_id: 1, api_key_name: "acme-staging-key" },
      body: { description: "Staging and preview calls." },
      response: {
        name: "acme-staging-key",
        description: "Staging and preview calls.",
        expires_at: "2027-12-31T00:00:00.000Z",
        created_at: "2026-11-26T20:00:00.000Z",
        deployment_names: [],
      },
    },
    case: { path: (w) => `${basePath(w)}/${firstKeyOf(w).name as string}`, ownsObjects: true, body: () => ({ description: "Changed by the route cases." }) },
  }),
  deleteInferenceApiKey: route({
    method: "DELETE",
    path: "/cloud/v3/inference/:project_id/api_keys/:api_key_name",
    pathParams: apiKeyPathParams,
    responses: { 204: c.noBody(), ...errorResponses([409]) },
    summary: "Delete an inference API key",
    description:
      "Deletes the key for good, answering 204 with no body; calls with its secret are refused from then on. While a " +
      "deployment or an application deployment of the project takes it (`api_keys`, unless being deleted) it cannot be " +
      "deleted: 409 naming them; take it out of their `api_keys` first.",
    metadata: inferenceMetadata("write", "apiKeys"),
  }, {
    example: { pathParams: { project_id: 1, api_key_name: "acme-staging-key" } },
    case: {
      path: (w, made) => `${basePath(w)}/${(made?.name as string | undefined) ?? `missing-key-${w.account}`}`,
      ownsObjects: true,
      makes: "cloud.createInferenceApiKey",
    },
  }),
} as const;
