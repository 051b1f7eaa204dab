/**
 * IAM area: accounts (with their account-level CDN settings), the users of an account and the API
 * tokens issued for them. Tokens are kept as SHA-256 hashes only.
 */
import { ROLE_IDS } from "@cloudplane/contract";
import { relations, sql } from "drizzle-orm";
import { boolean, check, doublePrecision, foreignKey, index, integer, pgTable, text, unique } from "drizzle-orm/pg-core";
import { identityId, sqlList, timestamptz } from "./columns.js";

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
    deleted: boolean("deleted").notNull().default(false),
    created: timestamptz("created").notNull().defaultNow(),
  },
  (t) => [
    // (account_id, id) is the target of the composite foreign keys that keep references inside one account.
    unique("users_account_id_id_unique").on(t.accountId, t.id),
    unique("users_email_unique").on(t.email),
    check("users_role_id_check", sql`${t.roleId} in (${sql.raw(sqlList(Object.values(ROLE_IDS)))})`),
  ],
);

export const apiTokens = pgTable(
  "api_tokens",
  {
    id: identityId(),
    accountId: accountId(),
    /** The user the token was issued for; its role is the token's role. */
    userId: integer("user_id").notNull(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    /** Hex SHA-256 of the token; the plaintext is never stored. */
    tokenHash: text("token_hash").notNull(),
    expDate: timestamptz("exp_date"),
    created: timestamptz("created").notNull().defaultNow(),
    lastUsage: timestamptz("last_usage"),
    deleted: boolean("deleted").notNull().default(false),
  },
  (t) => [
    unique("api_tokens_token_hash_unique").on(t.tokenHash),
    unique("api_tokens_account_id_id_unique").on(t.accountId, t.id),
    index("api_tokens_account_id_user_id_idx").on(t.accountId, t.userId, t.id),
    foreignKey({ name: "api_tokens_user_fk", columns: [t.accountId, t.userId], foreignColumns: [users.accountId, users.id] }),
    check("api_tokens_token_hash_check", sql`${t.tokenHash} ~ '^[0-9a-f]{64}$'`),
  ],
);

/**
 * The request budget of each API token (a token bucket): every handler instance that shares the
 * database draws from the same row, so the rate limit holds across serverless instances. UNLOGGED
 * (migration 0005_rate_limit_buckets_unlogged, as Drizzle cannot declare it): it is written on every
 * request, and losing it in a crash only refills the buckets.
 */
export const rateLimitBuckets = pgTable("rate_limit_buckets", {
  tokenId: integer("token_id")
    .primaryKey()
    .references(() => apiTokens.id, { onDelete: "cascade" }),
  /** Requests left; refilled continuously at the configured rate, up to the burst. */
  tokens: doublePrecision("tokens").notNull(),
  updated: timestamptz("updated").notNull(),
  /** Requests the last take handed out at once (an instance's lease; 0: refused). */
  granted: integer("granted").notNull().default(0),
});

export const accountsRelations = relations(accounts, ({ many }) => ({
  users: many(users),
  apiTokens: many(apiTokens),
}));

export const usersRelations = relations(users, ({ one, many }) => ({
  account: one(accounts, { fields: [users.accountId], references: [accounts.id] }),
  apiTokens: many(apiTokens),
}));

export const apiTokensRelations = relations(apiTokens, ({ one }) => ({
  account: one(accounts, { fields: [apiTokens.accountId], references: [accounts.id] }),
  user: one(users, { fields: [apiTokens.userId], references: [users.id] }),
}));
