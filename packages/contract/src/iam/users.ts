/**
 * IAM users: the users of the caller's account (listed, shown, changed, invited, deleted), their schemas
 * and their routes.
 */
import { initContract } from "@ts-rest/core";
import { z } from "zod";
import { EMAIL_PATTERN, errorResponses, idParam, integer, listOf, pageOf, paging, stringEnum, strictObject, withBody } from "../common.js";
import type { ClientMetadata } from "../client-names.js";
import { ROLE_IDS, ROLE_NAMES } from "../roles.js";
import { route } from "../route.js";
import { missingId, uniqueName, type CaseObject, type CaseWorld } from "../route-case.js";
import { roleReference } from "./tokens.js";

const c = initContract();

export const USER_LANGUAGES = ["de", "en", "ru", "zh", "az"] as const;
export const AUTH_TYPES = ["password", "sso", "github", "google-oauth2"] as const;

const userLanguage = stringEnum(USER_LANGUAGES).describe("The user's language, of the control panel and of the emails the user gets: de, en, ru, zh or az.");
const authType = stringEnum(AUTH_TYPES);

const userGroupSchema = z
  .object({ id: integer().describe("The role's group id."), name: z.string().describe("The role's name.") })
  .strict()
  .describe("A role group.");

const userSchema = z
  .object({
    id: integer().describe("The user's id."),
    name: z.string().describe("The user's name."),
    email: z.string().describe("The user's email address; an email belongs to one user of the service."),
    phone: z.string().nullable().describe("The user's phone; null: none given."),
    company: z.string().describe("The user's company; empty when none was given."),
    lang: userLanguage,
    client: integer().describe("The id of the user's account."),
    client_and_roles: z
      .array(
        z
          .object({
            client_id: integer().describe("The account id."),
            client_company_name: z.string().describe("The account's name."),
            user_id: integer().describe("The user's id."),
            user_roles: z.array(z.string()).describe("The names of the user's roles in the account."),
          })
          .strict(),
      )
      .describe("The accounts the user may act in, with the user's roles in each: here, the user's one account."),
    groups: z.array(userGroupSchema).describe("The user's role in the account, as a list of one group."),
    activated: z.boolean().describe("Whether the user has confirmed the email address: false for an invited user until then."),
    is_active: z.boolean().describe("Whether the user may act: false once the user is deleted."),
    deleted: z.boolean().describe("Whether the user was deleted. A deleted user stays listed; its API tokens no longer work."),
    auth_types: z.array(authType).describe("How the user may sign in to the control panel: password, sso, github or google-oauth2."),
    sso_auth: z.boolean().describe("Whether the user signs in through the account's SAML single sign-on: true when auth_types has sso."),
    two_fa: z.boolean().describe("Whether the user turned on two-step verification: always false, as this service has no sign-in of its own."),
    user_type: stringEnum(["common", "reseller", "seller"] as const).describe('The kind of user: "common" for every user of an account.'),
    reseller: integer().describe("The id of the service provider the account was sold by: 0, this service sells directly."),
  })
  .strict()
  .describe("A user of the account.");
export interface UserSchema extends UserSchemaType {}
type UserSchemaType = typeof userSchema;
export const user: UserSchema = userSchema;

export type User = z.infer<typeof user>;

const userListSchema = pageOf(user, "users");
export interface UserListSchema extends UserListSchemaType {}
type UserListSchemaType = typeof userListSchema;
export const userList: UserListSchema = userListSchema;

const listUsersQuerySchema = z.object(paging("users", 100));
export interface ListUsersQuerySchema extends ListUsersQuerySchemaType {}
type ListUsersQuerySchemaType = typeof listUsersQuerySchema;
export const listUsersQuery: ListUsersQuerySchema = listUsersQuerySchema;

const email = z
  .string()
  .max(254, "Must be at most 254 characters.")
  .regex(EMAIL_PATTERN, "Must be an email address such as ops@example.com.");

const userName = z.string().trim().min(1, "Must not be empty.").max(255, "Must be at most 255 characters.");

