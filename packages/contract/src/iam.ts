/**
 * IAM area: the API tokens of an account.
 */
import { initContract } from "@ts-rest/core";
import { z } from "zod";
import { booleanQuery, errorResponses, iamTimestamp, idParam, integer, integerEnumParam, integerParam } from "./common.js";
import { ROLE_IDS, ROLE_TABLE_DESCRIPTION, type RoleId } from "./roles.js";

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

export const iamContract = c.router({
  listTokens: {
    method: "GET",
    path: "/iam/clients/:clientId/tokens",
    pathParams: z.object({ clientId: idParam("The account id; another account's id is 403.") }),
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
  },
});
