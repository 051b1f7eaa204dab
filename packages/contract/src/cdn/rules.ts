/**
 * Rules of CDN resources (options for the requests whose path matches a pattern, in place of the
 * resource's) and the account's rule templates: their schemas, bodies and routes, with the preset
 * applied to a rule.
 */
import { initContract } from "@ts-rest/core";
import { z } from "zod";
import { errorResponses, idParam, INT32_MAX, integer, pageOf, paging, stringEnum, strictObject, withBody } from "../common.js";
import { route } from "../route.js";
import { missingId, uniqueName, type CaseWorld } from "../route-case.js";
import { cdnRuleOptions, cdnRuleOptionsWrite, completeCdnRuleOptions, type CdnRuleOptionsWrite } from "./options.js";
import { cdnAppliedPresetFields } from "./presets.js";
import { CDN_PAGE_MAX, read, write } from "./shared.js";

const c = initContract();

// ---------------------------------------------------------------------------------------------
// Fields
// ---------------------------------------------------------------------------------------------

const PROTOCOLS = ["HTTP", "HTTPS", "MATCH"] as const;

/** Does `pattern` compile as a regular expression (the platform's patterns are nginx's, a superset of what is checked here)? */
function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern.replace(/^\(\?i\)/, ""));
    return true;
  } catch {
    return false;
  }
}

const rulePattern = z
  .string()
  .min(1)
  .max(1024)
  .refine((value) => ![...value].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f), "Must not contain control characters.")
  .refine(compiles, "Must be a valid regular expression.")
  .describe(
    "The pattern a request's path is matched against, a regular expression: with ruleType 0 it starts with `/` or `^/`; " +
      "with ruleType 1 (legacy) a `/` is put before it.",
  );

const ruleType = z
  .union([z.literal(0), z.literal(1)], { errorMap: () => ({ message: "Must be 0 or 1." }) })
  .describe("0: `rule` is a regular expression starting with / or ^/; 1 (legacy): `rule` gets a / put before it.");

const weight = integer({ min: 0, max: INT32_MAX }).describe(
  "The rule's place in the order the rules are matched, lowest first: when several rules match a request, the first in that order applies.",
);

const overrideOriginProtocol = stringEnum(PROTOCOLS)
  .nullable()
  .describe("Protocol to the origin for the requests the rule matches, in place of the resource's originProtocol; null: the resource's.");

/** A ruleType 0 pattern starts with / or ^/. */
function checkPattern(body: { rule?: string; ruleType?: number }, ctx: z.RefinementCtx, storedType?: number) {
  const type = body.ruleType ?? storedType;
  if (body.rule !== undefined && type === 0 && !/^\^?\//.test(body.rule))
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["rule"], message: "With ruleType 0, must start with / or ^/." });
}

// ---------------------------------------------------------------------------------------------
// Rule
// ---------------------------------------------------------------------------------------------

const cdnRuleSchema = z
  .object({
    id: integer().describe("The rule's id."),
    name: z.string().describe("The rule's name. Writable."),
    active: z.boolean().describe("Whether the rule applies; an inactive rule is kept but matches nothing. Writable."),
    deleted: z.boolean().describe("Whether the rule was deleted: always false, as a deleted rule is gone."),
    rule: z.string().describe("The pattern the request's path is matched against. Writable."),
    ruleType: integer().describe("The pattern's syntax, 0 or 1 (see `rule`). Writable."),
    weight: integer().describe("The rule's place in the order the rules are matched, lowest first. Writable."),
    originGroup: integer().nullable().describe("The origin group the matched requests go to; null: the resource's. Writable."),
    originProtocol: stringEnum(PROTOCOLS).describe("The protocol the matched requests go to the origin with: `overrideOriginProtocol`, else the resource's."),
    overrideOriginProtocol: overrideOriginProtocol.describe("The protocol to the origin in place of the resource's; null: the resource's. Writable."),
    preset_applied: z.boolean().describe("Whether a preset is applied to the rule (its options are then managed by the preset)."),
    primary_rule: integer()
      .nullable()
      .describe("The rule of a primary resource that this one follows in a shared cache; null, as shared caches are not part of this API."),
    options: cdnRuleOptions,
  })
  .strict()
  .describe("A rule of a CDN resource: options for the requests whose path matches its pattern, in place of the resource's.");
