/**
 * Cloud inference applications: the platform's catalogue of applications, each a set of components that
 * are deployed together (v3), and a project's deployments of them, made, changed and deleted through tasks
 * as the platform does; their schemas and routes.
 */
import { z } from "zod";
import { errorResponses, integer, listOf, mapOf, pageOf, paging, stringEnum, strictObject, withBody } from "../common.js";
import { route } from "../route.js";
import { uniqueName, type CaseWorld } from "../route-case.js";
import { taskIdList } from "./gpu-images.js";
import { INFERENCE_MAX_REPLICAS, INFERENCE_TIMING } from "./inference-deployments.js";
import { caseProjectOf, inferenceMetadata, inferenceName, INFERENCE_NAME_RULE, projectPathParams } from "./inference-shared.js";

export const INFERENCE_APPLICATION_STATUSES = ["Active", "Failed", "PartiallyDeployed", "Unknown"] as const;

const STATUS_MODEL =
  `Its status moves on by itself: after a create or a change its components are "Deploying" in each region and the ` +
  `consolidated status is PartiallyDeployed for ${INFERENCE_TIMING.readyAfter} seconds, then they are "Active" and it is Active, ` +
  `with an address for each exposed component. A deleted one is "Deleting" (consolidated Unknown) for ` +
  `${INFERENCE_TIMING.deletedAfter} seconds, then gone (404).`;

// ----- The catalogue.

const parameterSchema = z
  .object({
    type: stringEnum(["enum", "float", "integer", "string"]).describe("What values the parameter takes."),
    display_name: z.string().describe("The parameter's name as people read it."),
    description: z.string(),
    default_value: z.string().describe("The value used when a deployment does not override it."),
    required: z.boolean().describe("Whether the parameter must have a value (its default counts)."),
    enum_values: z.array(z.string()).nullable().describe("The values an enum takes; null for other types."),
    min_value: z.string().nullable().describe("The least value of an integer or float, or null."),
    max_value: z.string().nullable().describe("The greatest value of an integer or float, or null."),
    pattern: z.string().nullable().describe("The regular expression a string matches, or null."),
  })
  .strict();

const inferenceApplicationTemplateSchema = z
  .object({
    name: z.string().describe("The application's name in the catalogue, what a deployment's `application_name` gives."),
    display_name: z.string().describe("The application's name as people read it."),
    description: z.string(),
    readme: z.string().describe("How to use the application once deployed (Markdown)."),
    cover_url: z.string().describe("The URL of the application's picture in the catalogue."),
    tags: z.record(z.string()).describe("Key-value labels of the application."),
    components: z
      .record(
        z
          .object({
            display_name: z.string().describe("The component's name as people read it."),
            description: z.string(),
            readme: z.string().describe("How to use the component (Markdown)."),
            license_url: z.string().describe("The URL of the licence the component's software is under."),
            required: z.boolean().describe("Whether every deployment of the application has this component."),
            exposable: z.boolean().describe("Whether the component can have a public address (`exposed`)."),
            suitable_flavors: z.array(z.object({ name: z.string() }).strict()).describe("The flavors the component runs on."),
            parameters: z.record(parameterSchema).describe("What a deployment may set (`parameter_overrides`), by name."),
          })
          .strict(),
      )
      .describe("The application's components, by name."),
  })
  .strict()
  .describe("An application of the catalogue: components that are deployed together.");
export interface InferenceApplicationTemplateSchema extends InferenceApplicationTemplateSchemaType {}
type InferenceApplicationTemplateSchemaType = typeof inferenceApplicationTemplateSchema;
export const inferenceApplicationTemplate: InferenceApplicationTemplateSchema = inferenceApplicationTemplateSchema;

export type InferenceApplicationTemplate = z.infer<typeof inferenceApplicationTemplate>;

const inferenceApplicationTemplateListSchema = z
  .object({ count: integer().describe("The number of applications."), results: z.array(inferenceApplicationTemplate) })
  .strict()
  .describe("The whole catalogue of applications.");
export interface InferenceApplicationTemplateListSchema extends InferenceApplicationTemplateListSchemaType {}
type InferenceApplicationTemplateListSchemaType = typeof inferenceApplicationTemplateListSchema;
export const inferenceApplicationTemplateList: InferenceApplicationTemplateListSchema = inferenceApplicationTemplateListSchema;

// ----- Deployments.

const EXPOSED = "Whether the component has a public address; only an exposable component may.";
const FLAVOR = "The flavor the component runs on: one of its suitable flavors.";
const SCALE = "How many replicas of the component each region runs.";

