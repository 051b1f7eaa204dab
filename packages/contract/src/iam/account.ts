/**
 * IAM account: the caller's account and its users, its schema and its route.
 */
import { z } from "zod";
import { errorResponses, integer } from "../common.js";
import type { ClientMetadata } from "../client-names.js";
import * as examples from "../examples.js";
import { route } from "../route.js";

const accountUserSchema = z
  .object({
    id: integer(),
    name: z.string(),
    email: z.string().describe("The user's email address; an email belongs to one user of the service."),
    deleted: z.boolean().describe("Whether the user was deleted."),
    client: integer().describe("The account id."),
    groups: z
      .array(z.object({ id: integer().describe("The role's group id."), name: z.string() }).strict())
      .describe("The user's role in the account, as a list of one group."),
  })
  .strict()
  .describe("A user of the account.");

const accountOverviewSchema = z
  .object({
    id: integer().describe("The account id."),
    companyName: z.string().describe("The account's name."),
    currentUser: integer().describe("The id of the user whose token made this call."),
    email: z.string().nullable().describe("The account's contact email; null: the service keeps none."),
    deleted: z.boolean().describe("Whether the account was deleted: always false for an account that can call."),
    status: z.string().describe('"active" for every account the service serves.'),
    has_active_admin: z.boolean().describe("Whether the account has an Administrator that is not deleted."),
    users: z.array(accountUserSchema).describe("The account's users, deleted ones included, by id ascending."),
  })
  .strict()
  .describe("The caller's account: the fields of the platform's account overview that this service keeps.");
export interface AccountOverviewSchema extends AccountOverviewSchemaType {}
type AccountOverviewSchemaType = typeof accountOverviewSchema;
export const accountOverview: AccountOverviewSchema = accountOverviewSchema;

export type AccountOverview = z.infer<typeof accountOverview>;

// The examples' objects: the demo data's, of account 1.
const clientId = examples.apiTokenExample.client_user.client_id;
const user = examples.apiTokenExample.client_user;

export const iamAccountRoutes = {
  getAccount: route({
    method: "GET",
    path: "/iam/clients/me",
    responses: { 200: accountOverview, ...errorResponses() },
    summary: "Get the caller's account",
    description:
      "The account of the calling token: its id and name, the calling user (`currentUser`) and the account's users " +
      "with their roles. Open to every role that may read.",
    // `/iam/clients/me` is the caller's account: "clients" is the platform's word for accounts.
    metadata: { access: "read", client: { resource: "account" } } satisfies ClientMetadata,
  }, {
    example: {
      response: {
        id: clientId,
        companyName: "Acme Media",
        currentUser: user.user_id,
        email: null,
        deleted: false,
        status: "active",
        has_active_admin: true,
        users: [
          {
            id: user.user_id,
            name: user.user_name,
            email: user.user_email,
            deleted: false,
            client: clientId,
            groups: [{ id: user.role.id, name: user.role.name }],
          },
        ],
      },
    },
    case: { path: () => "/iam/clients/me", ownsObjects: false },
  }),
} as const;
