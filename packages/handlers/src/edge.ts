/**
 * Edge app routes: the filtered, ordered and paged app listing; app updates with their status moves,
 * write-only fields and secret references; templates; secrets with encrypted slots.
 */
import {
  contract,
  EDGE_APP_STATUS_MOVES,
  type EdgeApp,
  type EdgeAppStatus,
  type EdgeAppTemplate,
  type ListEdgeAppsQuery,
} from "@cloudplane/contract";
import { and, asc, count, type Database, desc, encryptSecret, eq, ilike, inArray, isNull, or, schema, sha256Hex, sql, type SQL } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { sqlState } from "./database-errors.js";
import { addFieldError, conflict, fieldErrors, invalid, notFound, problemCount, validationFailed } from "./errors.js";
import { isoTime } from "./format.js";
import { likePattern } from "./like.js";
import { type PlaceholderValues, preparedPerShape } from "./prepared.js";
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

export function edgeRoutes({ db, secretsKey }: RouteDeps) {
  // The listing's SQL depends on which filters are given and on the ordering: a statement per shape,
  // at most 2^6 filter sets × 12 orderings.
  const appPages = preparedPerShape<AppRow[]>("list_apps");
  const appCounts = preparedPerShape<{ total: number }[]>("count_apps");

  return tsr.routerWithMiddleware(contract.edge)<RequestExtension>({
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

    updateApp: async ({ params, body }, { request: { caller } }) => {
      const { accountId } = caller;
      const app = await db.transaction(async (tx) => {
        const [current] = await tx
          .select()
          .from(edgeApps)
          .where(and(eq(edgeApps.accountId, accountId), eq(edgeApps.id, params.id)))
          .for("update");
        if (!current) throw notFound(`Edge app ${params.id}`);
        const changes: Partial<typeof edgeApps.$inferInsert> = { updated: new Date() };

        if (body.binary !== undefined) {
          const [binary] = await tx
            .select({ apiType: edgeBinaries.apiType })
            .from(edgeBinaries)
            .where(and(eq(edgeBinaries.id, body.binary), or(eq(edgeBinaries.accountId, accountId), isNull(edgeBinaries.accountId))));
          if (!binary) throw invalid("binary", "Must be a binary of the account, or a platform binary of a public template.");
          if (binary.apiType !== current.apiType) throw invalid("binary", `Must be a ${current.apiType} binary, the app's api_type.`);
          changes.binaryId = body.binary;
        }
        if (body.template !== undefined) {
          if (body.template !== null) {
            const [template] = await tx
              .select({ id: edgeTemplates.id })
              .from(edgeTemplates)
              .where(and(eq(edgeTemplates.id, body.template), or(eq(edgeTemplates.accountId, accountId), isNull(edgeTemplates.accountId))));
            if (!template) throw invalid("template", "Must be a template of the account or a public template.");
          }
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
        if (body.secrets !== undefined) {
          const wanted = Object.entries(body.secrets);
          const ids = [...new Set(wanted.map(([, ref]) => ref.id))];
          const found = ids.length
            ? await tx
                .select({ id: edgeSecrets.id })
                .from(edgeSecrets)
                .where(and(eq(edgeSecrets.accountId, accountId), inArray(edgeSecrets.id, ids)))
            : [];
          const known = new Set(found.map((secret) => secret.id));
          const errors = fieldErrors();
          for (const [name, ref] of wanted) if (!known.has(ref.id)) addFieldError(errors, `secrets.${name}.id`, "Must be a secret of the account.");
          if (problemCount(errors)) throw validationFailed(errors);
          await tx.delete(edgeAppSecrets).where(and(eq(edgeAppSecrets.accountId, accountId), eq(edgeAppSecrets.appId, current.id)));
          if (wanted.length)
            await tx.insert(edgeAppSecrets).values(wanted.map(([name, ref]) => ({ accountId, appId: current.id, name, secretId: ref.id })));
        }
        if (body.name !== undefined) changes.name = body.name;
        if (body.comment !== undefined) changes.comment = body.comment;
        if (body.env !== undefined) changes.env = body.env;
        if (body.rsp_headers !== undefined) changes.rspHeaders = body.rsp_headers;
        if (body.log !== undefined) changes.log = body.log;
        if (body.debug !== undefined) changes.debugUntil = body.debug ? new Date(Date.now() + DEBUG_WINDOW_MS) : null;

        try {
          await tx.update(edgeApps).set(changes).where(and(eq(edgeApps.accountId, accountId), eq(edgeApps.id, current.id)));
        } catch (error) {
          if (sqlState(error) === "23505") throw conflict(`The account already has an edge app named ${body.name}.`);
          throw error;
        }
        const [row] = await selectApps(tx).where(and(eq(edgeApps.accountId, accountId), eq(edgeApps.id, current.id)));
        return row!;
      });
      return { status: 200, body: toEdgeApp(app) };
    },

    getTemplate: async ({ params }, { request: { caller } }) => {
      const [template] = await db
        .select()
        .from(edgeTemplates)
        .where(and(eq(edgeTemplates.id, params.id), or(eq(edgeTemplates.accountId, caller.accountId), isNull(edgeTemplates.accountId))));
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
        params: params_.map((param) => ({ name: param.name, data_type: param.dataType, mandatory: param.mandatory, descr: param.descr })),
      };
      return { status: 200, body };
    },

    createSecret: async ({ body }, { request: { caller } }) => {
      const { accountId } = caller;
      // Encrypt before the transaction opens, so it holds its locks only for the inserts.
      const slots = await Promise.all(
        body.secret_slots.map(async (item) => ({
          slot: item.slot,
          valueEncrypted: await encryptSecret(secretsKey, item.value),
          checksum: await sha256Hex(item.value),
        })),
      );
      let secret: typeof edgeSecrets.$inferSelect;
      try {
        secret = await db.transaction(async (tx) => {
          const [created] = await tx
            .insert(edgeSecrets)
            .values({ accountId, name: body.name, comment: body.comment ?? "" })
            .returning();
          await tx.insert(edgeSecretSlots).values(slots.map((slot) => ({ ...slot, accountId, secretId: created!.id })));
          return created!;
        });
      } catch (error) {
        if (sqlState(error) === "23505") throw conflict(`The account already has a secret named ${body.name}.`);
        throw error;
      }
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
  });
}
