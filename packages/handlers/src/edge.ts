/**
 * Edge app routes: apps (the filtered, ordered and paged listing, their lifecycle, status moves,
 * write-only fields and secret references), templates with their parameters, secrets with encrypted
 * slots, and binaries.
 */
import {
  contract,
  primaryRoutes,
  EDGE_APP_STATUS_MOVES,
  type EdgeApp,
  type EdgeAppSecret,
  type EdgeAppStatus,
  type EdgeAppTemplate,
  type EdgeAppTemplateBody,
  type EdgeAppTemplateShort,
  type EdgeBinary,
  type ListEdgeAppsQuery,
  type UpdateEdgeAppBody,
} from "@cloudplane/contract";
import {
  and,
  asc,
  count,
  countDistinct,
  type Database,
  type DatabaseTransaction,
  desc,
  encryptSecret,
  eq,
  exists,
  ilike,
  inArray,
  isNull,
  or,
  schema,
  sha256Hex,
  sql,
  type SQL,
} from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { sqlState } from "./database-errors.js";
import { addFieldError, ApiError, conflict, fieldErrors, invalid, notFound, problemCount, validationFailed } from "./errors.js";
import { isoTime } from "./format.js";
import { likePattern } from "./like.js";
import { type PlaceholderValues, preparedOnce, preparedPerShape } from "./prepared.js";
import type { RequestExtension, RouteDeps } from "./types.js";

const { edgeApps, edgeAppSecrets, edgeBinaries, edgePlans, edgeSecrets, edgeSecretSlots, edgeTemplateParams, edgeTemplates } = schema;

const DEBUG_WINDOW_MS = 30 * 60 * 1000;

const ORDER_COLUMNS = {
  id: edgeApps.id,
  // Byte order, the same on every server whatever its collation (as the contract says).
  name: sql`${edgeApps.name} collate "C"`,
  status: edgeApps.status,
  template: edgeApps.templateId,
  binary: edgeApps.binaryId,
  plan: edgeApps.planId,
} as const;

const appColumns = {
  app: edgeApps,
  templateName: edgeTemplates.name,
  plan: edgePlans.name,
};

function selectApps(db: Pick<Database, "select">) {
  return db
    .select(appColumns)
    .from(edgeApps)
    .leftJoin(edgeTemplates, eq(edgeTemplates.id, edgeApps.templateId))
    .innerJoin(edgePlans, eq(edgePlans.id, edgeApps.planId));
}

/** A row of `selectApps`. */
interface AppRow {
  app: typeof edgeApps.$inferSelect;
  templateName: string | null;
  plan: string;
}

function toEdgeApp(row: AppRow): EdgeApp {
  const { app } = row;
  return {
    id: app.id,
    name: app.name,
    url: app.url,
    status: app.status,
    binary: app.binaryId,
    template: app.templateId,
    template_name: app.templateId === null ? null : row.templateName,
    comment: app.comment,
    api_type: app.apiType,
    debug_until: app.debugUntil && app.debugUntil.getTime() > Date.now() ? isoTime(app.debugUntil) : null,
    networks: app.networks,
    upgradeable_to: app.upgradeableTo,
    plan_id: app.planId,
    plan: row.plan,
  };
}

/** The listing's filters, in the order their conditions (and so their parameters) are added. */
const LIST_FILTERS = ["name", "api_type", "status", "template", "binary", "plan"] as const;

type ListFilter = (typeof LIST_FILTERS)[number];

/** The filters a listing gives (an empty name filters nothing). */
function givenFilters(query: ListEdgeAppsQuery): ListFilter[] {
  return LIST_FILTERS.filter((filter) => query[filter] !== undefined && query[filter] !== "");
}

/** The listing's conditions for the `filters` given, each value a placeholder named after its filter. */
function listConditions(filters: ListFilter[]): SQL | undefined {
  const where: SQL[] = [eq(edgeApps.accountId, sql.placeholder("accountId"))];
  for (const filter of filters) {
    const value = sql.placeholder(filter);
    if (filter === "name") where.push(ilike(edgeApps.name, value));
    else if (filter === "api_type") where.push(eq(edgeApps.apiType, value));
    else if (filter === "status") where.push(eq(edgeApps.status, value));
    else if (filter === "template") where.push(eq(edgeApps.templateId, value));
    else if (filter === "binary") where.push(eq(edgeApps.binaryId, value));
    else where.push(eq(edgeApps.planId, value));
  }
  return and(...where);
}

/** The caller's app `id`. */
function ownApp(accountId: number, id: number): SQL | undefined {
  return and(eq(edgeApps.accountId, accountId), eq(edgeApps.id, id));
}

