/**
 * Edge apps area: apps (listing and updates with their status moves), templates and secrets.
 */
import { initContract } from "@ts-rest/core";
import { z } from "zod";
import { errorResponses, headerName, idParam, integer, integerParam, isoTimestamp, listOf, mapOf, stringEnum, strictObject, withBody } from "./common.js";
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

const updateEdgeAppBodySchema = strictObject(
  {
    name: z
      .string()
      .max(64, "At most 64 characters.")
      .regex(APP_NAME, "Lower-case letters, digits and hyphens, starting and ending with a letter or digit.")
      .optional()
      .describe("1 to 64 lower-case letters, digits and hyphens, not starting or ending with a hyphen; unique in the account (409)."),
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
      description: "Environment variables of the app, each value at most 4096 characters. Write-only: stored, never returned.",
    }).optional(),
    rsp_headers: mapOf(headerName, z.string().max(4096), {
      max: 100,
      noun: "headers",
      description: "Headers added to the app's responses, each value at most 4096 characters. Write-only: stored, never returned.",
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
  },
  { readOnly: ["id", "url", "template_name", "api_type", "debug_until", "networks", "upgradeable_to", "plan_id", "plan"] },
).describe("The fields to change; none is required and fields not given keep their value.");
export interface UpdateEdgeAppBodySchema extends UpdateEdgeAppBodySchemaType {}
type UpdateEdgeAppBodySchemaType = typeof updateEdgeAppBodySchema;
export const updateEdgeAppBody: UpdateEdgeAppBodySchema = updateEdgeAppBodySchema;

export type UpdateEdgeAppBody = z.input<typeof updateEdgeAppBody>;

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
      .array(
        z
          .object({
            name: z.string(),
            data_type: z.string().describe('The parameter\'s type, e.g. "string".'),
            mandatory: z.boolean().describe("Whether an app made from the template must set the parameter."),
            descr: z.string().describe("What the parameter is for."),
          })
          .strict(),
      )
      .describe("Parameters an app made from the template is configured with (as environment variables)."),
  })
  .strict()
  .describe("An edge app template.");
export interface EdgeAppTemplateSchema extends EdgeAppTemplateSchemaType {}
type EdgeAppTemplateSchemaType = typeof edgeAppTemplateSchema;
export const edgeAppTemplate: EdgeAppTemplateSchema = edgeAppTemplateSchema;

export type EdgeAppTemplate = z.infer<typeof edgeAppTemplate>;

const SECRET_NAME = /^[a-zA-Z0-9](?:[a-zA-Z0-9_-]*[a-zA-Z0-9])?$/;

const edgeAppSecretSchema = z
  .object({
    id: integer(),
    name: z.string(),
    comment: z.string(),
    app_count: integer().describe("The number of apps that use the secret."),
    secret_slots: z
      .array(
        z
          .object({
            slot: integer().describe("The slot: a Unix time (seconds) from which the value is in effect; 0 for always."),
            checksum: z.string().describe("Hex SHA-256 of the slot's value; the value itself is never returned."),
          })
          .strict(),
      )
      .describe("The secret's slots, by slot ascending."),
  })
  .strict()
  .describe("An edge app secret: named values in slots, given to apps as environment variables.");
export interface EdgeAppSecretSchema extends EdgeAppSecretSchemaType {}
type EdgeAppSecretSchemaType = typeof edgeAppSecretSchema;
export const edgeAppSecret: EdgeAppSecretSchema = edgeAppSecretSchema;

export type EdgeAppSecret = z.infer<typeof edgeAppSecret>;

const createEdgeAppSecretBodySchema = strictObject(
  {
    name: z
      .string()
      .max(128, "At most 128 characters.")
      .regex(SECRET_NAME, "Letters, digits, _ and -, starting and ending with a letter or digit.")
      .describe("1 to 128 letters, digits, _ and -, starting and ending with a letter or digit; unique in the account (409)."),
    comment: z.string().max(1024).optional().describe('At most 1024 characters. Default "".'),
    secret_slots: listOf(
      strictObject({
        slot: integer({ min: 0 }).describe("The slot: a Unix time (seconds) from which the value is in effect; 0 for always."),
        value: z.string().max(4096).describe("The secret value, at most 4096 characters. Stored encrypted, never returned."),
      }),
      { min: 1, minMessage: "At least one slot.", max: 100, noun: "slots", description: "The secret's values, one per slot, each slot once: at least 1." },
    ).superRefine((slots, ctx) => {
      const seen = new Set<number>();
      slots.forEach((item, index) => {
        if (seen.has(item.slot)) ctx.addIssue({ code: z.ZodIssueCode.custom, path: [index, "slot"], message: "Slots must be unique within the secret." });
        seen.add(item.slot);
      });
    }),
  },
  { readOnly: ["id", "app_count"] },
).describe("A new secret: its name, comment and values.");
export interface CreateEdgeAppSecretBodySchema extends CreateEdgeAppSecretBodySchemaType {}
type CreateEdgeAppSecretBodySchemaType = typeof createEdgeAppSecretBodySchema;
export const createEdgeAppSecretBody: CreateEdgeAppSecretBodySchema = createEdgeAppSecretBodySchema;

export type CreateEdgeAppSecretBody = z.input<typeof createEdgeAppSecretBody>;

const read: RouteMetadata = { access: "read" };
const write: RouteMetadata = { access: "write" };

export const edgeContract = c.router({
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
  updateApp: {
    method: "PUT",
    path: "/edge/v1/apps/:id",
    pathParams: z.object({ id: idParam("The edge app id.") }),
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
  getTemplate: {
    method: "GET",
    path: "/edge/v1/template/:id",
    pathParams: z.object({ id: idParam("The template id.") }),
    responses: { 200: edgeAppTemplate, ...errorResponses() },
    summary: "Get an edge app template",
    description: "One of the account's own templates, or a public one, with its parameters.",
    metadata: read,
  },
  createSecret: {
    method: "POST",
    path: "/edge/v1/secrets",
    body: createEdgeAppSecretBody,
    responses: { 200: edgeAppSecret, ...errorResponses([409, ...withBody]) },
    summary: "Create an edge app secret",
    description:
      "Creates a named secret with one or more slots. Values are encrypted at rest (AES-GCM) and never returned: " +
      "the response shows each slot with the hex SHA-256 `checksum` of its value. Answers 200, as the platform does. " +
      "409 when the account already has a secret of that name.",
    metadata: write,
  },
});
