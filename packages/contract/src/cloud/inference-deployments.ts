/**
 * Cloud inference deployments: a project's containers of one image on one flavor in one or more regions
 * (v3), started, stopped, changed and deleted through tasks as the platform does, and the lines their
 * containers logged; their schemas and routes. A deployment's status moves on by itself, as its
 * description says (INFERENCE_TIMING).
 */
import { initContract } from "@ts-rest/core";
import { z } from "zod";
import { emptyInput, errorResponses, integer, integerParam, isoTimestamp, listOf, mapOf, pageOf, paging, strictObject, stringEnum, withBody } from "../common.js";
import { route } from "../route.js";
import { uniqueName, type CaseWorld } from "../route-case.js";
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

/** The most replicas a region's containers scale to. */
export const INFERENCE_MAX_REPLICAS = 100;

/** What each part means, said once for the request that sets it and the answer that shows it. */
const FIELD = {
  threshold: (what: string) => `Scale up when the replicas' average ${what} is over this percent (1 to 100).`,
  trigger: (what: string) => `Scale on ${what}; null: not on it.`,
  httpTrigger: "Scale on HTTP requests; null: not on them.",
  rate: "Requests per `window` that one replica takes.",
  window: "The window `rate` counts requests over, seconds.",
  sqsTrigger: "Scale on the length of an AWS SQS queue; null: not on it.",
  activationQueueLength: "Messages in the queue before the first replica starts.",
  awsEndpoint: "A custom AWS endpoint, or null: AWS's own.",
  awsRegion: 'The queue\'s AWS region, e.g. "eu-central-1".',
  queueLength: "Messages in the queue per replica.",
  queueUrl: "The queue's URL.",
  secretName: "An inference secret of the project (type aws-iam) the queue is read with.",
  scaleOnDelayed: "Count delayed messages too (default false).",
  scaleOnFlight: "Count messages in flight too (default false).",
  triggers: "What makes the containers scale between `min` and `max`; null or left out: none of that kind.",
  scale: "How many replicas the region runs, and what makes it run more.",
  min: `The fewest replicas, 0 to ${INFERENCE_MAX_REPLICAS}; 0 lets the region scale to zero.`,
  max: `The most replicas, 1 to ${INFERENCE_MAX_REPLICAS}, at least \`min\`.`,
  cooldownPeriod: "Seconds between two scaling actions; null: the platform's default.",
  pollingInterval: "Seconds between two looks at the triggers; null: the platform's default.",
  containers: "The regions to run in, each with its scaling. At least one.",
  probe: "How to probe: exactly one of exec, http_get and tcp_socket, and how often.",
  probeConfig: (which: string) => `The ${which} probe: whether it is enabled and how it probes; null: none.`,
  exec: "Probe by running a command in the container: it passes when the command exits 0; null: not this way.",
  command: "The command and its arguments.",
  httpGet: "Probe by an HTTP GET: it passes on a 2xx or 3xx answer; null: not this way.",
  tcpSocket: "Probe by opening a TCP connection: it passes when the connection opens; null: not this way.",
  port: "The container's port to probe, 1 to 65535.",
  headers: "Headers to send.",
  host: "The Host header to send; null: the container's address.",
  path: 'The path to GET (default "/").',
  schema: "HTTP (default) or HTTPS.",
  failureThreshold: "Failures in a row before the probe counts as failed (default 3).",
  successThreshold: "Successes in a row before the probe counts as passed again (default 1).",
  initialDelaySeconds: "Seconds after the container starts before the first probe (default 0).",
  periodSeconds: "Seconds between two probes (default 10).",
  timeoutSeconds: "Seconds a probe may take before it counts as failed (default 1).",
  probes: "Probes of every container; null or left out: none. An enabled probe needs `probe`.",
  logging: "Where the containers' logs go; null: the platform's default (streamed, kept in no region of yours).",
  loggingEnabled: "Stream the containers' logs (default true).",
  destinationRegionId: "The region the logs are kept in (a region of the platform), or null.",
  topicName: "The log topic the lines are written to; null: one the platform names.",
  retentionPolicy: "How long the logs are kept; null: the platform's default.",
  period: "Days the logs are kept, 1 to 3650; null: the platform's default.",
  ingressOpts: "How the deployment's address passes calls on; null: the defaults.",
  disableResponseBuffering: "Pass responses on as they are written instead of buffering them (default false).",
  image: "The container image, e.g. `nginx:latest` (Docker Hub) or a registry's full path.",
  listeningPort: "The port the container listens on.",
  flavorName: "A flavor of the platform: the CPU, memory and GPU of each replica.",
  timeout: "Idle seconds before the containers scale down to `scale.min`; null: 120.",
} as const;