/** Templates an account may use and read: its own and the public ones. */
function visibleTemplates(accountId: number): SQL | undefined {
  return or(eq(edgeTemplates.accountId, accountId), isNull(edgeTemplates.accountId));
}

/** Binaries an account's apps may run: its own and the platform's (behind public templates). */
function usableBinaries(accountId: number): SQL | undefined {
  return or(eq(edgeBinaries.accountId, accountId), isNull(edgeBinaries.accountId));
}

/*
 * Reads of the objects a write refers to (a template, a binary, secrets) lock them: a delete of that
 * object, which locks it for update, then waits for the write or the write sees it gone, so the foreign
 * key never fails under a race (no 500). A binary an app write starts or stops running has its
 * `unref_since` updated by that write, so it is locked for that update from the start (`lockBinaries`):
 * two writes that each held a share lock and then both asked for the update would wait on each other
 * (a deadlock, 40P01). Every app write takes its locks in one order: the app, then its binaries in id
 * order, then the template and secrets it names.
 */

/** Locks binaries `ids` (those of them that exist) for the update of their use, in id order. */
async function lockBinaries(tx: DatabaseTransaction, ids: (number | null | undefined)[]): Promise<void> {
  const wanted = [...new Set(ids.filter((id): id is number => typeof id === "number"))].sort((a, b) => a - b);
  if (!wanted.length) return;
  await tx.select({ id: edgeBinaries.id }).from(edgeBinaries).where(inArray(edgeBinaries.id, wanted)).orderBy(asc(edgeBinaries.id)).for("no key update");
}

/** The template `id` an app of the account may be made from, or 400 on `field`. */
async function usableTemplate(tx: DatabaseTransaction, accountId: number, id: number, field: string) {
  const [template] = await tx
    .select({ binaryId: edgeTemplates.binaryId, apiType: edgeTemplates.apiType })
    .from(edgeTemplates)
    .where(and(eq(edgeTemplates.id, id), visibleTemplates(accountId)))
    .for("share");
  if (!template) throw invalid(field, "Must be a template of the account or a public template.");
  return template;
}

/** The binary `id` an app of the account may run, or 400 on `binary`; locked for the update of its use (`lockBinaries`). */
async function usableBinary(tx: DatabaseTransaction, accountId: number, id: number) {
  const [binary] = await tx
    .select({ apiType: edgeBinaries.apiType })
    .from(edgeBinaries)
    .where(and(eq(edgeBinaries.id, id), usableBinaries(accountId)))
    .for("no key update");
  if (!binary) throw invalid("binary", "Must be a binary of the account, or a platform binary of a public template.");
  return binary;
}

type SecretRefs = Record<string, { id: number }>;

/** Gives app `appId` the secrets `refs` in place of its current ones; 400 naming each entry that is not a secret of the account. */
async function setAppSecrets(tx: DatabaseTransaction, accountId: number, appId: number, refs: SecretRefs): Promise<void> {
  const wanted = Object.entries(refs);
  const ids = [...new Set(wanted.map(([, ref]) => ref.id))];
  const found = ids.length
    ? await tx
        .select({ id: edgeSecrets.id })
        .from(edgeSecrets)
        .where(and(eq(edgeSecrets.accountId, accountId), inArray(edgeSecrets.id, ids)))
        .for("share")
    : [];
  const known = new Set(found.map((secret) => secret.id));
  const errors = fieldErrors();
  for (const [name, ref] of wanted) if (!known.has(ref.id)) addFieldError(errors, `secrets.${name}.id`, "Must be a secret of the account.");
  if (problemCount(errors)) throw validationFailed(errors);
  await tx.delete(edgeAppSecrets).where(and(eq(edgeAppSecrets.accountId, accountId), eq(edgeAppSecrets.appId, appId)));
  if (wanted.length) await tx.insert(edgeAppSecrets).values(wanted.map(([name, ref]) => ({ accountId, appId, name, secretId: ref.id })));
}

/**
 * After apps started or stopped running `binaryIds`, which the write locked first (`lockBinaries`), so
 * this statement sees every other write's app: a binary's `unref_since` is null while an app runs it,
 * and the time the last one stopped once none does (kept if it was already unused).
 */
async function refreshBinaryUse(tx: DatabaseTransaction, binaryIds: (number | null | undefined)[]): Promise<void> {
  const ids = [...new Set(binaryIds.filter((id): id is number => typeof id === "number"))];
  if (!ids.length) return;
  await tx
    .update(edgeBinaries)
    .set({
      unrefSince: sql`case when exists (select 1 from ${edgeApps} where ${edgeApps.binaryId} = ${edgeBinaries.id}) then null else coalesce(${edgeBinaries.unrefSince}, now()) end`,
    })
    .where(inArray(edgeBinaries.id, ids));
}

