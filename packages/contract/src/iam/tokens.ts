/**
 * IAM tokens: the API tokens of an account (issued, shown, revoked), their schemas and their routes.
 */
import { initContract } from "@ts-rest/core";
import { z } from "zod";
import {
  booleanQuery,
  errorResponses,
  iamTimestamp,
  idParam,
  integer,
  integerEnum,
  integerEnumParam,
  integerParam,
  strictObject,
  withBody,
} from "../common.js";
import * as examples from "../examples.js";
import { ROLE_IDS, ROLE_NAMES, ROLE_TABLE_DESCRIPTION, type RoleId } from "../roles.js";
import { route } from "../route.js";
import { missingId, uniqueName, type CaseObject, type CaseWorld } from "../route-case.js";

const c = initContract();

const roleIds = Object.values(ROLE_IDS) as unknown as readonly [RoleId, RoleId, ...RoleId[]];

const apiTokenSchema = z
  .object({
    id: integer(),
    name: z.string(),
    description: z.string(),
    exp_date: iamTimestamp.nullable().describe("When the token expires; null: never."),
    created: iamTimestamp,
    last_usage: iamTimestamp.nullable().describe("When the token was last used (updated at most once a minute); null if never."),
    deleted: z.boolean().describe("Whether the token was revoked."),
    expired: z.boolean().describe("Whether exp_date has passed, computed when the request is served."),
    client_user: z
      .object({
        role: z
          .object({ id: integer().describe("The role's group id."), name: z.string() })
          .strict()
          .describe("The user's role: its group id and name."),
        deleted: z.boolean().describe("Whether the user was deleted."),
        user_id: integer(),
        user_name: z.string(),
        user_email: z.string(),
        client_id: integer().describe("The account id."),
      })
      .strict()
      .describe("The user the token was issued for, and that user's role."),
  })
  .strict()
  .describe("An API token. The token's value is never returned: the service keeps only its SHA-256 hash.");
export interface ApiTokenSchema extends ApiTokenSchemaType {}
type ApiTokenSchemaType = typeof apiTokenSchema;
export const apiToken: ApiTokenSchema = apiTokenSchema;

export type ApiToken = z.infer<typeof apiToken>;

const listApiTokensQuerySchema = z.object({
  role: integerEnumParam(
    roleIds,
    "Tokens of users with this role group id: 1 Administrators, 2 Users, 5 Engineers, 3009 and 3022 Purge and Prefetch only.",
  ).optional(),
  issued_by: integerParam({ min: 1, description: "Tokens issued for this user id." }).optional(),
  not_issued_by: integerParam({ min: 1, description: "Tokens issued for any user but this one." }).optional(),
  deleted: booleanQuery("")
    .optional()
    .describe(
      "As the platform specifies it, inverted: true returns the tokens that are NOT deleted, false returns the deleted " +
        "tokens; absent returns both.",
    ),
});
export interface ListApiTokensQuerySchema extends ListApiTokensQuerySchemaType {}
type ListApiTokensQuerySchemaType = typeof listApiTokensQuerySchema;
export const listApiTokensQuery: ListApiTokensQuerySchema = listApiTokensQuerySchema;

export type ListApiTokensQuery = z.input<typeof listApiTokensQuery>;

/** The name the platform spells differently from ROLE_NAMES, accepted in requests as well. */
const PLATFORM_ROLE_NAMES: Partial<Record<RoleId, string>> = { 3009: "Purge and Prefetch only (API+Web)" };

/** Does `name` name the role `id` (case-insensitively, in ROLE_NAMES' or the platform's spelling)? */
function namesRole(id: RoleId, name: string): boolean {
  const given = name.toLowerCase();
  return [ROLE_NAMES[id], PLATFORM_ROLE_NAMES[id]].some((known) => known?.toLowerCase() === given);
}

/** A role named in a request: its group id, and its name if the caller gives it, which must name the same role. */
export const roleReference = strictObject({
  id: integerEnum(roleIds).describe("The role's group id: 1, 2, 5, 3009 or 3022."),
  name: z.string().max(64).optional().describe("The role's name; if given, it must name the same role as `id`."),
}).superRefine((role, ctx) => {
  if (role.name !== undefined && !namesRole(role.id, role.name))
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["name"], message: `Must be the name of role ${role.id}: ${ROLE_NAMES[role.id]}.` });
}).describe("A role: its group id, and its name if given.");

