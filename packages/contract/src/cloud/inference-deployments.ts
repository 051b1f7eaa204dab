/**
 * Cloud inference deployments: a project's containers of one image on one flavor in one or more regions
 * (v3), started, stopped, changed and deleted through tasks as the platform does, and the lines their
 * containers logged; their schemas and routes. A deployment's status moves on by itself, as its
 * description says (INFERENCE_TIMING).
 */
import { initContract } from "@ts-rest/core";
import { z } from "zod";
import { errorResponses, integer, integerParam, isoTimestamp, listOf, mapOf, pageOf, paging, stringEnum, strictObject, withBody } from "../common.js";
import { noActionInput } from "../cdn/certificates.js";
import { route } from "../route.js";
import { uniqueName, type CaseAccount, type CaseWorld } from "../route-case.js";
import { taskIdList } from "./gpu-images.js";
import { caseProjectOf, inferenceMetadata, inferenceName, INFERENCE_NAME_RULE, projectPathParams } from "./inference-shared.js";

const c = initContract();

/**
 * How a deployment's status moves on, in seconds after the action that set it going: containers are made
 * `containersAfter` seconds after a create, start or change (DEPLOYING until then), and are ready
 * `readyAfter` seconds after it (PARTIALLYDEPLOYED until then); a deletion is done `deletedAfter` seconds
 * after it was asked for (DELETING until then).
 */
export const INFERENCE_TIMING = { containersAfter: 10, readyAfter: 30, deletedAfter: 10 } as const;

export const INFERENCE_DEPLOYMENT_STATUSES = ["ACTIVE", "DELETING", "DEPLOYING", "DISABLED", "PARTIALLYDEPLOYED", "PENDING"] as const;

const STATUS_MODEL =
  `A deployment's status moves on by itself, computed from when its last action was asked for: after a create, a start, ` +
  `or a change of a running deployment it is DEPLOYING for ${INFERENCE_TIMING.containersAfter} seconds (no container yet), then ` +
  `PARTIALLYDEPLOYED until ${INFERENCE_TIMING.readyAfter} seconds (containers made, none ready), then ACTIVE, or PENDING when ` +
  `every container's \`scale.min\` is 0 (running, scaled to zero until a request comes). A stopped deployment is DISABLED. A ` +
  `deleted one is DELETING for ${INFERENCE_TIMING.deletedAfter} seconds and then gone (404). Addresses are given while it is ` +
  `ACTIVE or PENDING, and null otherwise.`;

// ----- Scaling, probes, logging: as a request gives them (optional parts) and as an answer shows them (every part, null where unset).

const percent = (what: string) => integer({ min: 1, max: 100 }).describe(`Threshold, percent of ${what}.`);
const thresholdTrigger = (what: string) => strictObject({ threshold: percent(what) });

const sqsTriggerBody = strictObject({
  activation_queue_length: integer({ min: 0 }).describe("Messages in the queue before the first replica starts."),
  aws_endpoint: z.string().max(2048, "At most 2048 characters.").url("Must be a URL.").nullable().optional().describe("A custom AWS endpoint, or null."),
  aws_region: z.string().min(1, "Must not be empty.").max(64, "At most 64 characters.").describe('The queue\'s AWS region, e.g. "eu-central-1".'),
  queue_length: integer({ min: 1 }).describe("Messages in the queue per replica."),
  queue_url: z.string().max(2048, "At most 2048 characters.").url("Must be a URL.").describe("The queue's URL."),
  secret_name: inferenceName.describe("An inference secret of the project (type aws-iam) to read the queue with (400 otherwise)."),
  scale_on_delayed: z.boolean().optional().describe("Count delayed messages too. Default false."),
  scale_on_flight: z.boolean().optional().describe("Count messages in flight too. Default false."),
});

const triggersBody = strictObject({
  cpu: thresholdTrigger("CPU").nullable().optional(),
  gpu_memory: thresholdTrigger("GPU memory copy utilisation").nullable().optional(),
  gpu_utilization: thresholdTrigger("GPU utilisation").nullable().optional(),
  http: strictObject({
    rate: integer({ min: 1 }).describe("Requests per `window` that one replica takes."),
    window: integer({ min: 1, max: 3600 }).describe("The window, seconds."),
  })
    .nullable()
    .optional(),
  memory: thresholdTrigger("memory").nullable().optional(),
  sqs: sqsTriggerBody.nullable().optional(),
}).describe("What makes the containers scale between `min` and `max`; null or left out: none of that kind.");

