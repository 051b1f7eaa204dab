/**
 * Logs uploader routes of the cdn area: targets, policies and configs, their paged listings, and the
 * offline checks (`validate`) that stand in for contacting a storage.
 */
import {
  contract,
  LOGS_UPLOADER_CHECK_CODES,
  LOGS_UPLOADER_POLICY_DEFAULTS,
  LOGS_UPLOADER_POLICY_FIELDS,
  MAX_ID,
  type Contract,
  type CreateLogsUploaderConfigBody,
  type LogsUploaderConfig,
  type LogsUploaderPolicy,
  type LogsUploaderPolicyBody,
  type LogsUploaderTarget,
  type LogsUploaderValidation,
} from "@cloudplane/contract";
import {
  and,
  asc,
  count,
  type Database,
  type DatabaseTransaction,
  encryptSecret,
  eq,
  ilike,
  inArray,
  or,
  schema,
} from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { sqlState } from "./database-errors.js";
import { addFieldError, conflict, fieldErrors, notFound, problemCount, validationFailed } from "./errors.js";
import { isoTime } from "./format.js";
import { likePattern } from "./like.js";
import type { RequestExtension, RouteDeps } from "./types.js";

const { cdnResources, logsUploaderConfigResources, logsUploaderConfigs, logsUploaderPolicies, logsUploaderTargets } = schema;

type Reader = Pick<Database, "select">;
type TargetRow = typeof logsUploaderTargets.$inferSelect;
type PolicyRow = typeof logsUploaderPolicies.$inferSelect;
type ConfigRow = typeof logsUploaderConfigs.$inferSelect;
type CheckStatus = LogsUploaderValidation["status"];

/** The check columns of a target or config set to `status`, as of now. */
function checkColumns(status: CheckStatus, details = "") {
  return { status, statusCode: LOGS_UPLOADER_CHECK_CODES[status], statusDetails: details, statusUpdated: new Date() };
}

function checkOf(row: TargetRow | ConfigRow): LogsUploaderValidation {
  return { status: row.status, code: row.statusCode, updated: isoTime(row.statusUpdated), details: row.statusDetails };
}

/** 23503: a row the write refers to went away under it (a concurrent delete). */
function isForeignKeyViolation(error: unknown): boolean {
  return sqlState(error) === "23503";
}

// ---------------------------------------------------------------------------------------------
// Listings
// ---------------------------------------------------------------------------------------------

interface PageQuery {
  search?: string;
  limit: number;
  offset: number;
}

/** `search`: the name contains it (case-insensitively), or it is the id. */
function searchCondition(search: string | undefined, columns: { name: Parameters<typeof ilike>[0]; id: Parameters<typeof eq>[0] }) {
  if (search === undefined || search === "") return undefined;
  const byName = ilike(columns.name, likePattern(search));
  const id = /^\d{1,10}$/.test(search) ? Number(search) : undefined;
  return id !== undefined && id <= MAX_ID ? or(byName, eq(columns.id, id)) : byName;
}

/** The links of the pages around this one: the request's URL with `offset` moved, or null at either end. */
function pageLinks(url: string, query: PageQuery, total: number) {
  const link = (offset: number) => {
    const next = new URL(url);
    next.searchParams.set("offset", String(offset));
    return next.toString();
  };
  return {
    next: query.offset + query.limit < total ? link(query.offset + query.limit) : null,
    previous: query.offset > 0 ? link(Math.max(0, query.offset - query.limit)) : null,
  };
}

/** The ids of the configs that use each of `ids` through `column` (their target or policy), ascending. */
async function configsUsing(db: Reader, accountId: number, column: "targetId" | "policyId", ids: number[]): Promise<Map<number, number[]>> {
  const related = new Map<number, number[]>(ids.map((id) => [id, []]));
  if (!ids.length) return related;
  const rows = await db
    .select({ id: logsUploaderConfigs.id, owner: logsUploaderConfigs[column] })
    .from(logsUploaderConfigs)
    .where(and(eq(logsUploaderConfigs.accountId, accountId), inArray(logsUploaderConfigs[column], ids)))
    .orderBy(asc(logsUploaderConfigs.id));
  for (const row of rows) related.get(row.owner)?.push(row.id);
  return related;
}

// ---------------------------------------------------------------------------------------------
// Targets
// ---------------------------------------------------------------------------------------------

