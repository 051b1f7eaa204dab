/**
 * CDN presets: the platform's fixed catalogue of settings for common uses (constants, the same for every
 * account), which an account applies to one of its CDN resources or rules; the applied presets, and
 * their routes.
 */
import { initContract } from "@ts-rest/core";
import { z } from "zod";
import { errorResponses, idParam, integer, pageOf, paging, strictObject, withBody } from "../common.js";
import type { ClientMetadata } from "../client-names.js";
import { route } from "../route.js";
import { missingId, type CaseWorld } from "../route-case.js";
import type { CdnRuleOptionsWrite } from "./options.js";
import { CDN_PAGE_MAX, read, write } from "./shared.js";

const c = initContract();

/** The kinds of object a preset is applied to. */
export const PRESET_OBJECT_TYPES = ["CDNResource", "Rule"] as const;
export type PresetObjectType = (typeof PRESET_OBJECT_TYPES)[number];

/** A preset of the catalogue: the settings it writes onto a resource or a rule (the options alone). */
export interface CdnPresetDefinition {
  id: number;
  name: string;
  object_type: PresetObjectType;
  preset_settings: { options: CdnRuleOptionsWrite };
}

/**
 * The catalogue. Every preset sets options only, and only options a rule takes too, so that its settings
 * are valid on either kind of object; `object_type` says which kind it is meant for and is applied to.
 */
export const CDN_PRESETS: readonly CdnPresetDefinition[] = [
  {
    id: 1,
    name: "Static website",
    object_type: "CDNResource",
    preset_settings: {
      options: {
        gzipOn: { enabled: true, value: true },
        brotli_compression: { enabled: true, value: ["text/html", "text/css", "application/javascript", "image/svg+xml"] },
        browser_cache_settings: { enabled: true, value: "1h" },
        edge_cache_settings: { enabled: true, default: "1d" },
      },
    },
  },
  {
    id: 2,
    name: "Large file downloads",
    object_type: "CDNResource",
    preset_settings: {
      options: {
        slice: { enabled: true, value: true },
        disable_proxy_force_ranges: { enabled: true, value: true },
        edge_cache_settings: { enabled: true, default: "7d" },
      },
    },
  },
  {
    id: 3,
    name: "Video streaming (HLS)",
    object_type: "CDNResource",
    preset_settings: {
      options: {
        query_string_forwarding: { enabled: true, forward_from_file_types: ["m3u8"], forward_to_file_types: ["ts", "m4s"] },
        edge_cache_settings: { enabled: true, value: "1h", custom_values: { "404": "10s" } },
        cors: { enabled: true, value: ["*"] },
      },
    },
  },
  {
    id: 4,
    name: "Image optimization",
    object_type: "Rule",
    preset_settings: {
      options: {
        image_stack: { enabled: true, avif_enabled: true, webp_enabled: true, png_lossless: false, quality: 80 },
        browser_cache_settings: { enabled: true, value: "7d" },
      },
    },
  },
  {
    id: 5,
    name: "No caching",
    object_type: "Rule",
    preset_settings: {
      options: {
        edge_cache_settings: { enabled: true, value: "0s" },
        browser_cache_settings: { enabled: true, value: "0s" },
      },
    },
  },
];

/** The fields a preset manages on its object: `options.<key>` for each option it sets. */
export function presetFields(preset: CdnPresetDefinition): string[] {
  return Object.keys(preset.preset_settings.options).map((key) => `options.${key}`);
}

// ---------------------------------------------------------------------------------------------
// Schemas
// ---------------------------------------------------------------------------------------------

const presetDetailSchema = z
  .object({
    id: integer().describe("The preset's id."),
    name: z.string().describe("The preset's name."),
    service: z.literal("cdn").describe("The service the preset belongs to: always cdn."),
    object_type: z
      .enum(PRESET_OBJECT_TYPES)
      .describe("What the preset is applied to: `CDNResource`, a CDN resource, or `Rule`, a rule of a CDN resource."),
    preset_settings: z
      .record(z.unknown())
      .describe(
        "The settings the preset writes onto its object when it is applied: here always `options`, whose keys are " +
          "then managed by the preset (they cannot be changed on the object while it is applied).",
      ),
  })
  .strict()
  .describe("A preset of the platform's catalogue: settings for a common use, applied to a CDN resource or a rule.");
export interface CdnPresetDetailSchema extends CdnPresetDetailSchemaType {}
type CdnPresetDetailSchemaType = typeof presetDetailSchema;
export const cdnPresetDetail: CdnPresetDetailSchema = presetDetailSchema;
export type CdnPresetDetail = z.infer<typeof cdnPresetDetail>;

const cdnPresetListSchema = pageOf(cdnPresetDetail, "presets");
export interface CdnPresetListSchema extends CdnPresetListSchemaType {}
type CdnPresetListSchemaType = typeof cdnPresetListSchema;
export const cdnPresetList: CdnPresetListSchema = cdnPresetListSchema;

