/**
 * What the logs uploader's targets, policies and configs share: their check columns and views, the paged
 * listings, the configs that use a target or a policy, and the reads, listings and deletes of the objects
 * configs refer to (targets and policies, whose views are here for that).
 */
import {
  LOGS_UPLOADER_CHECK_CODES,
  MAX_ID,
  type LogsUploaderPolicy,
  type LogsUploaderPolicyBody,
  type LogsUploaderTarget,
  type LogsUploaderValidation,
} from "@cloudplane/contract";
import { and, asc, count, type Database, type DatabaseTransaction, eq, ilike, inArray, or, schema } from "@cloudplane/db";
import { isForeignKeyViolation } from "../../database-errors.js";
import { conflict, listed, notFound } from "../../errors.js";
import { isoTime } from "../../format.js";
import { likePattern } from "../../like.js";

const { logsUploaderConfigs, logsUploaderPolicies, logsUploaderTargets } = schema;

export type Reader = Pick<Database, "select">;
export type TargetRow = typeof logsUploaderTargets.$inferSelect;
export type PolicyRow = typeof logsUploaderPolicies.$inferSelect;
export type ConfigRow = typeof logsUploaderConfigs.$inferSelect;
type CheckStatus = LogsUploaderValidation["status"];

/** The check columns of a target or config set to `status`, as of now. */
export function checkColumns(status: CheckStatus, details = "") {
  return { status, statusCode: LOGS_UPLOADER_CHECK_CODES[status], statusDetails: details, statusUpdated: new Date() };
}

/** The fields every target, policy and config starts with: its id, its account and its times. */
export function ownFields(row: TargetRow | PolicyRow | ConfigRow) {
  return { id: row.id, client_id: row.accountId, created: isoTime(row.created), updated: isoTime(row.updated) };
}

export function checkOf(row: TargetRow | ConfigRow): LogsUploaderValidation {
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
export function searchCondition(search: string | undefined, columns: { name: Parameters<typeof ilike>[0]; id: Parameters<typeof eq>[0] }) {
  if (search === undefined || search === "") return undefined;
  const byName = ilike(columns.name, likePattern(search));
  const id = /^\d{1,10}$/.test(search) ? Number(search) : undefined;
  return id !== undefined && id <= MAX_ID ? or(byName, eq(columns.id, id)) : byName;
}

/** The links of the pages around this one: the request's URL with `offset` moved, or null at either end. */
export function pageLinks(url: string, query: PageQuery, total: number) {
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

export function targetOf(row: TargetRow, related: number[]): LogsUploaderTarget {
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

/**
 * What can be known of a target without contacting its storage: whether it says where the bucket is.
 * s3_vendor and s3_amazon have an endpoint of their own; s3_other has none.
 */
export function targetProblem(row: Pick<TargetRow, "storageType" | "endpoint">): string | undefined {
  if (row.storageType === "s3_other" && row.endpoint === null)
    return "An s3_other storage has no default endpoint: set config.endpoint to its URL.";
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Policies
// ---------------------------------------------------------------------------------------------

/** Every writable field of a policy, as the API names them. */
export type PolicyState = Required<{ [K in keyof LogsUploaderPolicyBody]-?: Exclude<LogsUploaderPolicyBody[K], undefined> }>;

export function policyStateOf(row: PolicyRow): PolicyState {
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

export function policyOf(row: PolicyRow, related: number[]): LogsUploaderPolicy {
  return {
    ...ownFields(row),
    ...policyStateOf(row),
    related_uploader_configs: related,
  };
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

export const TARGETS: Referenced<typeof logsUploaderTargets, LogsUploaderTarget> = {
  table: logsUploaderTargets,
  what: "Logs uploader target",
  field: "target",
  column: "targetId",
  view: targetOf,
};

export const POLICIES: Referenced<typeof logsUploaderPolicies, LogsUploaderPolicy> = {
  table: logsUploaderPolicies,
  what: "Logs uploader policy",
  field: "policy",
  column: "policyId",
  view: policyOf,
};

export const CONFIGS: Owned<typeof logsUploaderConfigs> = { table: logsUploaderConfigs, what: "Logs uploader config" };

/** The row `id` of the account in `table`. */
export function owned(table: OwnedTable, accountId: number, id: number) {
  return and(eq(table.accountId, accountId), eq(table.id, id));
}

/** The account's object `id`, locked for the transaction's write where `lock` is set; 404 where there is none. */
export async function ownedRow<T extends OwnedTable>(db: Reader, kind: Owned<T>, accountId: number, id: number, lock = false): Promise<T["$inferSelect"]> {
  const table: OwnedTable = kind.table;
  const select = db.select().from(table).where(owned(table, accountId, id));
  const [row] = (await (lock ? select.for("update") : select)) as T["$inferSelect"][];
  if (!row) throw notFound(`${kind.what} ${id}`);
  return row;
}

export function lockOwned<T extends OwnedTable>(tx: DatabaseTransaction, kind: Owned<T>, accountId: number, id: number): Promise<T["$inferSelect"]> {
  return ownedRow(tx, kind, accountId, id, true);
}

export async function withRelated<T extends ReferencedTable, View>(db: Reader, kind: Referenced<T, View>, row: T["$inferSelect"]): Promise<View> {
  const related = await configsUsing(db, row.accountId, kind.column, [row.id]);
  return kind.view(row, related.get(row.id) ?? []);
}

/** A page of the account's objects, by id: `search` on the name or id, `config_ids` those the configs use. */
export async function listReferenced<T extends ReferencedTable, View>(
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
export async function deleteReferenced<T extends ReferencedTable>(db: Database, kind: Referenced<T, unknown>, accountId: number, id: number): Promise<void> {
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
