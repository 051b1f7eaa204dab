/**
 * Example calls of the Security area's routes, keyed by route id (see ../route-examples.ts).
 */
import * as examples from "../examples.js";
import type { AreaRouteExamples } from "./example.js";

export const securityRouteExamples = {
  "security.listProfileTemplates": {
    query: { accepts_ip_address: true },
    response: [examples.securityProfileExample.profile_template],
  },
  "security.listProfiles": {
    query: { site: "ED", exclude_empty_address: true },
    response: [examples.securityProfileExample],
  },
  "security.getProfile": {
    pathParams: { id: examples.securityProfileExample.id },
    response: examples.securityProfileExample,
  },
  "security.createProfile": {
    body: { ...examples.updateSecurityProfileExample, ip_address: "203.0.113.25" },
    response: {
      ...examples.securityProfileExample,
      id: 8,
      ip_address: "203.0.113.25",
      options: { bgp: false, active: true, price: "0.00" },
      protocols: [],
      status: { status: "active", updated: "2026-11-02T10:15:00.000Z" },
      plan: "standard",
    },
  },
  "security.updateProfile": {
    pathParams: { id: examples.securityProfileExample.id },
    body: examples.updateSecurityProfileExample,
    response: examples.securityProfileExample,
  },
  "security.deleteProfile": {
    pathParams: { id: 8 },
    // A 204 has no body; the example type asks for one.
  },
} satisfies AreaRouteExamples<"security">;
