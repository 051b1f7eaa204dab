/**
 * Security routes: profile templates, and the lifecycle of protection profiles, one module per resource.
 */
import type { Contract, PrimaryRoutes } from "@cloudplane/contract";
import type { RouteDeps } from "../types.js";
import { securityProfiles } from "./profiles.js";
import { securityProfileTemplates } from "./profile-templates.js";

export function securityRoutes(deps: RouteDeps) {
  return { ...securityProfileTemplates(deps), ...securityProfiles(deps) } satisfies Record<keyof PrimaryRoutes<Contract["security"]>, unknown>;
}
