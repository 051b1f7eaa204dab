/**
 * The edge area's tables, a module per resource: apps (with the platform's plans and the apps' links to
 * secrets and KV stores), templates, secrets, binaries, KV stores and the apps' calls.
 */
export * from "./apps.js";
export * from "./templates.js";
export * from "./secrets.js";
export * from "./binaries.js";
export * from "./kv-stores.js";
export * from "./calls.js";
