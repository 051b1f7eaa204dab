/**
 * What the inference routes share: the project every path names, the tasks their asynchronous actions
 * answer (stored as the GPU images' are), and the moment a deletion is done.
 */
import { INFERENCE_TIMING } from "@cloudplane/contract";
import { and, eq, schema, sql, type CloudTaskResources, type Database, type SQLWrapper } from "@cloudplane/db";
import type { Caller } from "../auth.js";
import { notFound } from "../errors.js";

const { cloudProjects, cloudTasks } = schema;

/** 404 unless the project is the account's: every project-scoped inference route is under one. */
export async function requireProject(db: Pick<Database, "select">, accountId: number, projectId: number): Promise<void> {
  const [project] = await db
    .select({ id: cloudProjects.id })
    .from(cloudProjects)
    .where(and(eq(cloudProjects.accountId, accountId), eq(cloudProjects.id, projectId)));
  if (!project) throw notFound(`Project ${projectId}`);
}

/** Objects whose deletion was asked for before this moment are gone: no route shows or counts them. */
export function deletedBefore(now: Date): Date {
  return new Date(now.getTime() - INFERENCE_TIMING.deletedAfter * 1000);
}

/** Whether a row of `state` since `since` is still there at `now` (a deletion not yet done counts as there). */
export function isThere(state: string, since: Date, now: Date): boolean {
  return state !== "deleting" || since > deletedBefore(now);
}

/** The SQL condition of `isThere` on a table's `state` and `state_since` columns. */
export function thereCondition(table: { state: SQLWrapper; stateSince: SQLWrapper }, now: Date) {
  return sql`(${table.state} <> 'deleting' or ${table.stateSince} > ${deletedBefore(now).toISOString()}::timestamptz)`;
}

/** What an inference task made, as the platform's tasks name them (the tasks table's type knows the images only). */
type InferenceTaskResources = CloudTaskResources & { inference_instances?: string[]; inference_applications?: string[] };

export type InferenceTaskType =
  | "create_inference_instance"
  | "update_inference_instance"
  | "delete_inference_instance"
  | "create_inference_application"
  | "update_inference_application"
  | "delete_inference_application";

/**
 * Records the task of an inference action in the request's transaction and gives its id. The action's
 * work is done by the time the task is answered (the object's status moves on by itself), so the task is
 * stored finished, as the image uploads' are.
 */
export async function recordTask(
  tx: Pick<Database, "insert">,
  caller: Caller,
  projectId: number,
  taskType: InferenceTaskType,
  created: InferenceTaskResources | null,
  data: Record<string, unknown>,
  now: Date,
): Promise<string> {
  const [task] = await tx
    .insert(cloudTasks)
    .values({
      accountId: caller.accountId,
      userId: caller.userId,
      projectId,
      regionId: null,
      taskType,
      state: "FINISHED",
      createdResources: created,
      data,
      createdOn: now,
      finishedOn: now,
    })
    .returning({ id: cloudTasks.id });
  return task!.id;
}
