/**
 * Edge apps area: apps (their lifecycle and status moves), templates, secrets and binaries, at the
 * specification's /edge/v1 paths and, as aliases, at the platform's current /fastedge/v1 paths.
 */
import { initContract } from "@ts-rest/core";
import { z } from "zod";
import { alias } from "./alias.js";
import { RAW_BODY, rawBytes, type RawBodyMetadata } from "./body.js";
import {
  booleanQuery,
  errorEnvelope,
  errorResponses,
  headerName,
  idParam,
  integer,
  integerParam,
  isoTimestamp,
  listOf,
  mapOf,
  stringEnum,
  strictObject,
  withBody,
} from "./common.js";
import type { RouteMetadata } from "./roles.js";

const c = initContract();

/** Edge app status codes, as `edgeApp.status` describes them. */
export const EDGE_APP_STATUS = {
  draft: 0,
  enabled: 1,
  disabled: 2,
  hourlyLimitExceeded: 3,
  dailyLimitExceeded: 4,
  suspended: 5,
} as const;

export type EdgeAppStatus = (typeof EDGE_APP_STATUS)[keyof typeof EDGE_APP_STATUS];

const STATUS_TEXT =
  "0 draft (inactive), 1 enabled, 2 disabled, 3 hourly call limit exceeded, 4 daily call limit exceeded, 5 suspended";

/**
 * The status moves a caller may make: 0→1, 0→2, 1→2, 2→1, and 3, 4, 5 → 2; any other answers 409.
 * Setting the current status again changes nothing and is allowed.
 */
export const EDGE_APP_STATUS_MOVES: Readonly<Record<EdgeAppStatus, readonly EdgeAppStatus[]>> = {
  0: [1, 2],
  1: [2],
  2: [1],
  3: [2],
  4: [2],
  5: [2],
};

const STATUS_MOVES_TEXT =
  "Moves a caller may make: 0→1, 0→2, 1→2, 2→1, and from 3, 4 or 5 to 2. Setting 3, 4 or 5 is 400 (the service " +
  "sets those when call limits are exceeded or the app is suspended); any other move is 409, and so is enabling (→1) " +
  "an app with no binary. Setting the status it already has (0, 1 or 2) changes nothing.";

export const EDGE_API_TYPES = ["wasi-http", "proxy-wasm"] as const;
const apiType = stringEnum(EDGE_API_TYPES).describe("The app's ABI: wasi-http or proxy-wasm.");

const statusCode = integer({ min: 0, max: 5 });

const edgeAppSchema = z
  .object({
    id: integer(),
    name: z.string(),
    url: z.string().describe("The URL the app answers on."),
    status: statusCode.describe(`Status: ${STATUS_TEXT}.`),
    binary: integer().nullable().describe("The id of the app's binary; null for a draft without one."),
    template: integer().nullable().describe("The id of the template the app was made from, or null."),
    template_name: z.string().nullable().describe("The template's name, or null."),
    comment: z.string(),
    api_type: apiType,
    debug_until: isoTimestamp.nullable().describe("Debug logging is on until this time; null when it is off."),
    networks: z.array(z.string()).describe("Networks the app is deployed to."),
    upgradeable_to: integer().nullable().describe("The id of a newer binary of the app's template, or null."),
    plan_id: integer(),
    plan: z.string().describe("The name of the app's plan."),
  })
  .strict()
  .describe("An edge app. The write-only fields (env, rsp_headers, log, debug, secrets) are never returned.");
export interface EdgeAppSchema extends EdgeAppSchemaType {}
type EdgeAppSchemaType = typeof edgeAppSchema;
export const edgeApp: EdgeAppSchema = edgeAppSchema;

export type EdgeApp = z.infer<typeof edgeApp>;

const APP_NAME = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
const envName = z.string().regex(ENV_NAME, "Must be an environment variable name such as API_KEY.");

const appName = z
  .string()
  .max(64, "At most 64 characters.")
  .regex(APP_NAME, "Lower-case letters, digits and hyphens, starting and ending with a letter or digit.")
  .describe("1 to 64 lower-case letters, digits and hyphens, not starting or ending with a hyphen; unique in the account (409).");

