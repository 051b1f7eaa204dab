/**
 * Edge apps: the filtered, ordered and paged listing, their lifecycle, status moves, settings (shown by
 * the app's GET) and secret and KV store references, and the binaries' `unref_since` as apps start and
 * stop running them.
 */
import {
  edgeAppsRoutes,
  EDGE_APP_STATUS_MOVES,
  type EdgeApp,
  type EdgeAppDetail,
  type EdgeAppStatus,
  type ListEdgeAppsQuery,
  type UpdateEdgeAppBody,
} from "@cloudplane/contract";
import { and, asc, count, type Database, type DatabaseTransaction, desc, eq, ilike, inArray, isNull, or, schema, sql, type SQL } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { addFieldError, conflict, fieldErrors, invalid, notFound, problemCount, validationFailed } from "../errors.js";
import { isoTime } from "../format.js";
import { likePattern } from "../like.js";
import { type PlaceholderValues, preparedOnce, preparedPerShape } from "../prepared.js";
import type { RequestExtension, RouteDeps } from "../types.js";
import { nameTaken, visibleTemplates } from "./shared.js";
import { served } from "../served.js";

const { edgeApps, edgeAppSecrets, edgeAppStores, edgeBinaries, edgeKvStores, edgePlans, edgeSecrets, edgeTemplates } = schema;

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

type Named = { id: number; name: string; comment: string };

/** The secrets and stores an app reads, each under the name it reads it by, ordered by that name. */
function appLinks(db: Database) {
  const linked = <T extends typeof edgeAppSecrets | typeof edgeAppStores>(links: T) =>
    and(eq(links.accountId, sql.placeholder("accountId")), eq(links.appId, sql.placeholder("appId")));
  return {
    secrets: db
      .select({ as: edgeAppSecrets.name, id: edgeSecrets.id, name: edgeSecrets.name, comment: edgeSecrets.comment })
      .from(edgeAppSecrets)
      .innerJoin(edgeSecrets, and(eq(edgeSecrets.accountId, edgeAppSecrets.accountId), eq(edgeSecrets.id, edgeAppSecrets.secretId)))
      .where(linked(edgeAppSecrets))
      .orderBy(asc(edgeAppSecrets.name))
      .prepare("app_secrets"),
    stores: db
      .select({ as: edgeAppStores.name, id: edgeKvStores.id, name: edgeKvStores.name, comment: edgeKvStores.comment })
      .from(edgeAppStores)
      .innerJoin(edgeKvStores, and(eq(edgeKvStores.accountId, edgeAppStores.accountId), eq(edgeKvStores.id, edgeAppStores.storeId)))
      .where(linked(edgeAppStores))
      .orderBy(asc(edgeAppStores.name))
      .prepare("app_stores"),
  };
}

/** The app's GET: its read fields and its settings, with the secrets and stores it reads by the names it reads them under. */
async function toEdgeAppDetail(links: ReturnType<typeof appLinks>, row: AppRow): Promise<EdgeAppDetail> {
  const { app } = row;
  const values = { accountId: app.accountId, appId: app.id };
  const [secrets, stores] = await Promise.all([links.secrets.execute(values), links.stores.execute(values)]);
  const byName = (rows: (Named & { as: string })[]) => Object.fromEntries(rows.map(({ as, ...named }) => [as, named]));
  return {
    ...toEdgeApp(row),
    env: app.env,
    rsp_headers: app.rspHeaders,
    log: app.log,
    secrets: byName(secrets),
    stores: byName(stores),
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

type StoreRefs = Record<string, { id: number }>;

/**
 * Gives app `appId` the KV stores `refs` in place of its current ones; 400 naming each entry that is not a
 * store of the account. The stores are share-locked: a delete of one waits for this write, then sees the app use it (409).
 */
async function setAppStores(tx: DatabaseTransaction, accountId: number, appId: number, refs: StoreRefs): Promise<void> {
  const wanted = Object.entries(refs);
  const ids = [...new Set(wanted.map(([, ref]) => ref.id))].sort((a, b) => a - b);
  const found = ids.length
    ? await tx
        .select({ id: edgeKvStores.id })
        .from(edgeKvStores)
        .where(and(eq(edgeKvStores.accountId, accountId), inArray(edgeKvStores.id, ids)))
        .orderBy(asc(edgeKvStores.id))
        .for("share")
    : [];
  const known = new Set(found.map((store) => store.id));
  const errors = fieldErrors();
  for (const [name, ref] of wanted) if (!known.has(ref.id)) addFieldError(errors, `stores.${name}.id`, "Must be a KV store of the account.");
  if (problemCount(errors)) throw validationFailed(errors);
  await tx.delete(edgeAppStores).where(and(eq(edgeAppStores.accountId, accountId), eq(edgeAppStores.appId, appId)));
  if (wanted.length) await tx.insert(edgeAppStores).values(wanted.map(([name, ref]) => ({ accountId, appId, name, storeId: ref.id })));
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

/** The apps' routes; exported as `edgeApps`, the name this file gives the apps' table. */
function edgeAppsRouter({ db }: RouteDeps) {
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
  /** The GET's secrets and stores: two joins, built once (building them cost more than running them). */
  const linksOfApp = preparedOnce(() => appLinks(db));


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
        if (body.stores !== undefined) await setAppStores(tx, accountId, current.id, body.stores);
        if (body.name !== undefined) changes.name = body.name;
        if (body.comment !== undefined) changes.comment = body.comment;
        if (body.env !== undefined) changes.env = body.env;
        if (body.rsp_headers !== undefined) changes.rspHeaders = body.rsp_headers;
        if (body.log !== undefined) changes.log = body.log ?? "none";
        if (body.debug !== undefined) changes.debugUntil = body.debug ? new Date(Date.now() + DEBUG_WINDOW_MS) : null;

        await tx.update(edgeApps).set(changes).where(ownApp(accountId, current.id));
        if (changes.binaryId !== undefined && changes.binaryId !== current.binaryId) await refreshBinaryUse(tx, [current.binaryId, changes.binaryId]);
        return appAfterWrite(tx, accountId, current.id);
      })
      .catch(nameTaken("an edge app", body.name));
  }

  return tsr.routerWithMiddleware(served("edge", edgeAppsRoutes))<RequestExtension>({
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
              log: body.log === undefined ? "kafka" : (body.log ?? "none"),
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
          if (body.stores !== undefined) await setAppStores(tx, accountId, id, body.stores);
          await refreshBinaryUse(tx, [binaryId]);
          return appAfterWrite(tx, accountId, id);
        })
        .catch(nameTaken("an edge app", body.name));
      return { status: 200, body: toEdgeApp(app) };
    },

    getApp: async ({ params }, { request: { caller } }) => {
      const [app] = await appById().execute({ accountId: caller.accountId, id: params.id });
      if (!app) throw notFound(`Edge app ${params.id}`);
      return { status: 200, body: await toEdgeAppDetail(linksOfApp(), app) };
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
        // Its secret and store links, and its calls, go with it (ON DELETE CASCADE).
        await tx.delete(edgeApps).where(ownApp(caller.accountId, params.id));
        await refreshBinaryUse(tx, [current.binaryId]);
      });
      return { status: 204, body: undefined };
    },
  });
}

export { edgeAppsRouter as edgeApps };