export interface CdnRuleSchema extends CdnRuleSchemaType {}
type CdnRuleSchemaType = typeof cdnRuleSchema;
export const cdnRule: CdnRuleSchema = cdnRuleSchema;
export type CdnRule = z.infer<typeof cdnRule>;

const ruleWritable = {
  name: z.string().min(1).max(255).describe("The rule's name, 1 to 255 characters."),
  active: z.boolean().describe("Whether the rule applies."),
  rule: rulePattern,
  ruleType,
  weight,
  originGroup: integer({ min: 1 }).nullable().describe("An origin group of the account (400 `errors.originGroup` otherwise), or null: the resource's."),
  overrideOriginProtocol,
  options: cdnRuleOptionsWrite,
};

const RULE_READ_ONLY = ["id", "deleted", "originProtocol", "preset_applied", "primary_rule"];

const createRuleBodySchema = strictObject(
  {
    name: ruleWritable.name,
    rule: ruleWritable.rule,
    ruleType: ruleWritable.ruleType,
    active: ruleWritable.active.optional().describe("Whether the rule applies. Default true."),
    weight: ruleWritable.weight.optional().describe("The rule's place in the order the rules are matched, lowest first. Default 1."),
    originGroup: ruleWritable.originGroup.optional().describe("An origin group of the account, or null (the default): the resource's."),
    overrideOriginProtocol: overrideOriginProtocol.optional().describe("Protocol to the origin in place of the resource's; null (the default): the resource's."),
    options: ruleWritable.options.optional(),
  },
  { readOnly: RULE_READ_ONLY },
)
  .superRefine((body, ctx) => checkPattern(body, ctx))
  .describe("A new rule: `name`, `rule` and `ruleType` are required; the other fields take their defaults when left out.");
export interface CreateCdnRuleBodySchema extends CreateCdnRuleBodySchemaType {}
type CreateCdnRuleBodySchemaType = typeof createRuleBodySchema;
export const createCdnRuleBody: CreateCdnRuleBodySchema = createRuleBodySchema;
export type CreateCdnRuleBody = z.input<typeof createCdnRuleBody>;

const updateRuleBodySchema = strictObject(
  Object.fromEntries(Object.entries(ruleWritable).map(([key, schema]) => [key, schema.optional()])) as {
    [K in keyof typeof ruleWritable]: z.ZodOptional<(typeof ruleWritable)[K]>;
  },
  { readOnly: RULE_READ_ONLY },
)
  .superRefine((body, ctx) => checkPattern(body, ctx))
  .describe(
    "The fields to change; fields not given keep their value. Inside `options`, each key given replaces that option whole, " +
      "null removes it, keys not given stay. A new `rule` with ruleType 0 (given or kept) starts with / or ^/.",
  );
export interface UpdateCdnRuleBodySchema extends UpdateCdnRuleBodySchemaType {}
type UpdateCdnRuleBodySchemaType = typeof updateRuleBodySchema;
export const updateCdnRuleBody: UpdateCdnRuleBodySchema = updateRuleBodySchema;
export type UpdateCdnRuleBody = z.input<typeof updateCdnRuleBody>;

