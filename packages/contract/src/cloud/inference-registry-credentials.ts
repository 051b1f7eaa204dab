/**
 * Cloud inference registry credentials: the logins a project's deployments pull private images with (v3);
 * their schemas and routes. The password is taken, kept encrypted and never shown back.
 */
import { initContract } from "@ts-rest/core";
import { z } from "zod";
import { errorResponses, integer, pageOf, paging, strictObject, withBody } from "../common.js";
import { route } from "../route.js";
import { uniqueName } from "../route-case.js";
import { caseProjectOf, inferenceMetadata, inferenceName, INFERENCE_NAME_RULE, projectPathParams } from "./inference-shared.js";

const c = initContract();

const inferenceRegistryCredentialsSchema = z
  .object({
    name: z.string().describe("The credentials' name, unique in the project."),
    project_id: integer().describe("The project they belong to."),
    registry_url: z.string().describe("The registry they log in to."),
    username: z.string().describe("The user they log in as. The password is never shown."),
  })
  .strict()
  .describe("Registry credentials: a login to a private container registry, which deployments name in `credentials_name`.");
export interface InferenceRegistryCredentialsSchema extends InferenceRegistryCredentialsSchemaType {}
type InferenceRegistryCredentialsSchemaType = typeof inferenceRegistryCredentialsSchema;
export const inferenceRegistryCredentials: InferenceRegistryCredentialsSchema = inferenceRegistryCredentialsSchema;

export type InferenceRegistryCredentials = z.infer<typeof inferenceRegistryCredentials>;

const inferenceRegistryCredentialsListSchema = pageOf(inferenceRegistryCredentials, "registry credentials");
export interface InferenceRegistryCredentialsListSchema extends InferenceRegistryCredentialsListSchemaType {}
type InferenceRegistryCredentialsListSchemaType = typeof inferenceRegistryCredentialsListSchema;
export const inferenceRegistryCredentialsList: InferenceRegistryCredentialsListSchema = inferenceRegistryCredentialsListSchema;

const login = {
  registry_url: z
    .string()
    .min(1, "Must not be empty.")
    .max(255, "At most 255 characters.")
    .regex(/^[^\s]+$/, "Must not contain spaces.")
    .describe('The registry\'s address, e.g. "registry.example.com" or "https://ghcr.io"; at most 255 characters.'),
  username: z.string().min(1, "Must not be empty.").max(255, "At most 255 characters.").describe("The user to log in as, 1 to 255 characters."),
  password: z
    .string()
    .min(1, "Must not be empty.")
    .max(4096, "At most 4096 characters.")
    .describe("The password or access token, 1 to 4096 characters. Kept encrypted; never shown back, logged or put in an error."),
};

const createInferenceRegistryCredentialsBodySchema = strictObject(
  { name: inferenceName.describe(`The credentials' name: ${INFERENCE_NAME_RULE}; unique in the project (409 otherwise).`), ...login },
  { readOnly: ["project_id"] },
).describe("The new registry credentials.");
export interface CreateInferenceRegistryCredentialsBodySchema extends CreateInferenceRegistryCredentialsBodySchemaType {}
type CreateInferenceRegistryCredentialsBodySchemaType = typeof createInferenceRegistryCredentialsBodySchema;
export const createInferenceRegistryCredentialsBody: CreateInferenceRegistryCredentialsBodySchema = createInferenceRegistryCredentialsBodySchema;

const replaceInferenceRegistryCredentialsBodySchema = strictObject(login, {
  readOnly: ["project_id"],
  rejected: { name: "The name cannot be changed: it is the path's." },
}).describe("The credentials' new login: every field is replaced.");
export interface ReplaceInferenceRegistryCredentialsBodySchema extends ReplaceInferenceRegistryCredentialsBodySchemaType {}
type ReplaceInferenceRegistryCredentialsBodySchemaType = typeof replaceInferenceRegistryCredentialsBodySchema;
export const replaceInferenceRegistryCredentialsBody: ReplaceInferenceRegistryCredentialsBodySchema = replaceInferenceRegistryCredentialsBodySchema;

const credentialsPathParams = projectPathParams.extend({ credential_name: inferenceName.describe("The credentials' name.") });

/** The demo data's credentials of account 1's project 1. */
const demoCredentials: InferenceRegistryCredentials = { name: "acme-registry", project_id: 1, registry_url: "registry.acme.example", username: "acme-deployer" };

const basePath = (w: Parameters<typeof caseProjectOf>[0]) => `/cloud/v3/inference/${caseProjectOf(w).id}/registry_credentials`;

