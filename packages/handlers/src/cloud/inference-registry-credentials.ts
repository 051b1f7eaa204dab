/**
 * Cloud inference registry credentials: a project's logins to private registries. The password is
 * encrypted before it is stored and never read back here.
 */
import { cloudInferenceRegistryCredentialsRoutes, type InferenceRegistryCredentials } from "@cloudplane/contract";
import { and, asc, count, encryptSecret, eq, ne, schema, sql } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { sqlState } from "../database-errors.js";
import { conflict, listed, notFound } from "../errors.js";
import type { RequestExtension, RouteDeps } from "../types.js";
import { served } from "../served.js";
import { requireProject } from "./inference-shared.js";

const { inferenceRegistryCredentials: credentials, inferenceDeployments } = schema;

function toCredentials(row: typeof credentials.$inferSelect): InferenceRegistryCredentials {
  return { name: row.name, project_id: row.projectId, registry_url: row.registryUrl, username: row.username };
}

const named = (accountId: number, projectId: number, name: string) =>
  and(eq(credentials.accountId, accountId), eq(credentials.projectId, projectId), eq(credentials.name, name));

export function cloudInferenceRegistryCredentials({ db, secretsKey }: RouteDeps) {
  return tsr.routerWithMiddleware(served("cloud", cloudInferenceRegistryCredentialsRoutes))<RequestExtension>({
    listInferenceRegistryCredentials: async ({ params, query }, { request: { caller } }) => {
      await requireProject(db, caller.accountId, params.project_id);
      const where = and(eq(credentials.accountId, caller.accountId), eq(credentials.projectId, params.project_id));
      const [rows, [total]] = await Promise.all([
        db.select().from(credentials).where(where).orderBy(asc(sql`${credentials.name} collate "C"`)).limit(query.limit).offset(query.offset),
        db.select({ total: count() }).from(credentials).where(where),
      ]);
      return { status: 200, body: { count: total?.total ?? 0, results: rows.map(toCredentials) } };
    },

    createInferenceRegistryCredentials: async ({ params, body }, { request: { caller } }) => {
      await requireProject(db, caller.accountId, params.project_id);
      const passwordEncrypted = await encryptSecret(secretsKey, body.password);
      try {
        const [row] = await db
          .insert(credentials)
          .values({ accountId: caller.accountId, projectId: params.project_id, name: body.name, registryUrl: body.registry_url, username: body.username, passwordEncrypted })
          .returning();
        return { status: 200, body: toCredentials(row!) };
      } catch (error) {
        if (sqlState(error) === "23505") throw conflict(`Project ${params.project_id} already has registry credentials named ${body.name}.`);
        throw error;
      }
    },

    getInferenceRegistryCredentials: async ({ params }, { request: { caller } }) => {
      await requireProject(db, caller.accountId, params.project_id);
      const [row] = await db.select().from(credentials).where(named(caller.accountId, params.project_id, params.credential_name));
      if (!row) throw notFound(`Registry credentials ${params.credential_name}`);
      return { status: 200, body: toCredentials(row) };
    },

    replaceInferenceRegistryCredentials: async ({ params, body }, { request: { caller } }) => {
      await requireProject(db, caller.accountId, params.project_id);
      const passwordEncrypted = await encryptSecret(secretsKey, body.password);
      const [row] = await db
        .update(credentials)
        .set({ registryUrl: body.registry_url, username: body.username, passwordEncrypted })
        .where(named(caller.accountId, params.project_id, params.credential_name))
        .returning();
      if (!row) throw notFound(`Registry credentials ${params.credential_name}`);
      return { status: 200, body: toCredentials(row) };
    },

    deleteInferenceRegistryCredentials: async ({ params }, { request: { caller } }) => {
      await requireProject(db, caller.accountId, params.project_id);
      await db.transaction(async (tx) => {
        // Locked first: a deployment that names them locks them too (for share), so the two cannot pass each other.
        const [row] = await tx.select({ id: credentials.id }).from(credentials).where(named(caller.accountId, params.project_id, params.credential_name)).for("update");
        if (!row) throw notFound(`Registry credentials ${params.credential_name}`);
        const users = await tx
          .select({ name: inferenceDeployments.name })
          .from(inferenceDeployments)
          .where(
            and(
              eq(inferenceDeployments.projectId, params.project_id),
              eq(inferenceDeployments.credentialsName, params.credential_name),
              ne(inferenceDeployments.state, "deleting"),
            ),
          )
          .orderBy(asc(sql`${inferenceDeployments.name} collate "C"`));
        if (users.length > 0)
          throw conflict(`Registry credentials ${params.credential_name} are used by deployments ${listed(users.map((user) => user.name))}; change their credentials_name first.`);
        await tx.delete(credentials).where(eq(credentials.id, row.id));
      });
      return { status: 204, body: undefined };
    },
  });
}
