/**
 * Cloud secrets: a project's TLS certificates in a region, kept encrypted and never answered, uploaded and
 * deleted by tasks (the change is made in the request).
 */
import { cloudSecretsRoutes, instantOf, type CloudSecret } from "@cloudplane/contract";
import { and, asc, count, encryptSecret, eq, schema } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { invalid, notFound } from "../errors.js";
import { isoTime } from "../format.js";
import type { RequestExtension, RouteDeps } from "../types.js";
import { served } from "../served.js";
import { readChain } from "../cdn/certificates.js";
import { checkPrivateKey, PemProblem } from "../cdn/x509.js";
import { requireProjectRegion } from "./projects.js";
import { startTask } from "./tasks.js";

// The table under a name of its own: `cloudSecrets` names this module's routes.
const { cloudSecrets: cloudSecretsTable } = schema;

function toSecret(row: typeof cloudSecretsTable.$inferSelect): CloudSecret {
  return {
    id: row.id,
    name: row.name,
    secret_type: row.secretType as CloudSecret["secret_type"],
    status: row.status,
    algorithm: row.algorithm,
    bit_length: row.bitLength,
    mode: row.mode,
    content_types: row.contentTypes,
    created: isoTime(row.created),
    expiration: row.expiration ? isoTime(row.expiration) : null,
  };
}


export function cloudSecrets({ db, secretsKey }: RouteDeps) {
  const inProjectRegion = (accountId: number, params: { project_id: number; region_id: number }) =>
    and(eq(cloudSecretsTable.accountId, accountId), eq(cloudSecretsTable.projectId, params.project_id), eq(cloudSecretsTable.regionId, params.region_id));
  const secretWhere = (accountId: number, params: { project_id: number; region_id: number; secret_id: string }) =>
    and(inProjectRegion(accountId, params), eq(cloudSecretsTable.id, params.secret_id));

  return tsr.routerWithMiddleware(served("cloud", cloudSecretsRoutes))<RequestExtension>({
    listCloudSecrets: async ({ params, query }, { request: { caller } }) => {
      await requireProjectRegion(db, caller.accountId, params.project_id, params.region_id);
      const where = inProjectRegion(caller.accountId, params);
      const [rows, [total]] = await Promise.all([
        db.select().from(cloudSecretsTable).where(where).orderBy(asc(cloudSecretsTable.name), asc(cloudSecretsTable.id)).limit(query.limit).offset(query.offset),
        db.select({ total: count() }).from(cloudSecretsTable).where(where),
      ]);
      return { status: 200, body: { count: total?.total ?? 0, results: rows.map(toSecret) } };
    },

    getCloudSecret: async ({ params }, { request: { caller } }) => {
      await requireProjectRegion(db, caller.accountId, params.project_id, params.region_id);
      const [row] = await db.select().from(cloudSecretsTable).where(secretWhere(caller.accountId, params));
      if (!row) throw notFound(`Secret ${params.secret_id}`);
      return { status: 200, body: toSecret(row) };
    },

    uploadTlsCertificate: async ({ params, body }, { request: { caller } }) => {
      const now = new Date();
      const expiration = body.expiration ? instantOf(body.expiration)! : null;
      if (expiration && expiration.getTime() <= now.getTime()) throw invalid("expiration", "Must be in the future.");
      // Checked and encrypted before the transaction opens, so that it holds its locks only for the writes.
      const [certificate] = readChain("payload.certificate", body.payload.certificate, now);
      try {
        await checkPrivateKey(body.payload.private_key, certificate!.spki);
      } catch (error) {
        if (error instanceof PemProblem) throw invalid("payload.private_key", error.message);
        throw error;
      }
      if (body.payload.certificate_chain !== "") readChain("payload.certificate_chain", body.payload.certificate_chain, now);
      const payloadEncrypted = await encryptSecret(secretsKey, JSON.stringify(body.payload));
      const taskId = await db.transaction(async (tx) => {
        await requireProjectRegion(tx, caller.accountId, params.project_id, params.region_id);
        const [secret] = await tx
          .insert(cloudSecretsTable)
          .values({
            accountId: caller.accountId,
            projectId: params.project_id,
            regionId: params.region_id,
            name: body.name,
            secretType: "certificate",
            status: "ACTIVE",
            contentTypes: { default: "text/plain" },
            payloadEncrypted,
            created: now,
            expiration,
          })
          .returning({ id: cloudSecretsTable.id });
        // The task takes the secret's id, so that the task id a client gets back names the secret too.
        return startTask(tx, caller, {
          now,
          id: secret!.id,
          taskType: "create_secret",
          projectId: params.project_id,
          regionId: params.region_id,
          createdResources: { secrets: [secret!.id] },
          data: { name: body.name },
        });
      });
      return { status: 200, body: { tasks: [taskId] } };
    },

    deleteCloudSecret: async ({ params }, { request: { caller } }) => {
      const taskId = await db.transaction(async (tx) => {
        await requireProjectRegion(tx, caller.accountId, params.project_id, params.region_id);
        const [deleted] = await tx.delete(cloudSecretsTable).where(secretWhere(caller.accountId, params)).returning({ id: cloudSecretsTable.id });
        if (!deleted) throw notFound(`Secret ${params.secret_id}`);
        return startTask(tx, caller, { taskType: "delete_secret", projectId: params.project_id, regionId: params.region_id, data: { secret_id: deleted.id } });
      });
      return { status: 200, body: { tasks: [taskId] } };
    },
  });
}