function targetOf(row: TargetRow, related: number[]): LogsUploaderTarget {
  return {
    id: row.id,
    client_id: row.accountId,
    created: isoTime(row.created),
    updated: isoTime(row.updated),
    storage_type: row.storageType,
    name: row.name,
    description: row.description,
    related_uploader_configs: related,
    status: checkOf(row),
    config: {
      access_key_id: row.accessKeyId,
      region: row.region,
      bucket_name: row.bucketName,
      directory: row.directory,
      endpoint: row.endpoint,
      use_path_style: row.usePathStyle,
    },
  };
}

/**
 * What can be known of a target without contacting its storage: whether it says where the bucket is.
 * s3_vendor and s3_amazon have an endpoint of their own; s3_other has none.
 */
function targetProblem(row: Pick<TargetRow, "storageType" | "endpoint">): string | undefined {
  if (row.storageType === "s3_other" && row.endpoint === null)
    return "An s3_other storage has no default endpoint: set config.endpoint to its URL.";
  return undefined;
}

async function targetWithRelated(db: Reader, row: TargetRow): Promise<LogsUploaderTarget> {
  const related = await configsUsing(db, row.accountId, "targetId", [row.id]);
  return targetOf(row, related.get(row.id) ?? []);
}

async function lockTarget(tx: DatabaseTransaction, accountId: number, id: number): Promise<TargetRow> {
  const [row] = await tx
    .select()
    .from(logsUploaderTargets)
    .where(and(eq(logsUploaderTargets.accountId, accountId), eq(logsUploaderTargets.id, id)))
    .for("update");
  if (!row) throw notFound(`Logs uploader target ${id}`);
  return row;
}

// ---------------------------------------------------------------------------------------------
// Policies
// ---------------------------------------------------------------------------------------------

/** Every writable field of a policy, as the API names them. */
type PolicyState = Required<{ [K in keyof LogsUploaderPolicyBody]-?: Exclude<LogsUploaderPolicyBody[K], undefined> }>;

const POLICY_FIELD_NAMES = new Set<string>(LOGS_UPLOADER_POLICY_FIELDS);

function policyDefaults(): PolicyState {
  return { ...LOGS_UPLOADER_POLICY_DEFAULTS, fields: [...LOGS_UPLOADER_POLICY_DEFAULTS.fields], tags: {} };
}

function policyStateOf(row: PolicyRow): PolicyState {
  return {
    name: row.name,
    description: row.description,
    include_empty_logs: row.includeEmptyLogs,
    include_shield_logs: row.includeShieldLogs,
    escape_special_characters: row.escapeSpecialCharacters,
    retry_interval_minutes: row.retryIntervalMinutes,
    rotate_interval_minutes: row.rotateIntervalMinutes,
    rotate_threshold_mb: row.rotateThresholdMb,
    rotate_threshold_lines: row.rotateThresholdLines,
    date_format: row.dateFormat,
    field_delimiter: row.fieldDelimiter,
    field_separator: row.fieldSeparator,
    fields: row.fields,
    file_name_template: row.fileNameTemplate,
    format_type: row.formatType,
    tags: row.tags,
    log_sample_rate: row.logSampleRate,
  };
}

function policyColumns(state: PolicyState) {
  return {
    name: state.name,
    description: state.description,
    includeEmptyLogs: state.include_empty_logs,
    includeShieldLogs: state.include_shield_logs,
    escapeSpecialCharacters: state.escape_special_characters,
    retryIntervalMinutes: state.retry_interval_minutes,
    rotateIntervalMinutes: state.rotate_interval_minutes,
    rotateThresholdMb: state.rotate_threshold_mb,
    rotateThresholdLines: state.rotate_threshold_lines,
    dateFormat: state.date_format,
    fieldDelimiter: state.field_delimiter,
    fieldSeparator: state.field_separator,
    fields: state.fields,
    fileNameTemplate: state.file_name_template,
    formatType: state.format_type,
    tags: state.tags,
    logSampleRate: state.log_sample_rate,
  };
}

function policyOf(row: PolicyRow, related: number[]): LogsUploaderPolicy {
  return {
    id: row.id,
    client_id: row.accountId,
    created: isoTime(row.created),
    updated: isoTime(row.updated),
    ...policyStateOf(row),
    related_uploader_configs: related,
  };
}

