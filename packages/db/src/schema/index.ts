/**
 * The whole database schema, one module per area of the API (a folder of modules, one per resource, for
 * an area of several resources). Drizzle Kit generates the migrations from it, and `createDatabase`
 * passes it to Drizzle so the relational queries know every table.
 */
export { accounts, users, apiTokens, rateLimitBuckets, idempotencyKeys, accountsRelations, usersRelations, apiTokensRelations } from "./iam/index.js";
export * from "./cdn/index.js";
export * from "./edge/index.js";
export * from "./streaming.js";
export * from "./cloud/index.js";
export * from "./security/index.js";
export * from "./storage/index.js";
export { listingCounts } from "./listing-counts.js";
