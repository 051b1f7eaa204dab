/**
 * Security routes: profile templates, the lifecycle of protection profiles, the events the protection
 * saw and the BGP announces of the protected networks, one module per resource.
 */
import type { Contract, PrimaryRoutes } from "@cloudplane/contract";
import type { RouteDeps } from "../types.js";
import { securityProfiles } from "./profiles.js";
import { securityProfileTemplates } from "./profile-templates.js";
import { securityEvents } from "./events.js";
import { securityBgpAnnouncesRouter } from "./announces.js";

export function securityRoutes(deps: RouteDeps) {
  return { ...securityProfileTemplates(deps), ...securityProfiles(deps), ...securityEvents(deps), ...securityBgpAnnouncesRouter(deps) } satisfies Record<keyof PrimaryRoutes<Contract["security"]>, unknown>;
}