const replaceRuleBodySchema = strictObject(
  {
    rule: ruleWritable.rule,
    ruleType: ruleWritable.ruleType,
    name: ruleWritable.name.optional().describe("The rule's name, 1 to 255 characters; kept when left out."),
    active: ruleWritable.active.optional().describe("Whether the rule applies. Default true."),
    weight: ruleWritable.weight.optional().describe("Default 1."),
    originGroup: ruleWritable.originGroup.optional().describe("An origin group of the account, or null (the default): the resource's."),
    overrideOriginProtocol: overrideOriginProtocol.optional().describe("Null (the default): the resource's."),
    options: ruleWritable.options.optional().describe("The rule's options afterwards (default {}); null keys are left out."),
  },
  { readOnly: RULE_READ_ONLY },
)
  .superRefine((body, ctx) => checkPattern(body, ctx))
  .describe(
    "Every writable field: `rule` and `ruleType` are required; the others left out return to a new rule's defaults " +
      "(active true, weight 1, originGroup and overrideOriginProtocol null, options {}), but for the name, which is kept.",
  );
export interface ReplaceCdnRuleBodySchema extends ReplaceCdnRuleBodySchemaType {}
type ReplaceCdnRuleBodySchemaType = typeof replaceRuleBodySchema;
export const replaceCdnRuleBody: ReplaceCdnRuleBodySchema = replaceRuleBodySchema;
export type ReplaceCdnRuleBody = z.input<typeof replaceCdnRuleBody>;

const cdnRuleListSchema = pageOf(cdnRule, "rules");
export interface CdnRuleListSchema extends CdnRuleListSchemaType {}
type CdnRuleListSchemaType = typeof cdnRuleListSchema;
export const cdnRuleList: CdnRuleListSchema = cdnRuleListSchema;
export type CdnRuleList = z.infer<typeof cdnRuleList>;

export const listCdnRulesQuery = z.object(paging("rules", CDN_PAGE_MAX));

// ---------------------------------------------------------------------------------------------
// Rule template
// ---------------------------------------------------------------------------------------------

const ruleTemplateSchema = z
  .object({
    id: integer().describe("The template's id."),
    client: integer().describe("The account id."),
    name: z.string().describe("The template's name. Writable."),
    rule: z.string().describe("The pattern of the rules made from the template. Writable."),
    ruleType: integer().describe("The pattern's syntax, 0 or 1 (see `rule`). Writable."),
    weight: integer().describe("The weight of the rules made from the template. Writable."),
    overrideOriginProtocol: overrideOriginProtocol.describe("The protocol to the origin in place of the resource's; null: the resource's. Writable."),
    options: cdnRuleOptions,
    default: z
      .boolean()
      .describe("Whether the template is one of the platform's system templates, which no account changes: always false, as this API has none."),
    template: z.boolean().describe("Always true: the object is a rule template."),
    deleted: z.boolean().describe("Whether the template was deleted: always false, as a deleted template is gone."),
  })
  .strict()
  .describe("A rule template of the account: the pattern and settings of a rule, to make rules of resources from.");
export interface CdnRuleTemplateSchema extends CdnRuleTemplateSchemaType {}
type CdnRuleTemplateSchemaType = typeof ruleTemplateSchema;
export const cdnRuleTemplate: CdnRuleTemplateSchema = ruleTemplateSchema;
export type CdnRuleTemplate = z.infer<typeof cdnRuleTemplate>;

const TEMPLATE_READ_ONLY = ["id", "client", "default", "template", "deleted"];
const TEMPLATE_REJECTED = {
  active: "A template has no active flag: the rules made from it have.",
  originGroup: "A template names no origin group: the rules made from it do.",
};

const templateWritable = {
  name: ruleWritable.name.describe("The template's name, 1 to 255 characters."),
  rule: ruleWritable.rule,
  ruleType: ruleWritable.ruleType,
  weight: ruleWritable.weight,
  overrideOriginProtocol,
  options: ruleWritable.options,
};

const createRuleTemplateBodySchema = strictObject(
  {
    rule: templateWritable.rule,
    ruleType: templateWritable.ruleType,
    name: templateWritable.name.optional().describe("The template's name, 1 to 255 characters; the pattern when left out."),
    weight: templateWritable.weight.optional().describe("Default 1."),
    overrideOriginProtocol: overrideOriginProtocol.optional().describe("Null (the default): the resource's."),
    options: templateWritable.options.optional(),
  },
  { readOnly: TEMPLATE_READ_ONLY, rejected: TEMPLATE_REJECTED },
)
  .superRefine((body, ctx) => checkPattern(body, ctx))
  .describe("A new rule template: `rule` and `ruleType` are required; the other fields take their defaults when left out.");
