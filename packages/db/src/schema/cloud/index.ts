/**
 * Cloud area: the platform's inference model catalogue and regions, the account's projects, their secrets,
 * GPU images and the tasks that changed them, and the usage lines that cost reports sum (with their
 * monthly totals, kept by the database), one module per resource.
 */
export * from "./projects.js";
export * from "./inference-models.js";
export * from "./gpu-images.js";
export * from "./tasks.js";
export * from "./cost-reports.js";
export * from "./inference-flavors.js";
export * from "./inference-registry-credentials.js";
export * from "./inference-secrets.js";
export * from "./inference-api-keys.js";
export * from "./inference-deployments.js";
export * from "./inference-applications.js";
export * from "./secrets.js";
