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
  type ReplaceLogsUploaderTargetBody,
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
import { isForeignKeyViolation } from "./database-errors.js";
import { addFieldError, conflict, fieldErrors, listed, notFound, problemCount, validationFailed } from "./errors.js";
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

/** The fields every target, policy and config starts with: its id, its account and its times. */
function ownFields(row: TargetRow | PolicyRow | ConfigRow) {
  return { id: row.id, client_id: row.accountId, created: isoTime(row.created), updated: isoTime(row.updated) };
}

function checkOf(row: TargetRow | ConfigRow): LogsUploaderValidation {
  return { status: row.status, code: row.statusCode, updated: isoTime(row.statusUpdated), details: row.statusDetails };
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
    ...ownFields(row),
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

/**
 * What can be known of a target without contacting its storage: whether it says where the bucket is.
 * s3_vendor and s3_amazon have an endpoint of their own; s3_other has none.
 */
function targetProblem(row: Pick<TargetRow, "storageType" | "endpoint">): string | undefined {
  if (row.storageType === "s3_other" && row.endpoint === null)
    return "An s3_other storage has no default endpoint: set config.endpoint to its URL.";
  return undefined;
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
    ...ownFields(row),
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

// ---------------------------------------------------------------------------------------------
// The account's objects: targets, policies and configs
// ---------------------------------------------------------------------------------------------

type ReferencedTable = typeof logsUploaderTargets | typeof logsUploaderPolicies;
type OwnedTable = ReferencedTable | typeof logsUploaderConfigs;

/** A table of objects each of one account, and what messages call one. */
interface Owned<T extends OwnedTable> {
  table: T;
  what: string;
}

/**
 * A kind of object that configs refer to: targets (a config's `target`, column targetId) and policies
 * (`policy`, policyId). Their listings, reads and deletes are the same but for the table, that field and column.
 */
interface Referenced<T extends ReferencedTable, View> extends Owned<T> {
  field: "target" | "policy";
  column: "targetId" | "policyId";
  view(row: T["$inferSelect"], related: number[]): View;
}

const TARGETS: Referenced<typeof logsUploaderTargets, LogsUploaderTarget> = {
  table: logsUploaderTargets,
  what: "Logs uploader target",
  field: "target",
  column: "targetId",
  view: targetOf,
};

const POLICIES: Referenced<typeof logsUploaderPolicies, LogsUploaderPolicy> = {
  table: logsUploaderPolicies,
  what: "Logs uploader policy",
  field: "policy",
  column: "policyId",
  view: policyOf,
};

const CONFIGS: Owned<typeof logsUploaderConfigs> = { table: logsUploaderConfigs, what: "Logs uploader config" };

/** The row `id` of the account in `table`. */
function owned(table: OwnedTable, accountId: number, id: number) {
  return and(eq(table.accountId, accountId), eq(table.id, id));
}

/** The account's object `id`, locked for the transaction's write where `lock` is set; 404 where there is none. */
async function ownedRow<T extends OwnedTable>(db: Reader, kind: Owned<T>, accountId: number, id: number, lock = false): Promise<T["$inferSelect"]> {
  const table: OwnedTable = kind.table;
  const select = db.select().from(table).where(owned(table, accountId, id));
  const [row] = (await (lock ? select.for("update") : select)) as T["$inferSelect"][];
  if (!row) throw notFound(`${kind.what} ${id}`);
  return row;
}

function lockOwned<T extends OwnedTable>(tx: DatabaseTransaction, kind: Owned<T>, accountId: number, id: number): Promise<T["$inferSelect"]> {
  return ownedRow(tx, kind, accountId, id, true);
}

async function withRelated<T extends ReferencedTable, View>(db: Reader, kind: Referenced<T, View>, row: T["$inferSelect"]): Promise<View> {
  const related = await configsUsing(db, row.accountId, kind.column, [row.id]);
  return kind.view(row, related.get(row.id) ?? []);
}

/** A page of the account's objects, by id: `search` on the name or id, `config_ids` those the configs use. */
async function listReferenced<T extends ReferencedTable, View>(
  db: Database,
  kind: Referenced<T, View>,
  accountId: number,
  url: string,
  query: PageQuery & { config_ids?: number[] },
) {
  const table: ReferencedTable = kind.table;
  const where = and(
    eq(table.accountId, accountId),
    searchCondition(query.search, table),
    query.config_ids?.length
      ? inArray(
          table.id,
          db
            .select({ id: logsUploaderConfigs[kind.column] })
            .from(logsUploaderConfigs)
            .where(and(eq(logsUploaderConfigs.accountId, accountId), inArray(logsUploaderConfigs.id, query.config_ids))),
        )
      : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db.select().from(table).where(where).orderBy(asc(table.id)).limit(query.limit).offset(query.offset),
    db.select({ total: count() }).from(table).where(where),
  ]);
  const related = await configsUsing(db, accountId, kind.column, rows.map((row) => row.id));
  const all = total?.total ?? 0;
  return {
    count: all,
    ...pageLinks(url, query, all),
    results: (rows as T["$inferSelect"][]).map((row) => kind.view(row, related.get(row.id) ?? [])),
  };
}

/** Deletes the object; 409 while a config uses it, naming the configs. */
async function deleteReferenced<T extends ReferencedTable>(db: Database, kind: Referenced<T, unknown>, accountId: number, id: number): Promise<void> {
  try {
    await db.transaction(async (tx) => {
      const current = await lockOwned(tx, kind, accountId, id);
      const users = (await configsUsing(tx, accountId, kind.column, [current.id])).get(current.id) ?? [];
      if (users.length)
        throw conflict(`${kind.what} ${current.id} is used by configs ${listed(users)}: delete them or give them another ${kind.field} first.`);
      await tx.delete(kind.table).where(owned(kind.table, accountId, current.id));
    });
  } catch (error) {
    if (isForeignKeyViolation(error)) throw conflict(`${kind.what} ${id} was just given to a config; it is in use.`);
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// Configs
// ---------------------------------------------------------------------------------------------

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

/**
 * Writes the policy `id` as `stateOf` makes it from the current one, after its checks, in one transaction.
 * Where `stateOf` gives nothing (a PATCH that gives no field), nothing changes, `updated` included.
 */
function writePolicy(
  db: Database,
  accountId: number,
  id: number,
  stateOf: (current: PolicyRow) => PolicyState | undefined,
): Promise<LogsUploaderPolicy> {
  return db.transaction(async (tx) => {
    const current = await lockOwned(tx, POLICIES, accountId, id);
    const state = stateOf(current);
    if (!state) return withRelated(tx, POLICIES, current);
    checkPolicy(state);
    const [row] = await tx
      .update(logsUploaderPolicies)
      .set({ ...policyColumns(state), updated: new Date() })
      .where(owned(logsUploaderPolicies, accountId, current.id))
      .returning();
    return withRelated(tx, POLICIES, row!);
  });
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

    listLogsUploaderPolicies: async ({ query }, { request }) => ({
      status: 200,
      body: await listReferenced(db, POLICIES, request.caller.accountId, request.url, query),
    }),

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
      const row = await ownedRow(db, POLICIES, caller.accountId, params.id);
      return { status: 200, body: await withRelated(db, POLICIES, row) };
    },

    replaceLogsUploaderPolicy: async ({ params, body }, { request: { caller } }) => ({
      status: 200,
      body: await writePolicy(db, caller.accountId, params.id, () => ({ ...policyDefaults(), ...body })),
    }),

    updateLogsUploaderPolicy: async ({ params, body }, { request: { caller } }) => ({
      status: 200,
      body: await writePolicy(db, caller.accountId, params.id, (current) =>
        Object.keys(body).length === 0 ? undefined : { ...policyStateOf(current), ...body },
      ),
    }),

    deleteLogsUploaderPolicy: async ({ params }, { request: { caller } }) => {
      await deleteReferenced(db, POLICIES, caller.accountId, params.id);
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
