/**
 * Edge apps: the app, its status codes and the moves a caller may make between them, the filtered,
 * ordered and paged listing, and the routes that make, read, change (PUT and PATCH) and delete apps.
 */
import { initContract } from "@ts-rest/core";
import { z } from "zod";
import { errorResponses, headerName, idParam, integer, integerParam, isoTimestamp, mapOf, stringEnum, strictObject, withBody } from "../common.js";
import * as examples from "../examples.js";
import { route } from "../route.js";
import { missingId, uniqueName, type CaseWorld } from "../route-case.js";
import { apiType, binaryOf, envName, read, write } from "./shared.js";

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
  .describe("An edge app, as lists and writes answer it; its GET adds its settings (env, rsp_headers, log, secrets, stores).");
export interface EdgeAppSchema extends EdgeAppSchemaType {}
type EdgeAppSchemaType = typeof edgeAppSchema;
export const edgeApp: EdgeAppSchema = edgeAppSchema;

export type EdgeApp = z.infer<typeof edgeApp>;

/** A secret or KV store an app names, as the app's GET shows it. */
const namedReference = (what: string) =>
  z
    .object({
      id: integer().describe(`The ${what}'s id.`),
      name: z.string().describe(`The ${what}'s name.`),
      comment: z.string().describe(`The ${what}'s comment; empty when none was given.`),
    })
    .strict();

const edgeAppDetailSchema = edgeAppSchema
  .extend({
    env: z.record(z.string()).describe("The app's environment variables; {} when it has none."),
    rsp_headers: z.record(z.string()).describe("The headers added to the app's responses; {} when none."),
    log: stringEnum(["kafka", "none"]).describe("Where the app's logs go: kafka or none."),
    secrets: z
      .record(namedReference("secret"))
      .describe("The secrets the app reads, by the environment name it reads each under; {} when none. The values are never shown."),
    stores: z.record(namedReference("KV store")).describe("The KV stores the app reads, by the name it reads each under; {} when none."),
  })
  .strict()
  .describe("An edge app with its settings: environment, response headers, log target, and the secrets and KV stores it reads.");
export interface EdgeAppDetailSchema extends EdgeAppDetailSchemaType {}
type EdgeAppDetailSchemaType = typeof edgeAppDetailSchema;
export const edgeAppDetail: EdgeAppDetailSchema = edgeAppDetailSchema;

export type EdgeAppDetail = z.infer<typeof edgeAppDetail>;

