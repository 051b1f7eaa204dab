/**
 * Edge app secrets: named values in slots (encrypted at rest, shown by checksum), the filtered listing,
 * and the routes that make, read, change (PATCH and PUT) and delete secrets.
 */
import { initContract } from "@ts-rest/core";
import { z } from "zod";
import { errorResponses, idParam, integer, integerParam, listOf, strictObject, withBody } from "../common.js";
import * as examples from "../examples.js";
import { route } from "../route.js";
import { missingId, uniqueName, type CaseWorld } from "../route-case.js";
import { forceQuery, paging, read, write } from "./shared.js";

const c = initContract();

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

const secretId = z.object({ id: idParam("The secret id.") });

const SECRET_VALUES_TEXT =
  "Values are encrypted at rest (AES-GCM) and never returned: the response shows each slot with the hex SHA-256 " +
  "`checksum` of its value.";

// The examples' objects: the demo data's, of account 1.
const secret = examples.edgeAppSecretExample;

// The cases' objects: the first of each kind the account has.
const secretOf = (w: CaseWorld) => w.first("edge.listSecrets");

/** The secrets' routes at the specification's paths; the platform's /fastedge/v1 paths are aliases of these (index.ts). */
export const edgeSecretsRoutes = {
  listSecrets: route({
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
  }, {
    example: {
      query: { search: "payment", limit: 1000, offset: 0 },
      response: {
        secrets: [{ id: secret.id, name: secret.name, comment: secret.comment, app_count: secret.app_count }],
        count: 1,
      },
    },
    case: { path: () => "/edge/v1/secrets?limit=5", ownsObjects: false },
  }),
  createSecret: route({
    method: "POST",
    path: "/edge/v1/secrets",
    body: createEdgeAppSecretBody,
    responses: { 200: edgeAppSecret, ...errorResponses([409, ...withBody]) },
    summary: "Create an edge app secret",
    description:
      `Creates a named secret with one or more slots. ${SECRET_VALUES_TEXT} Answers 200, as the platform does. ` +
      "409 when the account already has a secret of that name.",
    metadata: write,
  }, {
    example: {
      body: examples.createEdgeAppSecretExample,
      response: secret,
    },
    case: {
      path: () => "/edge/v1/secrets",
      ownsObjects: false,
      body: () => ({ name: uniqueName("route-case"), comment: "Made by the route cases", secret_slots: [{ slot: 0, value: "route-case-value" }] }),
    },
  }),
  getSecret: route({
    method: "GET",
    path: "/edge/v1/secrets/:id",
    pathParams: secretId,
    responses: { 200: edgeAppSecret, ...errorResponses() },
    summary: "Get an edge app secret",
    description: `One secret of the account with its slots. ${SECRET_VALUES_TEXT}`,
    metadata: read,
  }, {
    example: {
      pathParams: { id: secret.id },
      response: secret,
    },
    case: { path: (w) => `/edge/v1/secrets/${secretOf(w).id}`, ownsObjects: true },
  }),
  updateSecret: route({
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
  }, {
    example: {
      pathParams: { id: secret.id },
      body: { comment: "Rotated in January", secret_slots: [{ slot: 1767225600 }] },
      response: { ...secret, comment: "Rotated in January", secret_slots: secret.secret_slots.slice(1) },
    },
    case: {
      path: (w) => `/edge/v1/secrets/${secretOf(w).id}`,
      ownsObjects: true,
      body: () => ({ comment: uniqueName("Changed by the route cases") }),
    },
  }),
  replaceSecret: route({
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
  }, {
    example: {
      pathParams: { id: secret.id },
      body: { name: secret.name, comment: secret.comment },
      response: secret,
    },
    case: {
      path: (w, made) => `/edge/v1/secrets/${made?.id ?? missingId(w.account)}`,
      ownsObjects: true,
      makes: "edge.createSecret",
      body: () => ({ name: uniqueName("route-case"), comment: "Replaced by the route cases" }),
    },
  }),
  deleteSecret: route({
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
  }, {
    example: {
      pathParams: { id: secret.id },
      query: { force: false },
    },
    case: {
      path: (w, made) => `/edge/v1/secrets/${made?.id ?? missingId(w.account)}`,
      ownsObjects: true,
      makes: "edge.createSecret",
    },
  }),
} as const;