const percent = (what: string) => integer({ min: 1, max: 100 }).describe(FIELD.threshold(what));
const thresholdTrigger = (what: string) => strictObject({ threshold: percent(what) }).describe(FIELD.trigger(what));

const sqsTriggerBody = strictObject({
  activation_queue_length: integer({ min: 0 }).describe(FIELD.activationQueueLength),
  aws_endpoint: z.string().max(2048, "At most 2048 characters.").url("Must be a URL.").nullable().optional().describe(FIELD.awsEndpoint),
  aws_region: z.string().min(1, "Must not be empty.").max(64, "At most 64 characters.").describe(FIELD.awsRegion),
  queue_length: integer({ min: 1 }).describe(FIELD.queueLength),
  queue_url: z.string().max(2048, "At most 2048 characters.").url("Must be a URL.").describe(FIELD.queueUrl),
  secret_name: inferenceName.describe(`${FIELD.secretName} 400 for one it lacks.`),
  scale_on_delayed: z.boolean().optional().describe(FIELD.scaleOnDelayed),
  scale_on_flight: z.boolean().optional().describe(FIELD.scaleOnFlight),
}).describe(FIELD.sqsTrigger);

const triggersBody = strictObject({
  cpu: thresholdTrigger("CPU use").nullable().optional(),
  gpu_memory: thresholdTrigger("GPU memory copy utilisation").nullable().optional(),
  gpu_utilization: thresholdTrigger("GPU utilisation").nullable().optional(),
  http: strictObject({
    rate: integer({ min: 1 }).describe(FIELD.rate),
    window: integer({ min: 1, max: 3600 }).describe(FIELD.window),
  })
    .describe(FIELD.httpTrigger)
    .nullable()
    .optional(),
  memory: thresholdTrigger("memory use").nullable().optional(),
  sqs: sqsTriggerBody.nullable().optional(),
}).describe(FIELD.triggers);

const scaleBody = strictObject({
  min: integer({ min: 0, max: INFERENCE_MAX_REPLICAS }).describe(FIELD.min),
  max: integer({ min: 1, max: INFERENCE_MAX_REPLICAS }).describe(`${FIELD.max} 400 otherwise.`),
  cooldown_period: integer({ min: 0, max: 86_400 }).nullable().optional().describe(FIELD.cooldownPeriod),
  polling_interval: integer({ min: 1, max: 3600 }).nullable().optional().describe(FIELD.pollingInterval),
  triggers: triggersBody.optional(),
}).describe(FIELD.scale);

const containerBody = strictObject({
  region_id: integer({ min: 1 }).describe("A region of the platform (400 otherwise); each region once."),
  scale: scaleBody,
});

const containersBody = listOf(containerBody, { min: 1, max: 10, noun: "containers", description: FIELD.containers });

const portBody = integer({ min: 1, max: 65_535 }).describe(FIELD.port);
const probeBody = strictObject({
  exec: strictObject({ command: listOf(z.string().max(4096, "At most 4096 characters."), { min: 1, max: 100, noun: "arguments", description: FIELD.command }) })
    .describe(FIELD.exec)
    .nullable()
    .optional(),
  http_get: strictObject({
    port: portBody,
    headers: mapOf(z.string().min(1).max(256), z.string().max(4096), { max: 50, noun: "headers", description: FIELD.headers }).optional(),
    host: z.string().max(253).nullable().optional().describe(FIELD.host),
    path: z.string().max(2048).optional().describe(FIELD.path),
    schema: stringEnum(["HTTP", "HTTPS"]).optional().describe(FIELD.schema),
  })
    .describe(FIELD.httpGet)
    .nullable()
    .optional(),
  tcp_socket: strictObject({ port: portBody }).describe(FIELD.tcpSocket).nullable().optional(),
  failure_threshold: integer({ min: 1, max: 100 }).optional().describe(FIELD.failureThreshold),
  success_threshold: integer({ min: 1, max: 100 }).optional().describe(FIELD.successThreshold),
  initial_delay_seconds: integer({ min: 0, max: 3600 }).optional().describe(FIELD.initialDelaySeconds),
  period_seconds: integer({ min: 1, max: 3600 }).optional().describe(FIELD.periodSeconds),
  timeout_seconds: integer({ min: 1, max: 3600 }).optional().describe(FIELD.timeoutSeconds),
}).describe(`${FIELD.probe} 400 for none or more than one.`);

const probeConfigBody = (which: string) => strictObject({ enabled: z.boolean(), probe: probeBody.optional() }).describe(FIELD.probeConfig(which)).nullable().optional();