const APP_NAME = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;

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
      "Environment variables of the app (read with `getEnv`), each value at most 4096 characters; the app's GET shows them. " +
      "They are settings, not secrets, as on the platform (its SDK reads them back with the app): stored as sent, not encrypted. " +
      "Give a secret value (a key, a password) as an edge secret in `secrets` instead: its values are encrypted at rest.",
  }).optional(),
  rsp_headers: mapOf(headerName, z.string().max(4096), {
    max: 100,
    noun: "headers",
    description:
      "Headers added to the app's responses, each value at most 4096 characters; the app's GET shows them. " +
      "Every client of the app receives them, so they are not secrets: stored as sent, not encrypted.",
  }).optional(),
  log: stringEnum(["kafka", "none"]).nullable().optional().describe("Where the app's logs go: kafka or none; null is none."),
  debug: z
    .boolean()
    .optional()
    .describe("true turns debug logging on for 30 minutes (`debug_until` = now + 30 min); false turns it off."),
  comment: z.string().max(1024).optional().describe("At most 1024 characters."),
  secrets: mapOf(envName, strictObject({ id: integer({ min: 1 }).describe("A secret of the account.") }), {
    max: 100,
    noun: "secrets",
    description:
      "Secrets given to the app: environment name → `{ \"id\": <secret id> }`; they replace the app's secrets. The app's GET names them (never their values).",
  }).optional(),
  stores: mapOf(envName, strictObject({ id: integer({ min: 1 }).describe("A KV store of the account.") }), {
    max: 100,
    noun: "stores",
    description:
      "KV stores given to the app: the name the app reads each under → `{ \"id\": <store id> }`; they replace the app's stores. A store an app uses cannot be deleted (409).",
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

const appId = z.object({ id: idParam("The edge app id.") });

// The examples' objects: the demo data's, of account 1.
const app = examples.edgeAppExample;
/** A public template of the platform's catalog, with its platform binary: every account has it, a provisioned one too. */
const publicTemplate = { id: 1001, name: "Geo redirect", binary: 1001 } as const;

// The cases' objects: the first of each kind the account has.
const appOf = (w: CaseWorld) => w.first("edge.listApps");

/** The apps' routes at the specification's paths; the platform's /fastedge/v1 paths are aliases of these (index.ts). */
export const edgeAppsRoutes = {
  listApps: route({
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
  }, {
    example: {
      query: { name: "image", status: app.status, limit: 25, offset: 0, ordering: "name" },
      response: { apps: [app], count: 1 },
    },
    case: { path: () => "/edge/v1/apps?limit=5", ownsObjects: false },
  }),
  createApp: route({
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
      "account already has an app of that name. Each `stores` entry must be a KV store of the account (400 with the " +
      "field's path). `log` defaults to kafka, as on the platform. Answers 200 with the app as lists show it, as the " +
      "platform does; its GET shows its settings too.",
    metadata: write,
  }, {
    example: {
      body: { name: "geo-redirect-staging", template: publicTemplate.id, comment: "Staging copy", env: { DEFAULT_URL: "https://example.com/" } },
      response: {
        ...app,
        id: 73,
        name: "geo-redirect-staging",
        url: "https://geo-redirect-staging-73.1.edge.cloudplane.example",
        status: 0,
        binary: publicTemplate.binary,
        template: publicTemplate.id,
        template_name: publicTemplate.name,
        comment: "Staging copy",
        networks: [],
        upgradeable_to: null,
        plan_id: 1,
        plan: "basic",
      },
    },
    case: {
      path: () => "/edge/v1/apps",
      ownsObjects: false,
      body: (w) => ({ name: uniqueName("route-case"), binary: binaryOf(w).id, comment: "Made by the route cases" }),
    },
  }),
  getApp: route({
    method: "GET",
    path: "/edge/v1/apps/:id",
    pathParams: appId,
    responses: { 200: edgeAppDetail, ...errorResponses() },
    summary: "Get an edge app",
    description:
      "One app of the account with its settings: `env`, `rsp_headers`, `log`, and the secrets and KV stores it reads " +
      "(each by the name the app reads it under, with its id, name and comment; a secret's values are never shown). " +
      "Each map is {} when empty. `env` and `rsp_headers` are settings, not secrets: give a secret value as an edge secret.",
    metadata: read,
  }, {
    example: {
      pathParams: { id: app.id },
      response: { ...app, env: {}, rsp_headers: {}, log: "none", secrets: {}, stores: {} },
    },
    case: { path: (w) => `/edge/v1/apps/${appOf(w).id}`, ownsObjects: true },
  }),
  updateApp: route({
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
      "`secrets` entry must name a secret of the account, and each `stores` entry a KV store of the account (400 with " +
      "the field's path otherwise); `secrets` and `stores`, when given, replace the app's. Answers the app as lists show it.",
    metadata: write,
  }, {
    example: {
      pathParams: { id: app.id },
      body: examples.updateEdgeAppExample,
      response: { ...app, status: examples.updateEdgeAppExample.status! },
    },
    case: {
      path: (w) => `/edge/v1/apps/${appOf(w).id}`,
      ownsObjects: true,
      body: () => ({ comment: uniqueName("Changed by the route cases") }),
    },
  }),
  patchApp: route({
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
      "path otherwise), and so must each `stores` entry a KV store of the account; `secrets` and `stores`, when given, " +
      "replace the app's. A name another app of the account has is 409. Answers the app as lists show it.",
    metadata: write,
  }, {
    example: {
      pathParams: { id: app.id },
      body: { comment: "Resizes product images" },
      response: { ...app, comment: "Resizes product images" },
    },
    case: {
      path: (w) => `/edge/v1/apps/${appOf(w).id}`,
      ownsObjects: true,
      body: () => ({ comment: uniqueName("Patched by the route cases") }),
    },
  }),
  deleteApp: route({
    method: "DELETE",
    path: "/edge/v1/apps/:id",
    pathParams: appId,
    responses: { 204: c.noBody(), ...errorResponses() },
    summary: "Delete an edge app",
    description:
      "Deletes the app and its links to secrets (the secrets themselves stay). Its binary stays too, for other apps or " +
      "a later one; when no app runs it any more, the binary's `unref_since` is set. Answers 204 with no body.",
    metadata: write,
  }, {
    example: {
      pathParams: { id: app.id },
      // A 204 has no body; the example type asks for one.
    },
    case: {
      path: (w, made) => `/edge/v1/apps/${made?.id ?? missingId(w.account)}`,
      ownsObjects: true,
      makes: "edge.createApp",
    },
  }),
} as const;