/** The most replicas a region's containers scale to. */
export const INFERENCE_MAX_REPLICAS = 100;

const scaleBody = strictObject({
  min: integer({ min: 0, max: INFERENCE_MAX_REPLICAS }).describe(`The fewest replicas, 0 to ${INFERENCE_MAX_REPLICAS}; 0 lets the region scale to zero.`),
  max: integer({ min: 1, max: INFERENCE_MAX_REPLICAS }).describe(`The most replicas, 1 to ${INFERENCE_MAX_REPLICAS}, at least \`min\` (400 otherwise).`),
  cooldown_period: integer({ min: 0, max: 86_400 }).nullable().optional().describe("Seconds between two scaling actions; null: the platform's default."),
  polling_interval: integer({ min: 1, max: 3600 }).nullable().optional().describe("Seconds between two looks at the triggers; null: the platform's default."),
  triggers: triggersBody.optional(),
});

const containerBody = strictObject({
  region_id: integer({ min: 1 }).describe("A region of the platform (400 otherwise); each region once."),
  scale: scaleBody,
});

const containersBody = listOf(containerBody, { min: 1, max: 10, noun: "containers", description: "The regions to run in, each with its scaling. At least one." });

const probeBody = strictObject({
  exec: strictObject({ command: listOf(z.string().max(4096, "At most 4096 characters."), { min: 1, max: 100, noun: "arguments", description: "The command and its arguments." }) })
    .nullable()
    .optional(),
  http_get: strictObject({
    port: integer({ min: 1, max: 65_535 }),
    headers: mapOf(z.string().min(1).max(256), z.string().max(4096), { max: 50, noun: "headers", description: "Headers to send." }).optional(),
    host: z.string().max(253).nullable().optional(),
    path: z.string().max(2048).optional().describe('Default "/".'),
    schema: stringEnum(["HTTP", "HTTPS"]).optional().describe("HTTP (default) or HTTPS."),
  })
    .nullable()
    .optional(),
  tcp_socket: strictObject({ port: integer({ min: 1, max: 65_535 }) }).nullable().optional(),
  failure_threshold: integer({ min: 1, max: 100 }).optional().describe("Default 3."),
  success_threshold: integer({ min: 1, max: 100 }).optional().describe("Default 1."),
  initial_delay_seconds: integer({ min: 0, max: 3600 }).optional().describe("Default 0."),
  period_seconds: integer({ min: 1, max: 3600 }).optional().describe("Default 10."),
  timeout_seconds: integer({ min: 1, max: 3600 }).optional().describe("Default 1."),
}).describe("How to probe: exactly one of exec, http_get and tcp_socket (400 otherwise), and how often.");

const probeConfigBody = strictObject({ enabled: z.boolean(), probe: probeBody.optional() }).nullable().optional();

const probesBody = strictObject({
  liveness_probe: probeConfigBody,
  readiness_probe: probeConfigBody,
  startup_probe: probeConfigBody,
})
  .nullable()
  .optional()
  .describe("Probes of every container; null or left out: none. An enabled probe needs `probe` (400 otherwise).");

const loggingBody = strictObject({
  enabled: z.boolean().optional().describe("Stream the containers' logs. Default true."),
  destination_region_id: integer({ min: 1 }).nullable().optional().describe("The region the logs are kept in (a region of the platform), or null."),
  topic_name: z.string().min(1).max(255).nullable().optional(),
  retention_policy: strictObject({ period: integer({ min: 1, max: 3650 }).nullable() }).nullable().optional().describe("Days the logs are kept."),
})
  .nullable()
  .optional();

const ingressOptsBody = strictObject({ disable_response_buffering: z.boolean().optional().describe("Default false: responses are buffered.") })
  .nullable()
  .optional();

const envsBody = mapOf(
  z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,255}$/, "Must be an environment variable name: letters, digits and underscores, not starting with a digit."),
  z.string().max(4096, "At most 4096 characters."),
  { max: 100, noun: "variables", description: "Environment variables of the containers, values at most 4096 characters." },
);