const probesBody = strictObject({
  liveness_probe: probeConfigBody("liveness"),
  readiness_probe: probeConfigBody("readiness"),
  startup_probe: probeConfigBody("startup"),
})
  .nullable()
  .optional()
  .describe(`${FIELD.probes} (400 otherwise).`);

const loggingBody = strictObject({
  enabled: z.boolean().optional().describe(FIELD.loggingEnabled),
  destination_region_id: integer({ min: 1 }).nullable().optional().describe(FIELD.destinationRegionId),
  topic_name: z.string().min(1).max(255).nullable().optional().describe(FIELD.topicName),
  retention_policy: strictObject({ period: integer({ min: 1, max: 3650 }).nullable().describe(FIELD.period) }).nullable().optional().describe(FIELD.retentionPolicy),
})
  .nullable()
  .optional()
  .describe(FIELD.logging);

const ingressOptsBody = strictObject({ disable_response_buffering: z.boolean().optional().describe(FIELD.disableResponseBuffering) })
  .nullable()
  .optional()
  .describe(FIELD.ingressOpts);

const envsBody = mapOf(
  z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,255}$/, "Must be an environment variable name: letters, digits and underscores, not starting with a digit."),
  z.string().max(4096, "At most 4096 characters."),
  { max: 100, noun: "variables", description: "Environment variables of the containers, values at most 4096 characters." },
);

const apiKeysBody = listOf(inferenceName, { max: 50, noun: "keys", description: "Names of the project's API keys (400 for one it lacks) that callers may use." });
const commandBody = listOf(z.string().max(4096, "At most 4096 characters."), { max: 100, noun: "arguments", description: "The command and its arguments, instead of the image's own." });

