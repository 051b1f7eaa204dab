/**
 * Edge app templates: the template with its parameters, the listing (the account's and the public
 * ones), and the routes that make, read, replace and delete the account's templates.
 */
import { initContract } from "@ts-rest/core";
import { z } from "zod";
import { booleanQuery, errorResponses, idParam, integer, listOf, stringEnum, strictObject, withBody } from "../common.js";
import * as examples from "../examples.js";
import { route } from "../route.js";
import { missingId, uniqueName, type CaseWorld } from "../route-case.js";
import { apiType, binaryOf, envName, forceQuery, paging, read, write } from "./shared.js";

const c = initContract();

/** The data types of a template parameter, as the platform names them. */
export const EDGE_TEMPLATE_PARAM_TYPES = ["string", "number", "date", "time", "secret", "store", "bool", "json", "enum"] as const;

const PARAM_TYPES_TEXT =
  "string (text), number, date, time, secret (names a secret), store (names an edge store), bool, json, or enum " +
  "(one of the values its `metadata` lists)";

const templateParamSchema = z
  .object({
    name: z.string().describe("The environment variable the parameter is given to an app under, e.g. API_KEY."),
    data_type: z.string().describe(`The parameter's type: ${PARAM_TYPES_TEXT}.`),
    mandatory: z.boolean().describe("Whether an app made from the template must set the parameter."),
    descr: z.string().describe("What the parameter is for."),
    metadata: z
      .string()
      .nullable()
      .describe('Further details as a JSON-encoded string, such as an enum\'s values (`{"values":["a","b"]}`); null when none.'),
  })
  .strict();

const edgeAppTemplateSchema = z
  .object({
    id: integer(),
    binary_id: integer().describe("The binary apps made from this template run."),
    name: z.string(),
    short_descr: z.string().describe("A one-line description of the template."),
    long_descr: z.string().describe("The template's full description."),
    api_type: apiType,
    owned: z.boolean().describe("true for the account's own templates, false for public ones."),
    params: z
      .array(templateParamSchema)
      .describe("Parameters an app made from the template is configured with (as environment variables), in the order they were given."),
  })
  .strict()
  .describe("An edge app template.");
export interface EdgeAppTemplateSchema extends EdgeAppTemplateSchemaType {}
type EdgeAppTemplateSchemaType = typeof edgeAppTemplateSchema;
export const edgeAppTemplate: EdgeAppTemplateSchema = edgeAppTemplateSchema;

export type EdgeAppTemplate = z.infer<typeof edgeAppTemplate>;

const edgeAppTemplateShortSchema = z
  .object({
    id: integer(),
    name: z.string(),
    api_type: apiType,
    owned: z.boolean().describe("true for the account's own templates, false for public ones."),
    short_descr: z.string().describe("A one-line description of the template."),
    long_descr: z.string().describe("The template's full description."),
  })
  .strict()
  .describe("A template without its binary and parameters, as listings and writes answer it.");
export interface EdgeAppTemplateShortSchema extends EdgeAppTemplateShortSchemaType {}
type EdgeAppTemplateShortSchemaType = typeof edgeAppTemplateShortSchema;
export const edgeAppTemplateShort: EdgeAppTemplateShortSchema = edgeAppTemplateShortSchema;

export type EdgeAppTemplateShort = z.infer<typeof edgeAppTemplateShort>;

const edgeAppTemplateListSchema = z
  .object({
    templates: z.array(edgeAppTemplateShort),
    count: integer().describe("The number of templates that match the filters, before limit and offset."),
  })
  .strict()
  .describe("A page of templates, and the number of all the templates that match.");
export interface EdgeAppTemplateListSchema extends EdgeAppTemplateListSchemaType {}
type EdgeAppTemplateListSchemaType = typeof edgeAppTemplateListSchema;
export const edgeAppTemplateList: EdgeAppTemplateListSchema = edgeAppTemplateListSchema;

export type EdgeAppTemplateList = z.infer<typeof edgeAppTemplateList>;

const listEdgeAppTemplatesQuerySchema = z.object({
  api_type: apiType.optional().describe("Templates of this ABI: wasi-http or proxy-wasm."),
  only_mine: booleanQuery("true: only the account's own templates; false (the default): the public ones too.").default(false),
  ...paging("templates", 25),
});
export interface ListEdgeAppTemplatesQuerySchema extends ListEdgeAppTemplatesQuerySchemaType {}
type ListEdgeAppTemplatesQuerySchemaType = typeof listEdgeAppTemplatesQuerySchema;
export const listEdgeAppTemplatesQuery: ListEdgeAppTemplatesQuerySchema = listEdgeAppTemplatesQuerySchema;