/** The app's row as `selectApps` gives it, after a write in `tx`. */
async function appAfterWrite(tx: DatabaseTransaction, accountId: number, id: number): Promise<AppRow> {
  const [row] = await selectApps(tx).where(ownApp(accountId, id));
  return row!;
}

function toTemplateShort(template: typeof edgeTemplates.$inferSelect, accountId: number): EdgeAppTemplateShort {
  return {
    id: template.id,
    name: template.name,
    api_type: template.apiType,
    owned: template.accountId === accountId,
    short_descr: template.shortDescr,
    long_descr: template.longDescr,
  };
}

/** One of the account's own templates, locked for a write: 404 for none, 403 for a public one (the platform's). */
async function ownTemplateForWrite(tx: DatabaseTransaction, accountId: number, id: number) {
  const [template] = await tx
    .select({ accountId: edgeTemplates.accountId })
    .from(edgeTemplates)
    .where(and(eq(edgeTemplates.id, id), visibleTemplates(accountId)))
    .for("update");
  if (!template) throw notFound(`Template ${id}`);
  if (template.accountId === null) throw new ApiError("permission_denied", `Template ${id} is a public template of the platform: it cannot be changed.`);
}

/** A template's fields and parameters as a write (create or replace) sets them, after its binary is checked. */
async function templateWrite(tx: DatabaseTransaction, accountId: number, body: EdgeAppTemplateBody) {
  const [binary] = await tx
    .select({ apiType: edgeBinaries.apiType })
    .from(edgeBinaries)
    .where(and(eq(edgeBinaries.id, body.binary_id), eq(edgeBinaries.accountId, accountId)))
    .for("share");
  if (!binary) throw invalid("binary_id", "Must be a binary of the account.");
  return {
    fields: {
      binaryId: body.binary_id,
      name: body.name,
      shortDescr: body.short_descr ?? "",
      longDescr: body.long_descr ?? "",
      apiType: binary.apiType,
    },
    params: (templateId: number) =>
      body.params.map((param, position) => ({
        templateId,
        position,
        name: param.name,
        dataType: param.data_type,
        mandatory: param.mandatory ?? false,
        descr: param.descr ?? "",
        metadata: param.metadata ?? null,
      })),
  };
}

/** A write that hit a unique name: 409 saying whose name it is. */
function nameTaken(what: string, name: string | undefined): (error: unknown) => never {
  return (error) => {
    if (sqlState(error) === "23505") throw conflict(`The account already has ${what} named ${name}.`);
    throw error;
  };
}

/** The number of distinct apps that use a secret, as `app_count` shows it. */
const secretAppCount = sql<number>`(select count(distinct ${edgeAppSecrets.appId})::int from ${edgeAppSecrets} where ${edgeAppSecrets.secretId} = ${edgeSecrets.id})`;

/** The account's secret `id` with its slots, or undefined. */
async function secretView(db: Pick<Database, "select">, accountId: number, id: number): Promise<EdgeAppSecret | undefined> {
  const [secret] = await db
    .select({ id: edgeSecrets.id, name: edgeSecrets.name, comment: edgeSecrets.comment, app_count: secretAppCount })
    .from(edgeSecrets)
    .where(and(eq(edgeSecrets.accountId, accountId), eq(edgeSecrets.id, id)));
  if (!secret) return undefined;
  const slots = await db
    .select({ slot: edgeSecretSlots.slot, checksum: edgeSecretSlots.checksum })
    .from(edgeSecretSlots)
    .where(eq(edgeSecretSlots.secretId, id))
    .orderBy(asc(edgeSecretSlots.slot));
  return { ...secret, secret_slots: slots };
}

/** A slot to store: encrypted before the transaction opens, so it holds its locks only for the writes. */
async function sealSlot(secretsKey: CryptoKey, slot: number, value: string) {
  return { slot, valueEncrypted: await encryptSecret(secretsKey, value), checksum: await sha256Hex(value) };
}

/** A binary's columns but its bytes, which are stored and never read back. */
const binaryColumns = {
  id: edgeBinaries.id,
  apiType: edgeBinaries.apiType,
  status: edgeBinaries.status,
  source: edgeBinaries.source,
  checksum: edgeBinaries.checksum,
  unrefSince: edgeBinaries.unrefSince,
};

type BinaryRow = Pick<typeof edgeBinaries.$inferSelect, keyof typeof binaryColumns>;

/** The account's own binary `id` (not the platform's). */
function ownBinary(accountId: number, id: number): SQL | undefined {
  return and(eq(edgeBinaries.accountId, accountId), eq(edgeBinaries.id, id));
}

