/**
 * Security area: protection profiles of IP addresses, built on profile templates, one module per
 * resource; the area's router.
 */
import { initContract } from "@ts-rest/core";
import { securityProfilesRoutes } from "./profiles.js";
import { securityProfileTemplatesRoutes } from "./profile-templates.js";

export * from "./profile-templates.js";
export * from "./profiles.js";

const c = initContract();

export const securityContract = c.router({
  ...securityProfileTemplatesRoutes,
  ...securityProfilesRoutes,
});