const apiKeysBody = listOf(inferenceName, { max: 50, noun: "keys", description: "Names of the project's API keys (400 for one it lacks) that callers may use." });
const commandBody = listOf(z.string().max(4096, "At most 4096 characters."), { max: 100, noun: "arguments", description: "The command and its arguments, instead of the image's own." });

const deploymentFields = {
  image: z.string().min(1, "Must not be empty.").max(2048, "At most 2048 characters.").regex(/^\S+$/, "Must not contain spaces.").describe("The container image, e.g. `nginx:latest` (Docker Hub) or a registry's full path."),
  listening_port: integer({ min: 1, max: 65_535 }).describe("The port the container listens on."),
  flavor_name: inferenceName.describe("A flavor of the platform (400 otherwise)."),
  description: z.string().max(1024, "At most 1024 characters.").nullable().optional().describe('What the deployment is for; null or left out: "".'),
  command: commandBody.nullable().optional(),
  credentials_name: inferenceName.nullable().optional().describe("Registry credentials of the project to pull the image with (400 for a name it lacks); null: none."),
  envs: envsBody.optional(),
  api_keys: apiKeysBody.optional(),
  auth_enabled: z.boolean().optional().describe("Deprecated: require an API key of the project without naming one. Not together with `api_keys` (400)."),
  ingress_opts: ingressOptsBody,
  logging: loggingBody,
  probes: probesBody,
  timeout: integer({ min: 0, max: 86_400 }).nullable().optional().describe("Idle seconds before the containers scale down to `scale.min`; null: 120."),
};

const createInferenceDeploymentBodySchema = strictObject(
  {
    name: inferenceName.describe(`The deployment's name: ${INFERENCE_NAME_RULE}; unique in the project (409 otherwise).`),
    containers: containersBody,
    ...deploymentFields,
  },
  { readOnly: ["status", "address", "created_at", "project_id", "object_references"] },
).describe("The new deployment.");
export interface CreateInferenceDeploymentBodySchema extends CreateInferenceDeploymentBodySchemaType {}
type CreateInferenceDeploymentBodySchemaType = typeof createInferenceDeploymentBodySchema;
export const createInferenceDeploymentBody: CreateInferenceDeploymentBodySchema = createInferenceDeploymentBodySchema;

export type CreateInferenceDeploymentBody = z.input<typeof createInferenceDeploymentBody>;
/** A create's body as the service reads it. */
export type CreateInferenceDeploymentFields = z.output<typeof createInferenceDeploymentBody>;

const updateInferenceDeploymentBodySchema = strictObject(
  {
    containers: containersBody.nullable().optional(),
    image: deploymentFields.image.nullable().optional(),
    listening_port: deploymentFields.listening_port.nullable().optional(),
    flavor_name: deploymentFields.flavor_name.optional(),
    description: deploymentFields.description,
    command: deploymentFields.command,
    credentials_name: deploymentFields.credentials_name,
    envs: envsBody.nullable().optional(),
    api_keys: listOf(inferenceName, {
      max: 50,
      noun: "keys",
      description: "The project's API keys callers may use (400 for one it lacks), replacing the list; `[]` removes them all and turns authentication off.",
    })
      .nullable()
      .optional(),
    auth_enabled: deploymentFields.auth_enabled,
    ingress_opts: deploymentFields.ingress_opts,
    logging: deploymentFields.logging,
    probes: deploymentFields.probes,
    timeout: deploymentFields.timeout,
  },
  { readOnly: ["status", "address", "created_at", "project_id", "object_references"], rejected: { name: "The name cannot be changed: it is the path's." } },
).describe("What to change: each field given replaces the deployment's; left out (or null, for image, listening_port, containers and envs): unchanged.");
export interface UpdateInferenceDeploymentBodySchema extends UpdateInferenceDeploymentBodySchemaType {}
type UpdateInferenceDeploymentBodySchemaType = typeof updateInferenceDeploymentBodySchema;
export const updateInferenceDeploymentBody: UpdateInferenceDeploymentBodySchema = updateInferenceDeploymentBodySchema;

export type UpdateInferenceDeploymentBody = z.input<typeof updateInferenceDeploymentBody>;
/** A change's body as the service reads it. */
export type UpdateInferenceDeploymentFields = z.output<typeof updateInferenceDeploymentBody>;

// ----- The answer.

