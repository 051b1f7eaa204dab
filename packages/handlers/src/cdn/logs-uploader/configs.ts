/**
 * Logs uploader configs: the paged listing, create, get, PUT replace, PATCH change and delete, their
 * references checked inside the account, and the offline check (`validate`).
 */
import { cdnLogsUploaderConfigsRoutes, type CreateLogsUploaderConfigBody, type LogsUploaderConfig } from "@cloudplane/contract";
import { and, asc, count, type DatabaseTransaction, eq, inArray, schema } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { isForeignKeyViolation } from "../../database-errors.js";
import { addFieldError, conflict, fieldErrors, notFound, problemCount, validationFailed } from "../../errors.js";
import type { RequestExtension, RouteDeps } from "../../types.js";
import {
  checkColumns,
  checkOf,
  CONFIGS,
  type ConfigRow,
  lockOwned,
  owned,
  ownedRow,
  ownFields,
  pageLinks,
  POLICIES,
  type Reader,
  searchCondition,
  TARGETS,
  targetProblem,
} from "./shared.js";
import { served } from "../../served.js";

const { cdnResources, logsUploaderConfigResources, logsUploaderConfigs, logsUploaderPolicies, logsUploaderTargets } = schema;

type ConfigState = Required<CreateLogsUploaderConfigBody>;

function configOf(row: ConfigRow, resources: number[]): LogsUploaderConfig {
  return {
    ...ownFields(row),
    name: row.name,
    enabled: row.enabled,
    for_all_resources: row.forAllResources,
    policy: row.policyId,
    target: row.targetId,
    resources,
    status: checkOf(row),
  };
}

/** The CDN resources each of the configs `ids` lists, ascending. */
async function resourcesOf(db: Reader, accountId: number, ids: number[]): Promise<Map<number, number[]>> {
  const lists = new Map<number, number[]>(ids.map((id) => [id, []]));
  if (!ids.length) return lists;
  const rows = await db
    .select({ configId: logsUploaderConfigResources.configId, resourceId: logsUploaderConfigResources.resourceId })
    .from(logsUploaderConfigResources)
    .where(and(eq(logsUploaderConfigResources.accountId, accountId), inArray(logsUploaderConfigResources.configId, ids)))
    .orderBy(asc(logsUploaderConfigResources.resourceId));
  for (const row of rows) lists.get(row.configId)?.push(row.resourceId);
  return lists;
}

async function configWithResources(db: Reader, row: ConfigRow): Promise<LogsUploaderConfig> {
  const lists = await resourcesOf(db, row.accountId, [row.id]);
  return configOf(row, lists.get(row.id) ?? []);
}

/** Checks that the given references of a config are objects of the account: 400 naming each that is not. */
async function checkConfigReferences(
  tx: DatabaseTransaction,
  accountId: number,
  given: Partial<Pick<ConfigState, "policy" | "target" | "resources">>,
): Promise<void> {
  const errors = fieldErrors();
  for (const kind of [POLICIES, TARGETS]) {
    const id = given[kind.field];
    if (id === undefined) continue;
    const [found] = await tx.select({ id: kind.table.id }).from(kind.table).where(owned(kind.table, accountId, id));
    if (!found) addFieldError(errors, kind.field, `Must be a logs uploader ${kind.field} of the account.`);
  }
  if (given.resources?.length) {
    const found = await tx
      .select({ id: cdnResources.id })
      .from(cdnResources)
      .where(and(eq(cdnResources.accountId, accountId), eq(cdnResources.deleted, false), inArray(cdnResources.id, given.resources)));
    const known = new Set(found.map((resource) => resource.id));
    const seen = new Set<number>();
    given.resources.forEach((id, index) => {
      if (!known.has(id)) addFieldError(errors, `resources.${index}`, "Must be a CDN resource of the account that is not deleted.");
      else if (seen.has(id)) addFieldError(errors, `resources.${index}`, "Listed twice: each CDN resource may appear once.");
      seen.add(id);
    });
  }
  if (problemCount(errors)) throw validationFailed(errors);
}

async function writeConfigResources(tx: DatabaseTransaction, accountId: number, configId: number, resources: number[]): Promise<void> {
  await tx
    .delete(logsUploaderConfigResources)
    .where(and(eq(logsUploaderConfigResources.accountId, accountId), eq(logsUploaderConfigResources.configId, configId)));
  if (resources.length)
    await tx.insert(logsUploaderConfigResources).values(resources.map((resourceId) => ({ accountId, configId, resourceId })));
}

/** A config write whose policy, target or CDN resource was deleted between our check and the write. */
function referenceGone(error: unknown): unknown {
  return isForeignKeyViolation(error)
    ? conflict("A policy, target or CDN resource the config names was deleted meanwhile; check them and try again.")
    : error;
}

