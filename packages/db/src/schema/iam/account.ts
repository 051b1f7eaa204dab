/**
 * IAM account: accounts (with their account-level CDN settings) and the users of an account; and the
 * account id column every account-owned table has.
 */
import { AUTH_TYPES, ROLE_IDS, USER_LANGUAGES } from "@cloudplane/contract";
import { sql } from "drizzle-orm";
import { boolean, check, integer, pgTable, text, unique } from "drizzle-orm/pg-core";
import { identityId, sqlList, timestamptz } from "../columns.js";

/**
 * A customer account. The CDN client settings of the account live here too: there is exactly one
 * set per account, and `PUT /cdn/clients/me` changes it in place.
 */
export const accounts = pgTable("accounts", {
  id: identityId(),
  name: text("name").notNull(),
  utilizationLevel: integer("utilization_level").notNull().default(0),
  cname: text("cname").notNull(),
  useBalancer: boolean("use_balancer").notNull().default(false),
  autoSuspendEnabled: boolean("auto_suspend_enabled").notNull().default(false),
  cdnResourcesRulesMaxCount: integer("cdn_resources_rules_max_count").notNull().default(50),
  cdnServiceEnabled: boolean("cdn_service_enabled").notNull().default(true),
  cdnServiceStatus: text("cdn_service_status").notNull().default("active"),
  cdnServiceUpdated: timestamptz("cdn_service_updated").notNull().defaultNow(),
  created: timestamptz("created").notNull().defaultNow(),
  updated: timestamptz("updated").notNull().defaultNow(),
});

/** The account id column of an account-owned table; every such table is reached through it. */
export const accountId = () =>
  integer("account_id")
    .notNull()
    .references(() => accounts.id);

export const users = pgTable(
  "users",
  {
    id: identityId(),
    accountId: accountId(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    /** A role group id (the contract's ROLE_IDS; their names are its ROLE_NAMES). */
    roleId: integer("role_id").notNull(),
    phone: text("phone"),
    company: text("company").notNull().default(""),
    /** The contract's USER_LANGUAGES. */
    lang: text("lang").notNull().default("en"),
    /** The ways the user may sign in (the contract's AUTH_TYPES). */
    authTypes: text("auth_types").array().notNull().default(sql`'{password}'::text[]`),
    /** False for an invited user until the email address is confirmed. */
    activated: boolean("activated").notNull().default(true),
    deleted: boolean("deleted").notNull().default(false),
    created: timestamptz("created").notNull().defaultNow(),
  },
  (t) => [
    // (account_id, id) is the target of the composite foreign keys that keep references inside one account.
    unique("users_account_id_id_unique").on(t.accountId, t.id),
    unique("users_email_unique").on(t.email),
    check("users_role_id_check", sql`${t.roleId} in (${sql.raw(sqlList(Object.values(ROLE_IDS)))})`),
    check("users_lang_check", sql`${t.lang} in (${sql.raw(sqlList(USER_LANGUAGES))})`),
    check("users_auth_types_check", sql`${t.authTypes} <@ array[${sql.raw(sqlList(AUTH_TYPES))}]::text[] and cardinality(${t.authTypes}) > 0`),
  ],
);