const thresholdShown = z.object({ threshold: integer() }).strict().nullable();
const probeShown = z
  .object({
    exec: z.object({ command: z.array(z.string()) }).strict().nullable(),
    http_get: z
      .object({ headers: z.record(z.string()), host: z.string().nullable(), path: z.string(), port: integer(), schema: z.string() })
      .strict()
      .nullable(),
    tcp_socket: z.object({ port: integer() }).strict().nullable(),
    failure_threshold: integer(),
    success_threshold: integer(),
    initial_delay_seconds: integer(),
    period_seconds: integer(),
    timeout_seconds: integer(),
  })
  .strict();
const probeConfigShown = z.object({ enabled: z.boolean(), probe: probeShown.nullable() }).strict().nullable();

const inferenceDeploymentSchema = z
  .object({
    name: z.string(),
    project_id: integer(),
    status: stringEnum(INFERENCE_DEPLOYMENT_STATUSES).describe(STATUS_MODEL),
    address: z.string().nullable().describe("Where callers reach the deployment, while it is ACTIVE or PENDING; null otherwise."),
    description: z.string(),
    image: z.string(),
    listening_port: integer(),
    flavor_name: z.string(),
    command: z.string().nullable().describe("The command and its arguments, joined by spaces; null: the image's own."),
    credentials_name: z.string().nullable().describe("The registry credentials the image is pulled with, or null."),
    envs: z.record(z.string()).describe("Environment variables of the containers."),
    api_keys: z.array(z.string()).describe("The project's API keys callers may use."),
    auth_enabled: z.boolean().describe("Whether calls need an API key: true when `api_keys` names any (or auth_enabled was set)."),
    containers: z.array(
      z
        .object({
          region_id: integer(),
          address: z.string().nullable().describe("The region's own address, while the deployment is ACTIVE or PENDING; null otherwise."),
          deploy_status: z
            .object({
              total: integer().describe("Replicas the region runs: `scale.min`, while the deployment runs; 0 while it is stopped."),
              ready: integer().describe("Replicas ready: `total` once the deployment is ACTIVE, 0 before."),
            })
            .strict(),
          error_message: z.string().nullable().describe("Why the region's containers failed, or null."),
          scale: z
            .object({
              min: integer(),
              max: integer(),
              cooldown_period: integer().nullable(),
              polling_interval: integer().nullable(),
              triggers: z
                .object({
                  cpu: thresholdShown,
                  gpu_memory: thresholdShown,
                  gpu_utilization: thresholdShown,
                  http: z.object({ rate: integer(), window: integer() }).strict().nullable(),
                  memory: thresholdShown,
                  sqs: z
                    .object({
                      activation_queue_length: integer(),
                      aws_endpoint: z.string().nullable(),
                      aws_region: z.string(),
                      queue_length: integer(),
                      queue_url: z.string(),
                      secret_name: z.string(),
                      scale_on_delayed: z.boolean(),
                      scale_on_flight: z.boolean(),
                    })
                    .strict()
                    .nullable(),
                })
                .strict(),
            })
            .strict(),
        })
        .strict(),
    ),
    ingress_opts: z.object({ disable_response_buffering: z.boolean() }).strict().nullable(),
    logging: z
      .object({
        enabled: z.boolean(),
        destination_region_id: integer().nullable(),
        topic_name: z.string().nullable(),
        retention_policy: z.object({ period: integer().nullable() }).strict().nullable(),
      })
      .strict()
      .nullable(),
    probes: z.object({ liveness_probe: probeConfigShown, readiness_probe: probeConfigShown, startup_probe: probeConfigShown }).strict().nullable(),
    timeout: integer().nullable(),
    object_references: z
      .array(z.object({ kind: z.literal("AppDeployment"), name: z.string() }).strict())
      .describe("The objects the deployment belongs to: always empty here, as application components are not listed as deployments."),
    created_at: isoTimestamp,
  })
  .strict()
  .describe("An inference deployment: containers of one image on one flavor in one or more regions.");
export interface InferenceDeploymentSchema extends InferenceDeploymentSchemaType {}
type InferenceDeploymentSchemaType = typeof inferenceDeploymentSchema;
export const inferenceDeployment: InferenceDeploymentSchema = inferenceDeploymentSchema;

export type InferenceDeployment = z.infer<typeof inferenceDeployment>;