const scaleFields = {
  min: integer({ min: 0, max: INFERENCE_MAX_REPLICAS }).describe(`The fewest replicas, 0 to ${INFERENCE_MAX_REPLICAS}.`),
  max: integer({ min: 1, max: INFERENCE_MAX_REPLICAS }).describe(`The most replicas, 1 to ${INFERENCE_MAX_REPLICAS}, at least \`min\` (400 otherwise).`),
};

const overrideValue = strictObject({ value: z.string().max(4096, "At most 4096 characters.").describe("The value, as text, checked against the parameter's type and bounds.") });

const componentCreateBody = strictObject({
  exposed: z.boolean().describe(`${EXPOSED} 400 otherwise.`),
  flavor: inferenceName.describe(`${FLAVOR} 400 otherwise.`),
  scale: strictObject(scaleFields).describe(SCALE),
  parameter_overrides: mapOf(z.string().max(255), overrideValue, { max: 100, noun: "overrides", description: "Values for the component's parameters, by name (400 for a name it lacks)." }).optional(),
});

const componentUpdateBody = strictObject({
  exposed: z.boolean().optional().describe(`${EXPOSED} 400 otherwise; left out: unchanged.`),
  flavor: inferenceName.optional().describe(`${FLAVOR} 400 otherwise; left out: unchanged.`),
  scale: strictObject({ min: scaleFields.min.optional(), max: scaleFields.max.optional() }).optional().describe(`${SCALE} Left out: unchanged.`),
  parameter_overrides: mapOf(z.string().max(255), overrideValue.nullable(), {
    max: 100,
    noun: "overrides",
    description: "Values for the component's parameters, by name; null removes an override (the default applies again).",
  }).optional(),
});

const regionsBody = listOf(integer({ min: 1 }), { min: 1, max: 10, noun: "regions", description: "Regions of the platform to run in, each once (400 otherwise)." });
const apiKeysBody = listOf(inferenceName, { max: 50, noun: "keys", description: "Names of the project's API keys (400 for one it lacks) that callers may use." });

const createInferenceApplicationDeploymentBodySchema = strictObject(
  {
    name: inferenceName.describe(`The deployment's name: ${INFERENCE_NAME_RULE}; unique among the project's application deployments (409 otherwise).`),
    application_name: inferenceName.describe("An application of the catalogue (400 otherwise)."),
    components_configuration: mapOf(z.string().max(255), componentCreateBody, {
      max: 20,
      noun: "components",
      description: "How to run each component, by name: every required component and any of the others (400 for a name the application lacks).",
    }),
    regions: regionsBody,
    api_keys: apiKeysBody.optional(),
  },
  { readOnly: ["status"] },
).describe("The new application deployment.");
export interface CreateInferenceApplicationDeploymentBodySchema extends CreateInferenceApplicationDeploymentBodySchemaType {}
type CreateInferenceApplicationDeploymentBodySchemaType = typeof createInferenceApplicationDeploymentBodySchema;
export const createInferenceApplicationDeploymentBody: CreateInferenceApplicationDeploymentBodySchema = createInferenceApplicationDeploymentBodySchema;

export type CreateInferenceApplicationDeploymentBody = z.input<typeof createInferenceApplicationDeploymentBody>;
/** A create's body as the service reads it. */
export type CreateInferenceApplicationDeploymentFields = z.output<typeof createInferenceApplicationDeploymentBody>;

const updateInferenceApplicationDeploymentBodySchema = strictObject(
  {
    components_configuration: mapOf(z.string().max(255), componentUpdateBody.nullable(), {
      max: 20,
      noun: "components",
      description:
        "Changes by component: the fields given replace the component's; a component the deployment lacks is added (then " +
        "`exposed`, `flavor` and `scale` are required); null removes a component that is not required.",
    }).optional(),
    regions: listOf(integer({ min: 1 }), { min: 1, max: 10, noun: "regions", description: "Regions of the platform to run in (each once), replacing the list." }).optional(),
    api_keys: listOf(inferenceName, { max: 50, noun: "keys", description: "The project's API keys callers may use (400 for one it lacks), replacing the list." }).optional(),
  },
  { readOnly: ["status"], rejected: { name: "The name cannot be changed: it is the path's.", application_name: "The application cannot be changed: make a new deployment." } },
).describe("What to change of the application deployment.");
export interface UpdateInferenceApplicationDeploymentBodySchema extends UpdateInferenceApplicationDeploymentBodySchemaType {}
type UpdateInferenceApplicationDeploymentBodySchemaType = typeof updateInferenceApplicationDeploymentBodySchema;
export const updateInferenceApplicationDeploymentBody: UpdateInferenceApplicationDeploymentBodySchema = updateInferenceApplicationDeploymentBodySchema;

