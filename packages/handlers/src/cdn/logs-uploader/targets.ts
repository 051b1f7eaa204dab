/**
 * Logs uploader targets: the paged listing, create, get, PUT replace, PATCH change and delete (409 while a
 * config uses one), the secret access key encrypted and never answered, and the offline check (`validate`).
 */
import { cdnLogsUploaderTargetsRoutes, type ReplaceLogsUploaderTargetBody } from "@cloudplane/contract";
import { encryptSecret, schema } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import type { RequestExtension, RouteDeps } from "../../types.js";
import { checkColumns, checkOf, deleteReferenced, listReferenced, lockOwned, owned, ownedRow, TARGETS, targetOf, targetProblem, withRelated } from "./shared.js";
import { served } from "../../served.js";

const { logsUploaderTargets } = schema;

/** A target's storage columns as a create or a replacement gives them: what it leaves out takes its default. */
function targetStorageColumns(body: ReplaceLogsUploaderTargetBody, secretAccessKeyEncrypted: string) {
  return {
    description: body.description ?? "",
    storageType: body.storage_type,
    accessKeyId: body.config.access_key_id,
    secretAccessKeyEncrypted,
    region: body.config.region,
    bucketName: body.config.bucket_name,
    directory: body.config.directory ?? null,
    endpoint: body.config.endpoint ?? null,
    usePathStyle: body.config.use_path_style ?? false,
  };
}

/** The routes of logs uploader targets. */
export function cdnLogsUploaderTargets({ db, secretsKey }: RouteDeps) {
  return tsr.routerWithMiddleware(served("cdn", cdnLogsUploaderTargetsRoutes))<RequestExtension>({
    listLogsUploaderTargets: async ({ query }, { request }) => ({
      status: 200,
      body: await listReferenced(db, TARGETS, request.caller.accountId, request.url, query),
    }),

    createLogsUploaderTarget: async ({ body }, { request: { caller } }) => {
      const [row] = await db
        .insert(logsUploaderTargets)
        .values({
          accountId: caller.accountId,
          name: body.name,
          ...targetStorageColumns(body, await encryptSecret(secretsKey, body.config.secret_access_key)),
        })
        .returning();
      return { status: 201, body: targetOf(row!, []) };
    },

    getLogsUploaderTarget: async ({ params }, { request: { caller } }) => {
      const row = await ownedRow(db, TARGETS, caller.accountId, params.id);
      return { status: 200, body: await withRelated(db, TARGETS, row) };
    },

    replaceLogsUploaderTarget: async ({ params, body }, { request: { caller } }) => {
      // Encrypted before the transaction, so that it holds its lock only for the write.
      const secret = await encryptSecret(secretsKey, body.config.secret_access_key);
      const target = await db.transaction(async (tx) => {
        const current = await lockOwned(tx, TARGETS, caller.accountId, params.id);
        const [row] = await tx
          .update(logsUploaderTargets)
          .set({
            name: body.name ?? current.name,
            ...targetStorageColumns(body, secret),
            ...checkColumns("in_progress"),
            updated: new Date(),
          })
          .where(owned(logsUploaderTargets, caller.accountId, current.id))
          .returning();
        return withRelated(tx, TARGETS, row!);
      });
      return { status: 200, body: target };
    },

    updateLogsUploaderTarget: async ({ params, body }, { request: { caller } }) => {
      const { config } = body;
      const secret = config?.secret_access_key === undefined ? undefined : await encryptSecret(secretsKey, config.secret_access_key);
      const target = await db.transaction(async (tx) => {
        const current = await lockOwned(tx, TARGETS, caller.accountId, params.id);
        // A PATCH that gives no field changes nothing, `updated` included.
        if (Object.keys(body).length === 0) return withRelated(tx, TARGETS, current);
        const storageChanged = body.storage_type !== undefined || (config !== undefined && Object.keys(config).length > 0);
        const [row] = await tx
          .update(logsUploaderTargets)
          .set({
            name: body.name,
            description: body.description,
            storageType: body.storage_type,
            accessKeyId: config?.access_key_id,
            secretAccessKeyEncrypted: secret,
            region: config?.region,
            bucketName: config?.bucket_name,
            directory: config?.directory,
            endpoint: config?.endpoint,
            usePathStyle: config?.use_path_style,
            ...(storageChanged ? checkColumns("in_progress") : {}),
            updated: new Date(),
          })
          .where(owned(logsUploaderTargets, caller.accountId, current.id))
          .returning();
        return withRelated(tx, TARGETS, row!);
      });
      return { status: 200, body: target };
    },

    deleteLogsUploaderTarget: async ({ params }, { request: { caller } }) => {
      await deleteReferenced(db, TARGETS, caller.accountId, params.id);
      return { status: 204, body: undefined };
    },

    validateLogsUploaderTarget: async ({ params }, { request: { caller } }) => {
      const check = await db.transaction(async (tx) => {
        const current = await lockOwned(tx, TARGETS, caller.accountId, params.id);
        const problem = targetProblem(current);
        const [row] = await tx
          .update(logsUploaderTargets)
          .set(problem ? checkColumns("failed", problem) : checkColumns("successful"))
          .where(owned(logsUploaderTargets, caller.accountId, current.id))
          .returning();
        return checkOf(row!);
      });
      return { status: 200, body: check };
    },
  });
}
