/**
 * Cloud inference secrets: credentials a project's deployments use to reach other services (v3), an AWS
 * IAM key pair for an SQS scaling trigger; their schemas and routes. The secret key is never shown back.
 */
import { initContract } from "@ts-rest/core";
import { z } from "zod";
import { errorResponses, pageOf, paging, stringEnum, strictObject, withBody } from "../common.js";
import { route } from "../route.js";
import { uniqueName } from "../route-case.js";
import { caseProjectOf, inferenceMetadata, inferenceName, INFERENCE_NAME_RULE, projectPathParams } from "./inference-shared.js";

const c = initContract();

export const INFERENCE_SECRET_TYPES = ["aws-iam"] as const;

/** What every answer shows in place of a secret's secret key. */
export const HIDDEN_SECRET_VALUE = "********";

const inferenceSecretSchema = z
  .object({
    name: z.string().describe("The secret's name, unique in the project."),
    type: z.string().describe('The kind of secret: "aws-iam".'),
    data: z
      .object({
        aws_access_key_id: z.string().describe("The AWS access key id, as it was given."),
        aws_secret_access_key: z.string().describe(`Always "${HIDDEN_SECRET_VALUE}": the secret key is kept encrypted and never shown back.`),
      })
      .strict()
      .describe("The key pair."),
  })
  .strict()
  .describe("An inference secret: an AWS IAM key pair that a deployment's SQS scaling trigger names in `secret_name`.");
export interface InferenceSecretSchema extends InferenceSecretSchemaType {}
type InferenceSecretSchemaType = typeof inferenceSecretSchema;
export const inferenceSecret: InferenceSecretSchema = inferenceSecretSchema;

export type InferenceSecret = z.infer<typeof inferenceSecret>;

const inferenceSecretListSchema = pageOf(inferenceSecret, "secrets");
export interface InferenceSecretListSchema extends InferenceSecretListSchemaType {}
type InferenceSecretListSchemaType = typeof inferenceSecretListSchema;
export const inferenceSecretList: InferenceSecretListSchema = inferenceSecretListSchema;

const secretValue = {
  type: stringEnum(INFERENCE_SECRET_TYPES).describe('The kind of secret; "aws-iam" is the only one.'),
  data: strictObject({
    aws_access_key_id: z
      .string()
      .regex(/^[A-Z0-9]{16,128}$/, "Must be 16 to 128 capital letters and digits.")
      .describe("The AWS access key id: 16 to 128 capital letters and digits."),
    aws_secret_access_key: z
      .string()
      .min(1, "Must not be empty.")
      .max(4096, "At most 4096 characters.")
      .describe("The AWS secret access key, 1 to 4096 characters. Kept encrypted; never shown back, logged or put in an error."),
  }).describe("The key pair."),
};

const createInferenceSecretBodySchema = strictObject({
  name: inferenceName.describe(`The secret's name: ${INFERENCE_NAME_RULE}; unique in the project (409 otherwise).`),
  ...secretValue,
}).describe("The new secret.");
export interface CreateInferenceSecretBodySchema extends CreateInferenceSecretBodySchemaType {}
type CreateInferenceSecretBodySchemaType = typeof createInferenceSecretBodySchema;
export const createInferenceSecretBody: CreateInferenceSecretBodySchema = createInferenceSecretBodySchema;

const replaceInferenceSecretBodySchema = strictObject(secretValue, { rejected: { name: "The name cannot be changed: it is the path's." } }).describe(
  "The secret's new type and key pair: both are replaced.",
);
export interface ReplaceInferenceSecretBodySchema extends ReplaceInferenceSecretBodySchemaType {}
type ReplaceInferenceSecretBodySchemaType = typeof replaceInferenceSecretBodySchema;
export const replaceInferenceSecretBody: ReplaceInferenceSecretBodySchema = replaceInferenceSecretBodySchema;

const secretPathParams = projectPathParams.extend({ secret_name: inferenceName.describe("The secret's name.") });

/** The demo data's secret of account 1's project 1. */
const demoSecret: InferenceSecret = {
  name: "acme-sqs",
  type: "aws-iam",
  data: { aws_access_key_id: "AKIAINFER9420BE228FB", aws_secret_access_key: HIDDEN_SECRET_VALUE },
};

const basePath = (w: Parameters<typeof caseProjectOf>[0]) => `/cloud/v3/inference/${caseProjectOf(w).id}/secrets`;
const firstSecretOf = (w: Parameters<typeof caseProjectOf>[0]) => w.first("cloud.listInferenceSecrets", { params: { project_id: caseProjectOf(w).id } });