/**
 * The rules of `fields` on the policy as it will be: each a known field, `-` or one of its tags; with
 * JSON lines, no name twice (`-` carries no key, so it may repeat).
 */
function checkPolicy(state: PolicyState): void {
  const errors = fieldErrors();
  const seen = new Set<string>();
  state.fields.forEach((field, index) => {
    if (!POLICY_FIELD_NAMES.has(field) && !Object.hasOwn(state.tags, field))
      addFieldError(errors, `fields.${index}`, "Must be a field of GET /cdn/logs_uploader/policies/fields, - or a name in tags.");
    else if (state.format_type === "json" && field !== "-" && seen.has(field))
      addFieldError(errors, `fields.${index}`, "Listed twice: with format_type json each field may appear once.");
    seen.add(field);
  });
  if (problemCount(errors)) throw validationFailed(errors);
}

async function policyWithRelated(db: Reader, row: PolicyRow): Promise<LogsUploaderPolicy> {
  const related = await configsUsing(db, row.accountId, "policyId", [row.id]);
  return policyOf(row, related.get(row.id) ?? []);
}

async function lockPolicy(tx: DatabaseTransaction, accountId: number, id: number): Promise<PolicyRow> {
  const [row] = await tx
    .select()
    .from(logsUploaderPolicies)
    .where(and(eq(logsUploaderPolicies.accountId, accountId), eq(logsUploaderPolicies.id, id)))
    .for("update");
  if (!row) throw notFound(`Logs uploader policy ${id}`);
  return row;
}

// ---------------------------------------------------------------------------------------------
// Configs
// ---------------------------------------------------------------------------------------------

type ConfigState = Required<CreateLogsUploaderConfigBody>;

