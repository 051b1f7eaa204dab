/**
 * Cloud inference API keys: a project's keys for calling its deployments. A key's secret is made here,
 * answered once and kept only as its SHA-256 hash; the deployments that take a key are read from them.
 */
import { cloudInferenceApiKeysRoutes, type InferenceApiKey } from "@cloudplane/contract";
import { and, asc, count, eq, inArray, ne, schema, sha256Hex, sql, type Database } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { sqlState } from "../database-errors.js";
import { conflict, invalid, listed, notFound } from "../errors.js";
import { isoTime } from "../format.js";
import { randomBytes } from "../random.js";
import type { RequestExtension, RouteDeps } from "../types.js";
import { served } from "../served.js";
import { requireProject } from "./inference-shared.js";

const { inferenceApiKeys: apiKeys, inferenceDeployments, inferenceApplicationDeployments } = schema;

/** A new key's secret: `cpik_` and 43 characters of base64url (32 random bytes). */
function newSecret(): string {
  const bytes = randomBytes(32);
  return `cpik_${btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "")}`;
}

function toApiKey(row: typeof apiKeys.$inferSelect, deploymentNames: string[]): InferenceApiKey {
  return {
    name: row.name,
    description: row.description,
    expires_at: row.expiresAt ? isoTime(row.expiresAt) : null,
    created_at: isoTime(row.created),
    deployment_names: deploymentNames,
  };
}

/** The names of the project's deployments (not being deleted) that take each of `names`, in name order. */
async function deploymentsTaking(db: Pick<Database, "select">, projectId: number, names: string[]): Promise<Map<string, string[]>> {
  const taking = new Map(names.map((name) => [name, [] as string[]]));
  if (names.length === 0) return taking;
  const rows = await db
    .select({ name: inferenceDeployments.name, apiKeys: inferenceDeployments.apiKeys })
    .from(inferenceDeployments)
    .where(and(eq(inferenceDeployments.projectId, projectId), ne(inferenceDeployments.state, "deleting"), sql`${inferenceDeployments.apiKeys} ?| array[${sql.join(names.map((name) => sql`${name}`), sql`, `)}]::text[]`))
    .orderBy(asc(sql`${inferenceDeployments.name} collate "C"`));
  for (const row of rows) for (const key of row.apiKeys) taking.get(key)?.push(row.name);
  return taking;
}

const named = (accountId: number, projectId: number, name: string) => and(eq(apiKeys.accountId, accountId), eq(apiKeys.projectId, projectId), eq(apiKeys.name, name));

export function cloudInferenceApiKeys({ db }: RouteDeps) {
  return tsr.routerWithMiddleware(served("cloud", cloudInferenceApiKeysRoutes))<RequestExtension>({
    listInferenceApiKeys: async ({ params, query }, { request: { caller } }) => {
      await requireProject(db, caller.accountId, params.project_id);
      const where = and(eq(apiKeys.accountId, caller.accountId), eq(apiKeys.projectId, params.project_id));
      const [rows, [total]] = await Promise.all([
        db.select().from(apiKeys).where(where).orderBy(asc(sql`${apiKeys.name} collate "C"`)).limit(query.limit).offset(query.offset),
        db.select({ total: count() }).from(apiKeys).where(where),
      ]);
      const taking = await deploymentsTaking(db, params.project_id, rows.map((row) => row.name));
      return { status: 200, body: { count: total?.total ?? 0, results: rows.map((row) => toApiKey(row, taking.get(row.name)!)) } };
    },

    createInferenceApiKey: async ({ params, body }, { request: { caller } }) => {
      await requireProject(db, caller.accountId, params.project_id);
      const expiresAt = body.expires_at === undefined ? null : new Date(body.expires_at);
      if (expiresAt && expiresAt.getTime() <= Date.now()) throw invalid("expires_at", "Must be in the future.");
      const secret = newSecret();
      try {
        const [row] = await db
          .insert(apiKeys)
          .values({ accountId: caller.accountId, projectId: params.project_id, name: body.name, description: body.description ?? null, expiresAt, secretHash: await sha256Hex(secret) })
          .returning();
        return { status: 200, body: { ...toApiKey(row!, []), secret } };
      } catch (error) {
        if (sqlState(error) === "23505") throw conflict(`Project ${params.project_id} already has an API key named ${body.name}.`);
        throw error;
      }
    },

    getInferenceApiKey: async ({ params }, { request: { caller } }) => {
      await requireProject(db, caller.accountId, params.project_id);
      const [row] = await db.select().from(apiKeys).where(named(caller.accountId, params.project_id, params.api_key_name));
      if (!row) throw notFound(`API key ${params.api_key_name}`);
      const taking = await deploymentsTaking(db, params.project_id, [row.name]);
      return { status: 200, body: toApiKey(row, taking.get(row.name)!) };
    },

    updateInferenceApiKey: async ({ params, body }, { request: { caller } }) => {
      await requireProject(db, caller.accountId, params.project_id);
      const where = named(caller.accountId, params.project_id, params.api_key_name);
      const [row] =
        body.description === undefined
          ? await db.select().from(apiKeys).where(where)
          : await db.update(apiKeys).set({ description: body.description }).where(where).returning();
      if (!row) throw notFound(`API key ${params.api_key_name}`);
      const taking = await deploymentsTaking(db, params.project_id, [row.name]);
      return { status: 200, body: toApiKey(row, taking.get(row.name)!) };
    },

    deleteInferenceApiKey: async ({ params }, { request: { caller } }) => {
      await requireProject(db, caller.accountId, params.project_id);
      await db.transaction(async (tx) => {
        // Locked first: a deployment that takes it locks it too (for share).
        const [row] = await tx.select({ id: apiKeys.id }).from(apiKeys).where(named(caller.accountId, params.project_id, params.api_key_name)).for("update");
        if (!row) throw notFound(`API key ${params.api_key_name}`);
        const taking = (await deploymentsTaking(tx, params.project_id, [params.api_key_name])).get(params.api_key_name)!;
        const applications = await tx
          .select({ name: inferenceApplicationDeployments.name })
          .from(inferenceApplicationDeployments)
          .where(
            and(
              eq(inferenceApplicationDeployments.projectId, params.project_id),
              ne(inferenceApplicationDeployments.state, "deleting"),
              sql`${inferenceApplicationDeployments.apiKeys} @> ${JSON.stringify([params.api_key_name])}::jsonb`,
            ),
          )
          .orderBy(asc(sql`${inferenceApplicationDeployments.name} collate "C"`));
        const users = [...taking.map((name) => `deployment ${name}`), ...applications.map((application) => `application deployment ${application.name}`)];
        if (users.length > 0) throw conflict(`API key ${params.api_key_name} is taken by ${listed(users)}; take it out of their api_keys first.`);
        await tx.delete(apiKeys).where(inArray(apiKeys.id, [row.id]));
      });
      return { status: 204, body: undefined };
    },
  });
}