export interface CreateCdnRuleTemplateBodySchema extends CreateCdnRuleTemplateBodySchemaType {}
type CreateCdnRuleTemplateBodySchemaType = typeof createRuleTemplateBodySchema;
export const createCdnRuleTemplateBody: CreateCdnRuleTemplateBodySchema = createRuleTemplateBodySchema;
export type CreateCdnRuleTemplateBody = z.input<typeof createCdnRuleTemplateBody>;

const updateRuleTemplateBodySchema = strictObject(
  Object.fromEntries(Object.entries(templateWritable).map(([key, schema]) => [key, schema.optional()])) as {
    [K in keyof typeof templateWritable]: z.ZodOptional<(typeof templateWritable)[K]>;
  },
  { readOnly: TEMPLATE_READ_ONLY, rejected: TEMPLATE_REJECTED },
)
  .superRefine((body, ctx) => checkPattern(body, ctx))
  .describe("The fields to change; fields not given keep their value. Inside `options`, each key given replaces that option whole, null removes it.");
export interface UpdateCdnRuleTemplateBodySchema extends UpdateCdnRuleTemplateBodySchemaType {}
type UpdateCdnRuleTemplateBodySchemaType = typeof updateRuleTemplateBodySchema;
export const updateCdnRuleTemplateBody: UpdateCdnRuleTemplateBodySchema = updateRuleTemplateBodySchema;
export type UpdateCdnRuleTemplateBody = z.input<typeof updateCdnRuleTemplateBody>;

const replaceRuleTemplateBodySchema = strictObject(
  {
    rule: templateWritable.rule,
    ruleType: templateWritable.ruleType,
    name: templateWritable.name.optional().describe("The template's name; kept when left out."),
    weight: templateWritable.weight.optional().describe("Default 1."),
    overrideOriginProtocol: overrideOriginProtocol.optional().describe("Null (the default): the resource's."),
    options: templateWritable.options.optional().describe("The template's options afterwards (default {}); null keys are left out."),
  },
  { readOnly: TEMPLATE_READ_ONLY, rejected: TEMPLATE_REJECTED },
)
  .superRefine((body, ctx) => checkPattern(body, ctx))
  .describe(
    "Every writable field: `rule` and `ruleType` are required; the others left out return to a new template's defaults " +
      "(weight 1, overrideOriginProtocol null, options {}), but for the name, which is kept.",
  );
export interface ReplaceCdnRuleTemplateBodySchema extends ReplaceCdnRuleTemplateBodySchemaType {}
type ReplaceCdnRuleTemplateBodySchemaType = typeof replaceRuleTemplateBodySchema;
export const replaceCdnRuleTemplateBody: ReplaceCdnRuleTemplateBodySchema = replaceRuleTemplateBodySchema;
export type ReplaceCdnRuleTemplateBody = z.input<typeof replaceCdnRuleTemplateBody>;

const cdnRuleTemplateListSchema = pageOf(cdnRuleTemplate, "rule templates");
export interface CdnRuleTemplateListSchema extends CdnRuleTemplateListSchemaType {}
type CdnRuleTemplateListSchemaType = typeof cdnRuleTemplateListSchema;
export const cdnRuleTemplateList: CdnRuleTemplateListSchema = cdnRuleTemplateListSchema;

export const listCdnRuleTemplatesQuery = z.object(paging("rule templates", CDN_PAGE_MAX));

// ---------------------------------------------------------------------------------------------
// Examples (the demo data's, of account 1) and cases
// ---------------------------------------------------------------------------------------------

