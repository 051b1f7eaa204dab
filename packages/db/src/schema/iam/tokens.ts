/**
 * IAM tokens: the API tokens issued for the users of an account, kept as SHA-256 hashes only, and each
 * token's rate limit bucket. The relations of accounts and users are here too, as they name the tokens
 * (account.ts cannot import this module, which builds on it).
 */
import { relations, sql } from "drizzle-orm";
import { boolean, check, doublePrecision, foreignKey, index, integer, pgTable, text, unique } from "drizzle-orm/pg-core";
import { identityId, timestamptz } from "../columns.js";
import { accountId, accounts, users } from "./account.js";

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