const deploymentFields = {
  image: z.string().min(1, "Must not be empty.").max(2048, "At most 2048 characters.").regex(/^\S+$/, "Must not contain spaces.").describe(FIELD.image),
  listening_port: integer({ min: 1, max: 65_535 }).describe(FIELD.listeningPort),
  flavor_name: inferenceName.describe(`${FIELD.flavorName} 400 for one it lacks.`),
  description: z.string().max(1024, "At most 1024 characters.").nullable().optional().describe('What the deployment is for; null or left out: "".'),
  command: commandBody.nullable().optional(),
  credentials_name: inferenceName.nullable().optional().describe("Registry credentials of the project to pull the image with (400 for a name it lacks); null: none."),
  envs: envsBody.optional(),
  api_keys: apiKeysBody.optional(),
  auth_enabled: z.boolean().optional().describe("Deprecated: require an API key of the project without naming one. Not together with `api_keys` (400)."),
  ingress_opts: ingressOptsBody,
  logging: loggingBody,
  probes: probesBody,
  timeout: integer({ min: 0, max: 86_400 }).nullable().optional().describe(FIELD.timeout),
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

const thresholdShown = (what: string) => z.object({ threshold: integer().describe(FIELD.threshold(what)) }).strict().describe(FIELD.trigger(what)).nullable();
const portShown = integer().describe(FIELD.port);
const probeShown = z
  .object({
    exec: z.object({ command: z.array(z.string()).describe(FIELD.command) }).strict().describe(FIELD.exec).nullable(),
    http_get: z
      .object({
        headers: z.record(z.string()).describe(FIELD.headers),
        host: z.string().nullable().describe(FIELD.host),
        path: z.string().describe(FIELD.path),
        port: portShown,
        schema: z.string().describe(FIELD.schema),
      })
      .strict()
      .describe(FIELD.httpGet)
      .nullable(),
    tcp_socket: z.object({ port: portShown }).strict().describe(FIELD.tcpSocket).nullable(),
    failure_threshold: integer().describe(FIELD.failureThreshold),
    success_threshold: integer().describe(FIELD.successThreshold),
    initial_delay_seconds: integer().describe(FIELD.initialDelaySeconds),
    period_seconds: integer().describe(FIELD.periodSeconds),
    timeout_seconds: integer().describe(FIELD.timeoutSeconds),
  })
  .strict()
  .describe(FIELD.probe);
const probeConfigShown = (which: string) =>
  z.object({ enabled: z.boolean(), probe: probeShown.nullable() }).strict().describe(FIELD.probeConfig(which)).nullable();

const inferenceDeploymentSchema = z
  .object({
    name: z.string(),
    project_id: integer(),
    status: stringEnum(INFERENCE_DEPLOYMENT_STATUSES).describe(STATUS_MODEL),
    address: z.string().nullable().describe("Where callers reach the deployment, while it is ACTIVE or PENDING; null otherwise."),
    description: z.string(),
    image: z.string().describe(FIELD.image),
    listening_port: integer().describe(FIELD.listeningPort),
    flavor_name: z.string().describe(FIELD.flavorName),
    command: z.string().nullable().describe("The command and its arguments, joined by spaces; null: the image's own."),
    credentials_name: z.string().nullable().describe("The registry credentials the image is pulled with, or null."),
    envs: z.record(z.string()).describe("Environment variables of the containers."),
    api_keys: z.array(z.string()).describe("The project's API keys callers may use."),
    auth_enabled: z.boolean().describe("Whether calls need an API key: true when `api_keys` names any (or auth_enabled was set)."),
    containers: z
      .array(
        z
          .object({
            region_id: integer(),
            address: z.string().nullable().describe("The region's own address, while the deployment is ACTIVE or PENDING; null otherwise."),
            deploy_status: z
              .object({
                total: integer().describe("Replicas the region runs: `scale.min`, while the deployment runs; 0 while it is stopped."),
                ready: integer().describe("Replicas ready: `total` once the deployment is ACTIVE, 0 before."),
              })
              .strict()
              .describe("How far the region's replicas are."),
            error_message: z.string().nullable().describe("Why the region's containers failed, or null."),
            scale: z
              .object({
                min: integer().describe(FIELD.min),
                max: integer().describe(FIELD.max),
                cooldown_period: integer().nullable().describe(FIELD.cooldownPeriod),
                polling_interval: integer().nullable().describe(FIELD.pollingInterval),
                triggers: z
                  .object({
                    cpu: thresholdShown("CPU use"),
                    gpu_memory: thresholdShown("GPU memory copy utilisation"),
                    gpu_utilization: thresholdShown("GPU utilisation"),
                    http: z
                      .object({ rate: integer().describe(FIELD.rate), window: integer().describe(FIELD.window) })
                      .strict()
                      .describe(FIELD.httpTrigger)
                      .nullable(),
                    memory: thresholdShown("memory use"),
                    sqs: z
                      .object({
                        activation_queue_length: integer().describe(FIELD.activationQueueLength),
                        aws_endpoint: z.string().nullable().describe(FIELD.awsEndpoint),
                        aws_region: z.string().describe(FIELD.awsRegion),
                        queue_length: integer().describe(FIELD.queueLength),
                        queue_url: z.string().describe(FIELD.queueUrl),
                        secret_name: z.string().describe(FIELD.secretName),
                        scale_on_delayed: z.boolean().describe(FIELD.scaleOnDelayed),
                        scale_on_flight: z.boolean().describe(FIELD.scaleOnFlight),
                      })
                      .strict()
                      .describe(FIELD.sqsTrigger)
                      .nullable(),
                  })
                  .strict()
                  .describe(FIELD.triggers),
              })
              .strict()
              .describe(FIELD.scale),
          })
          .strict(),
      )
      .describe(FIELD.containers),
    ingress_opts: z
      .object({ disable_response_buffering: z.boolean().describe(FIELD.disableResponseBuffering) })
      .strict()
      .describe(FIELD.ingressOpts)
      .nullable(),
    logging: z
      .object({
        enabled: z.boolean(),
        destination_region_id: integer().nullable().describe(FIELD.destinationRegionId),
        topic_name: z.string().nullable().describe(FIELD.topicName),
        retention_policy: z
          .object({ period: integer().nullable().describe(FIELD.period) })
          .strict()
          .describe(FIELD.retentionPolicy)
          .nullable(),
      })
      .strict()
      .describe(FIELD.logging)
      .nullable(),
    probes: z
      .object({ liveness_probe: probeConfigShown("liveness"), readiness_probe: probeConfigShown("readiness"), startup_probe: probeConfigShown("startup") })
      .strict()
      .describe(FIELD.probes)
      .nullable(),
    timeout: integer().nullable().describe(FIELD.timeout),
    object_references: z
      .array(z.object({ kind: z.literal("AppDeployment").describe("What the object is: an application deployment."), name: z.string() }).strict())
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
    message: z.string().describe("The line, without its line break."),
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
      body: () => {
        const name = uniqueName("rc-dep");
        return { name, image: "nginx:1.27", listening_port: 80, flavor_name: "inference-2vcpu-8gib-cpu", containers: [{ region_id: 1, scale: { min: 1, max: 1 } }] };
      },
    },
  }),
  startInferenceDeployment: route({
    method: "POST",
    path: "/cloud/v3/inference/:project_id/deployments/:deployment_name/start",
    pathParams: deploymentPathParams,
    body: emptyInput(),
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
    body: emptyInput(),
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
      path: (w, made) => `${basePath(w)}/${typeof made?.name === "string" ? made.name : `missing-deployment-${w.account}`}`,
      ownsObjects: true,
      makes: "cloud.createInferenceDeployment",
    },
  }),
} as const;
