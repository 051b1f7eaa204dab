/**
 * Logs uploader policies: the paged listing, create, the fields a policy may include, get, PUT replace,
 * PATCH change and delete (409 while a config uses one), with the rules of `fields`.
 */
import { cdnLogsUploaderPoliciesRoutes, LOGS_UPLOADER_POLICY_DEFAULTS, LOGS_UPLOADER_POLICY_FIELDS, type LogsUploaderPolicy } from "@cloudplane/contract";
import { type Database, schema } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { addFieldError, fieldErrors, problemCount, validationFailed } from "../../errors.js";
import type { RequestExtension, RouteDeps } from "../../types.js";
import { deleteReferenced, listReferenced, lockOwned, owned, ownedRow, POLICIES, policyOf, type PolicyRow, type PolicyState, policyStateOf, withRelated } from "./shared.js";
import { served } from "../../served.js";

const { logsUploaderPolicies } = schema;

const POLICY_FIELD_NAMES = new Set<string>(LOGS_UPLOADER_POLICY_FIELDS);

function policyDefaults(): PolicyState {
  return { ...LOGS_UPLOADER_POLICY_DEFAULTS, fields: [...LOGS_UPLOADER_POLICY_DEFAULTS.fields], tags: {} };
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

/** The routes of logs uploader policies. */
export function cdnLogsUploaderPolicies({ db }: RouteDeps) {
  return tsr.routerWithMiddleware(served("cdn", cdnLogsUploaderPoliciesRoutes))<RequestExtension>({
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

  });
}
