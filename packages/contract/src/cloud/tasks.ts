/**
 * Cloud tasks: the records of the asynchronous operations on the account's cloud resources (v1), their
 * schema and their route.
 */
import { z } from "zod";
import { errorResponses, integer, isoTimestamp, stringEnum, uuid } from "../common.js";
import { route } from "../route.js";
import { read } from "./shared.js";

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

// The examples' objects: the demo data's, of account 1.
/** The task of the demo data that uploaded account 1's own image. */
const demoTaskId = "27f197ca-ad26-40dd-ad43-3e8918557fd9";

export const cloudTasksRoutes = {
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
} as const;