/** The writable fields of an app, as create and update take them (create requires `name`). */
const appFields = {
  name: appName.optional(),
  binary: integer({ min: 1 })
    .optional()
    .describe("A binary of the account (or a platform binary of a public template) of the app's api_type."),
  template: integer({ min: 1 }).nullable().optional().describe("A template of the account or a public one; null detaches it."),
  status: integer()
    .superRefine((value, ctx) => {
      if (value >= 3 && value <= 5)
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: "Statuses 3, 4 and 5 are set by the service, not by callers." });
      else if (value < 0 || value > 2) ctx.addIssue({ code: z.ZodIssueCode.custom, message: `Must be a status code 0, 1 or 2 (${STATUS_TEXT}).` });
    })
    .optional()
    .describe(`The new status. ${STATUS_MOVES_TEXT}`),
  env: mapOf(envName, z.string().max(4096), {
    max: 100,
    noun: "variables",
    description:
      "Environment variables of the app (read with `getEnv`), each value at most 4096 characters. Write-only: stored, never returned. " +
      "They are settings, not secrets, as on the platform (its SDK reads them back with the app): stored as sent, not encrypted. " +
      "Give a secret value (a key, a password) as an edge secret in `secrets` instead: its values are encrypted at rest.",
  }).optional(),
  rsp_headers: mapOf(headerName, z.string().max(4096), {
    max: 100,
    noun: "headers",
    description:
      "Headers added to the app's responses, each value at most 4096 characters. Write-only: stored, never returned. " +
      "Every client of the app receives them, so they are not secrets: stored as sent, not encrypted.",
  }).optional(),
  log: stringEnum(["kafka", "none"]).optional().describe("Where the app's logs go: kafka or none. Write-only."),
  debug: z
    .boolean()
    .optional()
    .describe("true turns debug logging on for 30 minutes (`debug_until` = now + 30 min); false turns it off. Write-only."),
  comment: z.string().max(1024).optional().describe("At most 1024 characters."),
  secrets: mapOf(envName, strictObject({ id: integer({ min: 1 }).describe("A secret of the account.") }), {
    max: 100,
    noun: "secrets",
    description:
      "Secrets given to the app: environment name → `{ \"id\": <secret id> }`; they replace the app's secrets. Write-only: stored, never returned.",
  }).optional(),
};

const APP_READ_ONLY = ["id", "url", "template_name", "api_type", "debug_until", "networks", "upgradeable_to", "plan_id", "plan"];

const updateEdgeAppBodySchema = strictObject(appFields, { readOnly: APP_READ_ONLY }).describe(
  "The fields to change; none is required and fields not given keep their value.",
);
export interface UpdateEdgeAppBodySchema extends UpdateEdgeAppBodySchemaType {}
type UpdateEdgeAppBodySchemaType = typeof updateEdgeAppBodySchema;
export const updateEdgeAppBody: UpdateEdgeAppBodySchema = updateEdgeAppBodySchema;

export type UpdateEdgeAppBody = z.input<typeof updateEdgeAppBody>;

const createEdgeAppBodySchema = strictObject(
  {
    ...appFields,
    name: appName,
    template: integer({ min: 1 })
      .optional()
      .describe("A template of the account or a public one; without `binary`, the app runs the template's binary."),
    status: appFields.status.describe(
      "The app's first status: 0 draft (the default), 1 enabled or 2 disabled. 3, 4 and 5 are 400; enabling (1) needs a binary.",
    ),
  },
  { readOnly: APP_READ_ONLY },
).describe("A new app: its name, and `binary` or `template` (or both); the other fields are optional.");
export interface CreateEdgeAppBodySchema extends CreateEdgeAppBodySchemaType {}
type CreateEdgeAppBodySchemaType = typeof createEdgeAppBodySchema;
export const createEdgeAppBody: CreateEdgeAppBodySchema = createEdgeAppBodySchema;

export type CreateEdgeAppBody = z.input<typeof createEdgeAppBody>;

export const EDGE_APP_ORDERINGS = [
  "name",
  "-name",
  "status",
  "-status",
  "id",
  "-id",
  "template",
  "-template",
  "binary",
  "-binary",
  "plan",
  "-plan",
] as const;

const listEdgeAppsQuerySchema = z.object({
  name: z.string().max(64).optional().describe("Apps whose name contains this text, case-insensitively."),
  api_type: apiType.optional(),
  status: integerParam({ min: 0, max: 5, description: `Apps with this status: ${STATUS_TEXT}.` }).optional(),
  template: integerParam({ min: 1, description: "Apps made from this template id." }).optional(),
  binary: integerParam({ min: 1, description: "Apps running this binary id." }).optional(),
  plan: integerParam({ min: 1, description: "Apps on this plan id." }).optional(),
  limit: integerParam({ min: 1, max: 1000, description: "Page size, 1 to 1000. Default 25." }).default(25),
  offset: integerParam({ min: 0, description: "Number of matching apps skipped. Default 0." }).default(0),
  ordering: stringEnum(EDGE_APP_ORDERINGS)
    .default("id")
    .describe(
      "Sort field; a leading - sorts descending. Default id. Names are compared character by character; apps " +
        "without a template or binary come last ascending and first descending; ties are broken by id ascending.",
    ),
});
export interface ListEdgeAppsQuerySchema extends ListEdgeAppsQuerySchemaType {}
type ListEdgeAppsQuerySchemaType = typeof listEdgeAppsQuerySchema;
export const listEdgeAppsQuery: ListEdgeAppsQuerySchema = listEdgeAppsQuerySchema;