const updateUserBodySchema = strictObject(
  {
    name: userName.optional().describe("The user's name, 1 to 255 characters."),
    email: email.optional().describe("The user's email address; one no other user of the service has (409 otherwise)."),
    phone: z.string().max(64, "Must be at most 64 characters.").nullable().optional().describe("The user's phone, at most 64 characters; null removes it."),
    company: z.string().max(255, "Must be at most 255 characters.").optional().describe("The user's company, at most 255 characters."),
    lang: userLanguage.optional(),
    auth_types: listOf(authType, {
      max: AUTH_TYPES.length,
      min: 1,
      noun: "ways to sign in",
      minMessage: "Must name at least one way to sign in.",
      description: "How the user may sign in: one or more of password, sso, github, google-oauth2, each once.",
    })
      .refine((types) => new Set(types).size === types.length, "Must not name a way twice.")
      .optional(),
  },
  {
    readOnly: ["id", "client", "client_and_roles", "activated", "is_active", "deleted", "sso_auth", "two_fa", "user_type", "reseller"],
    rejected: { groups: "The role is not changed here: invite the user with the role, or delete and invite again." },
  },
).describe("The user's fields to change; the fields left out keep their values.");
export interface UpdateUserBodySchema extends UpdateUserBodySchemaType {}
type UpdateUserBodySchemaType = typeof updateUserBodySchema;
export const updateUserBody: UpdateUserBodySchema = updateUserBodySchema;

export type UpdateUserBody = z.input<typeof updateUserBody>;

const inviteUserBodySchema = strictObject({
  client_id: integer({ min: 1 }).describe("The account to invite the user to: the caller's own (another account's id is 403)."),
  email: email.describe("The new user's email address: one no user of the service has (409 otherwise)."),
  user_role: roleReference.describe("The new user's role."),
  name: userName.optional().describe("The new user's name, 1 to 255 characters. Default: the part of the email before the @."),
  lang: userLanguage.optional().describe("The new user's language: de, en, ru, zh or az. Default en."),
}).describe("Whom to invite, and with which role.");
export interface InviteUserBodySchema extends InviteUserBodySchemaType {}
type InviteUserBodySchemaType = typeof inviteUserBodySchema;
export const inviteUserBody: InviteUserBodySchema = inviteUserBodySchema;

export type InviteUserBody = z.input<typeof inviteUserBody>;

const invitedUserSchema = z
  .object({
    user_id: integer().describe("The new user's id."),
    status: z.string().describe('"invited": the user exists, with `activated` false until the email is confirmed.'),
  })
  .strict()
  .describe("The invited user.");
export interface InvitedUserSchema extends InvitedUserSchemaType {}
type InvitedUserSchemaType = typeof invitedUserSchema;
export const invitedUser: InvitedUserSchema = invitedUserSchema;

/** Who may change users: the same rule for invite, change and delete. */
const ADMINISTRATORS_ALONE = "Only Administrators may invite, change or delete users (any other role: 403 `permission_denied`).";

/** The examples' user: the demo data's Engineer of account 1. */
export const userExample: User = {
  id: 5,
  name: "Carol Engineer",
  email: "carol@acme.example",
  phone: null,
  company: "",
  lang: "en",
  client: 1,
  client_and_roles: [{ client_id: 1, client_company_name: "Acme Media", user_id: 5, user_roles: ["Engineers"] }],
  groups: [{ id: 5, name: "Engineers" }],
  activated: true,
  is_active: true,
  deleted: false,
  auth_types: ["password"],
  sso_auth: false,
  two_fa: false,
  user_type: "common",
  reseller: 0,
};
/** The examples' Administrator: the demo data's first user of account 1. */
export const administratorExample: User = {
  ...userExample,
  id: 1,
  name: "Alice Admin",
  email: "alice@acme.example",
  client_and_roles: [{ client_id: 1, client_company_name: "Acme Media", user_id: 1, user_roles: ["Administrators"] }],
  groups: [{ id: 1, name: "Administrators" }],
};

const clientId = userExample.client;

// The cases' objects: the account and a user of it that is not deleted and not the administrator the cases call as.
const clientIdOf = (w: CaseWorld) => (w.get("iam.getAccount") as { id: number }).id;
const callerOf = (w: CaseWorld) => (w.get("iam.getAccount") as { currentUser: number }).currentUser;
const otherUserOf = (w: CaseWorld) => w.first("iam.listUsers", { where: (item: CaseObject) => item.id !== callerOf(w) && item.deleted === false });

