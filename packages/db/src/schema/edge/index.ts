/**
 * The edge area's tables, a module per resource: apps (with the platform's plans and the apps' links to
 * secrets), templates, secrets and binaries.
 */
export * from "./apps.js";
export * from "./templates.js";
export * from "./secrets.js";
export * from "./binaries.js";