export const listCdnPresetsQuery = z.object(paging("presets", CDN_PAGE_MAX));

const applyPresetBodySchema = strictObject({
  object_id: integer({ min: 1 }).describe(
    "The id of the object to apply the preset to: a CDN resource of the account for a preset of object_type CDNResource, " +
      "a rule of one of the account's resources for a preset of object_type Rule (400 `errors.object_id` otherwise).",
  ),
}).describe("The object to apply the preset to.");
export interface ApplyCdnPresetBodySchema extends ApplyCdnPresetBodySchemaType {}
type ApplyCdnPresetBodySchemaType = typeof applyPresetBodySchema;
export const applyCdnPresetBody: ApplyCdnPresetBodySchema = applyPresetBodySchema;
export type ApplyCdnPresetBody = z.input<typeof applyCdnPresetBody>;

const presetMessageSchema = z
  .object({ message: z.string().describe("What was done, in words.") })
  .strict()
  .describe("The outcome of applying a preset.");
export interface CdnPresetMessageSchema extends CdnPresetMessageSchemaType {}
type CdnPresetMessageSchemaType = typeof presetMessageSchema;
export const cdnPresetMessage: CdnPresetMessageSchema = presetMessageSchema;

const appliedObjectsSchema = z
  .object({
    object_type: z.enum(PRESET_OBJECT_TYPES).describe("The kind of the objects: the preset's object_type."),
    object_ids: z.array(integer()).describe("The ids of the account's objects the preset is applied to, ascending; empty when none."),
  })
  .strict()
  .describe("The account's objects a preset is applied to.");
export interface CdnPresetAppliedObjectsSchema extends CdnPresetAppliedObjectsSchemaType {}
type CdnPresetAppliedObjectsSchemaType = typeof appliedObjectsSchema;
export const cdnPresetAppliedObjects: CdnPresetAppliedObjectsSchema = appliedObjectsSchema;

const appliedPresetFieldsSchema = z
  .object({
    id: integer().describe("The id of the preset applied."),
    name: z.string().describe("The name of the preset applied."),
    deletable: z.boolean().describe("Whether the caller may unapply the preset: true for the roles that write."),
    fields: z
      .array(z.string())
      .describe("The object's fields the preset manages, which cannot be changed while it is applied; options as `options.<key>`."),
  })
  .strict()
  .describe("The preset applied to an object, and the object's fields it manages.");
export interface CdnAppliedPresetFieldsSchema extends CdnAppliedPresetFieldsSchemaType {}
type CdnAppliedPresetFieldsSchemaType = typeof appliedPresetFieldsSchema;
export const cdnAppliedPresetFields: CdnAppliedPresetFieldsSchema = appliedPresetFieldsSchema;
export type CdnAppliedPresetFields = z.infer<typeof cdnAppliedPresetFields>;

// ---------------------------------------------------------------------------------------------
// Routes
// ---------------------------------------------------------------------------------------------

const presetIdParams = z.object({ preset_id: idParam("The preset's id.") });

/** The preset as its routes answer it. */
export function presetDetail(preset: CdnPresetDefinition): CdnPresetDetail {
  return { id: preset.id, name: preset.name, service: "cdn", object_type: preset.object_type, preset_settings: preset.preset_settings };
}

const presetOf = (id: number) => CDN_PRESETS.find((preset) => preset.id === id)!;

// The cases' objects. A preset is applied and unapplied on the account's last resource without one (in the
// answers read before the walks, so always the same one), with preset 3 (on the demo's account 1
// it is applied to another resource already); the preset reads are of the first resource with a preset.
const resourceWithoutPreset = (w: CaseWorld) => {
  const found = w.list("cdn.listResources").filter((resource) => !resource.deleted && resource.preset_applied === false).at(-1);
  if (!found) throw new Error(`The route cases need a CDN resource without a preset in account ${w.account}.`);
  return found;
};
const resourceWithPreset = (w: CaseWorld) => w.first("cdn.listResources", { where: (resource) => resource.preset_applied === true });

