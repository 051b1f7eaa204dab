/**
 * Edge app templates with their parameters: the account's own and the platform's public ones, which
 * may be read and used but not changed.
 */
import { edgeTemplatesRoutes, type EdgeAppTemplate, type EdgeAppTemplateBody, type EdgeAppTemplateShort } from "@cloudplane/contract";
import { and, asc, count, type DatabaseTransaction, eq, schema } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { ApiError, conflict, invalid, notFound } from "../errors.js";
import type { RequestExtension, RouteDeps } from "../types.js";
import { nameTaken, visibleTemplates } from "./shared.js";
import { served } from "../served.js";

const { edgeApps, edgeBinaries, edgeTemplateParams, edgeTemplates } = schema;

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

/** The templates' routes; exported as `edgeTemplates`, the name this file gives the templates' table. */
function edgeTemplatesRouter({ db }: RouteDeps) {
  return tsr.routerWithMiddleware(served("edge", edgeTemplatesRoutes))<RequestExtension>({
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
  });
}

export { edgeTemplatesRouter as edgeTemplates };
