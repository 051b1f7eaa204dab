/**
 * Cloud projects: the account's projects, the oldest its default one; created and changed at once,
 * deleted with everything in them by a task. Also the check every route under a project and region makes.
 */
import { cloudProjectsRoutes, MAX_CLOUD_PROJECTS, type CloudProject } from "@cloudplane/contract";
import { and, asc, count, type Database, desc, eq, schema, sql } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { conflict, notFound } from "../errors.js";
import { isoTime } from "../format.js";
import type { RequestExtension, RouteDeps } from "../types.js";
import { served } from "../served.js";
import { nameTaken } from "../edge/shared.js";
import { startTask } from "./tasks.js";

// The table under a name of its own: `cloudProjects` names this module's routes.
const { cloudProjects: cloudProjectsTable, cloudRegions, cloudSecrets, gpuImages } = schema;

type ProjectRow = typeof cloudProjectsTable.$inferSelect;

function toProject(row: ProjectRow, defaultId: number | undefined): CloudProject {
  return {
    id: row.id,
    client_id: row.accountId,
    name: row.name,
    description: row.description,
    is_default: row.id === defaultId,
    state: "ACTIVE",
    created_at: isoTime(row.created),
    deleted_at: null,
    task_id: null,
  };
}

/** The id of the account's default project: its oldest (lowest id). */
async function defaultProjectId(db: Pick<Database, "select">, accountId: number): Promise<number | undefined> {
  const [first] = await db
    .select({ id: sql<number | null>`min(${cloudProjectsTable.id})` })
    .from(cloudProjectsTable)
    .where(eq(cloudProjectsTable.accountId, accountId));
  return first?.id === null || first?.id === undefined ? undefined : Number(first.id);
}

/** 404 unless the project is the account's and the region exists: every route under a project and a region checks both. */
export async function requireProjectRegion(db: Pick<Database, "select">, accountId: number, projectId: number, regionId: number): Promise<void> {
  const [project] = await db
    .select({ id: cloudProjectsTable.id })
    .from(cloudProjectsTable)
    .where(and(eq(cloudProjectsTable.accountId, accountId), eq(cloudProjectsTable.id, projectId)));
  if (!project) throw notFound(`Project ${projectId}`);
  const [region] = await db.select({ id: cloudRegions.id }).from(cloudRegions).where(eq(cloudRegions.id, regionId));
  if (!region) throw notFound(`Region ${regionId}`);
}

export function cloudProjects({ db }: RouteDeps) {
  const accountProject = (accountId: number, projectId: number) => and(eq(cloudProjectsTable.accountId, accountId), eq(cloudProjectsTable.id, projectId));

  return tsr.routerWithMiddleware(served("cloud", cloudProjectsRoutes))<RequestExtension>({
    listProjects: async ({ query }, { request: { caller } }) => {
      const where = and(eq(cloudProjectsTable.accountId, caller.accountId), query.name === undefined ? undefined : eq(cloudProjectsTable.name, query.name));
      const [field, direction] = query.order_by.split(".") as ["created_at" | "name", "asc" | "desc"];
      const order = direction === "asc" ? asc : desc;
      const column = field === "name" ? sql`${cloudProjectsTable.name} collate "C"` : sql`${cloudProjectsTable.created}`;
      const [rows, [total], first] = await Promise.all([
        db.select().from(cloudProjectsTable).where(where).orderBy(order(column), asc(cloudProjectsTable.id)).limit(query.limit).offset(query.offset),
        db.select({ total: count() }).from(cloudProjectsTable).where(where),
        // The default project: the account's oldest, whatever the filter.
        defaultProjectId(db, caller.accountId),
      ]);
      return { status: 200, body: { count: total?.total ?? 0, results: rows.map((row) => toProject(row, first)) } };
    },

    getProject: async ({ params }, { request: { caller } }) => {
      const [[row], first] = await Promise.all([
        db.select().from(cloudProjectsTable).where(accountProject(caller.accountId, params.project_id)),
        defaultProjectId(db, caller.accountId),
      ]);
      if (!row) throw notFound(`Project ${params.project_id}`);
      return { status: 200, body: toProject(row, first) };
    },

    createProject: async ({ body }, { request: { caller } }) => {
      const answer = await db
        .transaction(async (tx) => {
          // The account's row is locked first, so that two creates cannot both pass the count.
          await tx.execute(sql`select 1 from ${schema.accounts} where ${schema.accounts.id} = ${caller.accountId} for update`);
          const [held] = await tx.select({ total: count() }).from(cloudProjectsTable).where(eq(cloudProjectsTable.accountId, caller.accountId));
          if ((held?.total ?? 0) >= MAX_CLOUD_PROJECTS) throw conflict(`The account already has ${MAX_CLOUD_PROJECTS} projects, the most it may hold.`);
          const [row] = await tx
            .insert(cloudProjectsTable)
            .values({ accountId: caller.accountId, name: body.name, description: body.description ?? "" })
            .returning();
          return toProject(row!, await defaultProjectId(tx, caller.accountId));
        })
        .catch(nameTaken("a project", JSON.stringify(body.name)));
      return { status: 201, body: answer };
    },

    updateProject: async ({ params, body }, { request: { caller } }) => {
      const answer = await db
        .transaction(async (tx) => {
          const change = {
            ...(body.name === undefined ? {} : { name: body.name }),
            ...(body.description === undefined ? {} : { description: body.description }),
          };
          const [row] =
            Object.keys(change).length === 0
              ? await tx.select().from(cloudProjectsTable).where(accountProject(caller.accountId, params.project_id))
              : await tx.update(cloudProjectsTable).set(change).where(accountProject(caller.accountId, params.project_id)).returning();
          if (!row) throw notFound(`Project ${params.project_id}`);
          return toProject(row, await defaultProjectId(tx, caller.accountId));
        })
        .catch(nameTaken("a project", JSON.stringify(body.name)));
      return { status: 200, body: answer };
    },

    deleteProject: async ({ params }, { request: { caller } }) => {
      const taskId = await db.transaction(async (tx) => {
        const [row] = await tx.select().from(cloudProjectsTable).where(accountProject(caller.accountId, params.project_id)).for("update");
        if (!row) throw notFound(`Project ${params.project_id}`);
        if (row.id === (await defaultProjectId(tx, caller.accountId)))
          throw conflict(`Project ${row.id} is the account's default project, which cannot be deleted.`);
        // Everything in the project goes with it, in every region, as on the platform.
        const inProject = <T extends typeof gpuImages | typeof cloudSecrets>(table: T) => and(eq(table.accountId, caller.accountId), eq(table.projectId, row.id));
        await tx.delete(gpuImages).where(inProject(gpuImages));
        await tx.delete(cloudSecrets).where(inProject(cloudSecrets));
        await tx.delete(cloudProjectsTable).where(accountProject(caller.accountId, row.id));
        return startTask(tx, caller, { taskType: "delete_project", projectId: row.id, regionId: null, data: { project_id: row.id } });
      });
      return { status: 200, body: { tasks: [taskId] } };
    },
  });
}