/** The routes of logs uploader configs. */
export function cdnLogsUploaderConfigs({ db }: RouteDeps) {
  return tsr.routerWithMiddleware(served("cdn", cdnLogsUploaderConfigsRoutes))<RequestExtension>({
    listLogsUploaderConfigs: async ({ query }, { request }) => {
      const { accountId } = request.caller;
      const where = and(
        eq(logsUploaderConfigs.accountId, accountId),
        searchCondition(query.search, logsUploaderConfigs),
        query.resource_ids?.length
          ? inArray(
              logsUploaderConfigs.id,
              db
                .select({ id: logsUploaderConfigResources.configId })
                .from(logsUploaderConfigResources)
                .where(
                  and(
                    eq(logsUploaderConfigResources.accountId, accountId),
                    inArray(logsUploaderConfigResources.resourceId, query.resource_ids),
                  ),
                ),
            )
          : undefined,
      );
      const [rows, [total]] = await Promise.all([
        db.select().from(logsUploaderConfigs).where(where).orderBy(asc(logsUploaderConfigs.id)).limit(query.limit).offset(query.offset),
        db.select({ total: count() }).from(logsUploaderConfigs).where(where),
      ]);
      const lists = await resourcesOf(db, accountId, rows.map((row) => row.id));
      const all = total?.total ?? 0;
      return {
        status: 200,
        body: { count: all, ...pageLinks(request.url, query, all), results: rows.map((row) => configOf(row, lists.get(row.id) ?? [])) },
      };
    },

    createLogsUploaderConfig: async ({ body }, { request: { caller } }) => {
      const { accountId } = caller;
      const state: ConfigState = { enabled: true, for_all_resources: false, resources: [], ...body };
      try {
        const config = await db.transaction(async (tx) => {
          await checkConfigReferences(tx, accountId, state);
          const [row] = await tx
            .insert(logsUploaderConfigs)
            .values({
              accountId,
              name: state.name,
              enabled: state.enabled,
              forAllResources: state.for_all_resources,
              policyId: state.policy,
              targetId: state.target,
            })
            .returning();
          await writeConfigResources(tx, accountId, row!.id, state.resources);
          return configOf(row!, [...state.resources].sort((a, b) => a - b));
        });
        return { status: 201, body: config };
      } catch (error) {
        throw referenceGone(error);
      }
    },

    getLogsUploaderConfig: async ({ params }, { request: { caller } }) => {
      const row = await ownedRow(db, CONFIGS, caller.accountId, params.id);
      return { status: 200, body: await configWithResources(db, row) };
    },

    replaceLogsUploaderConfig: async ({ params, body }, { request: { caller } }) => {
      const { accountId } = caller;
      const state: ConfigState = { enabled: true, for_all_resources: false, resources: [], ...body };
      try {
        const config = await db.transaction(async (tx) => {
          const current = await lockOwned(tx, CONFIGS, accountId, params.id);
          await checkConfigReferences(tx, accountId, state);
          const [row] = await tx
            .update(logsUploaderConfigs)
            .set({
              name: state.name,
              enabled: state.enabled,
              forAllResources: state.for_all_resources,
              policyId: state.policy,
              targetId: state.target,
              ...checkColumns("in_progress"),
              updated: new Date(),
            })
            .where(owned(logsUploaderConfigs, accountId, current.id))
            .returning();
          await writeConfigResources(tx, accountId, current.id, state.resources);
          return configWithResources(tx, row!);
        });
        return { status: 200, body: config };
      } catch (error) {
        throw referenceGone(error);
      }
    },

    updateLogsUploaderConfig: async ({ params, body }, { request: { caller } }) => {
      const { accountId } = caller;
      try {
        const config = await db.transaction(async (tx) => {
          const current = await lockOwned(tx, CONFIGS, accountId, params.id);
          if (Object.keys(body).length === 0) return configWithResources(tx, current);
          // Only the references given are checked: a resource deleted since it was listed stays listed until the list is written.
          await checkConfigReferences(tx, accountId, body);
          const renameOnly = Object.keys(body).every((key) => key === "name");
          const [row] = await tx
            .update(logsUploaderConfigs)
            .set({
              name: body.name,
              enabled: body.enabled,
              forAllResources: body.for_all_resources,
              policyId: body.policy,
              targetId: body.target,
              ...(renameOnly ? {} : checkColumns("in_progress")),
              updated: new Date(),
            })
            .where(owned(logsUploaderConfigs, accountId, current.id))
            .returning();
          if (body.resources !== undefined) await writeConfigResources(tx, accountId, current.id, body.resources);
          return configWithResources(tx, row!);
        });
        return { status: 200, body: config };
      } catch (error) {
        throw referenceGone(error);
      }
    },

    deleteLogsUploaderConfig: async ({ params }, { request: { caller } }) => {
      const deleted = await db
        .delete(logsUploaderConfigs)
        .where(owned(logsUploaderConfigs, caller.accountId, params.id))
        .returning({ id: logsUploaderConfigs.id });
      if (!deleted.length) throw notFound(`Logs uploader config ${params.id}`);
      return { status: 204, body: undefined };
    },

    validateLogsUploaderConfig: async ({ params }, { request: { caller } }) => {
      const { accountId } = caller;
      const check = await db.transaction(async (tx) => {
        const current = await lockOwned(tx, CONFIGS, accountId, params.id);
        const [target] = await tx
          .select()
          .from(logsUploaderTargets)
          .where(owned(logsUploaderTargets, accountId, current.targetId));
        const [policy] = await tx
          .select({ fields: logsUploaderPolicies.fields })
          .from(logsUploaderPolicies)
          .where(owned(logsUploaderPolicies, accountId, current.policyId));
        const resources = await resourcesOf(tx, accountId, [current.id]);
        const problems: string[] = [];
        if (!current.enabled) problems.push("The config is disabled.");
        const targetProblemText = target && targetProblem(target);
        if (targetProblemText) problems.push(`Its target ${current.targetId} fails the target check: ${targetProblemText}`);
        if (!policy?.fields.length) problems.push(`Its policy ${current.policyId} has no fields.`);
        if (!current.forAllResources && !resources.get(current.id)?.length)
          problems.push("It applies to no CDN resource: set for_all_resources or list resources.");
        const [row] = await tx
          .update(logsUploaderConfigs)
          .set(problems.length ? checkColumns("failed", problems.join(" ")) : checkColumns("successful"))
          .where(owned(logsUploaderConfigs, accountId, current.id))
          .returning();
        return checkOf(row!);
      });
      return { status: 200, body: check };
    },
  });
}