export type ListEdgeAppsQuery = z.input<typeof listEdgeAppsQuery>;

const edgeAppListSchema = z
  .object({
    apps: z.array(edgeApp),
    count: integer().describe("The number of apps that match the filters, before limit and offset."),
  })
  .strict()
  .describe("A page of edge apps, and the number of all the apps that match.");
export interface EdgeAppListSchema extends EdgeAppListSchemaType {}
type EdgeAppListSchemaType = typeof edgeAppListSchema;
export const edgeAppList: EdgeAppListSchema = edgeAppListSchema;

export type EdgeAppList = z.infer<typeof edgeAppList>;

// ---------------------------------------------------------------------------------------------
// Templates
// ---------------------------------------------------------------------------------------------

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

/** A page's `limit` and `offset`, with the default page size said in the description. */
function paging(noun: string, defaultLimit: number) {
  return {
    limit: integerParam({ min: 1, max: 1000, description: `Page size, 1 to 1000. Default ${defaultLimit}.` }).default(defaultLimit),
    offset: integerParam({ min: 0, description: `Number of matching ${noun} skipped. Default 0.` }).default(0),
  };
}

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

const forceQuery = (what: string) => z.object({ force: booleanQuery(what).default(false) });

// ---------------------------------------------------------------------------------------------
// Secrets
// ---------------------------------------------------------------------------------------------

const SECRET_NAME = /^[a-zA-Z0-9](?:[a-zA-Z0-9_-]*[a-zA-Z0-9])?$/;

const secretSlotSchema = z
  .object({
    slot: integer().describe("The slot: a Unix time (seconds) from which the value is in effect; 0 for always."),
    checksum: z.string().describe("Hex SHA-256 of the slot's value; the value itself is never returned."),
  })
  .strict();

const edgeAppSecretSchema = z
  .object({
    id: integer(),
    name: z.string(),
    comment: z.string(),
    app_count: integer().describe("The number of apps that use the secret."),
    secret_slots: z.array(secretSlotSchema).describe("The secret's slots, by slot ascending."),
  })
  .strict()
  .describe("An edge app secret: named values in slots, given to apps as environment variables.");
export interface EdgeAppSecretSchema extends EdgeAppSecretSchemaType {}
type EdgeAppSecretSchemaType = typeof edgeAppSecretSchema;
export const edgeAppSecret: EdgeAppSecretSchema = edgeAppSecretSchema;

export type EdgeAppSecret = z.infer<typeof edgeAppSecret>;

const edgeAppSecretShortSchema = z
  .object({
    id: integer(),
    name: z.string(),
    comment: z.string(),
    app_count: integer().describe("The number of apps that use the secret."),
  })
  .strict()
  .describe("A secret without its slots, as the listing shows it.");
export interface EdgeAppSecretShortSchema extends EdgeAppSecretShortSchemaType {}
type EdgeAppSecretShortSchemaType = typeof edgeAppSecretShortSchema;
export const edgeAppSecretShort: EdgeAppSecretShortSchema = edgeAppSecretShortSchema;

export type EdgeAppSecretShort = z.infer<typeof edgeAppSecretShort>;

const edgeAppSecretListSchema = z
  .object({
    secrets: z.array(edgeAppSecretShort),
    count: integer().describe("The number of secrets that match the filters, before limit and offset."),
  })
  .strict()
  .describe("A page of secrets, and the number of all the secrets that match.");
export interface EdgeAppSecretListSchema extends EdgeAppSecretListSchemaType {}
type EdgeAppSecretListSchemaType = typeof edgeAppSecretListSchema;
export const edgeAppSecretList: EdgeAppSecretListSchema = edgeAppSecretListSchema;

export type EdgeAppSecretList = z.infer<typeof edgeAppSecretList>;