export const cloudInferenceSecretsRoutes = {
  listInferenceSecrets: route({
    method: "GET",
    path: "/cloud/v3/inference/:project_id/secrets",
    pathParams: projectPathParams,
    query: z.object(paging("secrets", 1000)),
    responses: { 200: inferenceSecretList, ...errorResponses() },
    summary: "List inference secrets",
    description:
      "The project's secrets, ordered by name, paged by `limit` (default and maximum 1000) and `offset`; `count` is the " +
      `number of all of them. A secret key is shown as "${HIDDEN_SECRET_VALUE}". Another account's project answers 404.`,
    metadata: inferenceMetadata("read", "secrets"),
  }, {
    example: { pathParams: { project_id: 1 }, query: { limit: 100, offset: 0 }, response: { count: 1, results: [demoSecret] } },
    case: { path: (w) => basePath(w), ownsObjects: true },
  }),
  createInferenceSecret: route({
    method: "POST",
    path: "/cloud/v3/inference/:project_id/secrets",
    pathParams: projectPathParams,
    body: createInferenceSecretBody,
    responses: { 200: inferenceSecret, ...errorResponses([409, ...withBody]) },
    summary: "Create an inference secret",
    description:
      "Adds an AWS IAM key pair to the project, for its deployments' SQS scaling triggers (`secret_name`). The secret key " +
      `is kept encrypted and shown as "${HIDDEN_SECRET_VALUE}" in every answer, this one too. A name the project's secrets have answers 409.`,
    metadata: inferenceMetadata("write", "secrets"),
  }, {
    example: {
      pathParams: { project_id: 1 },
      body: { name: "acme-sqs-eu", type: "aws-iam", data: { aws_access_key_id: "AKIAIOSFODNN7EXAMPLE", aws_secret_access_key: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY" } },
      response: { name: "acme-sqs-eu", type: "aws-iam", data: { aws_access_key_id: "AKIAIOSFODNN7EXAMPLE", aws_secret_access_key: HIDDEN_SECRET_VALUE } },
    },
    case: {
      path: (w) => basePath(w),
      ownsObjects: true,
      body: () => ({ name: uniqueName("rc-secret"), type: "aws-iam", data: { aws_access_key_id: "AKIAROUTECASE0000001", aws_secret_access_key: "route-case-secret-key" } }),
    },
  }),
  getInferenceSecret: route({
    method: "GET",
    path: "/cloud/v3/inference/:project_id/secrets/:secret_name",
    pathParams: secretPathParams,
    responses: { 200: inferenceSecret, ...errorResponses() },
    summary: "Get an inference secret",
    description: `One of the project's secrets by name, its secret key shown as "${HIDDEN_SECRET_VALUE}". Another account's project answers 404.`,
    metadata: inferenceMetadata("read", "secrets"),
  }, {
    example: {
      pathParams: { project_id: 1, secret_name: "acme-sqs-eu" },
      response: { name: "acme-sqs-eu", type: "aws-iam", data: { aws_access_key_id: "AKIAIOSFODNN7EXAMPLE", aws_secret_access_key: HIDDEN_SECRET_VALUE } },
    },
    case: { path: (w) => `${basePath(w)}/${firstSecretOf(w).name as string}`, ownsObjects: true },
  }),
  replaceInferenceSecret: route({
    method: "PUT",
    path: "/cloud/v3/inference/:project_id/secrets/:secret_name",
    pathParams: secretPathParams,
    body: replaceInferenceSecretBody,
    responses: { 200: inferenceSecret, ...errorResponses(withBody) },
    summary: "Replace an inference secret",
    description: "Replaces the secret's type and key pair (both required); the name stays, and so do the triggers that name it.",
    metadata: inferenceMetadata("write", "secrets"),
  }, {
    example: {
      pathParams: { project_id: 1, secret_name: "acme-sqs-eu" },
      body: { type: "aws-iam", data: { aws_access_key_id: "AKIAI44QH8DHBEXAMPLE", aws_secret_access_key: "je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY" } },
      response: { name: "acme-sqs-eu", type: "aws-iam", data: { aws_access_key_id: "AKIAI44QH8DHBEXAMPLE", aws_secret_access_key: HIDDEN_SECRET_VALUE } },
    },
    case: {
      path: (w) => `${basePath(w)}/${firstSecretOf(w).name as string}`,
      ownsObjects: true,
      body: () => ({ type: "aws-iam", data: { aws_access_key_id: "AKIAROUTECASE0000002", aws_secret_access_key: "route-case-secret-key-2" } }),
    },
  }),
  deleteInferenceSecret: route({
    method: "DELETE",
    path: "/cloud/v3/inference/:project_id/secrets/:secret_name",
    pathParams: secretPathParams,
    responses: { 204: c.noBody(), ...errorResponses([409]) },
    summary: "Delete an inference secret",
    description:
      "Deletes the secret for good, answering 204 with no body. While an SQS scaling trigger of a deployment of the project " +
      "names it (`secret_name`, unless the deployment is being deleted) it cannot be deleted: 409 naming the deployments.",
    metadata: inferenceMetadata("write", "secrets"),
  }, {
    example: { pathParams: { project_id: 1, secret_name: "acme-sqs-eu" } },
    case: {
      path: (w, made) => `${basePath(w)}/${(made?.name as string | undefined) ?? `missing-secret-${w.account}`}`,
      ownsObjects: true,
      makes: "cloud.createInferenceSecret",
    },
  }),
} as const;