/** The hex SHA-256 of `bytes`. */
async function sha256HexOf(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** `proxy_`: the prefix of every name the Proxy-Wasm ABI has a module export (`proxy_on_*`, `proxy_abi_version_*`). */
const PROXY_WASM_PREFIX = [0x70, 0x72, 0x6f, 0x78, 0x79, 0x5f];
const EXPORT_SECTION = 7;

/**
 * The api_type of a WebAssembly module (its 8-byte header already checked), as the contract says:
 * proxy-wasm when its export section names anything starting with `proxy_`, wasi-http otherwise. The
 * sections are walked by their sizes to the export section; a module cut short or malformed is read as
 * far as it goes (a runtime would refuse it, but that is for a deployment to find, as on the platform).
 */
export function wasmApiType(bytes: Uint8Array): EdgeBinary["api_type"] {
  let offset = 8;
  /** An unsigned LEB128 number of at most 32 bits, or undefined past the end. */
  const u32 = (): number | undefined => {
    let value = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      if (offset >= bytes.length) return undefined;
      const byte = bytes[offset++]!;
      value += (byte & 0x7f) * 2 ** shift;
      if (!(byte & 0x80)) return value;
    }
    return undefined;
  };
  while (offset < bytes.length) {
    const id = bytes[offset++]!;
    const size = u32();
    if (size === undefined) break;
    const end = offset + size;
    if (id !== EXPORT_SECTION) {
      offset = end;
      continue;
    }
    const exports = u32() ?? 0;
    for (let index = 0; index < exports && offset < Math.min(end, bytes.length); index++) {
      const length = u32();
      if (length === undefined) break;
      const name = bytes.subarray(offset, offset + length);
      if (name.length >= PROXY_WASM_PREFIX.length && PROXY_WASM_PREFIX.every((byte, at) => name[at] === byte)) return "proxy-wasm";
      offset += length + 1; // the name, then its kind
      if (u32() === undefined) break; // its index
    }
    break;
  }
  return "wasi-http";
}

function toEdgeBinary(binary: BinaryRow): EdgeBinary {
  return {
    id: binary.id,
    api_type: binary.apiType,
    status: binary.status,
    source: binary.source,
    checksum: binary.checksum,
    unref_since: binary.unrefSince ? isoTime(binary.unrefSince) : null,
  };
}