export type UpdateInferenceApplicationDeploymentBody = z.input<typeof updateInferenceApplicationDeploymentBody>;
/** A change's body as the service reads it. */
export type UpdateInferenceApplicationDeploymentFields = z.output<typeof updateInferenceApplicationDeploymentBody>;

const inferenceApplicationDeploymentSchema = z
  .object({
    name: z.string(),
    application_name: z.string().describe("The application of the catalogue that is deployed."),
    components_configuration: z
      .record(
        z
          .object({
            exposed: z.boolean().describe(EXPOSED),
            flavor: z.string().describe(FLAVOR),
            scale: z.object({ min: integer().describe(scaleFields.min.description!), max: integer().describe(scaleFields.max.description!) }).strict().describe(SCALE),
            parameter_overrides: z
              .record(z.object({ value: z.string().describe("The value, as text.") }).strict())
              .describe("The values given for the component's parameters, by name; the others have their defaults."),
          })
          .strict(),
      )
      .describe("How each component runs, by name."),
    regions: z.array(integer()).describe("The regions the deployment runs in."),
    api_keys: z.array(z.string()).describe("The project's API keys callers may use; empty: calls need no key."),
    status: z
      .object({
        consolidated_status: stringEnum(INFERENCE_APPLICATION_STATUSES).describe(STATUS_MODEL),
        regions: z
          .array(
            z
              .object({
                region_id: integer(),
                status: z.string().describe('"Deploying", "Active" or "Deleting".'),
                components: z
                  .record(
                    z
                      .object({
                        status: z.string().describe('The component\'s state in the region: "Deploying", "Active" or "Deleting".'),
                        error: z.string().describe('Why the component failed; "" when it did not.'),
                      })
                      .strict(),
                  )
                  .describe("The state of each component in the region, by name."),
              })
              .strict(),
          )
          .describe("The state in each region."),
        component_inferences: z
          .record(z.object({ name: z.string().describe("`<deployment>-<component>`."), flavor: z.string().describe(FLAVOR) }).strict())
          .describe("The inference that runs each component."),
        expose_addresses: z
          .record(z.object({ address: z.string().describe("Where callers reach the component.") }).strict())
          .describe("The address of each exposed component, once Active."),
      })
      .strict()
      .describe("Where the deployment is: overall, in each region, and the addresses of its exposed components."),
  })
  .strict()
  .describe("A deployment of an application of the catalogue.");
export interface InferenceApplicationDeploymentSchema extends InferenceApplicationDeploymentSchemaType {}
type InferenceApplicationDeploymentSchemaType = typeof inferenceApplicationDeploymentSchema;
export const inferenceApplicationDeployment: InferenceApplicationDeploymentSchema = inferenceApplicationDeploymentSchema;

export type InferenceApplicationDeployment = z.infer<typeof inferenceApplicationDeployment>;

const inferenceApplicationDeploymentListSchema = pageOf(inferenceApplicationDeployment, "application deployments");
export interface InferenceApplicationDeploymentListSchema extends InferenceApplicationDeploymentListSchemaType {}
type InferenceApplicationDeploymentListSchemaType = typeof inferenceApplicationDeploymentListSchema;
export const inferenceApplicationDeploymentList: InferenceApplicationDeploymentListSchema = inferenceApplicationDeploymentListSchema;

const deploymentPathParams = projectPathParams.extend({ deployment_name: inferenceName.describe("The application deployment's name.") });

// ----- Examples (the demo data's catalogue; account 1's project 1) and cases.

const demoTemplate: InferenceApplicationTemplate = {
  name: "speech-to-text",
  display_name: "Speech to text",
  description: "Whisper transcription behind an HTTP API.",
  readme: "Send audio, get text.",
  cover_url: "https://catalog.cloudplane.example/applications/speech-to-text.png",
  tags: { category: "Automatic Speech Recognition" },
  components: {
    whisper: {
      display_name: "Whisper",
      description: "Whisper large-v3.",
      readme: "POST /transcribe with the audio.",
      license_url: "https://opensource.org/licenses/MIT",
      required: true,
      exposable: true,
      suitable_flavors: [{ name: "inference-4vcpu-16gib-1xl40s-48gb" }],
      parameters: {
        language: {
          type: "string",
          display_name: "Language",
          description: "The language spoken, or auto.",
          default_value: "auto",
          required: false,
          enum_values: null,
          min_value: null,
          max_value: null,
          pattern: "^(auto|[a-z]{2})$",
        },
      },
    },
  },
};