const listEdgeAppSecretsQuerySchema = z.object({
  app_id: integerParam({ min: 1, description: "Secrets the app with this id uses; an id that is not one of the account's apps matches none." }).optional(),
  secret_name: z.string().max(128).optional().describe("The secret with exactly this name."),
  search: z.string().max(128).optional().describe("Secrets whose name contains this text, case-insensitively."),
  ...paging("secrets", 1000),
});
export interface ListEdgeAppSecretsQuerySchema extends ListEdgeAppSecretsQuerySchemaType {}
type ListEdgeAppSecretsQuerySchemaType = typeof listEdgeAppSecretsQuerySchema;
export const listEdgeAppSecretsQuery: ListEdgeAppSecretsQuerySchema = listEdgeAppSecretsQuerySchema;

export type ListEdgeAppSecretsQuery = z.input<typeof listEdgeAppSecretsQuery>;

const secretName = z
  .string()
  .max(128, "At most 128 characters.")
  .regex(SECRET_NAME, "Letters, digits, _ and -, starting and ending with a letter or digit.")
  .describe("1 to 128 letters, digits, _ and -, starting and ending with a letter or digit; unique in the account (409).");

const secretComment = z.string().max(1024).describe("At most 1024 characters.");

/** Each slot once: the problem sits on the repeated slot. */
function uniqueSlots(slots: { slot: number }[], ctx: z.RefinementCtx): void {
  const seen = new Set<number>();
  slots.forEach((item, index) => {
    if (seen.has(item.slot)) ctx.addIssue({ code: z.ZodIssueCode.custom, path: [index, "slot"], message: "Slots must be unique within the secret." });
    seen.add(item.slot);
  });
}

const slotNumber = integer({ min: 0 }).describe("The slot: a Unix time (seconds) from which the value is in effect; 0 for always.");
const slotValue = z.string().max(4096).describe("The secret value, at most 4096 characters. Stored encrypted, never returned.");

const createEdgeAppSecretBodySchema = strictObject(
  {
    name: secretName,
    comment: secretComment.optional().describe('At most 1024 characters. Default "".'),
    secret_slots: listOf(strictObject({ slot: slotNumber, value: slotValue }), {
      min: 1,
      minMessage: "At least one slot.",
      max: 100,
      noun: "slots",
      description: "The secret's values, one per slot, each slot once: at least 1.",
    }).superRefine(uniqueSlots),
  },
  { readOnly: ["id", "app_count"] },
).describe("A new secret: its name, comment and values.");
export interface CreateEdgeAppSecretBodySchema extends CreateEdgeAppSecretBodySchemaType {}
type CreateEdgeAppSecretBodySchemaType = typeof createEdgeAppSecretBodySchema;
export const createEdgeAppSecretBody: CreateEdgeAppSecretBodySchema = createEdgeAppSecretBodySchema;

export type CreateEdgeAppSecretBody = z.input<typeof createEdgeAppSecretBody>;

const changedSlots = listOf(
  strictObject({
    slot: slotNumber,
    value: slotValue.optional().describe("The new value, at most 4096 characters; without it the slot keeps the value it has (400 if it has none)."),
  }),
  {
    min: 1,
    minMessage: "At least one slot.",
    max: 100,
    noun: "slots",
    description: "The secret's slots after the change, each slot once: slots not listed are removed. At least 1.",
  },
).superRefine(uniqueSlots);

const updateEdgeAppSecretBodySchema = strictObject(
  { name: secretName.optional(), comment: secretComment.optional(), secret_slots: changedSlots.optional() },
  { readOnly: ["id", "app_count"] },
).describe("The fields to change; none is required and fields not given keep their value.");
export interface UpdateEdgeAppSecretBodySchema extends UpdateEdgeAppSecretBodySchemaType {}
type UpdateEdgeAppSecretBodySchemaType = typeof updateEdgeAppSecretBodySchema;
export const updateEdgeAppSecretBody: UpdateEdgeAppSecretBodySchema = updateEdgeAppSecretBodySchema;

export type UpdateEdgeAppSecretBody = z.input<typeof updateEdgeAppSecretBody>;

const replaceEdgeAppSecretBodySchema = strictObject(
  { name: secretName, comment: secretComment.optional().describe('At most 1024 characters. Default "".'), secret_slots: changedSlots.optional() },
  { readOnly: ["id", "app_count"] },
).describe("The secret's name and comment (absent: empty), and, if given, its slots.");
export interface ReplaceEdgeAppSecretBodySchema extends ReplaceEdgeAppSecretBodySchemaType {}
type ReplaceEdgeAppSecretBodySchemaType = typeof replaceEdgeAppSecretBodySchema;
export const replaceEdgeAppSecretBody: ReplaceEdgeAppSecretBodySchema = replaceEdgeAppSecretBodySchema;

