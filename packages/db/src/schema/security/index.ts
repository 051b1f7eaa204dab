/**
 * Security area: profile templates (the platform's common ones and an account's own) and their fields
 * (each with a JSON Schema), the account's protection profiles with their field values, the events the
 * protection saw and the BGP announces of the protected networks, one module per resource.
 */
export * from "./profile-templates.js";
export * from "./profiles.js";
export * from "./events.js";
export * from "./announces.js";
