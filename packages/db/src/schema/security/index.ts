/**
 * Security area: profile templates (the platform's common ones and an account's own) and their fields
 * (each with a JSON Schema), and the account's protection profiles with their field values, one module
 * per resource.
 */
export * from "./profile-templates.js";
export * from "./profiles.js";