export type ReplaceEdgeAppSecretBody = z.input<typeof replaceEdgeAppSecretBody>;

// ---------------------------------------------------------------------------------------------
// Binaries
// ---------------------------------------------------------------------------------------------

const BINARY_STATUS_TEXT =
  "0 pending, 1 compiled, 2 compilation failed (errors available), 3 compilation failed (errors not available), " +
  "4 the result exceeded the size limit, 5 unsupported source language";

const edgeBinarySchema = z
  .object({
    id: integer(),
    api_type: apiType,
    status: integer({ min: 0, max: 5 }).describe(`Status: ${BINARY_STATUS_TEXT}.`),
    source: integer({ min: 0, max: 3 }).describe("Source language: 0 unknown, 1 Rust, 2 JavaScript, 3 Go."),
    checksum: z.string().describe("Hex digest of the binary's content."),
    unref_since: isoTimestamp.nullable().describe("When the last app stopped running the binary; null while one runs it, or if none ever did."),
  })
  .strict()
  .describe("A compiled WebAssembly binary of the account.");
export interface EdgeBinarySchema extends EdgeBinarySchemaType {}
type EdgeBinarySchemaType = typeof edgeBinarySchema;
export const edgeBinary: EdgeBinarySchema = edgeBinarySchema;

export type EdgeBinary = z.infer<typeof edgeBinary>;

const edgeBinaryListSchema = z
  .object({
    binaries: z.array(edgeBinary),
    count: integer().describe("The number of the account's binaries, before limit and offset."),
  })
  .strict()
  .describe("A page of the account's binaries, and how many it has.");
export interface EdgeBinaryListSchema extends EdgeBinaryListSchemaType {}
type EdgeBinaryListSchemaType = typeof edgeBinaryListSchema;
export const edgeBinaryList: EdgeBinaryListSchema = edgeBinaryListSchema;

export type EdgeBinaryList = z.infer<typeof edgeBinaryList>;

const listEdgeBinariesQuerySchema = z.object(paging("binaries", 1000));
export interface ListEdgeBinariesQuerySchema extends ListEdgeBinariesQuerySchemaType {}
type ListEdgeBinariesQuerySchemaType = typeof listEdgeBinariesQuerySchema;
export const listEdgeBinariesQuery: ListEdgeBinariesQuerySchema = listEdgeBinariesQuerySchema;

export type ListEdgeBinariesQuery = z.input<typeof listEdgeBinariesQuery>;

/** The first 8 bytes of a WebAssembly module of version 1: the magic `\0asm`, then the version 1 (little-endian). */
export const WASM_MODULE_HEADER: readonly number[] = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];

/** The smallest WebAssembly module there is (the header alone): what the examples and the tests upload. */
export function emptyWasmModule(): Uint8Array {
  return Uint8Array.from(WASM_MODULE_HEADER);
}

const wasmModuleSchema = rawBytes((bytes, ctx) => {
  const at = (start: number, end: number) => [...bytes.subarray(start, end)];
  const same = (a: number[], b: readonly number[]) => a.length === b.length && a.every((byte, index) => byte === b[index]);
  if (bytes.byteLength === 0) ctx.addIssue({ code: z.ZodIssueCode.custom, message: "Must not be empty: send the compiled WebAssembly module." });
  else if (!same(at(0, 4), WASM_MODULE_HEADER.slice(0, 4)))
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: "Must be a compiled WebAssembly module: its first 4 bytes must be the magic \\0asm (00 61 73 6d)." });
  else if (!same(at(4, 8), WASM_MODULE_HEADER.slice(4)))
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: "Must be a WebAssembly module of version 1: bytes 5 to 8 must be 01 00 00 00." });
}).describe(
  "The compiled WebAssembly module, as raw bytes (Content-Type: application/octet-stream): at most 1 MiB, starting " +
    "with the magic `\\0asm` and the version 1 (`00 61 73 6d 01 00 00 00`).",
);
export interface EdgeBinaryUploadSchema extends EdgeBinaryUploadSchemaType {}
type EdgeBinaryUploadSchemaType = typeof wasmModuleSchema;
/** The body of a binary's upload: the module's bytes. */
export const edgeBinaryUpload: EdgeBinaryUploadSchema = wasmModuleSchema;

// ---------------------------------------------------------------------------------------------
// Routes
// ---------------------------------------------------------------------------------------------

const read: RouteMetadata = { access: "read" };
const write: RouteMetadata = { access: "write" };
/** A write whose body is raw bytes, not JSON (see body.ts). */
const rawWrite: RawBodyMetadata = { access: "write", bodyType: RAW_BODY };