export const iamUsersRoutes = {
  listUsers: route({
    method: "GET",
    path: "/iam/users",
    query: listUsersQuery,
    responses: { 200: userList, ...errorResponses() },
    summary: "List users",
    description:
      "The users of the caller's account, deleted ones included, by id ascending, paged by `limit` (default 100, at " +
      "most 1000) and `offset`; `count` is the number of all of them. Open to every role that may read.",
    metadata: { access: "read", client: { resource: "users" } } satisfies ClientMetadata,
  }, {
    example: { query: { limit: 1, offset: 0 }, response: { count: 7, results: [administratorExample] } },
    case: { path: () => "/iam/users?limit=10", ownsObjects: false },
  }),
  getUser: route({
    method: "GET",
    path: "/iam/users/:userId",
    pathParams: z.object({ userId: idParam("The user's id; a user of another account is 404.") }),
    responses: { 200: user, ...errorResponses() },
    summary: "Get a user",
    description: "One user of the caller's account, deleted ones included. A user of another account answers 404, as an unknown id does.",
    metadata: { access: "read", client: { resource: "users" } } satisfies ClientMetadata,
  }, {
    example: { pathParams: { userId: userExample.id }, response: userExample },
    case: { path: (w) => `/iam/users/${otherUserOf(w).id}`, ownsObjects: true },
  }),
  updateUser: route({
    method: "PATCH",
    path: "/iam/users/:userId",
    pathParams: z.object({ userId: idParam("The user's id; a user of another account is 404.") }),
    body: updateUserBody,
    responses: { 200: user, ...errorResponses(withBody) },
    summary: "Change a user",
    description:
      "Changes the fields the body names and answers the user. A deleted user cannot be changed (409 `conflict`); " +
      `an email another user has is 409 \`conflict\`. ${ADMINISTRATORS_ALONE} The role is not changed here.`,
    metadata: { access: "write", client: { resource: "users" } } satisfies ClientMetadata,
  }, {
    example: {
      pathParams: { userId: userExample.id },
      body: { phone: "+44 20 7946 0958", lang: "de" },
      response: { ...userExample, phone: "+44 20 7946 0958", lang: "de" },
    },
    case: { path: (w) => `/iam/users/${otherUserOf(w).id}`, ownsObjects: true, body: () => ({ company: uniqueName("company") }), roleStatus: { 5: 403 } },
  }),
  inviteUser: route({
    method: "POST",
    path: "/iam/clients/invite_user",
    body: inviteUserBody,
    responses: { 201: invitedUser, ...errorResponses(withBody) },
    summary: "Invite a user",
    description:
      "Adds a user to the caller's account (`client_id`) with the role `user_role.id`, and answers its id. The user " +
      "exists at once, with `activated` false until the email address is confirmed; an Administrator may issue API " +
      `tokens for it right away. The email must be one no user of the service has (409 \`conflict\`). ${ADMINISTRATORS_ALONE}`,
    metadata: { access: "write", client: { resource: "users", method: "invite" } } satisfies ClientMetadata,
  }, {
    example: {
      body: { client_id: clientId, email: "nina@acme.example", user_role: { id: ROLE_IDS.administrators, name: ROLE_NAMES[ROLE_IDS.administrators] }, name: "Nina Ops", lang: "en" },
      response: { user_id: 15, status: "invited" },
    },
    case: {
      path: () => "/iam/clients/invite_user",
      ownsObjects: false,
      body: (w) => ({ client_id: clientIdOf(w), email: `${uniqueName("invited")}@example.com`, user_role: { id: ROLE_IDS.users } }),
      roleStatus: { 5: 403 },
    },
  }),
  deleteUser: route({
    method: "DELETE",
    path: "/iam/clients/:clientId/client-users/:userId",
    pathParams: z.object({ clientId: idParam("The account id; another account's id is 403."), userId: idParam("The user's id; a user of another account is 404.") }),
    responses: { 204: c.noBody(), ...errorResponses() },
    summary: "Delete a user",
    description:
      "Deletes the user from the account: it stays listed with `deleted` true and `is_active` false, and its API " +
      "tokens stop working (401 `token_not_valid`). Deleting a deleted user answers 204 again. The account's last " +
      `Administrator that is not deleted cannot be deleted (409 \`conflict\`). ${ADMINISTRATORS_ALONE}`,
    metadata: { access: "write", client: { resource: "users" } } satisfies ClientMetadata,
  }, {
    // The demo's deleted user of account 1: the example may run again and again and deletes nobody in use.
    example: { pathParams: { clientId, userId: 13 } },
    case: {
      path: (w, made) => `/iam/clients/${clientIdOf(w)}/client-users/${(made as { user_id?: number } | undefined)?.user_id ?? missingId(w.account)}`,
      ownsObjects: true,
      makes: "iam.inviteUser",
      roleStatus: { 5: 403 },
    },
  }),
} as const;