export const cloudInferenceRegistryCredentialsRoutes = {
  listInferenceRegistryCredentials: route({
    method: "GET",
    path: "/cloud/v3/inference/:project_id/registry_credentials",
    pathParams: projectPathParams,
    query: z.object(paging("registry credentials", 1000)),
    responses: { 200: inferenceRegistryCredentialsList, ...errorResponses() },
    summary: "List registry credentials",
    description:
      "The project's registry credentials, ordered by name, paged by `limit` (default and maximum 1000) and `offset`; " +
      "`count` is the number of all of them. Passwords are never shown. Another account's project answers 404.",
    metadata: inferenceMetadata("read", "registryCredentials"),
  }, {
    example: { pathParams: { project_id: 1 }, query: { limit: 100, offset: 0 }, response: { count: 1, results: [demoCredentials] } },
    case: { path: (w) => basePath(w), ownsObjects: true },
  }),
  createInferenceRegistryCredentials: route({
    method: "POST",
    path: "/cloud/v3/inference/:project_id/registry_credentials",
    pathParams: projectPathParams,
    body: createInferenceRegistryCredentialsBody,
    responses: { 200: inferenceRegistryCredentials, ...errorResponses([409, ...withBody]) },
    summary: "Create registry credentials",
    description:
      "Adds a login to a private registry to the project, for its deployments to pull images with (`credentials_name`). " +
      "The answer shows everything but the password, which is kept encrypted and never shown again. A name the " +
      "project's credentials have answers 409.",
    metadata: inferenceMetadata("write", "registryCredentials"),
  }, {
    example: {
      pathParams: { project_id: 1 },
      body: { name: "acme-ghcr", registry_url: "ghcr.io", username: "acme-ci", password: "ghp_exampleTokenNotReal0000000000000000" },
      response: { name: "acme-ghcr", project_id: 1, registry_url: "ghcr.io", username: "acme-ci" },
    },
    case: {
      path: (w) => basePath(w),
      ownsObjects: true,
      body: () => ({ name: uniqueName("rc-cred"), registry_url: "registry.cases.example", username: "cases", password: "route-case-password" }),
    },
  }),
  getInferenceRegistryCredentials: route({
    method: "GET",
    path: "/cloud/v3/inference/:project_id/registry_credentials/:credential_name",
    pathParams: credentialsPathParams,
    responses: { 200: inferenceRegistryCredentials, ...errorResponses() },
    summary: "Get registry credentials",
    description: "One of the project's registry credentials by name, without its password. Another account's project answers 404.",
    metadata: inferenceMetadata("read", "registryCredentials"),
  }, {
    example: { pathParams: { project_id: 1, credential_name: "acme-ghcr" }, response: { name: "acme-ghcr", project_id: 1, registry_url: "ghcr.io", username: "acme-ci" } },
    case: { path: (w) => `${basePath(w)}/${w.first("cloud.listInferenceRegistryCredentials", { params: { project_id: caseProjectOf(w).id } }).name as string}`, ownsObjects: true },
  }),
  replaceInferenceRegistryCredentials: route({
    method: "PUT",
    path: "/cloud/v3/inference/:project_id/registry_credentials/:credential_name",
    pathParams: credentialsPathParams,
    body: replaceInferenceRegistryCredentialsBody,
    responses: { 200: inferenceRegistryCredentials, ...errorResponses(withBody) },
    summary: "Replace registry credentials",
    description:
      "Replaces the credentials' registry, user and password (all three are required); the name stays. Deployments that " +
      "name them pull with the new login from their next start. The password is never shown back.",
    metadata: inferenceMetadata("write", "registryCredentials"),
  }, {
    example: {
      pathParams: { project_id: 1, credential_name: "acme-ghcr" },
      body: { registry_url: "ghcr.io", username: "acme-release", password: "ghp_anotherTokenNotReal000000000000000" },
      response: { name: "acme-ghcr", project_id: 1, registry_url: "ghcr.io", username: "acme-release" },
    },
    case: {
      path: (w) => `${basePath(w)}/${w.first("cloud.listInferenceRegistryCredentials", { params: { project_id: caseProjectOf(w).id } }).name as string}`,
      ownsObjects: true,
      body: (w) => ({
        registry_url: w.first("cloud.listInferenceRegistryCredentials", { params: { project_id: caseProjectOf(w).id } }).registry_url as string,
        username: "route-case",
        password: "route-case-password",
      }),
    },
  }),
  deleteInferenceRegistryCredentials: route({
    method: "DELETE",
    path: "/cloud/v3/inference/:project_id/registry_credentials/:credential_name",
    pathParams: credentialsPathParams,
    responses: { 204: c.noBody(), ...errorResponses([409]) },
    summary: "Delete registry credentials",
    description:
      "Deletes the credentials for good, answering 204 with no body. While a deployment of the project names them " +
      "(`credentials_name`, unless it is being deleted) they cannot be deleted: 409 naming the deployments.",
    metadata: inferenceMetadata("write", "registryCredentials"),
  }, {
    example: { pathParams: { project_id: 1, credential_name: "acme-ghcr" } },
    case: {
      path: (w, made) => `${basePath(w)}/${(made?.name as string | undefined) ?? `missing-credentials-${w.account}`}`,
      ownsObjects: true,
      makes: "cloud.createInferenceRegistryCredentials",
    },
  }),
} as const;