const appId = z.object({ id: idParam("The edge app id.") });
const templateId = z.object({ id: idParam("The template id.") });
const secretId = z.object({ id: idParam("The secret id.") });
const binaryId = z.object({ id: idParam("The binary id.") });

const SECRET_VALUES_TEXT =
  "Values are encrypted at rest (AES-GCM) and never returned: the response shows each slot with the hex SHA-256 " +
  "`checksum` of its value.";

/** The edge area's routes at the specification's paths; the platform's /fastedge/v1 paths are aliases of these. */
const edgeRoutes = {
  listApps: {
    method: "GET",
    path: "/edge/v1/apps",
    query: listEdgeAppsQuery,
    responses: { 200: edgeAppList, ...errorResponses() },
    summary: "List edge apps",
    description:
      "The account's edge apps that match every filter given. `name` matches a case-insensitive substring, the other " +
      "filters match exactly. Paged by `limit` (default 25, at most 1000) and `offset`; `count` is the total number " +
      "of matches. Default order: id ascending.",
    metadata: read,
  },
  createApp: {
    method: "POST",
    path: "/edge/v1/apps",
    body: createEdgeAppBody,
    responses: { 200: edgeApp, ...errorResponses([409, ...withBody]) },
    summary: "Create an edge app",
    description:
      "Makes an app from a binary, a template, or both: with `template` alone the app runs the template's binary; with " +
      "both, the binary must be of the template's api_type. The app's api_type is its binary's. It starts in `status` " +
      "(default 0, draft), on the platform's first plan (the lowest plan id), deployed to no network yet " +
      "(`networks` []), answering at `https://<name>-<id>.<account id>.edge.cloudplane.example`. `binary` must be one " +
      "of the account's binaries (or a platform binary of a public template), `template` the account's or a public " +
      "template, and each `secrets` entry a secret of the account (400 with the field's path otherwise). 409 when the " +
      "account already has an app of that name. `log` defaults to kafka, as on the platform. Answers 200 with the app, " +
      "as the platform does; the write-only fields are stored, never returned.",
    metadata: write,
  },
  getApp: {
    method: "GET",
    path: "/edge/v1/apps/:id",
    pathParams: appId,
    responses: { 200: edgeApp, ...errorResponses() },
    summary: "Get an edge app",
    description: "One app of the account, with its read fields; the write-only fields (env, rsp_headers, log, debug, secrets) are never returned.",
    metadata: read,
  },
  updateApp: {
    method: "PUT",
    path: "/edge/v1/apps/:id",
    pathParams: appId,
    body: updateEdgeAppBody,
    responses: { 200: edgeApp, ...errorResponses([409, ...withBody]) },
    summary: "Update an edge app",
    description:
      "Changes the fields given; none is required. " +
      STATUS_MOVES_TEXT +
      " `binary` must be one of the account's binaries, `template` the account's or a public template, and each " +
      "`secrets` entry must name a secret of the account (400 with the field's path otherwise). `env`, `rsp_headers`, " +
      "`log`, `debug` and `secrets` are write-only.",
    metadata: write,
  },
  patchApp: {
    method: "PATCH",
    path: "/edge/v1/apps/:id",
    pathParams: appId,
    body: updateEdgeAppBody,
    responses: { 200: edgeApp, ...errorResponses([409, ...withBody]) },
    summary: "Patch an edge app",
    description:
      "Changes only the fields given and keeps every other as it is: the body is the PUT's, every field optional, " +
      "checked by the same rules, and the answer is the PUT's (200 with the app). " +
      STATUS_MOVES_TEXT +
      " `binary` must be one of the account's binaries of the app's api_type, `template` the account's or a public " +
      "template (null detaches it), and each `secrets` entry must name a secret of the account (400 with the field's " +
      "path otherwise); `secrets`, when given, replaces the app's secrets. A name another app of the account has is " +
      "409. `env`, `rsp_headers`, `log`, `debug` and `secrets` are write-only.",
    metadata: write,
  },
  deleteApp: {
    method: "DELETE",
    path: "/edge/v1/apps/:id",
    pathParams: appId,
    responses: { 204: c.noBody(), ...errorResponses() },
    summary: "Delete an edge app",
    description:
      "Deletes the app and its links to secrets (the secrets themselves stay). Its binary stays too, for other apps or " +
      "a later one; when no app runs it any more, the binary's `unref_since` is set. Answers 204 with no body.",
    metadata: write,
  },
  listTemplates: {
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
  },
  createTemplate: {
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
  },
  getTemplate: {
    method: "GET",
    path: "/edge/v1/template/:id",
    pathParams: templateId,
    responses: { 200: edgeAppTemplate, ...errorResponses() },
    summary: "Get an edge app template",
    description: "One of the account's own templates, or a public one, with its parameters.",
    metadata: read,
  },
  replaceTemplate: {
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
  },
  deleteTemplate: {
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
  },
  listSecrets: {
    method: "GET",
    path: "/edge/v1/secrets",
    query: listEdgeAppSecretsQuery,
    responses: { 200: edgeAppSecretList, ...errorResponses() },
    summary: "List edge app secrets",
    description:
      "The account's secrets (without their slots) that match every filter given: `app_id` (used by that app), " +
      "`secret_name` (exact) and `search` (a case-insensitive substring of the name). Ordered by id ascending; paged by " +
      "`limit` (default 1000, at most 1000) and `offset`; `count` is the total number of matches.",
    metadata: read,
  },
  createSecret: {
    method: "POST",
    path: "/edge/v1/secrets",
    body: createEdgeAppSecretBody,
    responses: { 200: edgeAppSecret, ...errorResponses([409, ...withBody]) },
    summary: "Create an edge app secret",
    description:
      `Creates a named secret with one or more slots. ${SECRET_VALUES_TEXT} Answers 200, as the platform does. ` +
      "409 when the account already has a secret of that name.",
    metadata: write,
  },
  getSecret: {
    method: "GET",
    path: "/edge/v1/secrets/:id",
    pathParams: secretId,
    responses: { 200: edgeAppSecret, ...errorResponses() },
    summary: "Get an edge app secret",
    description: `One secret of the account with its slots. ${SECRET_VALUES_TEXT}`,
    metadata: read,
  },
  updateSecret: {
    method: "PATCH",
    path: "/edge/v1/secrets/:id",
    pathParams: secretId,
    body: updateEdgeAppSecretBody,
    responses: { 200: edgeAppSecret, ...errorResponses([409, ...withBody]) },
    summary: "Update an edge app secret",
    description:
      "Changes the fields given. `secret_slots` is the whole set of slots afterwards: a slot with a `value` takes it, a " +
      "slot without one keeps its stored value (400 on that slot if it has none), a slot not listed is removed. " +
      `${SECRET_VALUES_TEXT} Apps that use the secret see the change. 409 when another secret of the account has the name.`,
    metadata: write,
  },
  replaceSecret: {
    method: "PUT",
    path: "/edge/v1/secrets/:id",
    pathParams: secretId,
    body: replaceEdgeAppSecretBody,
    responses: { 200: edgeAppSecret, ...errorResponses([409, ...withBody]) },
    summary: "Replace an edge app secret",
    description:
      "Sets the secret's name (required) and comment (empty when absent); `secret_slots`, when given, works as in the " +
      `PATCH. ${SECRET_VALUES_TEXT} 409 when another secret of the account has the name.`,
    metadata: write,
  },
  deleteSecret: {
    method: "DELETE",
    path: "/edge/v1/secrets/:id",
    pathParams: secretId,
    query: forceQuery("true: delete it even while apps use it, and take it out of those apps."),
    responses: { 204: c.noBody(), ...errorResponses([409]) },
    summary: "Delete an edge app secret",
    description:
      "Deletes the secret and its slots. While apps use it (`app_count` > 0) it answers 409, unless `force=true`, which " +
      "removes it from those apps first. Answers 204 with no body.",
    metadata: write,
  },
  listBinaries: {
    method: "GET",
    path: "/edge/v1/binaries",
    query: listEdgeBinariesQuery,
    responses: { 200: edgeBinaryList, ...errorResponses() },
    summary: "List edge app binaries",
    description:
      "The account's own binaries (not the platform's, behind public templates), by id ascending. Paged by `limit` " +
      "(default 1000, at most 1000) and `offset`; `count` is how many the account has.",
    metadata: read,
  },
  getBinary: {
    method: "GET",
    path: "/edge/v1/binaries/:id",
    pathParams: binaryId,
    responses: { 200: edgeBinary, ...errorResponses() },
    summary: "Get an edge app binary",
    description: "One binary of the account. The platform's binaries behind public templates are not the account's: 404.",
    metadata: read,
  },
  uploadBinary: {
    method: "POST",
    path: "/edge/v1/binaries/raw",
    body: edgeBinaryUpload,
    responses: {
      201: edgeBinary,
      ...errorResponses(withBody),
      415: errorEnvelope.describe("The body is not sent as application/octet-stream (`unsupported_media_type`): this route takes raw bytes, not JSON."),
    },
    summary: "Upload an edge app binary",
    description:
      "Stores a compiled WebAssembly module as a binary of the account, for apps and templates to run. The body is " +
      "the module's raw bytes, sent with `Content-Type: application/octet-stream` (any other content type, JSON " +
      "included, is 415): at most 1 MiB (413), not empty, and starting with the WebAssembly magic `\\0asm` and the " +
      "version 1 (400 on `body` otherwise). The module is not compiled again: the binary is `status` 1 (compiled), " +
      "`source` 0 (unknown), its `checksum` is the hex SHA-256 of the bytes, and `unref_since` is null until an app " +
      "has run it and stopped. Its `api_type` is read from the module, as the platform does (no parameter sets it): " +
      "proxy-wasm when the module exports a function or global whose name starts with `proxy_` (the Proxy-Wasm ABI's " +
      "`proxy_on_*` callbacks and `proxy_abi_version_*` marker), wasi-http otherwise. The same bytes uploaded twice " +
      "make two binaries. The bytes are stored and never returned. Answers 201 with the binary (the platform's SDKs " +
      "take any 2xx).",
    metadata: rawWrite,
  },
  deleteBinary: {
    method: "DELETE",
    path: "/edge/v1/binaries/:id",
    pathParams: binaryId,
    responses: { 204: c.noBody(), ...errorResponses([409]) },
    summary: "Delete an edge app binary",
    description:
      "Deletes one of the account's binaries with its bytes. While an app runs it (its `binary`) or is offered it as " +
      "an upgrade (`upgradeable_to`), or a template is made from it (`binary_id`), it answers 409 and stays: change or " +
      "delete those first; there is no force. The platform's binaries behind public templates and the other " +
      "account's are 404. Answers 204 with no body.",
    metadata: write,
  },
} as const;

