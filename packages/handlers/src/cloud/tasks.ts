/**
 * Cloud tasks: the records of the account's asynchronous operations, how an operation starts one, and the
 * routes that list, read and acknowledge them. A task's state is computed when it is read, from when it
 * finishes (contract: CLOUD_TASK_RUNNING_SECONDS).
 */
import { CLOUD_TASK_RUNNING_SECONDS, cloudTasksRoutes, instantOf, type CloudTask } from "@cloudplane/contract";
import { and, asc, count, desc, eq, gt, gte, inArray, isNotNull, isNull, lte, or, schema, sql, type SQL } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { notFound } from "../errors.js";
import { isoTime } from "../format.js";
import type { Caller } from "../auth.js";
import type { RequestExtension, RouteDeps } from "../types.js";
import { served } from "../served.js";
import type { Transaction } from "../cdn/shared.js";

// The table under a name of its own: `cloudTasks` names this module's routes.
const { cloudTasks: cloudTasksTable } = schema;

type TaskRow = typeof cloudTasksTable.$inferSelect;
type TaskType = CloudTask["task_type"];

/** What an operation's task records: its type, where, what it made and what it was asked. */
export interface TaskStart {
  taskType: TaskType;
  projectId: number | null;
  regionId: number | null;
  createdResources?: TaskRow["createdResources"];
  data: Record<string, unknown>;
  /** The task's id, when it should be the id of what it makes (so that the answer's task id names it too). */
  id?: string;
  /** When the operation happened, the time of what it wrote too; default: now. */
  now?: Date;
}

/**
 * Records the task of an operation, in the operation's transaction: it reports RUNNING until
 * CLOUD_TASK_RUNNING_SECONDS after now, FINISHED from then on. Answers the task's id.
 */
export async function startTask(tx: Transaction, caller: Caller, start: TaskStart): Promise<string> {
  const now = start.now ?? new Date();
  const [task] = await tx
    .insert(cloudTasksTable)
    .values({
      ...(start.id ? { id: start.id } : {}),
      accountId: caller.accountId,
      userId: caller.userId,
      projectId: start.projectId,
      regionId: start.regionId,
      taskType: start.taskType,
      state: "FINISHED",
      createdResources: start.createdResources ?? null,
      data: start.data,
      createdOn: now,
      finishedOn: new Date(now.getTime() + CLOUD_TASK_RUNNING_SECONDS * 1000),
    })
    .returning({ id: cloudTasksTable.id });
  return task!.id;
}

/** Whether a task is still running at `now`: its end not reached, or not known (a task the service has not ended). */
function isRunning(row: TaskRow, now: Date): boolean {
  return row.finishedOn === null ? row.state === "RUNNING" || row.state === "NEW" : row.finishedOn.getTime() > now.getTime();
}

function toTask(row: TaskRow, now: Date): CloudTask {
  const running = isRunning(row, now);
  const state = (running ? (row.state === "NEW" ? "NEW" : "RUNNING") : row.state) as CloudTask["state"];
  return {
    id: row.id,
    task_type: row.taskType as TaskType,
    state,
    detailed_state: state === "FINISHED" || state === "ERROR" ? state : null,
    created_on: isoTime(row.createdOn),
    updated_on: isoTime(running || row.finishedOn === null ? row.createdOn : row.finishedOn),
    finished_on: running || row.finishedOn === null ? null : isoTime(row.finishedOn),
    client_id: row.accountId,
    user_client_id: row.accountId,
    user_id: row.userId,
    project_id: row.projectId,
    region_id: row.regionId,
    created_resources: row.createdResources && Object.keys(row.createdResources).length > 0 ? (row.createdResources) : null,
    data: row.data,
    error: row.error,
    acknowledged_at: row.acknowledgedAt ? isoTime(row.acknowledgedAt) : null,
    acknowledged_by: row.acknowledgedBy,
    job_id: null,
    lifecycle_policy_id: null,
    schedule_id: null,
    request_id: null,
  };
}