const exampleDeployment: InferenceApplicationDeployment = {
  name: "acme-transcribe",
  application_name: "speech-to-text",
  components_configuration: {
    whisper: { exposed: true, flavor: "inference-4vcpu-16gib-1xl40s-48gb", scale: { min: 1, max: 2 }, parameter_overrides: { language: { value: "en" } } },
  },
  regions: [1],
  api_keys: [],
  status: {
    consolidated_status: "Active",
    regions: [{ region_id: 1, status: "Active", components: { whisper: { status: "Active", error: "" } } }],
    component_inferences: { whisper: { name: "acme-transcribe-whisper", flavor: "inference-4vcpu-16gib-1xl40s-48gb" } },
    expose_addresses: { whisper: { address: "https://acme-transcribe-whisper-p1.inference.cloudplane.example" } },
  },
};

const exampleTasks = { create: "9c4f5d2b-6e0a-4b8c-8d3f-4a5b6c7d8e9f", update: "ad506e3c-7f1b-4c9d-9e4a-5b6c7d8e9f0a", delete: "be617f4d-8a2c-4dae-8f5b-6c7d8e9f0a1b" };

const basePath = (w: CaseWorld) => `/cloud/v3/inference/applications/${caseProjectOf(w).id}/deployments`;
const firstOf = (w: CaseWorld) =>
  w.first("cloud.listInferenceApplicationDeployments", { params: { project_id: caseProjectOf(w).id }, where: (deployment) => (deployment.status as { consolidated_status: string }).consolidated_status !== "Unknown" });

