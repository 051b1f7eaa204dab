/**
 * Cloud inference secrets: a project's AWS IAM key pairs for SQS scaling triggers. The secret key is
 * encrypted before it is stored and never read back here: answers show a fixed mask in its place.
 */
import { cloudInferenceSecretsRoutes, HIDDEN_SECRET_VALUE, type InferenceSecret } from "@cloudplane/contract";
import { and, asc, count, encryptSecret, eq, ne, schema, sql } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { sqlState } from "../database-errors.js";
import { conflict, listed, notFound } from "../errors.js";
import type { RequestExtension, RouteDeps } from "../types.js";
import { served } from "../served.js";
import { requireProject } from "./inference-shared.js";

const { inferenceSecrets: secrets, inferenceDeployments } = schema;

function toSecret(row: typeof secrets.$inferSelect): InferenceSecret {
  return { name: row.name, type: row.type, data: { aws_access_key_id: row.awsAccessKeyId, aws_secret_access_key: HIDDEN_SECRET_VALUE } };
}

const named = (accountId: number, projectId: number, name: string) => and(eq(secrets.accountId, accountId), eq(secrets.projectId, projectId), eq(secrets.name, name));

export function cloudInferenceSecrets({ db, secretsKey }: RouteDeps) {
  return tsr.routerWithMiddleware(served("cloud", cloudInferenceSecretsRoutes))<RequestExtension>({
    listInferenceSecrets: async ({ params, query }, { request: { caller } }) => {
      await requireProject(db, caller.accountId, params.project_id);
      const where = and(eq(secrets.accountId, caller.accountId), eq(secrets.projectId, params.project_id));
      const [rows, [total]] = await Promise.all([
        db.select().from(secrets).where(where).orderBy(asc(sql`${secrets.name} collate "C"`)).limit(query.limit).offset(query.offset),
        db.select({ total: count() }).from(secrets).where(where),
      ]);
      return { status: 200, body: { count: total?.total ?? 0, results: rows.map(toSecret) } };
    },

    createInferenceSecret: async ({ params, body }, { request: { caller } }) => {
      await requireProject(db, caller.accountId, params.project_id);
      const awsSecretAccessKeyEncrypted = await encryptSecret(secretsKey, body.data.aws_secret_access_key);
      try {
        const [row] = await db
          .insert(secrets)
          .values({ accountId: caller.accountId, projectId: params.project_id, name: body.name, type: body.type, awsAccessKeyId: body.data.aws_access_key_id, awsSecretAccessKeyEncrypted })
          .returning();
        return { status: 200, body: toSecret(row!) };
      } catch (error) {
        if (sqlState(error) === "23505") throw conflict(`Project ${params.project_id} already has a secret named ${body.name}.`);
        throw error;
      }
    },

    getInferenceSecret: async ({ params }, { request: { caller } }) => {
      await requireProject(db, caller.accountId, params.project_id);
      const [row] = await db.select().from(secrets).where(named(caller.accountId, params.project_id, params.secret_name));
      if (!row) throw notFound(`Secret ${params.secret_name}`);
      return { status: 200, body: toSecret(row) };
    },

    replaceInferenceSecret: async ({ params, body }, { request: { caller } }) => {
      await requireProject(db, caller.accountId, params.project_id);
      const awsSecretAccessKeyEncrypted = await encryptSecret(secretsKey, body.data.aws_secret_access_key);
      const [row] = await db
        .update(secrets)
        .set({ type: body.type, awsAccessKeyId: body.data.aws_access_key_id, awsSecretAccessKeyEncrypted })
        .where(named(caller.accountId, params.project_id, params.secret_name))
        .returning();
      if (!row) throw notFound(`Secret ${params.secret_name}`);
      return { status: 200, body: toSecret(row) };
    },

    deleteInferenceSecret: async ({ params }, { request: { caller } }) => {
      await requireProject(db, caller.accountId, params.project_id);
      await db.transaction(async (tx) => {
        // Locked first: a deployment whose trigger names it locks it too (for share).
        const [row] = await tx.select({ id: secrets.id }).from(secrets).where(named(caller.accountId, params.project_id, params.secret_name)).for("update");
        if (!row) throw notFound(`Secret ${params.secret_name}`);
        const naming = JSON.stringify([{ scale: { triggers: { sqs: { secret_name: params.secret_name } } } }]);
        const users = await tx
          .select({ name: inferenceDeployments.name })
          .from(inferenceDeployments)
          .where(and(eq(inferenceDeployments.projectId, params.project_id), ne(inferenceDeployments.state, "deleting"), sql`${inferenceDeployments.containers} @> ${naming}::jsonb`))
          .orderBy(asc(sql`${inferenceDeployments.name} collate "C"`));
        if (users.length > 0)
          throw conflict(`Secret ${params.secret_name} is named by the SQS triggers of deployments ${listed(users.map((user) => user.name))}; change their triggers first.`);
        await tx.delete(secrets).where(eq(secrets.id, row.id));
      });
      return { status: 204, body: undefined };
    },
  });
}
