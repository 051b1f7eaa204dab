/**
 * The whole database schema, one module per area of the API. Drizzle Kit generates the migrations
 * from it, and `createDatabase` passes it to Drizzle so the relational queries know every table.
 */
export { accounts, users, apiTokens, rateLimitBuckets, accountsRelations, usersRelations, apiTokensRelations } from "./iam.js";
export * from "./cdn/index.js";
export * from "./edge/index.js";
export * from "./streaming.js";
export * from "./cloud.js";
export * from "./security.js";
export * from "./storage.js";