/** An RFC 3339 date and time; a space may stand for the `T`, as the IAM area writes its times. */
const expDateInput = z.preprocess(
  (value) => (typeof value === "string" && /^\d{4}-\d{2}-\d{2} /.test(value) ? `${value.slice(0, 10)}T${value.slice(11)}` : value),
  z
    .string()
    .max(64)
    .datetime({ offset: true, message: "Must be an RFC 3339 date and time, e.g. 2030-01-01T00:00:00Z." })
    .refine((value) => Date.parse(value) > Date.now(), "Must be in the future."),
);

const createApiTokenBodySchema = strictObject(
  {
    name: z.string().min(1, "Must not be empty.").max(255).describe("The token's name, 1 to 255 characters."),
    description: z.string().max(1000).optional().describe('At most 1000 characters. Default "".'),
    exp_date: expDateInput
      .nullable()
      .optional()
      .describe(
        "When the token expires: an RFC 3339 date and time in the future (`2030-01-01T00:00:00Z`; any offset, kept in " +
          "UTC to the second; a space may stand for the `T`). null or absent: the token never expires.",
      ),
    client_user: strictObject({
      user_id: integer({ min: 1 })
        .optional()
        .describe("The user the token is issued for: a user of the account that is not deleted. Default: the caller."),
      role: roleReference
        .optional()
        .describe("The token's role. A token has the role of its user: if given, it must be that user's role."),
    })
      .optional()
      .describe("Whom the token is for, and its role. Default: the caller, with the caller's role."),
  },
  { readOnly: ["id", "created", "last_usage", "deleted", "expired", "token"] },
).describe("A new API token.");
export interface CreateApiTokenBodySchema extends CreateApiTokenBodySchemaType {}
type CreateApiTokenBodySchemaType = typeof createApiTokenBodySchema;
export const createApiTokenBody: CreateApiTokenBodySchema = createApiTokenBodySchema;

export type CreateApiTokenBody = z.input<typeof createApiTokenBody>;

const createdApiTokenSchema = apiTokenSchema
  .extend({
    token: z
      .string()
      .describe(
        "The token itself (`cp_` and 64 hex digits): shown in this answer only. The service keeps only its SHA-256 " +
          "hash, so it cannot be shown again; store it now.",
      ),
  })
  .strict()
  .describe("The new API token, with the token itself.");
export interface CreatedApiTokenSchema extends CreatedApiTokenSchemaType {}
type CreatedApiTokenSchemaType = typeof createdApiTokenSchema;
export const createdApiToken: CreatedApiTokenSchema = createdApiTokenSchema;

export type CreatedApiToken = z.infer<typeof createdApiToken>;

const clientIdParam = idParam("The account id; another account's id is 403.");
const tokenPathParams = z.object({ clientId: clientIdParam, tokenId: idParam("The API token's id.") });

/** Who sees which token: the same rule for the listing and for each token. */
const TOKEN_VISIBILITY =
  "Administrators reach every token of the account; Engineers and Users only the tokens issued for themselves " +
  "(another user's token answers 404, as an unknown id does).";

// The examples' objects: the demo data's, of account 1.
const clientId = examples.apiTokenExample.client_user.client_id;
const user = examples.apiTokenExample.client_user;

// The cases' objects: the account's id, and a token of its administrator that is in use.
const clientIdOf = (w: CaseWorld) => (w.get("iam.getAccount") as { id: number }).id;
const adminTokenOf = (w: CaseWorld) =>
  w.first("iam.listTokens", {
    params: { clientId: clientIdOf(w) },
    where: (token: CaseObject) => {
      const { client_user, deleted, expired } = token as unknown as { client_user: { role: { id: number } }; deleted: boolean; expired: boolean };
      return client_user.role.id === ROLE_IDS.administrators && !deleted && !expired;
    },
  });

