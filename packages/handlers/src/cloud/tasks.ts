/**
 * Cloud tasks: a task of the account, as an image upload or deletion recorded it.
 */
import { cloudTasksRoutes, type CloudTask } from "@cloudplane/contract";
import { and, eq, schema } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { notFound } from "../errors.js";
import { isoTime } from "../format.js";
import type { RequestExtension, RouteDeps } from "../types.js";
import { served } from "../served.js";

// The table under a name of its own: `cloudTasks` names this module's routes.
const { cloudTasks: cloudTasksTable } = schema;

function toTask(row: typeof cloudTasksTable.$inferSelect): CloudTask {
  const finished = row.finishedOn ?? row.createdOn;
  return {
    id: row.id,
    task_type: row.taskType as CloudTask["task_type"],
    state: row.state,
    detailed_state: row.state,
    created_on: isoTime(row.createdOn),
    updated_on: isoTime(finished),
    finished_on: row.finishedOn ? isoTime(row.finishedOn) : null,
    client_id: row.accountId,
    user_id: row.userId,
    project_id: row.projectId,
    region_id: row.regionId,
    created_resources: row.createdResources?.images ? { images: row.createdResources.images } : null,
    data: row.data,
    error: null,
    acknowledged_at: null,
    acknowledged_by: null,
  };
}

export function cloudTasks({ db }: RouteDeps) {
  return tsr.routerWithMiddleware(served("cloud", cloudTasksRoutes))<RequestExtension>({
    getTask: async ({ params }, { request: { caller } }) => {
      const [row] = await db
        .select()
        .from(cloudTasksTable)
        .where(and(eq(cloudTasksTable.accountId, caller.accountId), eq(cloudTasksTable.id, params.task_id)));
      if (!row) throw notFound(`Task ${params.task_id}`);
      return { status: 200, body: toTask(row) };
    },
  });
}