export function edgeRoutes({ db, secretsKey }: RouteDeps) {
  // The listing's SQL depends on which filters are given and on the ordering: a statement per shape,
  // at most 2^6 filter sets × 12 orderings.
  const appPages = preparedPerShape<AppRow[]>("list_apps");
  const appCounts = preparedPerShape<{ total: number }[]>("count_apps");
  /** GET of one app: a three-table select, whose SQL costs more to build than to run. */
  const appById = preparedOnce(() =>
    selectApps(db)
      .where(and(eq(edgeApps.accountId, sql.placeholder("accountId")), eq(edgeApps.id, sql.placeholder("id"))))
      .prepare("app_by_id"),
  );

  /** PATCH and PUT of a secret: `slots`, when given, is the whole set afterwards; a slot without a value keeps its stored one. */
  async function changeSecret(
    accountId: number,
    id: number,
    change: { name?: string; comment?: string; slots?: { slot: number; value?: string }[] },
  ): Promise<EdgeAppSecret> {
    const sealed = change.slots
      ? await Promise.all(change.slots.map(async (item) => (item.value === undefined ? { slot: item.slot } : await sealSlot(secretsKey, item.slot, item.value))))
      : undefined;
    return db
      .transaction(async (tx) => {
        const [current] = await tx
          .select({ id: edgeSecrets.id })
          .from(edgeSecrets)
          .where(and(eq(edgeSecrets.accountId, accountId), eq(edgeSecrets.id, id)))
          .for("update");
        if (!current) throw notFound(`Secret ${id}`);
        if (sealed) {
          const stored = new Map(
            (await tx.select().from(edgeSecretSlots).where(eq(edgeSecretSlots.secretId, id))).map((row) => [row.slot, row] as const),
          );
          const errors = fieldErrors();
          const rows = sealed.flatMap((item, index) => {
            const kept = "valueEncrypted" in item ? item : stored.get(item.slot);
            if (kept) return [{ accountId, secretId: id, slot: item.slot, valueEncrypted: kept.valueEncrypted, checksum: kept.checksum }];
            addFieldError(errors, `secret_slots.${index}.value`, `Slot ${item.slot} has no stored value: give one.`);
            return [];
          });
          if (problemCount(errors)) throw validationFailed(errors);
          await tx.delete(edgeSecretSlots).where(eq(edgeSecretSlots.secretId, id));
          await tx.insert(edgeSecretSlots).values(rows);
        }
        const fields: Partial<typeof edgeSecrets.$inferInsert> = { updated: new Date() };
        if (change.name !== undefined) fields.name = change.name;
        if (change.comment !== undefined) fields.comment = change.comment;
        await tx.update(edgeSecrets).set(fields).where(eq(edgeSecrets.id, id));
        return (await secretView(tx, accountId, id))!;
      })
      .catch(nameTaken("a secret", change.name));
  }

  /** PUT and PATCH of an app: both change only the fields given (the PUT's body has every field optional). */
  async function changeApp(accountId: number, id: number, body: UpdateEdgeAppBody): Promise<AppRow> {
    return db
      .transaction(async (tx) => {
        const [current] = await tx.select().from(edgeApps).where(ownApp(accountId, id)).for("update");
        if (!current) throw notFound(`Edge app ${id}`);
        const changes: Partial<typeof edgeApps.$inferInsert> = { updated: new Date() };

        if (body.binary !== undefined && body.binary !== current.binaryId) await lockBinaries(tx, [current.binaryId, body.binary]);
        if (body.binary !== undefined) {
          const binary = await usableBinary(tx, accountId, body.binary);
          if (binary.apiType !== current.apiType) throw invalid("binary", `Must be a ${current.apiType} binary, the app's api_type.`);
          changes.binaryId = body.binary;
        }
        if (body.template !== undefined) {
          if (body.template !== null) await usableTemplate(tx, accountId, body.template, "template");
          changes.templateId = body.template;
        }
        if (body.status !== undefined && body.status !== current.status) {
          const from = current.status as EdgeAppStatus;
          if (!EDGE_APP_STATUS_MOVES[from].includes(body.status as EdgeAppStatus))
            throw conflict(`An app in status ${from} cannot be moved to status ${body.status}.`);
          if (body.status === 1 && (changes.binaryId ?? current.binaryId) === null)
            throw conflict("The app has no binary; set one before enabling it.");
          changes.status = body.status;
        }
        if (body.secrets !== undefined) await setAppSecrets(tx, accountId, current.id, body.secrets);
        if (body.name !== undefined) changes.name = body.name;
        if (body.comment !== undefined) changes.comment = body.comment;
        if (body.env !== undefined) changes.env = body.env;
        if (body.rsp_headers !== undefined) changes.rspHeaders = body.rsp_headers;
        if (body.log !== undefined) changes.log = body.log;
        if (body.debug !== undefined) changes.debugUntil = body.debug ? new Date(Date.now() + DEBUG_WINDOW_MS) : null;

        await tx.update(edgeApps).set(changes).where(ownApp(accountId, current.id));
        if (changes.binaryId !== undefined && changes.binaryId !== current.binaryId) await refreshBinaryUse(tx, [current.binaryId, changes.binaryId]);
        return appAfterWrite(tx, accountId, current.id);
      })
      .catch(nameTaken("an edge app", body.name));
  }

  return tsr.routerWithMiddleware(primaryRoutes(contract.edge))<RequestExtension>({
    listApps: async ({ query }, { request: { caller } }) => {
      const filters = givenFilters(query);
      const values: PlaceholderValues = { accountId: caller.accountId, limit: query.limit, offset: query.offset };
      for (const filter of filters) values[filter] = filter === "name" ? likePattern(query.name!) : query[filter];
      const { ordering } = query;
      const filterShape = filters.join(",");
      const [rows, [total]] = await Promise.all([
        appPages(`${filterShape}/${ordering}`, () => {
          const field = ordering.replace(/^-/, "") as keyof typeof ORDER_COLUMNS;
          const direction = ordering.startsWith("-") ? desc : asc;
          const order = field === "id" ? [direction(edgeApps.id)] : [direction(ORDER_COLUMNS[field]), asc(edgeApps.id)];
          return selectApps(db)
            .where(listConditions(filters))
            .orderBy(...order)
            .limit(sql.placeholder("limit"))
            .offset(sql.placeholder("offset"));
        }).execute(values),
        appCounts(filterShape, () => db.select({ total: count() }).from(edgeApps).where(listConditions(filters))).execute(values),
      ]);
      return { status: 200, body: { apps: rows.map(toEdgeApp), count: total?.total ?? 0 } };
    },

    createApp: async ({ body }, { request: { caller } }) => {
      const { accountId } = caller;
      const app = await db
        .transaction(async (tx) => {
          const template = body.template === undefined ? undefined : await usableTemplate(tx, accountId, body.template, "template");
          let binaryId: number;
          let apiType: (typeof edgeApps.$inferSelect)["apiType"];
          if (body.binary !== undefined) {
            binaryId = body.binary;
            apiType = (await usableBinary(tx, accountId, body.binary)).apiType;
            if (template && template.apiType !== apiType) throw invalid("binary", `Must be a ${template.apiType} binary, the template's api_type.`);
          } else if (template) {
            binaryId = template.binaryId;
            apiType = template.apiType;
            await lockBinaries(tx, [binaryId]);
          } else {
            throw invalid("binary", "Give a binary or a template (or both): the app must have something to run.");
          }
          const [plan] = await tx.select({ id: edgePlans.id }).from(edgePlans).orderBy(asc(edgePlans.id)).limit(1);
          if (!plan) throw conflict("This deployment has no edge app plan set up, so no app can be made yet.");
          const [created] = await tx
            .insert(edgeApps)
            .values({
              accountId,
              name: body.name,
              status: body.status ?? 0,
              binaryId,
              templateId: body.template ?? null,
              planId: plan.id,
              apiType,
              comment: body.comment ?? "",
              url: "",
              env: body.env ?? {},
              rspHeaders: body.rsp_headers ?? {},
              log: body.log ?? "kafka",
              debugUntil: body.debug ? new Date(Date.now() + DEBUG_WINDOW_MS) : null,
            })
            .returning({ id: edgeApps.id });
          const { id } = created!;
          // The URL names the id, known only once the row is in.
          await tx
            .update(edgeApps)
            .set({ url: `https://${body.name}-${id}.${accountId}.edge.cloudplane.example` })
            .where(eq(edgeApps.id, id));
          if (body.secrets !== undefined) await setAppSecrets(tx, accountId, id, body.secrets);
          await refreshBinaryUse(tx, [binaryId]);
          return appAfterWrite(tx, accountId, id);
        })
        .catch(nameTaken("an edge app", body.name));
      return { status: 200, body: toEdgeApp(app) };
    },

    getApp: async ({ params }, { request: { caller } }) => {
      const [app] = await appById().execute({ accountId: caller.accountId, id: params.id });
      if (!app) throw notFound(`Edge app ${params.id}`);
      return { status: 200, body: toEdgeApp(app) };
    },

    updateApp: async ({ params, body }, { request: { caller } }) => {
      return { status: 200, body: toEdgeApp(await changeApp(caller.accountId, params.id, body)) };
    },

    patchApp: async ({ params, body }, { request: { caller } }) => {
      return { status: 200, body: toEdgeApp(await changeApp(caller.accountId, params.id, body)) };
    },

    deleteApp: async ({ params }, { request: { caller } }) => {
      await db.transaction(async (tx) => {
        const [current] = await tx.select({ binaryId: edgeApps.binaryId }).from(edgeApps).where(ownApp(caller.accountId, params.id)).for("update");
        if (!current) throw notFound(`Edge app ${params.id}`);
        await lockBinaries(tx, [current.binaryId]);
        // Its secret links go with it (ON DELETE CASCADE).
        await tx.delete(edgeApps).where(ownApp(caller.accountId, params.id));
        await refreshBinaryUse(tx, [current.binaryId]);
      });
      return { status: 204, body: undefined };
    },

    listTemplates: async ({ query }, { request: { caller } }) => {
      const where = and(
        query.only_mine ? eq(edgeTemplates.accountId, caller.accountId) : visibleTemplates(caller.accountId),
        query.api_type === undefined ? undefined : eq(edgeTemplates.apiType, query.api_type),
      );
      const [rows, [total]] = await Promise.all([
        db.select().from(edgeTemplates).where(where).orderBy(asc(edgeTemplates.id)).limit(query.limit).offset(query.offset),
        db.select({ total: count() }).from(edgeTemplates).where(where),
      ]);
      return { status: 200, body: { templates: rows.map((row) => toTemplateShort(row, caller.accountId)), count: total?.total ?? 0 } };
    },

    createTemplate: async ({ body }, { request: { caller } }) => {
      const { accountId } = caller;
      const template = await db
        .transaction(async (tx) => {
          const write = await templateWrite(tx, accountId, body);
          const [created] = await tx
            .insert(edgeTemplates)
            .values({ accountId, ...write.fields })
            .returning();
          const params = write.params(created!.id);
          if (params.length) await tx.insert(edgeTemplateParams).values(params);
          return created!;
        })
        .catch(nameTaken("a template", body.name));
      return { status: 200, body: toTemplateShort(template, accountId) };
    },

    getTemplate: async ({ params }, { request: { caller } }) => {
      const [template] = await db
        .select()
        .from(edgeTemplates)
        .where(and(eq(edgeTemplates.id, params.id), visibleTemplates(caller.accountId)));
      if (!template) throw notFound(`Template ${params.id}`);
      const params_ = await db
        .select()
        .from(edgeTemplateParams)
        .where(eq(edgeTemplateParams.templateId, template.id))
        .orderBy(asc(edgeTemplateParams.position));
      const body: EdgeAppTemplate = {
        id: template.id,
        binary_id: template.binaryId,
        name: template.name,
        short_descr: template.shortDescr,
        long_descr: template.longDescr,
        api_type: template.apiType,
        owned: template.accountId === caller.accountId,
        params: params_.map((param) => ({
          name: param.name,
          data_type: param.dataType,
          mandatory: param.mandatory,
          descr: param.descr,
          metadata: param.metadata,
        })),
      };
      return { status: 200, body };
    },

    replaceTemplate: async ({ params, body }, { request: { caller } }) => {
      const { accountId } = caller;
      const template = await db
        .transaction(async (tx) => {
          await ownTemplateForWrite(tx, accountId, params.id);
          const write = await templateWrite(tx, accountId, body);
          const [replaced] = await tx.update(edgeTemplates).set(write.fields).where(eq(edgeTemplates.id, params.id)).returning();
          await tx.delete(edgeTemplateParams).where(eq(edgeTemplateParams.templateId, params.id));
          const rows = write.params(params.id);
          if (rows.length) await tx.insert(edgeTemplateParams).values(rows);
          return replaced!;
        })
        .catch(nameTaken("a template", body.name));
      return { status: 200, body: toTemplateShort(template, accountId) };
    },

    deleteTemplate: async ({ params, query }, { request: { caller } }) => {
      await db.transaction(async (tx) => {
        await ownTemplateForWrite(tx, caller.accountId, params.id);
        const [{ apps }] = (await tx.select({ apps: count() }).from(edgeApps).where(eq(edgeApps.templateId, params.id))) as [{ apps: number }];
        if (apps > 0 && !query.force)
          throw conflict(`Template ${params.id} has ${apps} app(s) made from it; delete with force=true to detach them and delete it.`);
        if (apps > 0) await tx.update(edgeApps).set({ templateId: null, updated: new Date() }).where(eq(edgeApps.templateId, params.id));
        // Its parameters go with it (ON DELETE CASCADE).
        await tx.delete(edgeTemplates).where(eq(edgeTemplates.id, params.id));
      });
      return { status: 204, body: undefined };
    },

    listSecrets: async ({ query }, { request: { caller } }) => {
      const { accountId } = caller;
      const where = and(
        eq(edgeSecrets.accountId, accountId),
        query.secret_name === undefined ? undefined : eq(edgeSecrets.name, query.secret_name),
        query.search === undefined ? undefined : ilike(edgeSecrets.name, likePattern(query.search)),
        query.app_id === undefined
          ? undefined
          : exists(
              db
                .select({ one: sql`1` })
                .from(edgeAppSecrets)
                .where(
                  and(
                    eq(edgeAppSecrets.accountId, accountId),
                    eq(edgeAppSecrets.appId, query.app_id),
                    eq(edgeAppSecrets.secretId, edgeSecrets.id),
                  ),
                ),
            ),
      );
      const [rows, [total]] = await Promise.all([
        db
          .select({ id: edgeSecrets.id, name: edgeSecrets.name, comment: edgeSecrets.comment, app_count: secretAppCount })
          .from(edgeSecrets)
          .where(where)
          .orderBy(asc(edgeSecrets.id))
          .limit(query.limit)
          .offset(query.offset),
        db.select({ total: count() }).from(edgeSecrets).where(where),
      ]);
      return { status: 200, body: { secrets: rows, count: total?.total ?? 0 } };
    },

    createSecret: async ({ body }, { request: { caller } }) => {
      const { accountId } = caller;
      const slots = await Promise.all(body.secret_slots.map((item) => sealSlot(secretsKey, item.slot, item.value)));
      const secret = await db
        .transaction(async (tx) => {
          const [created] = await tx
            .insert(edgeSecrets)
            .values({ accountId, name: body.name, comment: body.comment ?? "" })
            .returning();
          await tx.insert(edgeSecretSlots).values(slots.map((slot) => ({ ...slot, accountId, secretId: created!.id })));
          return created!;
        })
        .catch(nameTaken("a secret", body.name));
      return {
        status: 200,
        body: {
          id: secret.id,
          name: secret.name,
          comment: secret.comment,
          app_count: 0,
          secret_slots: slots.map(({ slot, checksum }) => ({ slot, checksum })).sort((a, b) => a.slot - b.slot),
        },
      };
    },

    getSecret: async ({ params }, { request: { caller } }) => {
      const secret = await secretView(db, caller.accountId, params.id);
      if (!secret) throw notFound(`Secret ${params.id}`);
      return { status: 200, body: secret };
    },

    updateSecret: async ({ params, body }, { request: { caller } }) => {
      const secret = await changeSecret(caller.accountId, params.id, { name: body.name, comment: body.comment, slots: body.secret_slots });
      return { status: 200, body: secret };
    },

    replaceSecret: async ({ params, body }, { request: { caller } }) => {
      const secret = await changeSecret(caller.accountId, params.id, { name: body.name, comment: body.comment ?? "", slots: body.secret_slots });
      return { status: 200, body: secret };
    },

    deleteSecret: async ({ params, query }, { request: { caller } }) => {
      const { accountId } = caller;
      await db.transaction(async (tx) => {
        const [current] = await tx
          .select({ id: edgeSecrets.id })
          .from(edgeSecrets)
          .where(and(eq(edgeSecrets.accountId, accountId), eq(edgeSecrets.id, params.id)))
          .for("update");
        if (!current) throw notFound(`Secret ${params.id}`);
        const [{ apps }] = (await tx
          .select({ apps: countDistinct(edgeAppSecrets.appId) })
          .from(edgeAppSecrets)
          .where(eq(edgeAppSecrets.secretId, params.id))) as [{ apps: number }];
        if (apps > 0 && !query.force)
          throw conflict(`Secret ${params.id} is used by ${apps} app(s); delete with force=true to take it out of them and delete it.`);
        if (apps > 0) await tx.delete(edgeAppSecrets).where(eq(edgeAppSecrets.secretId, params.id));
        // Its slots go with it (ON DELETE CASCADE).
        await tx.delete(edgeSecrets).where(eq(edgeSecrets.id, params.id));
      });
      return { status: 204, body: undefined };
    },

    listBinaries: async ({ query }, { request: { caller } }) => {
      const where = eq(edgeBinaries.accountId, caller.accountId);
      const [rows, [total]] = await Promise.all([
        db.select(binaryColumns).from(edgeBinaries).where(where).orderBy(asc(edgeBinaries.id)).limit(query.limit).offset(query.offset),
        db.select({ total: count() }).from(edgeBinaries).where(where),
      ]);
      return { status: 200, body: { binaries: rows.map(toEdgeBinary), count: total?.total ?? 0 } };
    },

    getBinary: async ({ params }, { request: { caller } }) => {
      const [binary] = await db.select(binaryColumns).from(edgeBinaries).where(ownBinary(caller.accountId, params.id));
      if (!binary) throw notFound(`Binary ${params.id}`);
      return { status: 200, body: toEdgeBinary(binary) };
    },

    uploadBinary: async ({ body }, { request: { caller } }) => {
      // The contract checked the header; the bytes are the route's, read as they came.
      const bytes = body as Uint8Array<ArrayBuffer>;
      const checksum = await sha256HexOf(bytes);
      const [binary] = await db
        .insert(edgeBinaries)
        .values({ accountId: caller.accountId, apiType: wasmApiType(bytes), checksum, status: 1, source: 0, content: bytes })
        .returning(binaryColumns);
      return { status: 201, body: toEdgeBinary(binary!) };
    },

    deleteBinary: async ({ params }, { request: { caller } }) => {
      await db.transaction(async (tx) => {
        // Locked for update: a write that would make an app or a template use it (which share-locks it) waits, or sees it gone.
        const [binary] = await tx.select({ id: edgeBinaries.id }).from(edgeBinaries).where(ownBinary(caller.accountId, params.id)).for("update");
        if (!binary) throw notFound(`Binary ${params.id}`);
        const [{ apps }] = (await tx
          .select({ apps: count() })
          .from(edgeApps)
          .where(or(eq(edgeApps.binaryId, params.id), eq(edgeApps.upgradeableTo, params.id)))) as [{ apps: number }];
        const [{ templates }] = (await tx.select({ templates: count() }).from(edgeTemplates).where(eq(edgeTemplates.binaryId, params.id))) as [
          { templates: number },
        ];
        if (apps > 0 || templates > 0) {
          const users = [apps > 0 ? `${apps} app(s) run it or are offered it as an upgrade` : "", templates > 0 ? `${templates} template(s) are made from it` : ""];
          throw conflict(`Binary ${params.id} is in use: ${users.filter(Boolean).join(" and ")}. Change or delete those first.`);
        }
        await tx.delete(edgeBinaries).where(eq(edgeBinaries.id, params.id));
      });
      return { status: 204, body: undefined };
    },
  });
}