export const cloudInferenceApplicationsRoutes = {
  listInferenceApplicationTemplates: route({
    method: "GET",
    path: "/cloud/v3/inference/applications/catalog",
    responses: { 200: inferenceApplicationTemplateList, ...errorResponses() },
    summary: "List inference applications",
    description: "The whole catalogue of applications, ordered by name. Every account sees the same catalogue.",
    metadata: inferenceMetadata("read", "applications.templates", "list"),
  }, {
    example: { response: { count: 1, results: [demoTemplate] } },
    case: { path: () => "/cloud/v3/inference/applications/catalog", ownsObjects: false },
  }),
  getInferenceApplicationTemplate: route({
    method: "GET",
    path: "/cloud/v3/inference/applications/catalog/:application_name",
    pathParams: z.object({ application_name: inferenceName.describe("The application's name in the catalogue.") }),
    responses: { 200: inferenceApplicationTemplate, ...errorResponses() },
    summary: "Get an inference application",
    description: "One application of the catalogue by name, with its components and their parameters; an unknown name answers 404.",
    metadata: inferenceMetadata("read", "applications.templates", "get"),
  }, {
    example: { pathParams: { application_name: "speech-to-text" }, response: demoTemplate },
    case: { path: (w) => `/cloud/v3/inference/applications/catalog/${w.first("cloud.listInferenceApplicationTemplates").name as string}`, ownsObjects: false },
  }),
  listInferenceApplicationDeployments: route({
    method: "GET",
    path: "/cloud/v3/inference/applications/:project_id/deployments",
    pathParams: projectPathParams,
    query: z.object(paging("application deployments", 1000)),
    responses: { 200: inferenceApplicationDeploymentList, ...errorResponses() },
    summary: "List application deployments",
    description:
      "The project's application deployments, ordered by name, paged by `limit` (default and maximum 1000) and `offset`; " +
      `\`count\` is the number of all of them. Another account's project answers 404. ${STATUS_MODEL}`,
    metadata: inferenceMetadata("read", "applications.deployments", "list"),
  }, {
    example: { pathParams: { project_id: 1 }, query: { limit: 100, offset: 0 }, response: { count: 1, results: [exampleDeployment] } },
    case: { path: (w) => basePath(w), ownsObjects: true },
  }),
  createInferenceApplicationDeployment: route({
    method: "POST",
    path: "/cloud/v3/inference/applications/:project_id/deployments",
    pathParams: projectPathParams,
    body: createInferenceApplicationDeploymentBody,
    responses: { 200: taskIdList, ...errorResponses([409, ...withBody]) },
    summary: "Create an application deployment",
    description:
      "Deploys an application of the catalogue in the regions given and answers the id of the task that does it " +
      "(`create_inference_application`, see GET /cloud/v1/tasks/{task_id}), as the platform does; the deployment is " +
      `there when the answer arrives. ${STATUS_MODEL} Each component's configuration is checked against the catalogue ` +
      "(every required component given, a suitable flavor, `exposed` only where exposable, each override's value of its " +
      "parameter's type, within its bounds, one of its values or matching its pattern): 400 naming the field otherwise. " +
      "A name the project's application deployments have answers 409.",
    metadata: inferenceMetadata("write", "applications.deployments", "create"),
  }, {
    example: {
      pathParams: { project_id: 1 },
      body: {
        name: "acme-transcribe",
        application_name: "speech-to-text",
        components_configuration: {
          whisper: { exposed: true, flavor: "inference-4vcpu-16gib-1xl40s-48gb", scale: { min: 1, max: 2 }, parameter_overrides: { language: { value: "en" } } },
        },
        regions: [1],
      },
      response: { tasks: [exampleTasks.create] },
    },
    case: {
      path: (w) => basePath(w),
      ownsObjects: true,
      body: () => {
        const name = uniqueName("rc-app");
        return {
          name,
          application_name: "speech-to-text",
          components_configuration: { whisper: { exposed: false, flavor: "inference-4vcpu-16gib-1xl40s-48gb", scale: { min: 0, max: 1 } } },
          regions: [1],
        };
      },
    },
  }),
  getInferenceApplicationDeployment: route({
    method: "GET",
    path: "/cloud/v3/inference/applications/:project_id/deployments/:deployment_name",
    pathParams: deploymentPathParams,
    responses: { 200: inferenceApplicationDeployment, ...errorResponses() },
    summary: "Get an application deployment",
    description: `One of the project's application deployments by name. Another account's project answers 404. ${STATUS_MODEL}`,
    metadata: inferenceMetadata("read", "applications.deployments", "get"),
  }, {
    example: { pathParams: { project_id: 1, deployment_name: "acme-transcribe" }, response: exampleDeployment },
    case: { path: (w) => `${basePath(w)}/${firstOf(w).name as string}`, ownsObjects: true },
  }),
  updateInferenceApplicationDeployment: route({
    method: "PATCH",
    path: "/cloud/v3/inference/applications/:project_id/deployments/:deployment_name",
    pathParams: deploymentPathParams,
    body: updateInferenceApplicationDeploymentBody,
    responses: { 200: taskIdList, ...errorResponses([409, ...withBody]) },
    summary: "Update an application deployment",
    description:
      "Changes the components, regions or API keys given, checked as for a create (400 naming the field), and answers the " +
      "id of the task that does it (`update_inference_application`); the deployment is deployed again (PartiallyDeployed, " +
      "then Active). One being deleted answers 409.",
    metadata: inferenceMetadata("write", "applications.deployments", "update"),
  }, {
    example: {
      pathParams: { project_id: 1, deployment_name: "acme-transcribe" },
      body: { components_configuration: { whisper: { scale: { max: 4 }, parameter_overrides: { language: null } } } },
      response: { tasks: [exampleTasks.update] },
    },
    case: { path: (w) => `${basePath(w)}/${firstOf(w).name as string}`, ownsObjects: true, body: (w) => ({ regions: firstOf(w).regions as number[] }) },
  }),
  deleteInferenceApplicationDeployment: route({
    method: "DELETE",
    path: "/cloud/v3/inference/applications/:project_id/deployments/:deployment_name",
    pathParams: deploymentPathParams,
    responses: { 200: taskIdList, ...errorResponses([409]) },
    summary: "Delete an application deployment",
    description:
      "Deletes the application deployment and answers the id of the task that does it (`delete_inference_application`). " +
      `It is Deleting for ${INFERENCE_TIMING.deletedAfter} seconds and refers to no API key any more, then it is gone and its ` +
      "name is free again. A second delete while it is being deleted answers 409.",
    metadata: inferenceMetadata("write", "applications.deployments", "delete"),
  }, {
    example: { pathParams: { project_id: 1, deployment_name: "acme-transcribe" }, response: { tasks: [exampleTasks.delete] } },
    case: {
      path: (w, made) => `${basePath(w)}/${typeof made?.name === "string" ? made.name : `missing-application-${w.account}`}`,
      ownsObjects: true,
      makes: "cloud.createInferenceApplicationDeployment",
    },
  }),
} as const;