export const iamTokensRoutes = {
  listTokens: route({
    method: "GET",
    path: "/iam/clients/:clientId/tokens",
    pathParams: z.object({ clientId: clientIdParam }),
    query: listApiTokensQuery,
    responses: { 200: z.array(apiToken), ...errorResponses() },
    summary: "List API tokens",
    description:
      "The account's API tokens, by id ascending. Administrators see every token of the account; Engineers and Users " +
      "only the tokens issued for themselves. Note the inverted `deleted` filter: `deleted=true` returns the tokens " +
      "that are not deleted, `deleted=false` the deleted ones (as the platform specifies it). `expired` is computed " +
      "at request time. " +
      ROLE_TABLE_DESCRIPTION,
    metadata: { access: "read" },
  }, {
    example: {
      pathParams: { clientId },
      query: { role: examples.apiTokenExample.client_user.role.id, deleted: true },
      response: [examples.apiTokenExample],
    },
    case: { path: (w) => `/iam/clients/${clientIdOf(w)}/tokens`, ownsObjects: true },
  }),
  createToken: route({
    method: "POST",
    path: "/iam/clients/:clientId/tokens",
    pathParams: z.object({ clientId: clientIdParam }),
    body: createApiTokenBody,
    responses: { 201: createdApiToken, ...errorResponses(withBody) },
    summary: "Create an API token",
    description:
      "Issues an API token and answers it with the token itself in `token`, shown this once: the service keeps only " +
      "its SHA-256 hash. Only Administrators may create tokens (any other role: 403 `permission_denied`). The token " +
      "is issued for `client_user.user_id` (default: the caller), a user of the account that is not deleted, and has " +
      "that user's role: `client_user.role.id`, if given, must be it (400 otherwise); to issue a token of another " +
      "role, issue it for a user with that role. The token works from the next request. `exp_date` absent or null: " +
      "it never expires.",
    metadata: { access: "write" },
  }, {
    example: {
      pathParams: { clientId },
      body: {
        name: examples.apiTokenExample.name,
        description: examples.apiTokenExample.description,
        exp_date: "2099-01-01T00:00:00Z",
        client_user: { user_id: user.user_id, role: { id: ROLE_IDS.administrators, name: ROLE_NAMES[ROLE_IDS.administrators] } },
      },
      response: {
        ...examples.apiTokenExample,
        exp_date: "2099-01-01 00:00:00+00:00",
        last_usage: null,
        token: "cp_3f9a0c6e1b7d4a28e5c2f0b9d6a3e1c47b8f2d0a9e6c3b1f5d8a7e4c2b0f9d6a",
      },
    },
    case: {
      path: (w) => `/iam/clients/${clientIdOf(w)}/tokens`,
      ownsObjects: true,
      body: () => ({ name: uniqueName("route-case"), description: "Made by the route cases", exp_date: "2099-01-01T00:00:00Z" }),
      // Only Administrators create tokens.
      roleStatus: { 5: 403 },
    },
  }),
  getToken: route({
    method: "GET",
    path: "/iam/clients/:clientId/tokens/:tokenId",
    pathParams: tokenPathParams,
    responses: { 200: apiToken, ...errorResponses() },
    summary: "Get an API token",
    description: `One API token of the account, revoked ones included (\`deleted\`: true). ${TOKEN_VISIBILITY}`,
    metadata: { access: "read" },
  }, {
    example: {
      pathParams: { clientId, tokenId: examples.apiTokenExample.id },
      response: examples.apiTokenExample,
    },
    // The administrator's own token: other roles see only the tokens issued for themselves.
    case: { path: (w) => `/iam/clients/${clientIdOf(w)}/tokens/${adminTokenOf(w).id}`, ownsObjects: true, roleStatus: { 2: 404, 5: 404 } },
  }),
  deleteToken: route({
    method: "DELETE",
    path: "/iam/clients/:clientId/tokens/:tokenId",
    pathParams: tokenPathParams,
    responses: { 204: c.noBody(), ...errorResponses() },
    summary: "Revoke an API token",
    description:
      "Revokes the token for good: it is kept, with `deleted` true, and cannot be restored. The server that revokes " +
      "it refuses it (401 `token_not_valid`) from the next request; every other server within a second (each " +
      "reuses a token's lookup for up to a second). A token may revoke itself. Revoking a revoked token answers " +
      `204 again. ${TOKEN_VISIBILITY}`,
    metadata: { access: "write" },
  }, {
    example: {
      // The demo's revoked token of account 1: the example may run again and again (revoking it again answers 204) and revokes nothing in use.
      pathParams: { clientId, tokenId: 13 },
      // A 204 has no body; the example type asks for one (see the report to the lead).
    },
    case: {
      path: (w, made) => `/iam/clients/${clientIdOf(w)}/tokens/${made?.id ?? missingId(w.account)}`,
      ownsObjects: true,
      makes: "iam.createToken",
      roleStatus: { 5: 404 },
    },
  }),
} as const;
