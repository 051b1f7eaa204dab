/**
 * CDN area: a file per resource. Origin groups and their sources, CDN resources with their options,
 * secondary host names and the account's certificates, the platform's shielding POPs, the account's CDN
 * features, and the logs uploader's targets, policies and configs. The account-level CDN settings are
 * columns of `accounts` (iam/account.ts).
 */
export * from "./origin-groups.js";
export * from "./resources.js";
export * from "./certificates.js";
export * from "./purge.js";
export * from "./shielding-pops.js";
export * from "./features.js";
export * from "./logs-uploader/targets.js";
export * from "./logs-uploader/policies.js";
export * from "./logs-uploader/configs.js";
export * from "./rules.js";
export * from "./statistics.js";