/** Rule 1 of resource 1 in the demo data. */
export const cdnRuleExample: CdnRule = {
  id: 1,
  name: "Static assets",
  active: true,
  deleted: false,
  rule: "^/static/",
  ruleType: 0,
  weight: 1,
  originGroup: null,
  originProtocol: "HTTPS",
  overrideOriginProtocol: null,
  preset_applied: false,
  primary_rule: null,
  options: completeCdnRuleOptions({
    browser_cache_settings: { enabled: true, value: "1d" },
    edge_cache_settings: { enabled: true, default: "7d" },
  }),
};

/** Rule 2 of resource 1 in the demo data, with preset 4 (Image optimization) applied. */
export const cdnRulePresetExample: CdnRule = {
  id: 2,
  name: "Images",
  active: true,
  deleted: false,
  rule: "^/images/.*\\.(jpe?g|png)$",
  ruleType: 0,
  weight: 2,
  originGroup: 3,
  originProtocol: "HTTP",
  overrideOriginProtocol: "HTTP",
  preset_applied: true,
  primary_rule: null,
  options: completeCdnRuleOptions({
    image_stack: { enabled: true, avif_enabled: true, webp_enabled: true, png_lossless: false, quality: 80 },
    browser_cache_settings: { enabled: true, value: "7d" },
  }),
};

const TEMPLATE_OPTIONS: CdnRuleOptionsWrite = { browser_cache_settings: { enabled: true, value: "30d" }, cors: { enabled: true, value: ["*"] } };
const RULE_OPTIONS: CdnRuleOptionsWrite = { browser_cache_settings: { enabled: true, value: "1d" }, edge_cache_settings: { enabled: true, default: "7d" } };
const CREATED_RULE_OPTIONS: CdnRuleOptionsWrite = { slice: { enabled: true, value: true } };
const CREATED_TEMPLATE_OPTIONS: CdnRuleOptionsWrite = { edge_cache_settings: { enabled: true, value: "0s" } };

/** Template 1 of account 1 in the demo data. */
export const cdnRuleTemplateExample: CdnRuleTemplate = {
  id: 1,
  client: 1,
  name: "Long cache for fonts",
  rule: "^/fonts/",
  ruleType: 0,
  weight: 5,
  overrideOriginProtocol: null,
  options: completeCdnRuleOptions(TEMPLATE_OPTIONS),
  default: false,
  template: true,
  deleted: false,
};

const createdRule: CdnRule = {
  ...cdnRuleExample,
  id: 5,
  name: "Downloads",
  rule: "^/downloads/",
  weight: 3,
  options: completeCdnRuleOptions(CREATED_RULE_OPTIONS),
};

const createdTemplate: CdnRuleTemplate = {
  ...cdnRuleTemplateExample,
  id: 3,
  name: "No cache for the API",
  rule: "^/api/",
  weight: 1,
  overrideOriginProtocol: "HTTPS",
  options: completeCdnRuleOptions(CREATED_TEMPLATE_OPTIONS),
};

// The cases' objects: the account's first resource, and its first rule.
const firstResource = (w: CaseWorld) => w.first("cdn.listResources", { where: (resource) => !resource.deleted });
const firstRule = (w: CaseWorld) => {
  const resource = firstResource(w);
  return { resource, rule: w.first("cdn.listRules", { params: { resource_id: resource.id } }) };
};
const ruleWithPreset = (w: CaseWorld) => {
  const resource = firstResource(w);
  return { resource, rule: w.first("cdn.listRules", { params: { resource_id: resource.id }, where: (rule) => rule.preset_applied === true }) };
};
const firstTemplate = (w: CaseWorld) => w.first("cdn.listRuleTemplates");

const resourceParams = z.object({ resource_id: idParam("The CDN resource id.") });
const ruleParams = resourceParams.extend({ rule_id: idParam("The rule's id.") });
const templateParams = z.object({ rule_template_id: idParam("The rule template's id.") });

const ruleCaseBody = () => ({
  name: uniqueName("route-case"),
  rule: "^/route-cases/",
  ruleType: 0,
  weight: 9,
  options: { gzipOn: { enabled: true, value: true } },
});