export type ListEdgeAppTemplatesQuery = z.input<typeof listEdgeAppTemplatesQuery>;

const templateParamBody = strictObject({
  name: envName.describe("The environment variable the parameter is given to an app under: a letter or _, then letters, digits and _; at most 128."),
  data_type: stringEnum(EDGE_TEMPLATE_PARAM_TYPES).describe(`The parameter's type: ${PARAM_TYPES_TEXT}.`),
  mandatory: z.boolean().optional().describe("Whether an app made from the template must set it. Default false."),
  descr: z.string().max(1024).optional().describe('What the parameter is for, at most 1024 characters. Default "".'),
  metadata: z
    .string()
    .max(4096, "At most 4096 characters.")
    .refine((text) => {
      try {
        JSON.parse(text);
        return true;
      } catch {
        return false;
      }
    }, "Must be a JSON-encoded value.")
    .nullable()
    .optional()
    .describe("Further details as a JSON-encoded string of at most 4096 characters, such as an enum's values. Default null."),
});

const templateBodySchema = strictObject(
  {
    binary_id: integer({ min: 1 }).describe("A binary of the account: apps made from the template run it, and its api_type is the template's."),
    name: z
      .string()
      .min(1, "Must not be empty.")
      .max(128, "At most 128 characters.")
      .describe("1 to 128 characters; unique among the account's templates (409). Public templates' names do not count."),
    owned: z
      .literal(true, { errorMap: () => ({ message: "Must be true: templates made through the API are the account's own." }) })
      .optional()
      .describe("true (the default): the template is the account's own. The platform's public templates cannot be made here."),
    short_descr: z.string().max(256).optional().describe('A one-line description, at most 256 characters. Default "".'),
    long_descr: z.string().max(16384).optional().describe('The full description, at most 16384 characters. Default "".'),
    params: listOf(templateParamBody, {
      max: 100,
      noun: "parameters",
      description: "The parameters apps made from the template are configured with, in order, each name once (may be empty).",
    }).superRefine((params, ctx) => {
      const seen = new Set<string>();
      params.forEach((param, index) => {
        if (seen.has(param.name)) ctx.addIssue({ code: z.ZodIssueCode.custom, path: [index, "name"], message: "Parameter names must be unique within the template." });
        seen.add(param.name);
      });
    }),
  },
  { readOnly: ["id", "api_type"] },
).describe("A template: its binary, name, descriptions and parameters. A replacement (PUT) sets every field; those not given take their defaults.");
export interface EdgeAppTemplateBodySchema extends EdgeAppTemplateBodySchemaType {}
type EdgeAppTemplateBodySchemaType = typeof templateBodySchema;
export const edgeAppTemplateBody: EdgeAppTemplateBodySchema = templateBodySchema;

export type EdgeAppTemplateBody = z.input<typeof edgeAppTemplateBody>;

const templateId = z.object({ id: idParam("The template id.") });

// The examples' objects: the demo data's, of account 1.
const template = examples.edgeAppTemplateExample;
/** The id of the first template made on the demo data (its templates go up to 1002). */
const madeTemplateId = 1003;

const templateShort = {
  id: template.id,
  name: template.name,
  api_type: template.api_type,
  owned: template.owned,
  short_descr: template.short_descr,
  long_descr: template.long_descr,
};

// The cases' objects: the first of each kind the account has.
const templateOf = (w: CaseWorld) => w.first("edge.listTemplates", { query: "only_mine=true" });
const templateBody = (w: CaseWorld) => ({
  binary_id: binaryOf(w).id,
  name: uniqueName("Route case template"),
  params: [{ name: "GREETING", data_type: "string", mandatory: true, descr: "What the app says." }],
});

