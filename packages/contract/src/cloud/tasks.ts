/**
 * Cloud tasks: the records of the asynchronous operations on the account's cloud resources (v1), their
 * schema and their routes (list, get, acknowledge one or all).
 */
import { initContract } from "@ts-rest/core";
import { z } from "zod";
import { booleanQuery, emptyInput, errorResponses, idParam, integer, isoTimestamp, pageOf, paging, stringEnum, uuid, withBody } from "../common.js";
import { idListQuery } from "../cdn/logs-uploader/shared.js";
import { textListQuery } from "../cdn/statistics.js";
import { route } from "../route.js";
import type { CaseObject } from "../route-case.js";
import { isoInstant, read, write } from "./shared.js";

const c = initContract();

export const CLOUD_TASK_TYPES = [
  "upload_gpu_virtual_image",
  "delete_gpu_virtual_image",
  "upload_gpu_baremetal_image",
  "delete_gpu_baremetal_image",
  "delete_project",
  "create_secret",
  "delete_secret",
  "create_inference_instance",
  "update_inference_instance",
  "delete_inference_instance",
  "create_inference_application",
  "update_inference_application",
  "delete_inference_application",
] as const;

export const CLOUD_TASK_STATES = ["NEW", "RUNNING", "FINISHED", "ERROR"] as const;

/**
 * How long a task started through this API reports RUNNING before its final state: the change it makes
 * is done in the request that starts it, and the task shows the platform's course (RUNNING, then FINISHED).
 */
export const CLOUD_TASK_RUNNING_SECONDS = 2;

const stateModel =
  `A task started through this API reports RUNNING (detailed_state null) for its first ${CLOUD_TASK_RUNNING_SECONDS} seconds and ` +
  "FINISHED from then on (finished_on is then set, and updated_on with it); the change it stands for is already made " +
  "when its id is answered, so a client that waits for FINISHED, as the platform's clients do, never waits long.";

const cloudTaskSchema = z
  .object({
    id: uuid.describe("The task id."),
    task_type: stringEnum(CLOUD_TASK_TYPES).describe(`What the task does: ${CLOUD_TASK_TYPES.join(", ")}.`),
    state: stringEnum(CLOUD_TASK_STATES).describe(`NEW, RUNNING, FINISHED or ERROR. ${stateModel}`),
    detailed_state: stringEnum(["FINISHED", "ERROR"]).nullable().describe("FINISHED or ERROR once the task has ended, as state; null while it runs."),
    created_on: isoTimestamp,
    updated_on: isoTimestamp.describe("When the task last changed: when it started, or when it ended."),
    finished_on: isoTimestamp.nullable().describe("When the task ended; null while it runs."),
    client_id: integer().describe("The account id."),
    user_client_id: integer().describe("The account of the user whose token started the task: the account id."),
    user_id: integer().describe("The user whose token started the task."),
    project_id: integer().nullable(),
    region_id: integer().nullable(),
    created_resources: z
      .object({
        images: z.array(z.string()).optional().describe("The ids of the images the task made."),
        secrets: z.array(z.string()).optional().describe("The ids of the secrets the task made."),
        inference_instances: z.array(z.string()).optional().describe("The names of the inference deployments the task made or changed."),
        inference_applications: z.array(z.string()).optional().describe("The names of the inference application deployments the task made or changed."),
      })
      .strict()
      .nullable()
      .describe("What the task made, by kind (only the kinds it made are named), or null when it made nothing (a deletion)."),
    data: z.record(z.unknown()).nullable().describe("What the task was asked: image_name for an upload, image_id, project_id or secret_id for a deletion, name for a secret."),
    error: z.string().nullable().describe("Why the task failed, or null."),
    acknowledged_at: isoTimestamp.nullable().describe("When a user of the account acknowledged the task, or null."),
    acknowledged_by: integer().nullable().describe("The user who acknowledged it, or null."),
    job_id: z.string().nullable().describe("Always null: no task here belongs to a job."),
    lifecycle_policy_id: integer().nullable().describe("Always null: no task here is started by a lifecycle policy."),
    schedule_id: z.string().nullable().describe("Always null: no task here is started by a schedule."),
    request_id: z.string().nullable().describe("Always null: the request id is in the answer's x-request-id header instead."),
  })
  .strict()
  .describe("A task: the record of an asynchronous operation on the account's cloud resources.");
export interface CloudTaskSchema extends CloudTaskSchemaType {}
type CloudTaskSchemaType = typeof cloudTaskSchema;
export const cloudTask: CloudTaskSchema = cloudTaskSchema;

export type CloudTask = z.infer<typeof cloudTask>;

const sinceOrUntil = isoInstant;

const listCloudTasksQuerySchema = z.object({
  ...paging("tasks", 10),
  order_by: stringEnum(["asc", "desc"]).optional().describe("By creation time (ties by id): asc, oldest first, or desc. Default asc."),
  sorting: stringEnum(["asc", "desc"]).optional().describe("The platform's older name for order_by, used when order_by is not given."),
  from_timestamp: sinceOrUntil("Only tasks created at or after this time (ISO 8601; without a zone, UTC).").optional(),
  to_timestamp: sinceOrUntil("Only tasks created at or before this time (ISO 8601; without a zone, UTC).").optional(),
  is_acknowledged: booleanQuery("true: only acknowledged tasks; false: only tasks not acknowledged.").optional(),
  project_id: idListQuery("Only tasks of these projects (repeat the parameter, or separate the ids with commas).").optional(),
  region_id: idListQuery("Only tasks in these regions (repeat the parameter, or separate the ids with commas).").optional(),
  state: textListQuery(CLOUD_TASK_STATES, "states", "Only tasks in these states, as they are at the time of the request (repeated or comma-separated).").optional(),
  task_type: z.string().max(255).optional().describe("Only tasks of this type, e.g. upload_gpu_virtual_image."),
});
export interface ListCloudTasksQuerySchema extends ListCloudTasksQuerySchemaType {}
type ListCloudTasksQuerySchemaType = typeof listCloudTasksQuerySchema;
export const listCloudTasksQuery: ListCloudTasksQuerySchema = listCloudTasksQuerySchema;
export type ListCloudTasksQuery = z.input<typeof listCloudTasksQuery>;