/** The routes of the rules of CDN resources. */
export const cdnRulesRoutes = {
  listRules: route({
    method: "GET",
    path: "/cdn/resources/:resource_id/rules",
    pathParams: resourceParams,
    query: listCdnRulesQuery,
    responses: { 200: cdnRuleList, ...errorResponses() },
    summary: "List the rules of a CDN resource",
    description:
      "The rules of one of the account's CDN resources, in the order they are matched: by weight, then by id. Paged by `limit` " +
      `(default ${CDN_PAGE_MAX}, at most ${CDN_PAGE_MAX}) and \`offset\`; \`count\` is the number of all the resource's rules.`,
    metadata: read,
  }, {
    example: { pathParams: { resource_id: 1 }, query: { limit: 10, offset: 0 }, response: { count: 2, results: [cdnRuleExample, cdnRulePresetExample] } },
    case: { path: (w) => `/cdn/resources/${firstResource(w).id}/rules?limit=10`, ownsObjects: true },
  }),
  createRule: route({
    method: "POST",
    path: "/cdn/resources/:resource_id/rules",
    pathParams: resourceParams,
    body: createCdnRuleBody,
    responses: { 201: cdnRule, ...errorResponses([409, ...withBody]) },
    summary: "Create a rule of a CDN resource",
    description:
      "Adds a rule to one of the account's CDN resources: for the requests whose path matches `rule`, its options apply in place " +
      "of the resource's options of the same keys, and its originGroup and overrideOriginProtocol, when set, in place of the " +
      "resource's. The options are a resource's with the same checks, but for those that set up the resource as a whole. " +
      "409 when the resource has as many rules as the account's `cdn_resources_rules_max_count` (see the CDN client settings). " +
      "Answers 201 with the rule.",
    metadata: write,
  }, {
    example: {
      pathParams: { resource_id: 1 },
      body: { name: createdRule.name, rule: createdRule.rule, ruleType: 0, weight: createdRule.weight, options: CREATED_RULE_OPTIONS },
      response: createdRule,
    },
    case: { path: (w) => `/cdn/resources/${firstResource(w).id}/rules`, ownsObjects: true, body: ruleCaseBody },
  }),
  getRule: route({
    method: "GET",
    path: "/cdn/resources/:resource_id/rules/:rule_id",
    pathParams: ruleParams,
    responses: { 200: cdnRule, ...errorResponses() },
    summary: "Get a rule of a CDN resource",
    description: "One rule of one of the account's CDN resources; 404 when the rule is not the resource's.",
    metadata: read,
  }, {
    example: { pathParams: { resource_id: 1, rule_id: 1 }, response: cdnRuleExample },
    case: {
      path: (w) => {
        const { resource, rule } = firstRule(w);
        return `/cdn/resources/${resource.id}/rules/${rule.id}`;
      },
      ownsObjects: true,
    },
  }),
  updateRule: route({
    method: "PATCH",
    path: "/cdn/resources/:resource_id/rules/:rule_id",
    pathParams: ruleParams,
    body: updateCdnRuleBody,
    responses: { 200: cdnRule, ...errorResponses([409, ...withBody]) },
    summary: "Change a rule of a CDN resource",
    description:
      "Changes only the fields given. Inside `options`, each key given replaces that option whole, null removes it, and keys not " +
      "given stay. While a preset is applied to the rule, giving one of the options it manages answers 409. A PATCH with no " +
      "field changes nothing and answers the rule as it is.",
    metadata: write,
  }, {
    example: {
      pathParams: { resource_id: 1, rule_id: 1 },
      body: { options: { browser_cache_settings: { enabled: true, value: "1d" } } },
      response: cdnRuleExample,
    },
    case: {
      path: (w) => {
        const { resource, rule } = firstRule(w);
        return `/cdn/resources/${resource.id}/rules/${rule.id}`;
      },
      ownsObjects: true,
      body: () => ({ name: uniqueName("Changed by the route cases") }),
    },
  }),
  replaceRule: route({
    method: "PUT",
    path: "/cdn/resources/:resource_id/rules/:rule_id",
    pathParams: ruleParams,
    body: replaceCdnRuleBody,
    responses: { 200: cdnRule, ...errorResponses([409, ...withBody]) },
    summary: "Replace a rule of a CDN resource",
    description:
      "Replaces every writable field: `rule` and `ruleType` are required, the others left out return to a new rule's " +
      "defaults (the name is kept). While a preset is applied to the rule, the options it manages are kept, and giving " +
      "one of them answers 409.",
    metadata: write,
  }, {
    example: {
      pathParams: { resource_id: 1, rule_id: 1 },
      body: { name: cdnRuleExample.name, rule: cdnRuleExample.rule, ruleType: 0, weight: 1, options: RULE_OPTIONS },
      response: cdnRuleExample,
    },
    case: {
      path: (w) => {
        const { resource, rule } = firstRule(w);
        return `/cdn/resources/${resource.id}/rules/${rule.id}`;
      },
      ownsObjects: true,
      body: (w) => ({ name: String(firstRule(w).rule.name), rule: String(firstRule(w).rule.rule), ruleType: 0, weight: 1 }),
    },
  }),
  deleteRule: route({
    method: "DELETE",
    path: "/cdn/resources/:resource_id/rules/:rule_id",
    pathParams: ruleParams,
    responses: { 204: c.noBody(), ...errorResponses() },
    summary: "Delete a rule of a CDN resource",
    description:
      "Deletes the rule for good, with the preset applied to it: its requests get the resource's options again. Deleting a " +
      "resource deletes its rules. Answers 204 with no body.",
    metadata: write,
  }, {
    example: { pathParams: { resource_id: 1, rule_id: 5 } },
    case: {
      path: (w, made) => `/cdn/resources/${firstResource(w).id}/rules/${made?.id ?? missingId(w.account)}`,
      ownsObjects: true,
      makes: "cdn.createRule",
    },
  }),
  getRulePreset: route({
    method: "GET",
    path: "/cdn/resources/:resource_id/rules/:rule_id/preset",
    pathParams: ruleParams,
    responses: { 200: cdnAppliedPresetFields, ...errorResponses() },
    summary: "Get the preset applied to a rule",
    description: "The preset applied to the rule and the rule's fields it manages; 404 when the rule has no preset.",
    metadata: read,
  }, {
    example: {
      pathParams: { resource_id: 1, rule_id: 2 },
      response: { id: 4, name: "Image optimization", deletable: true, fields: ["options.image_stack", "options.browser_cache_settings"] },
      newAccount: { status: 404, because: "A new account's rules have no preset until one is applied." },
    },
    case: {
      path: (w) => {
        const { resource, rule } = ruleWithPreset(w);
        return `/cdn/resources/${resource.id}/rules/${rule.id}/preset`;
      },
      ownsObjects: true,
    },
  }),
} as const;