const inferenceDeploymentListSchema = pageOf(inferenceDeployment, "deployments");
export interface InferenceDeploymentListSchema extends InferenceDeploymentListSchemaType {}
type InferenceDeploymentListSchemaType = typeof inferenceDeploymentListSchema;
export const inferenceDeploymentList: InferenceDeploymentListSchema = inferenceDeploymentListSchema;

const inferenceDeploymentLogSchema = z
  .object({
    time: isoTimestamp.describe("When the container wrote the line."),
    region_id: integer(),
    pod: z.string().describe("The replica that wrote it."),
    message: z.string(),
  })
  .strict()
  .describe("A line a deployment's container logged.");
const inferenceDeploymentLogListSchema = pageOf(inferenceDeploymentLogSchema, "log lines");
export interface InferenceDeploymentLogListSchema extends InferenceDeploymentLogListSchemaType {}
type InferenceDeploymentLogListSchemaType = typeof inferenceDeploymentLogListSchema;
export const inferenceDeploymentLogList: InferenceDeploymentLogListSchema = inferenceDeploymentLogListSchema;

export type InferenceDeploymentLogList = z.infer<typeof inferenceDeploymentLogList>;

const deploymentPathParams = projectPathParams.extend({ deployment_name: inferenceName.describe("The deployment's name.") });

// ----- Examples (the demo data's, of account 1) and cases.

const demoDeployment: InferenceDeployment = {
  name: "acme-summarizer",
  project_id: 1,
  status: "ACTIVE",
  address: "https://acme-summarizer-p1.inference.cloudplane.example",
  description: "",
  image: "vllm/vllm-openai:v0.6.3",
  listening_port: 8000,
  flavor_name: "inference-4vcpu-16gib-1xl40s-48gb",
  command: "--model mistralai/Mistral-7B-Instruct-v0.3",
  credentials_name: null,
  envs: { MAX_MODEL_LEN: "8192" },
  api_keys: [],
  auth_enabled: false,
  containers: [
    {
      region_id: 1,
      address: "https://acme-summarizer-p1.r1.inference.cloudplane.example",
      deploy_status: { total: 1, ready: 1 },
      error_message: null,
      scale: {
        min: 1,
        max: 2,
        cooldown_period: null,
        polling_interval: null,
        triggers: { cpu: null, gpu_memory: null, gpu_utilization: null, http: { rate: 50, window: 60 }, memory: null, sqs: null },
      },
    },
  ],
  ingress_opts: null,
  logging: null,
  probes: null,
  timeout: 300,
  object_references: [],
  created_at: "2026-11-26T20:00:00.000Z",
};

const exampleTasks = { create: "6f1c2a9e-3b7d-4e58-9a0c-1d2e3f4a5b6c", update: "7a2d3b0f-4c8e-4f69-8b1d-2e3f4a5b6c7d", delete: "8b3e4c1a-5d9f-4a7b-9c2e-3f4a5b6c7d8e" };

const basePath = (w: CaseWorld) => `/cloud/v3/inference/${caseProjectOf(w).id}/deployments`;
const runningOf = (w: CaseWorld) =>
  w.first("cloud.listInferenceDeployments", { params: { project_id: caseProjectOf(w).id }, where: (deployment) => deployment.status !== "DELETING" });

/**
 * The name of the deployment the create case last made for each account: a create answers only its task,
 * so the delete's case, which makes its deployment first, finds the name here.
 */
const madeNames = new Map<CaseAccount, string>();