/** The condition of the tasks in `state` at `now`, as toTask computes it. */
function inState(state: CloudTask["state"], now: Date): SQL | undefined {
  const { finishedOn, state: stored } = cloudTasksTable;
  const ended = or(and(isNotNull(finishedOn), lte(finishedOn, now)), and(isNull(finishedOn), sql`${stored} not in ('RUNNING', 'NEW')`));
  if (state === "FINISHED" || state === "ERROR") return and(ended, eq(stored, state));
  if (state === "NEW") return and(isNull(finishedOn), eq(stored, "NEW"));
  return or(and(isNotNull(finishedOn), gt(finishedOn, now)), and(isNull(finishedOn), eq(stored, "RUNNING")));
}


export function cloudTasks({ db }: RouteDeps) {
  const accountTask = (accountId: number, taskId: string) => and(eq(cloudTasksTable.accountId, accountId), eq(cloudTasksTable.id, taskId));

  return tsr.routerWithMiddleware(served("cloud", cloudTasksRoutes))<RequestExtension>({
    listTasks: async ({ query }, { request: { caller } }) => {
      const now = new Date();
      const where = and(
        eq(cloudTasksTable.accountId, caller.accountId),
        query.from_timestamp === undefined ? undefined : gte(cloudTasksTable.createdOn, instantOf(query.from_timestamp)!),
        query.to_timestamp === undefined ? undefined : lte(cloudTasksTable.createdOn, instantOf(query.to_timestamp)!),
        query.is_acknowledged === undefined ? undefined : query.is_acknowledged ? isNotNull(cloudTasksTable.acknowledgedAt) : isNull(cloudTasksTable.acknowledgedAt),
        query.project_id?.length ? inArray(cloudTasksTable.projectId, query.project_id) : undefined,
        query.region_id?.length ? inArray(cloudTasksTable.regionId, query.region_id) : undefined,
        query.state?.length ? or(...query.state.map((state) => inState(state, now))) : undefined,
        query.task_type === undefined ? undefined : eq(cloudTasksTable.taskType, query.task_type),
      );
      const order = (query.order_by ?? query.sorting ?? "asc") === "asc" ? asc : desc;
      const [rows, [total]] = await Promise.all([
        db.select().from(cloudTasksTable).where(where).orderBy(order(cloudTasksTable.createdOn), order(cloudTasksTable.id)).limit(query.limit).offset(query.offset),
        db.select({ total: count() }).from(cloudTasksTable).where(where),
      ]);
      return { status: 200, body: { count: total?.total ?? 0, results: rows.map((row) => toTask(row, now)) } };
    },

    getTask: async ({ params }, { request: { caller } }) => {
      const [row] = await db.select().from(cloudTasksTable).where(accountTask(caller.accountId, params.task_id));
      if (!row) throw notFound(`Task ${params.task_id}`);
      return { status: 200, body: toTask(row, new Date()) };
    },

    acknowledgeTask: async ({ params }, { request: { caller } }) => {
      // One statement: a task acknowledged before keeps its first acknowledgement.
      const [row] = await db
        .update(cloudTasksTable)
        .set({
          acknowledgedAt: sql`coalesce(${cloudTasksTable.acknowledgedAt}, now())`,
          acknowledgedBy: sql`coalesce(${cloudTasksTable.acknowledgedBy}, ${caller.userId}::integer)`,
        })
        .where(accountTask(caller.accountId, params.task_id))
        .returning();
      if (!row) throw notFound(`Task ${params.task_id}`);
      return { status: 200, body: toTask(row, new Date()) };
    },

    acknowledgeAllTasks: async ({ query }, { request: { caller } }) => {
      await db
        .update(cloudTasksTable)
        .set({ acknowledgedAt: sql`now()`, acknowledgedBy: caller.userId })
        .where(
          and(
            eq(cloudTasksTable.accountId, caller.accountId),
            isNull(cloudTasksTable.acknowledgedAt),
            query.project_id === undefined ? undefined : eq(cloudTasksTable.projectId, query.project_id),
            query.region_id === undefined ? undefined : eq(cloudTasksTable.regionId, query.region_id),
          ),
        );
      return { status: 204, body: undefined };
    },
  });
}