export const edgeContract = c.router({
  ...edgeRoutes,
  fastedgeListApps: alias(edgeRoutes, "listApps", { path: "/fastedge/v1/apps" }),
  fastedgeCreateApp: alias(edgeRoutes, "createApp", { path: "/fastedge/v1/apps" }),
  fastedgeGetApp: alias(edgeRoutes, "getApp", { path: "/fastedge/v1/apps/:id" }),
  fastedgeUpdateApp: alias(edgeRoutes, "updateApp", { path: "/fastedge/v1/apps/:id" }),
  fastedgePatchApp: alias(edgeRoutes, "patchApp", { path: "/fastedge/v1/apps/:id" }),
  fastedgeDeleteApp: alias(edgeRoutes, "deleteApp", { path: "/fastedge/v1/apps/:id" }),
  fastedgeListTemplates: alias(edgeRoutes, "listTemplates", { path: "/fastedge/v1/template" }),
  fastedgeCreateTemplate: alias(edgeRoutes, "createTemplate", { path: "/fastedge/v1/template" }),
  fastedgeGetTemplate: alias(edgeRoutes, "getTemplate", { path: "/fastedge/v1/template/:id" }),
  fastedgeReplaceTemplate: alias(edgeRoutes, "replaceTemplate", { path: "/fastedge/v1/template/:id" }),
  fastedgeDeleteTemplate: alias(edgeRoutes, "deleteTemplate", { path: "/fastedge/v1/template/:id" }),
  fastedgeListSecrets: alias(edgeRoutes, "listSecrets", { path: "/fastedge/v1/secrets" }),
  fastedgeCreateSecret: alias(edgeRoutes, "createSecret", { path: "/fastedge/v1/secrets" }),
  fastedgeGetSecret: alias(edgeRoutes, "getSecret", { path: "/fastedge/v1/secrets/:id" }),
  fastedgeUpdateSecret: alias(edgeRoutes, "updateSecret", { path: "/fastedge/v1/secrets/:id" }),
  fastedgeReplaceSecret: alias(edgeRoutes, "replaceSecret", { path: "/fastedge/v1/secrets/:id" }),
  fastedgeDeleteSecret: alias(edgeRoutes, "deleteSecret", { path: "/fastedge/v1/secrets/:id" }),
  fastedgeListBinaries: alias(edgeRoutes, "listBinaries", { path: "/fastedge/v1/binaries" }),
  fastedgeGetBinary: alias(edgeRoutes, "getBinary", { path: "/fastedge/v1/binaries/:id" }),
  fastedgeUploadBinary: alias(edgeRoutes, "uploadBinary", { path: "/fastedge/v1/binaries/raw" }),
  fastedgeDeleteBinary: alias(edgeRoutes, "deleteBinary", { path: "/fastedge/v1/binaries/:id" }),
});