/** The routes of the preset catalogue and of the presets applied to the account's objects. */
export const cdnPresetsRoutes = {
  listPresets: route({
    method: "GET",
    path: "/cdn/presets",
    query: listCdnPresetsQuery,
    responses: { 200: cdnPresetList, ...errorResponses() },
    summary: "List CDN presets",
    description:
      "The platform's catalogue of presets, the same for every account, by id. Paged by `limit` " +
      `(default ${CDN_PAGE_MAX}, at most ${CDN_PAGE_MAX}) and \`offset\`; \`count\` is the number of all presets.`,
    metadata: read,
  }, {
    example: { query: { limit: 2, offset: 0 }, response: { count: CDN_PRESETS.length, results: CDN_PRESETS.slice(0, 2).map(presetDetail) } },
    case: { path: () => "/cdn/presets?limit=2", ownsObjects: false },
  }),
  getPreset: route({
    method: "GET",
    path: "/cdn/presets/:preset_id",
    pathParams: presetIdParams,
    responses: { 200: cdnPresetDetail, ...errorResponses() },
    summary: "Get a CDN preset",
    description: "One preset of the catalogue: the settings it writes onto its object.",
    metadata: read,
  }, {
    example: { pathParams: { preset_id: 2 }, response: presetDetail(presetOf(2)) },
    case: { path: () => "/cdn/presets/2", ownsObjects: false },
  }),
  applyPreset: route({
    method: "POST",
    path: "/cdn/presets/:preset_id/applied",
    pathParams: presetIdParams,
    body: applyCdnPresetBody,
    responses: { 201: cdnPresetMessage, ...errorResponses([409, ...withBody]) },
    summary: "Apply a CDN preset",
    description:
      "Applies the preset to one of the account's objects of its object_type (`object_id`: a CDN resource, or a rule): in one " +
      "transaction, each option of the preset replaces the object's option of that key, the object's `preset_applied` " +
      "becomes true, and those options are managed by the preset until it is unapplied: a change of the object that gives " +
      "one of them answers 409. An object has at most one preset: 409 when it has another one (unapply it first); " +
      "applying the preset it has again writes the preset's options onto it again. Answers 201 with a message.",
    metadata: { ...write, client: { resource: "presets.applied", method: "apply" } } satisfies ClientMetadata,
  }, {
    example: {
      pathParams: { preset_id: 3 },
      body: { object_id: 3 },
      response: { message: "Preset 3 (Video streaming (HLS)) is applied to CDN resource 3." },
      newAccount: { status: 400, because: "The example applies the preset to the demo's CDN resource 3, which a new account does not own." },
    },
    case: {
      path: () => "/cdn/presets/3/applied",
      ownsObjects: false,
      body: (w) => ({ object_id: resourceWithoutPreset(w).id }),
    },
  }),
  listPresetApplied: route({
    method: "GET",
    path: "/cdn/presets/:preset_id/applied",
    pathParams: presetIdParams,
    responses: { 200: cdnPresetAppliedObjects, ...errorResponses() },
    summary: "List the objects a CDN preset is applied to",
    description:
      "The ids of the account's objects (resources or rules, after the preset's object_type) the preset is applied to. " +
      "The platform answers `{message}` when there are none; this API always answers the ids, an empty list then.",
    metadata: { ...read, client: { resource: "presets.applied", method: "list" } } satisfies ClientMetadata,
  }, {
    example: { pathParams: { preset_id: 4 }, response: { object_type: "Rule", object_ids: [2] } },
    case: { path: () => "/cdn/presets/2/applied", ownsObjects: false },
  }),
  getResourcePreset: route({
    method: "GET",
    path: "/cdn/resources/:resource_id/preset",
    pathParams: z.object({ resource_id: idParam("The CDN resource id.") }),
    responses: { 200: cdnAppliedPresetFields, ...errorResponses() },
    summary: "Get the preset applied to a CDN resource",
    description: "The preset applied to the resource and the resource's fields it manages; 404 when the resource has no preset.",
    metadata: read,
  }, {
    example: {
      pathParams: { resource_id: 5 },
      response: { id: 3, name: "Video streaming (HLS)", deletable: true, fields: presetFields(presetOf(3)) },
      newAccount: { status: 404, because: "A new account's resources have no preset until one is applied." },
    },
    case: { path: (w) => `/cdn/resources/${resourceWithPreset(w).id}/preset`, ownsObjects: true },
  }),
  unapplyPreset: route({
    method: "DELETE",
    path: "/cdn/presets/:preset_id/applied/:object_id",
    pathParams: presetIdParams.extend({ object_id: idParam("The id of the resource or rule the preset is applied to.") }),
    responses: { 204: c.noBody(), ...errorResponses() },
    summary: "Unapply a CDN preset",
    description:
      "Takes the preset off the object: its options stay as they are, but are the object's own again (changeable), and " +
      "the object's `preset_applied` becomes false. 404 when the preset is not applied to that object of the account. " +
      "Answers 204 with no body.",
    metadata: { ...write, client: { resource: "presets.applied", method: "unapply" } } satisfies ClientMetadata,
  }, {
    example: {
      pathParams: { preset_id: 3, object_id: 3 },
      newAccount: { status: 404, because: "The example unapplies the preset from the demo's CDN resource 3, which a new account does not own." },
    },
    case: {
      path: (w, made) => `/cdn/presets/3/applied/${made ? resourceWithoutPreset(w).id : missingId(w.account)}`,
      ownsObjects: true,
      makes: "cdn.applyPreset",
    },
  }),
} as const;
