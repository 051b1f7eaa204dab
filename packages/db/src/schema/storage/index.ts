/**
 * Object storage area: the account's storages and their S3 buckets, with each bucket's CORS origins,
 * one module per resource.
 */
export * from "./storages.js";
export * from "./buckets.js";
export * from "./access-keys.js";
export * from "./ssh-keys.js";
export * from "./usage.js";