function configOf(row: ConfigRow, resources: number[]): LogsUploaderConfig {
  return {
    id: row.id,
    client_id: row.accountId,
    created: isoTime(row.created),
    updated: isoTime(row.updated),
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
  if (given.policy !== undefined) {
    const [policy] = await tx
      .select({ id: logsUploaderPolicies.id })
      .from(logsUploaderPolicies)
      .where(and(eq(logsUploaderPolicies.accountId, accountId), eq(logsUploaderPolicies.id, given.policy)));
    if (!policy) addFieldError(errors, "policy", "Must be a logs uploader policy of the account.");
  }
  if (given.target !== undefined) {
    const [target] = await tx
      .select({ id: logsUploaderTargets.id })
      .from(logsUploaderTargets)
      .where(and(eq(logsUploaderTargets.accountId, accountId), eq(logsUploaderTargets.id, given.target)));
    if (!target) addFieldError(errors, "target", "Must be a logs uploader target of the account.");
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

async function lockConfig(tx: DatabaseTransaction, accountId: number, id: number): Promise<ConfigRow> {
  const [row] = await tx
    .select()
    .from(logsUploaderConfigs)
    .where(and(eq(logsUploaderConfigs.accountId, accountId), eq(logsUploaderConfigs.id, id)))
    .for("update");
  if (!row) throw notFound(`Logs uploader config ${id}`);
  return row;
}

/** A config write whose policy, target or CDN resource was deleted between our check and the write. */
function referenceGone(error: unknown): unknown {
  return isForeignKeyViolation(error)
    ? conflict("A policy, target or CDN resource the config names was deleted meanwhile; check them and try again.")
    : error;
}

// ---------------------------------------------------------------------------------------------
// Routes
// ---------------------------------------------------------------------------------------------

/** The cdn area's routes this file implements. */
type LogsUploaderRoutes = Pick<
  Contract["cdn"],
  | "listLogsUploaderTargets"
  | "createLogsUploaderTarget"
  | "getLogsUploaderTarget"
  | "replaceLogsUploaderTarget"
  | "updateLogsUploaderTarget"
  | "deleteLogsUploaderTarget"
  | "validateLogsUploaderTarget"
  | "listLogsUploaderPolicies"
  | "createLogsUploaderPolicy"
  | "getLogsUploaderPolicyFields"
  | "getLogsUploaderPolicy"
  | "replaceLogsUploaderPolicy"
  | "updateLogsUploaderPolicy"
  | "deleteLogsUploaderPolicy"
  | "listLogsUploaderConfigs"
  | "createLogsUploaderConfig"
  | "getLogsUploaderConfig"
  | "replaceLogsUploaderConfig"
  | "updateLogsUploaderConfig"
  | "deleteLogsUploaderConfig"
  | "validateLogsUploaderConfig"
>;

/** The implementations of the logs uploader's routes, spread into the cdn area's router. */
export function logsUploaderRoutes({ db, secretsKey }: RouteDeps) {
  const routes: LogsUploaderRoutes = contract.cdn;

  return tsr.routerWithMiddleware(routes)<RequestExtension>({
    listLogsUploaderTargets: async ({ query }, { request }) => {
      const { accountId } = request.caller;
      const where = and(
        eq(logsUploaderTargets.accountId, accountId),
        searchCondition(query.search, logsUploaderTargets),
        query.config_ids?.length
          ? inArray(
              logsUploaderTargets.id,
              db
                .select({ id: logsUploaderConfigs.targetId })
                .from(logsUploaderConfigs)
                .where(and(eq(logsUploaderConfigs.accountId, accountId), inArray(logsUploaderConfigs.id, query.config_ids))),
            )
          : undefined,
      );
      const [rows, [total]] = await Promise.all([
        db.select().from(logsUploaderTargets).where(where).orderBy(asc(logsUploaderTargets.id)).limit(query.limit).offset(query.offset),
        db.select({ total: count() }).from(logsUploaderTargets).where(where),
      ]);
      const related = await configsUsing(db, accountId, "targetId", rows.map((row) => row.id));
      const all = total?.total ?? 0;
      return {
        status: 200,
        body: { count: all, ...pageLinks(request.url, query, all), results: rows.map((row) => targetOf(row, related.get(row.id) ?? [])) },
      };
    },

    createLogsUploaderTarget: async ({ body }, { request: { caller } }) => {
      const [row] = await db
        .insert(logsUploaderTargets)
        .values({
          accountId: caller.accountId,
          name: body.name,
          description: body.description ?? "",
          storageType: body.storage_type,
          accessKeyId: body.config.access_key_id,
          secretAccessKeyEncrypted: await encryptSecret(secretsKey, body.config.secret_access_key),
          region: body.config.region,
          bucketName: body.config.bucket_name,
          directory: body.config.directory ?? null,
          endpoint: body.config.endpoint ?? null,
          usePathStyle: body.config.use_path_style ?? false,
        })
        .returning();
      return { status: 201, body: targetOf(row!, []) };
    },

    getLogsUploaderTarget: async ({ params }, { request: { caller } }) => {
      const [row] = await db
        .select()
        .from(logsUploaderTargets)
        .where(and(eq(logsUploaderTargets.accountId, caller.accountId), eq(logsUploaderTargets.id, params.id)));
      if (!row) throw notFound(`Logs uploader target ${params.id}`);
      return { status: 200, body: await targetWithRelated(db, row) };
    },

    replaceLogsUploaderTarget: async ({ params, body }, { request: { caller } }) => {
      // Encrypted before the transaction, so that it holds its lock only for the write.
      const secret = await encryptSecret(secretsKey, body.config.secret_access_key);
      const target = await db.transaction(async (tx) => {
        const current = await lockTarget(tx, caller.accountId, params.id);
        const [row] = await tx
          .update(logsUploaderTargets)
          .set({
            name: body.name ?? current.name,
            description: body.description ?? "",
            storageType: body.storage_type,
            accessKeyId: body.config.access_key_id,
            secretAccessKeyEncrypted: secret,
            region: body.config.region,
            bucketName: body.config.bucket_name,
            directory: body.config.directory ?? null,
            endpoint: body.config.endpoint ?? null,
            usePathStyle: body.config.use_path_style ?? false,
            ...checkColumns("in_progress"),
            updated: new Date(),
          })
          .where(and(eq(logsUploaderTargets.accountId, caller.accountId), eq(logsUploaderTargets.id, current.id)))
          .returning();
        return targetWithRelated(tx, row!);
      });
      return { status: 200, body: target };
    },

    updateLogsUploaderTarget: async ({ params, body }, { request: { caller } }) => {
      const { config } = body;
      const secret = config?.secret_access_key === undefined ? undefined : await encryptSecret(secretsKey, config.secret_access_key);
      const target = await db.transaction(async (tx) => {
        const current = await lockTarget(tx, caller.accountId, params.id);
        // A PATCH that gives no field changes nothing, `updated` included.
        if (Object.keys(body).length === 0) return targetWithRelated(tx, current);
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
          .where(and(eq(logsUploaderTargets.accountId, caller.accountId), eq(logsUploaderTargets.id, current.id)))
          .returning();
        return targetWithRelated(tx, row!);
      });
      return { status: 200, body: target };
    },

    deleteLogsUploaderTarget: async ({ params }, { request: { caller } }) => {
      try {
        await db.transaction(async (tx) => {
          const current = await lockTarget(tx, caller.accountId, params.id);
          const users = (await configsUsing(tx, caller.accountId, "targetId", [current.id])).get(current.id) ?? [];
          if (users.length)
            throw conflict(`Logs uploader target ${current.id} is used by configs ${users.join(", ")}: delete them or give them another target first.`);
          await tx.delete(logsUploaderTargets).where(and(eq(logsUploaderTargets.accountId, caller.accountId), eq(logsUploaderTargets.id, current.id)));
        });
      } catch (error) {
        if (isForeignKeyViolation(error)) throw conflict(`Logs uploader target ${params.id} was just given to a config; it is in use.`);
        throw error;
      }
      return { status: 204, body: undefined };
    },

    validateLogsUploaderTarget: async ({ params }, { request: { caller } }) => {
      const check = await db.transaction(async (tx) => {
        const current = await lockTarget(tx, caller.accountId, params.id);
        const problem = targetProblem(current);
        const [row] = await tx
          .update(logsUploaderTargets)
          .set(problem ? checkColumns("failed", problem) : checkColumns("successful"))
          .where(and(eq(logsUploaderTargets.accountId, caller.accountId), eq(logsUploaderTargets.id, current.id)))
          .returning();
        return checkOf(row!);
      });
      return { status: 200, body: check };
    },

    listLogsUploaderPolicies: async ({ query }, { request }) => {
      const { accountId } = request.caller;
      const where = and(
        eq(logsUploaderPolicies.accountId, accountId),
        searchCondition(query.search, logsUploaderPolicies),
        query.config_ids?.length
          ? inArray(
              logsUploaderPolicies.id,
              db
                .select({ id: logsUploaderConfigs.policyId })
                .from(logsUploaderConfigs)
                .where(and(eq(logsUploaderConfigs.accountId, accountId), inArray(logsUploaderConfigs.id, query.config_ids))),
            )
          : undefined,
      );
      const [rows, [total]] = await Promise.all([
        db.select().from(logsUploaderPolicies).where(where).orderBy(asc(logsUploaderPolicies.id)).limit(query.limit).offset(query.offset),
        db.select({ total: count() }).from(logsUploaderPolicies).where(where),
      ]);
      const related = await configsUsing(db, accountId, "policyId", rows.map((row) => row.id));
      const all = total?.total ?? 0;
      return {
        status: 200,
        body: { count: all, ...pageLinks(request.url, query, all), results: rows.map((row) => policyOf(row, related.get(row.id) ?? [])) },
      };
    },

    createLogsUploaderPolicy: async ({ body }, { request: { caller } }) => {
      const state = { ...policyDefaults(), ...body };
      checkPolicy(state);
      const [row] = await db
        .insert(logsUploaderPolicies)
        .values({ accountId: caller.accountId, ...policyColumns(state) })
        .returning();
      return { status: 201, body: policyOf(row!, []) };
    },

    getLogsUploaderPolicyFields: () => Promise.resolve({ status: 200 as const, body: [...LOGS_UPLOADER_POLICY_FIELDS] }),

    getLogsUploaderPolicy: async ({ params }, { request: { caller } }) => {
      const [row] = await db
        .select()
        .from(logsUploaderPolicies)
        .where(and(eq(logsUploaderPolicies.accountId, caller.accountId), eq(logsUploaderPolicies.id, params.id)));
      if (!row) throw notFound(`Logs uploader policy ${params.id}`);
      return { status: 200, body: await policyWithRelated(db, row) };
    },

    replaceLogsUploaderPolicy: async ({ params, body }, { request: { caller } }) => {
      const policy = await db.transaction(async (tx) => {
        const current = await lockPolicy(tx, caller.accountId, params.id);
        const state = { ...policyDefaults(), ...body };
        checkPolicy(state);
        const [row] = await tx
          .update(logsUploaderPolicies)
          .set({ ...policyColumns(state), updated: new Date() })
          .where(and(eq(logsUploaderPolicies.accountId, caller.accountId), eq(logsUploaderPolicies.id, current.id)))
          .returning();
        return policyWithRelated(tx, row!);
      });
      return { status: 200, body: policy };
    },

    updateLogsUploaderPolicy: async ({ params, body }, { request: { caller } }) => {
      const policy = await db.transaction(async (tx) => {
        const current = await lockPolicy(tx, caller.accountId, params.id);
        if (Object.keys(body).length === 0) return policyWithRelated(tx, current);
        const state = { ...policyStateOf(current), ...body };
        checkPolicy(state);
        const [row] = await tx
          .update(logsUploaderPolicies)
          .set({ ...policyColumns(state), updated: new Date() })
          .where(and(eq(logsUploaderPolicies.accountId, caller.accountId), eq(logsUploaderPolicies.id, current.id)))
          .returning();
        return policyWithRelated(tx, row!);
      });
      return { status: 200, body: policy };
    },

    deleteLogsUploaderPolicy: async ({ params }, { request: { caller } }) => {
      try {
        await db.transaction(async (tx) => {
          const current = await lockPolicy(tx, caller.accountId, params.id);
          const users = (await configsUsing(tx, caller.accountId, "policyId", [current.id])).get(current.id) ?? [];
          if (users.length)
            throw conflict(`Logs uploader policy ${current.id} is used by configs ${users.join(", ")}: delete them or give them another policy first.`);
          await tx.delete(logsUploaderPolicies).where(and(eq(logsUploaderPolicies.accountId, caller.accountId), eq(logsUploaderPolicies.id, current.id)));
        });
      } catch (error) {
        if (isForeignKeyViolation(error)) throw conflict(`Logs uploader policy ${params.id} was just given to a config; it is in use.`);
        throw error;
      }
      return { status: 204, body: undefined };
    },

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
      const [row] = await db
        .select()
        .from(logsUploaderConfigs)
        .where(and(eq(logsUploaderConfigs.accountId, caller.accountId), eq(logsUploaderConfigs.id, params.id)));
      if (!row) throw notFound(`Logs uploader config ${params.id}`);
      return { status: 200, body: await configWithResources(db, row) };
    },

    replaceLogsUploaderConfig: async ({ params, body }, { request: { caller } }) => {
      const { accountId } = caller;
      const state: ConfigState = { enabled: true, for_all_resources: false, resources: [], ...body };
      try {
        const config = await db.transaction(async (tx) => {
          const current = await lockConfig(tx, accountId, params.id);
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
            .where(and(eq(logsUploaderConfigs.accountId, accountId), eq(logsUploaderConfigs.id, current.id)))
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
          const current = await lockConfig(tx, accountId, params.id);
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
            .where(and(eq(logsUploaderConfigs.accountId, accountId), eq(logsUploaderConfigs.id, current.id)))
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
        .where(and(eq(logsUploaderConfigs.accountId, caller.accountId), eq(logsUploaderConfigs.id, params.id)))
        .returning({ id: logsUploaderConfigs.id });
      if (!deleted.length) throw notFound(`Logs uploader config ${params.id}`);
      return { status: 204, body: undefined };
    },

    validateLogsUploaderConfig: async ({ params }, { request: { caller } }) => {
      const { accountId } = caller;
      const check = await db.transaction(async (tx) => {
        const current = await lockConfig(tx, accountId, params.id);
        const [target] = await tx
          .select()
          .from(logsUploaderTargets)
          .where(and(eq(logsUploaderTargets.accountId, accountId), eq(logsUploaderTargets.id, current.targetId)));
        const [policy] = await tx
          .select({ fields: logsUploaderPolicies.fields })
          .from(logsUploaderPolicies)
          .where(and(eq(logsUploaderPolicies.accountId, accountId), eq(logsUploaderPolicies.id, current.policyId)));
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
          .where(and(eq(logsUploaderConfigs.accountId, accountId), eq(logsUploaderConfigs.id, current.id)))
          .returning();
        return checkOf(row!);
      });
      return { status: 200, body: check };
    },
  });
}