/** The routes of the account's rule templates. */
export const cdnRuleTemplatesRoutes = {
  listRuleTemplates: route({
    method: "GET",
    path: "/cdn/resources/rule_templates",
    query: listCdnRuleTemplatesQuery,
    responses: { 200: cdnRuleTemplateList, ...errorResponses() },
    summary: "List rule templates",
    description:
      "The account's rule templates, by id. Paged by `limit` " +
      `(default ${CDN_PAGE_MAX}, at most ${CDN_PAGE_MAX}) and \`offset\`; \`count\` is the number of all the account's templates. ` +
      "The platform's system templates (`default` true) are not part of this API.",
    metadata: read,
  }, {
    example: { query: { limit: 10, offset: 0 }, response: { count: 1, results: [cdnRuleTemplateExample] } },
    case: { path: () => "/cdn/resources/rule_templates?limit=10", ownsObjects: false },
  }),
  createRuleTemplate: route({
    method: "POST",
    path: "/cdn/resources/rule_templates",
    body: createCdnRuleTemplateBody,
    responses: { 201: cdnRuleTemplate, ...errorResponses(withBody) },
    summary: "Create a rule template",
    description:
      "Adds a rule template to the account: a rule's pattern, weight, protocol override and options (a rule's options, with " +
      "the same checks). Answers 201 with the template.",
    metadata: write,
  }, {
    example: {
      body: {
        name: createdTemplate.name,
        rule: createdTemplate.rule,
        ruleType: 0,
        weight: createdTemplate.weight,
        overrideOriginProtocol: createdTemplate.overrideOriginProtocol,
        options: CREATED_TEMPLATE_OPTIONS,
      },
      response: createdTemplate,
    },
    case: { path: () => "/cdn/resources/rule_templates", ownsObjects: false, body: ruleCaseBody },
  }),
  getRuleTemplate: route({
    method: "GET",
    path: "/cdn/resources/rule_templates/:rule_template_id",
    pathParams: templateParams,
    responses: { 200: cdnRuleTemplate, ...errorResponses() },
    summary: "Get a rule template",
    description: "One rule template of the account.",
    metadata: read,
  }, {
    example: { pathParams: { rule_template_id: 1 }, response: cdnRuleTemplateExample },
    case: { path: (w) => `/cdn/resources/rule_templates/${firstTemplate(w).id}`, ownsObjects: true },
  }),
  updateRuleTemplate: route({
    method: "PATCH",
    path: "/cdn/resources/rule_templates/:rule_template_id",
    pathParams: templateParams,
    body: updateCdnRuleTemplateBody,
    responses: { 200: cdnRuleTemplate, ...errorResponses(withBody) },
    summary: "Change a rule template",
    description:
      "Changes only the fields given. Inside `options`, each key given replaces that option whole, null removes it, and keys " +
      "not given stay. The rules made from the template earlier do not change.",
    metadata: write,
  }, {
    example: { pathParams: { rule_template_id: 1 }, body: { weight: 5 }, response: cdnRuleTemplateExample },
    case: {
      path: (w) => `/cdn/resources/rule_templates/${firstTemplate(w).id}`,
      ownsObjects: true,
      body: () => ({ name: uniqueName("Changed by the route cases") }),
    },
  }),
  replaceRuleTemplate: route({
    method: "PUT",
    path: "/cdn/resources/rule_templates/:rule_template_id",
    pathParams: templateParams,
    body: replaceCdnRuleTemplateBody,
    responses: { 200: cdnRuleTemplate, ...errorResponses(withBody) },
    summary: "Replace a rule template",
    description:
      "Replaces every writable field: `rule` and `ruleType` are required, the others left out return to a new template's defaults (the name is kept).",
    metadata: write,
  }, {
    example: {
      pathParams: { rule_template_id: 1 },
      body: {
        name: cdnRuleTemplateExample.name,
        rule: cdnRuleTemplateExample.rule,
        ruleType: 0,
        weight: cdnRuleTemplateExample.weight,
        options: TEMPLATE_OPTIONS,
      },
      response: cdnRuleTemplateExample,
    },
    case: {
      path: (w) => `/cdn/resources/rule_templates/${firstTemplate(w).id}`,
      ownsObjects: true,
      body: () => ({ rule: "^/fonts/", ruleType: 0, weight: 5, options: { browser_cache_settings: { enabled: true, value: "30d" } } }),
    },
  }),
  deleteRuleTemplate: route({
    method: "DELETE",
    path: "/cdn/resources/rule_templates/:rule_template_id",
    pathParams: templateParams,
    responses: { 204: c.noBody(), ...errorResponses() },
    summary: "Delete a rule template",
    description: "Deletes the template for good; the rules made from it stay. Answers 204 with no body.",
    metadata: write,
  }, {
    example: { pathParams: { rule_template_id: 3 } },
    case: {
      path: (w, made) => `/cdn/resources/rule_templates/${made?.id ?? missingId(w.account)}`,
      ownsObjects: true,
      makes: "cdn.createRuleTemplate",
    },
  }),
} as const;
