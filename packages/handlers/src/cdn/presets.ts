/**
 * CDN presets: the platform's catalogue (constants of the contract, `CDN_PRESETS`), and the presets the
 * account applies to its resources and rules: applying one writes its options onto the object in one
 * transaction and marks them managed; unapplying leaves them as they are.
 */
import {
  CDN_PRESETS,
  cdnPresetsRoutes,
  presetDetail,
  presetFields,
  roleMayCall,
  type CdnAppliedPresetFields,
  type CdnPresetDefinition,
} from "@cloudplane/contract";
import { and, asc, eq, isNotNull, schema } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { conflict, invalid, notFound } from "../errors.js";
import type { RequestExtension, RouteDeps } from "../types.js";
import { served } from "../served.js";
import type { Transaction } from "./shared.js";

const { cdnAppliedPresets, cdnResourceRules, cdnResources } = schema;

/** The preset applied, as an object's preset routes answer it: unapplying it is for the roles that write. */
export function appliedPresetFields(preset: CdnPresetDefinition, roleId: number): CdnAppliedPresetFields {
  return { id: preset.id, name: preset.name, deletable: roleMayCall(roleId, "write"), fields: presetFields(preset) };
}

function presetById(id: number): CdnPresetDefinition {
  const preset = CDN_PRESETS.find((candidate) => candidate.id === id);
  if (!preset) throw notFound(`CDN preset ${id}`);
  return preset;
}

/** The table of a preset's objects, and the column of the applied preset that names one. */
function objectsOf(preset: CdnPresetDefinition) {
  return preset.object_type === "CDNResource"
    ? { table: cdnResources, column: cdnAppliedPresets.resourceId, noun: "CDN resource" }
    : { table: cdnResourceRules, column: cdnAppliedPresets.ruleId, noun: "rule" };
}

/** Locks the account's object of the preset's type for update: its options and flag are written under the lock. */
async function lockObject(tx: Transaction, accountId: number, preset: CdnPresetDefinition, id: number) {
  const { table } = objectsOf(preset);
  const [row] = await tx
    .select({ id: table.id, options: table.options })
    .from(table)
    .where(and(eq(table.accountId, accountId), eq(table.id, id)))
    .for("update");
  return row;
}

/** The routes of the preset catalogue and of the presets applied to the account's objects. */
export function cdnPresets(deps: RouteDeps) {
  const { db } = deps;

  return tsr.routerWithMiddleware(served("cdn", cdnPresetsRoutes))<RequestExtension>({
    // eslint-disable-next-line @typescript-eslint/require-await -- the catalogue is constants: nothing to wait for.
    listPresets: async ({ query }) => ({
      status: 200,
      body: { count: CDN_PRESETS.length, results: CDN_PRESETS.slice(query.offset, query.offset + query.limit).map(presetDetail) },
    }),

    // eslint-disable-next-line @typescript-eslint/require-await -- the catalogue is constants: nothing to wait for.
    getPreset: async ({ params }) => ({ status: 200, body: presetDetail(presetById(params.preset_id)) }),

    applyPreset: async ({ params, body }, { request: { caller } }) => {
      const { accountId } = caller;
      const preset = presetById(params.preset_id);
      const { table, column, noun } = objectsOf(preset);
      await db.transaction(async (tx) => {
        const object = await lockObject(tx, accountId, preset, body.object_id);
        if (!object) throw invalid("object_id", `Must be a ${noun} of the account: preset ${preset.id} is applied to ${noun}s.`);
        const [applied] = await tx
          .select({ presetId: cdnAppliedPresets.presetId })
          .from(cdnAppliedPresets)
          .where(and(eq(cdnAppliedPresets.accountId, accountId), eq(column, object.id)));
        if (applied && applied.presetId !== preset.id)
          throw conflict(`${noun} ${object.id} has preset ${applied.presetId} applied: unapply it first.`);
        if (!applied)
          await tx
            .insert(cdnAppliedPresets)
            .values({ accountId, presetId: preset.id, ...(preset.object_type === "CDNResource" ? { resourceId: object.id } : { ruleId: object.id }) });
        const options = { ...object.options } as Record<string, Record<string, unknown>>;
        for (const [key, option] of Object.entries(preset.preset_settings.options)) options[key] = { ...(option as Record<string, unknown>) };
        await tx
          .update(table)
          .set({ options, presetApplied: true, updated: new Date() })
          .where(and(eq(table.accountId, accountId), eq(table.id, object.id)));
      });
      return { status: 201, body: { message: `Preset ${preset.id} (${preset.name}) is applied to ${noun} ${body.object_id}.` } };
    },

    listPresetApplied: async ({ params }, { request: { caller } }) => {
      const preset = presetById(params.preset_id);
      const { column } = objectsOf(preset);
      const rows = await db
        .select({ id: column })
        .from(cdnAppliedPresets)
        .where(and(eq(cdnAppliedPresets.accountId, caller.accountId), eq(cdnAppliedPresets.presetId, preset.id), isNotNull(column)))
        .orderBy(asc(column));
      return { status: 200, body: { object_type: preset.object_type, object_ids: rows.map((row) => row.id!) } };
    },

    getResourcePreset: async ({ params }, { request: { caller } }) => {
      const { accountId } = caller;
      const [row] = await db
        .select({ id: cdnResources.id, presetId: cdnAppliedPresets.presetId })
        .from(cdnResources)
        .leftJoin(cdnAppliedPresets, and(eq(cdnAppliedPresets.accountId, accountId), eq(cdnAppliedPresets.resourceId, cdnResources.id)))
        .where(and(eq(cdnResources.accountId, accountId), eq(cdnResources.id, params.resource_id)));
      if (!row) throw notFound(`CDN resource ${params.resource_id}`);
      const preset = CDN_PRESETS.find((candidate) => candidate.id === row.presetId);
      if (!preset) throw notFound(`A preset applied to CDN resource ${params.resource_id}`);
      return { status: 200, body: appliedPresetFields(preset, caller.roleId) };
    },

    unapplyPreset: async ({ params }, { request: { caller } }) => {
      const { accountId } = caller;
      // One answer for a preset that does not exist and one not applied to the object (or to another account's object).
      const notApplied = () => notFound(`Preset ${params.preset_id} applied to object ${params.object_id}`);
      const preset = CDN_PRESETS.find((candidate) => candidate.id === params.preset_id);
      if (!preset) throw notApplied();
      const { table, column } = objectsOf(preset);
      await db.transaction(async (tx) => {
        const object = await lockObject(tx, accountId, preset, params.object_id);
        const removed = object
          ? await tx
              .delete(cdnAppliedPresets)
              .where(and(eq(cdnAppliedPresets.accountId, accountId), eq(cdnAppliedPresets.presetId, preset.id), eq(column, object.id)))
              .returning({ id: cdnAppliedPresets.id })
          : [];
        if (!removed.length) throw notApplied();
        await tx
          .update(table)
          .set({ presetApplied: false, updated: new Date() })
          .where(and(eq(table.accountId, accountId), eq(table.id, params.object_id)));
      });
      return { status: 204, body: undefined };
    },
  });
}
