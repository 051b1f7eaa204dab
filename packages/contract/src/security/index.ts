/**
 * Security area: protection profiles of IP addresses, built on profile templates, the events (attacks)
 * the protection saw and the BGP announces of the protected networks, one module per resource; the area's router.
 */
import { initContract } from "@ts-rest/core";
import { securityProfilesRoutes } from "./profiles.js";
import { securityProfileTemplatesRoutes } from "./profile-templates.js";
import { securityEventsRoutes } from "./events.js";
import { securityBgpAnnouncesRoutes } from "./announces.js";

export * from "./profile-templates.js";
export * from "./profiles.js";
export * from "./events.js";
export * from "./announces.js";
export { SECURITY_FIELD_TYPES } from "./shared.js";

const c = initContract();

export const securityContract = c.router({
  ...securityProfileTemplatesRoutes,
  ...securityProfilesRoutes,
  ...securityEventsRoutes,
  ...securityBgpAnnouncesRoutes,
});