export const cloudInferenceDeploymentsRoutes = {
  listInferenceDeployments: route({
    method: "GET",
    path: "/cloud/v3/inference/:project_id/deployments",
    pathParams: projectPathParams,
    query: z.object(paging("deployments", 1000)),
    responses: { 200: inferenceDeploymentList, ...errorResponses() },
    summary: "List inference deployments",
    description:
      "The project's deployments, ordered by name, paged by `limit` (default and maximum 1000) and `offset`; `count` is the " +
      `number of all of them. Another account's project answers 404. ${STATUS_MODEL}`,
    metadata: inferenceMetadata("read", "deployments"),
  }, {
    example: { pathParams: { project_id: 1 }, query: { limit: 100, offset: 0 }, response: { count: 1, results: [demoDeployment] } },
    case: { path: (w) => basePath(w), ownsObjects: true },
  }),
  createInferenceDeployment: route({
    method: "POST",
    path: "/cloud/v3/inference/:project_id/deployments",
    pathParams: projectPathParams,
    body: createInferenceDeploymentBody,
    responses: { 200: taskIdList, ...errorResponses([409, ...withBody]) },
    summary: "Create an inference deployment",
    description:
      "Deploys an image on a flavor in the regions of `containers`, and answers the id of the task that does it " +
      "(`create_inference_instance`, see GET /cloud/v1/tasks/{task_id}), as the platform does; the task's " +
      "`created_resources.inference_instances` names the deployment. The deployment is there when the answer arrives, " +
      `DEPLOYING. ${STATUS_MODEL} The flavor, the regions, the registry credentials, the API keys and the secrets of SQS ` +
      "triggers must exist (400 naming the field otherwise); a name the project's deployments have answers 409.",
    metadata: inferenceMetadata("write", "deployments"),
  }, {
    example: {
      pathParams: { project_id: 1 },
      body: {
        name: "acme-summarizer",
        image: "vllm/vllm-openai:v0.6.3",
        listening_port: 8000,
        flavor_name: "inference-4vcpu-16gib-1xl40s-48gb",
        command: ["--model", "mistralai/Mistral-7B-Instruct-v0.3"],
        envs: { MAX_MODEL_LEN: "8192" },
        containers: [{ region_id: 1, scale: { min: 1, max: 2, triggers: { http: { rate: 50, window: 60 } } } }],
        timeout: 300,
      },
      response: { tasks: [exampleTasks.create] },
    },
    case: {
      path: (w) => basePath(w),
      ownsObjects: true,
      body: (w) => {
        const name = uniqueName("rc-dep");
        madeNames.set(w.account, name);
        return { name, image: "nginx:1.27", listening_port: 80, flavor_name: "inference-2vcpu-8gib-cpu", containers: [{ region_id: 1, scale: { min: 1, max: 1 } }] };
      },
    },
  }),
  startInferenceDeployment: route({
    method: "POST",
    path: "/cloud/v3/inference/:project_id/deployments/:deployment_name/start",
    pathParams: deploymentPathParams,
    body: noActionInput,
    responses: { 204: c.noBody(), ...errorResponses([409, ...withBody]) },
    summary: "Start an inference deployment",
    description:
      "Starts a stopped (DISABLED) deployment: it is DEPLOYING again and moves on as after a create. Answers 204 with no " +
      "body. Starting a deployment that runs changes nothing; one being deleted answers 409.",
    metadata: inferenceMetadata("write", "deployments"),
  }, {
    example: { pathParams: { project_id: 1, deployment_name: "acme-summarizer" }, body: {} },
    case: { path: (w) => `${basePath(w)}/${runningOf(w).name as string}/start`, ownsObjects: true },
  }),
  stopInferenceDeployment: route({
    method: "POST",
    path: "/cloud/v3/inference/:project_id/deployments/:deployment_name/stop",
    pathParams: deploymentPathParams,
    body: noActionInput,
    responses: { 204: c.noBody(), ...errorResponses([409, ...withBody]) },
    summary: "Stop an inference deployment",
    description:
      "Stops the deployment's containers: it is DISABLED at once, takes no calls and holds no capacity, and keeps its " +
      "settings for a later start. Answers 204 with no body. Stopping a stopped deployment changes nothing; one being " +
      "deleted answers 409.",
    metadata: inferenceMetadata("write", "deployments"),
  }, {
    example: { pathParams: { project_id: 1, deployment_name: "acme-summarizer" }, body: {} },
    case: { path: (w) => `${basePath(w)}/${runningOf(w).name as string}/stop`, ownsObjects: true },
  }),
  listInferenceDeploymentLogs: route({
    method: "GET",
    path: "/cloud/v3/inference/:project_id/deployments/:deployment_name/logs",
    pathParams: deploymentPathParams,
    query: z.object({
      ...paging("log lines", 1000),
      order_by: stringEnum(["time.asc", "time.desc"]).default("time.desc").describe("time.asc or time.desc (default: newest first); ties by the order they were written."),
      region_id: integerParam({ min: 1, description: "Only the lines of this region's containers." }).optional(),
    }),
    responses: { 200: inferenceDeploymentLogList, ...errorResponses() },
    summary: "List an inference deployment's logs",
    description:
      "The lines the deployment's containers logged (of one region with `region_id`), ordered by `order_by`, paged by " +
      "`limit` (default and maximum 1000) and `offset`; `count` is the number of all that match. A create, start or " +
      "change logs the image's pull and the container's start, each line as its moment comes (the start once the " +
      "deployment is ready); a stop logs the containers' stop. Lines go with the deployment.",
    metadata: inferenceMetadata("read", "deployments.logs", "list"),
  }, {
    example: {
      pathParams: { project_id: 1, deployment_name: "acme-summarizer" },
      query: { limit: 2, offset: 0, order_by: "time.asc" },
      response: {
        count: 3,
        results: [
          { time: "2026-11-26T20:00:00.000Z", region_id: 1, pod: "acme-summarizer-r1-t5k2q8", message: 'Pulling image "vllm/vllm-openai:v0.6.3"' },
          { time: "2026-11-26T20:00:10.000Z", region_id: 1, pod: "acme-summarizer-r1-t5k2q8", message: 'Successfully pulled image "vllm/vllm-openai:v0.6.3"' },
        ],
      },
    },
    case: { path: (w) => `${basePath(w)}/${runningOf(w).name as string}/logs?limit=5`, ownsObjects: true },
  }),
  getInferenceDeployment: route({
    method: "GET",
    path: "/cloud/v3/inference/:project_id/deployments/:deployment_name",
    pathParams: deploymentPathParams,
    responses: { 200: inferenceDeployment, ...errorResponses() },
    summary: "Get an inference deployment",
    description: `One of the project's deployments by name. Another account's project answers 404. ${STATUS_MODEL}`,
    metadata: inferenceMetadata("read", "deployments"),
  }, {
    example: { pathParams: { project_id: 1, deployment_name: "acme-summarizer" }, response: demoDeployment },
    case: { path: (w) => `${basePath(w)}/${runningOf(w).name as string}`, ownsObjects: true },
  }),
  updateInferenceDeployment: route({
    method: "PATCH",
    path: "/cloud/v3/inference/:project_id/deployments/:deployment_name",
    pathParams: deploymentPathParams,
    body: updateInferenceDeploymentBody,
    responses: { 200: taskIdList, ...errorResponses([409, ...withBody]) },
    summary: "Update an inference deployment",
    description:
      "Changes the fields given and answers the id of the task that does it (`update_inference_instance`). A running " +
      "deployment is deployed again with the change (DEPLOYING, then as after a create); a stopped one takes the change " +
      "and stays DISABLED. A deployment being deleted answers 409. What is named must exist, as for a create (400).",
    metadata: inferenceMetadata("write", "deployments"),
  }, {
    example: {
      pathParams: { project_id: 1, deployment_name: "acme-summarizer" },
      body: { description: "Transcribes support calls.", containers: [{ region_id: 1, scale: { min: 0, max: 2, triggers: { cpu: { threshold: 70 } } } }] },
      response: { tasks: [exampleTasks.update] },
    },
    case: { path: (w) => `${basePath(w)}/${runningOf(w).name as string}`, ownsObjects: true, body: () => ({ description: "Changed by the route cases." }) },
  }),
  deleteInferenceDeployment: route({
    method: "DELETE",
    path: "/cloud/v3/inference/:project_id/deployments/:deployment_name",
    pathParams: deploymentPathParams,
    responses: { 200: taskIdList, ...errorResponses([409]) },
    summary: "Delete an inference deployment",
    description:
      "Deletes the deployment and answers the id of the task that does it (`delete_inference_instance`). The deployment " +
      `is DELETING for ${INFERENCE_TIMING.deletedAfter} seconds, holds no capacity and refers to nothing any more (its ` +
      "API keys, credentials and secrets can be deleted), then it is gone with its logs, and its name is free again. " +
      "A second delete while it is DELETING answers 409.",
    metadata: inferenceMetadata("write", "deployments"),
  }, {
    example: { pathParams: { project_id: 1, deployment_name: "acme-summarizer" }, response: { tasks: [exampleTasks.delete] } },
    case: {
      path: (w, made) => `${basePath(w)}/${made ? madeNames.get(w.account)! : `missing-deployment-${w.account}`}`,
      ownsObjects: true,
      makes: "cloud.createInferenceDeployment",
    },
  }),
} as const;
