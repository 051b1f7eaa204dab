/**
 * Cloud projects: the account's projects, the oldest its default one.
 */
import { cloudProjectsRoutes } from "@cloudplane/contract";
import { and, asc, count, desc, eq, schema, sql } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { isoTime } from "../format.js";
import type { RequestExtension, RouteDeps } from "../types.js";
import { served } from "../served.js";

// The table under a name of its own: `cloudProjects` names this module's routes.
const { cloudProjects: cloudProjectsTable } = schema;

export function cloudProjects({ db }: RouteDeps) {
  return tsr.routerWithMiddleware(served("cloud", cloudProjectsRoutes))<RequestExtension>({
    listProjects: async ({ query }, { request: { caller } }) => {
      const where = and(eq(cloudProjectsTable.accountId, caller.accountId), query.name === undefined ? undefined : eq(cloudProjectsTable.name, query.name));
      const [field, direction] = query.order_by.split(".") as ["created_at" | "name", "asc" | "desc"];
      const order = direction === "asc" ? asc : desc;
      const column = field === "name" ? sql`${cloudProjectsTable.name} collate "C"` : sql`${cloudProjectsTable.created}`;
      const [rows, [total], [first]] = await Promise.all([
        db.select().from(cloudProjectsTable).where(where).orderBy(order(column), asc(cloudProjectsTable.id)).limit(query.limit).offset(query.offset),
        db.select({ total: count() }).from(cloudProjectsTable).where(where),
        // The default project: the account's oldest, whatever the filter.
        db.select({ id: sql<number>`min(${cloudProjectsTable.id})` }).from(cloudProjectsTable).where(eq(cloudProjectsTable.accountId, caller.accountId)),
      ]);
      const results = rows.map((row) => ({
        id: row.id,
        client_id: row.accountId,
        name: row.name,
        description: row.description,
        is_default: row.id === Number(first?.id),
        state: "ACTIVE",
        created_at: isoTime(row.created),
        deleted_at: null,
        task_id: null,
      }));
      return { status: 200, body: { count: total?.total ?? 0, results } };
    },
  });
}
