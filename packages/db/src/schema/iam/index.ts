/**
 * IAM area: accounts, their users and the API tokens issued for them, one module per resource.
 */
export * from "./account.js";
export * from "./tokens.js";
export * from "./idempotency-keys.js";