const cloudTaskListSchema = pageOf(cloudTask, "tasks");
export interface CloudTaskListSchema extends CloudTaskListSchemaType {}
type CloudTaskListSchemaType = typeof cloudTaskListSchema;
export const cloudTaskList: CloudTaskListSchema = cloudTaskListSchema;
export type CloudTaskList = z.infer<typeof cloudTaskList>;

// The examples' objects: the demo data's, of account 1.
/** The task of the demo data that uploads an image of account 1's research project, still running. */
const demoTaskId = "27f197ca-ad26-40dd-ad43-3e8918557fd9";
const demoTask: CloudTask = {
  id: demoTaskId,
  task_type: "upload_gpu_virtual_image",
  state: "RUNNING",
  detailed_state: null,
  created_on: "2026-03-12T09:03:00.000Z",
  updated_on: "2026-03-12T09:03:00.000Z",
  finished_on: null,
  client_id: 1,
  user_client_id: 1,
  user_id: 1,
  project_id: 3,
  region_id: 2,
  created_resources: null,
  data: { image_name: "debian-12-x64-nvidia-535" },
  error: null,
  acknowledged_at: null,
  acknowledged_by: null,
  job_id: null,
  lifecycle_policy_id: null,
  schedule_id: null,
  request_id: null,
};

const taskPathParams = z.object({ task_id: uuid.describe("The task id, a UUID.") });
/** The path of the cases' task: the one the case's upload started, else an id of no task. */
const taskPath = (account: number, made: CaseObject | undefined) =>
  (made?.tasks as string[] | undefined)?.[0] ?? `00000000-0000-4000-8000-00000000001${account}`;

export const cloudTasksRoutes = {
  listTasks: route({
    method: "GET",
    path: "/cloud/v1/tasks",
    query: listCloudTasksQuery,
    responses: { 200: cloudTaskList, ...errorResponses() },
    summary: "List tasks",
    description:
      "The account's tasks that match every filter given, ordered by creation time (`order_by`, default asc; ties by " +
      "id) and paged by `limit` (default 10, at most 1000) and `offset`; `count` is the number of all matches. " +
      `${stateModel} The state filter sees each task's state at the time of the request.`,
    metadata: read,
  }, {
    example: {
      query: { state: "RUNNING", limit: 10, offset: 0 },
      response: { count: 1, results: [demoTask] },
    },
    case: { path: () => "/cloud/v1/tasks?order_by=desc&limit=5&state=FINISHED,RUNNING", ownsObjects: false },
  }),
  getTask: route({
    method: "GET",
    path: "/cloud/v1/tasks/:task_id",
    pathParams: taskPathParams,
    responses: { 200: cloudTask, ...errorResponses() },
    summary: "Get a task",
    description: `A task of the account, as an operation that answers \`{tasks}\` started it. ${stateModel} Another account's task answers 404.`,
    metadata: read,
  }, {
    example: { pathParams: { task_id: demoTaskId }, response: demoTask },
    case: { path: (w, made) => `/cloud/v1/tasks/${taskPath(w.account, made)}`, ownsObjects: true, makes: "cloud.uploadGpuImage" },
  }),
  acknowledgeTask: route({
    method: "POST",
    path: "/cloud/v1/tasks/:task_id/acknowledge",
    pathParams: taskPathParams,
    body: emptyInput(),
    responses: { 200: cloudTask, ...errorResponses(withBody) },
    summary: "Acknowledge a task",
    description:
      "Marks a task of the account as seen: acknowledged_at is set to now and acknowledged_by to the caller's user, and " +
      "the task is answered. A task acknowledged before keeps its first acknowledgement. Any state may be acknowledged.",
    metadata: write,
  }, {
    example: {
      pathParams: { task_id: demoTaskId },
      body: {},
      response: { ...demoTask, acknowledged_at: "2026-11-20T10:00:00.000Z", acknowledged_by: 1 },
    },
    case: { path: (w, made) => `/cloud/v1/tasks/${taskPath(w.account, made)}/acknowledge`, ownsObjects: true, makes: "cloud.uploadGpuImage" },
  }),
  acknowledgeAllTasks: route({
    method: "POST",
    path: "/cloud/v1/tasks/acknowledge_all",
    query: z.object({
      project_id: idParam("Only the tasks of this project.").optional(),
      region_id: idParam("Only the tasks in this region.").optional(),
    }),
    body: emptyInput(),
    responses: { 204: c.noBody(), ...errorResponses(withBody) },
    summary: "Acknowledge all tasks",
    description:
      "Marks every task of the account not yet acknowledged (of `project_id` and in `region_id`, when given) as seen by " +
      "the caller, in one transaction, and answers 204. Ids of no project or region of the account match nothing.",
    metadata: write,
  }, {
    example: { query: { project_id: 3 }, body: {} },
    case: { path: () => "/cloud/v1/tasks/acknowledge_all?region_id=3", ownsObjects: false },
  }),
} as const;