/** The templates' routes at the specification's paths; the platform's /fastedge/v1 paths are aliases of these (index.ts). */
export const edgeTemplatesRoutes = {
  listTemplates: route({
    method: "GET",
    path: "/edge/v1/template",
    query: listEdgeAppTemplatesQuery,
    responses: { 200: edgeAppTemplateList, ...errorResponses() },
    summary: "List edge app templates",
    description:
      "The account's own templates and the platform's public ones (only the account's with `only_mine=true`), of one " +
      "api_type if `api_type` is given. Ordered by id ascending; paged by `limit` (default 25, at most 1000) and " +
      "`offset`; `count` is the total number of matches.",
    metadata: read,
  }, {
    example: {
      query: { api_type: template.api_type, only_mine: true, limit: 25, offset: 0 },
      response: { templates: [templateShort], count: 1 },
    },
    case: { path: () => "/edge/v1/template?limit=5", ownsObjects: false },
  }),
  createTemplate: route({
    method: "POST",
    path: "/edge/v1/template",
    body: edgeAppTemplateBody,
    responses: { 200: edgeAppTemplateShort, ...errorResponses([409, ...withBody]) },
    summary: "Create an edge app template",
    description:
      "Makes a template of the account from one of its binaries (400 `binary_id` for another's, an unknown one or a " +
      "platform binary); its api_type is the binary's. 409 when the account already has a template of that name. " +
      "Answers 200 with the template without its parameters, as the platform does.",
    metadata: write,
  }, {
    example: {
      body: {
        binary_id: template.binary_id,
        name: `${template.name} (staging)`,
        short_descr: template.short_descr,
        long_descr: template.long_descr,
        params: [
          { name: "MAX_WIDTH", data_type: "number", mandatory: true, descr: "Largest width served, pixels." },
          { name: "QUALITY", data_type: "number", mandatory: false, descr: "JPEG and WebP quality, 1 to 100." },
          { name: "ORIGIN_URL", data_type: "string", mandatory: true, descr: "Where the original images are." },
        ],
      },
      // The demo data's templates go up to id 1002: the first template made on it is 1003.
      response: { ...templateShort, id: madeTemplateId, name: `${template.name} (staging)`, owned: true },
    },
    case: { path: () => "/edge/v1/template", ownsObjects: false, body: templateBody },
  }),
  getTemplate: route({
    method: "GET",
    path: "/edge/v1/template/:id",
    pathParams: templateId,
    responses: { 200: edgeAppTemplate, ...errorResponses() },
    summary: "Get an edge app template",
    description: "One of the account's own templates, or a public one, with its parameters.",
    metadata: read,
  }, {
    example: {
      pathParams: { id: template.id },
      response: template,
    },
    case: { path: (w) => `/edge/v1/template/${templateOf(w).id}`, ownsObjects: true },
  }),
  replaceTemplate: route({
    method: "PUT",
    path: "/edge/v1/template/:id",
    pathParams: templateId,
    body: edgeAppTemplateBody,
    responses: { 200: edgeAppTemplateShort, ...errorResponses([409, ...withBody]) },
    summary: "Replace an edge app template",
    description:
      "Sets every field of one of the account's templates, as create takes them: fields not given take their defaults " +
      "and `params` replaces the parameters. Apps already made from it keep their binary and configuration. A public " +
      "template answers 403 (it is the platform's); another account's or an unknown id 404; a name another of the " +
      "account's templates has 409.",
    metadata: write,
  }, {
    example: {
      pathParams: { id: template.id },
      body: {
        binary_id: template.binary_id,
        name: template.name,
        short_descr: "Resizes and re-encodes images.",
        params: [
          { name: "MAX_WIDTH", data_type: "number", mandatory: true, descr: "Largest width served, pixels." },
          { name: "FORMAT", data_type: "enum", descr: "Output format.", metadata: '{"values":["webp","avif"]}' },
        ],
      },
      response: { ...templateShort, short_descr: "Resizes and re-encodes images.", long_descr: "" },
    },
    case: {
      path: (w, made) => `/edge/v1/template/${made?.id ?? missingId(w.account)}`,
      ownsObjects: true,
      makes: "edge.createTemplate",
      body: templateBody,
    },
  }),
  deleteTemplate: route({
    method: "DELETE",
    path: "/edge/v1/template/:id",
    pathParams: templateId,
    query: forceQuery("true: delete it even while apps are made from it; those apps keep running, their `template` becomes null."),
    responses: { 204: c.noBody(), ...errorResponses([409]) },
    summary: "Delete an edge app template",
    description:
      "Deletes one of the account's templates with its parameters. While apps are made from it (their `template` is " +
      "its id) it answers 409, unless `force=true`, which detaches those apps first. A public template answers 403. " +
      "Answers 204 with no body.",
    metadata: write,
  }, {
    example: {
      // The template createTemplate's example made: every template of the demo data is in use.
      pathParams: { id: madeTemplateId },
      query: { force: false },
    },
    case: {
      path: (w, made) => `/edge/v1/template/${made?.id ?? missingId(w.account)}`,
      ownsObjects: true,
      makes: "edge.createTemplate",
    },
  }),
} as const;
