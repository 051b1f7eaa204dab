/**
 * Example calls of the CDN area's routes, keyed by route id (see ../route-examples.ts).
 */
import * as examples from "../examples.js";
import type { AreaRouteExamples } from "./example.js";

const resource = examples.cdnResourceExample;
const group = examples.originGroupExample;

/** A resource as it is right after its creation: no shielding, no host names, the options given. */
const createdResource = {
  ...resource,
  id: 8,
  cname: "assets.acme.example",
  name: "Acme assets",
  description: "",
  created: "2026-05-04 10:00:00.000000+00:00",
  updated: "2026-05-04 10:00:00.000000+00:00",
  secondaryHostnames: [],
  shielded: false,
  shield_dc: null,
  shield_enabled: false,
  sslEnabled: false,
  sslData: null,
  proxy_ssl_enabled: false,
  proxy_ssl_ca: null,
  proxy_ssl_data: null,
  options: { gzipOn: { enabled: true, value: true } },
  waap_api_domain_enabled: false,
};

const newGroup = {
  id: 6,
  name: "acme-assets-origins",
  use_next: true,
  proxy_next_upstream: ["error", "timeout", "http_502"] as ("error" | "timeout" | "http_502")[],
  auth_type: "none",
  sources: [
    { backup: false, enabled: true, source: "assets-1.acme.example", host_header_override: "assets.acme.example" },
    { backup: true, enabled: true, source: "203.0.113.80:8080", host_header_override: null },
  ],
  path: "",
  has_related_resources: false,
};

export const cdnRouteExamples = {
  "cdn.listResources": {
    query: { status: "active", limit: 25, offset: 0 },
    response: { count: 1, results: [resource] },
  },
  "cdn.createResource": {
    body: {
      cname: createdResource.cname,
      originGroup: createdResource.originGroup,
      name: createdResource.name,
      originProtocol: createdResource.originProtocol,
      options: createdResource.options,
    },
    response: createdResource,
  },
  "cdn.getResource": { pathParams: { resource_id: resource.id }, response: resource },
  "cdn.deleteResource": {
    pathParams: { resource_id: 7 },
    // A 204 has no body; the example type asks for one.
  },
  "cdn.getResourceShielding": {
    pathParams: { resource_id: resource.id },
    response: examples.shieldingSettingExample,
  },
  "cdn.listShieldingPops": {
    query: { limit: 1000, offset: 0 },
    response: {
      count: 2,
      results: [
        { id: 1, datacenter: "fra-2", country: "DE", city: "Frankfurt" },
        { id: 2, datacenter: "ams-1", country: "NL", city: "Amsterdam" },
      ],
    },
  },
  "cdn.getClientSettings": { response: examples.cdnClientSettingsExample },
  "cdn.listOriginGroups": {
    query: { has_related_resources: true, limit: 25, offset: 0 },
    response: { count: 1, results: [group] },
  },
  "cdn.createOriginGroup": {
    body: {
      name: newGroup.name,
      use_next: newGroup.use_next,
      proxy_next_upstream: newGroup.proxy_next_upstream,
      sources: [
        { source: "assets-1.acme.example", host_header_override: "assets.acme.example" },
        { source: "203.0.113.80:8080", backup: true },
      ],
    },
    response: newGroup,
  },
  "cdn.updateOriginGroup": {
    pathParams: { origin_group_id: group.id },
    body: { use_next: false },
    response: { ...group, use_next: false },
  },
  "cdn.replaceOriginGroup": {
    pathParams: { origin_group_id: newGroup.id },
    body: { name: newGroup.name, use_next: false, sources: [{ source: "assets-2.acme.example" }] },
    response: {
      ...newGroup,
      use_next: false,
      proxy_next_upstream: ["error", "timeout"],
      sources: [{ backup: false, enabled: true, source: "assets-2.acme.example", host_header_override: null }],
    },
  },
  "cdn.deleteOriginGroup": {
    pathParams: { origin_group_id: 5 },
    // A 204 has no body; the example type asks for one.
  },
  "cdn.updateResource": {
    pathParams: { resource_id: examples.cdnResourceExample.id },
    body: examples.updateCdnResourceExample,
    response: examples.cdnResourceExample,
  },
  "cdn.replaceResource": {
    pathParams: { resource_id: examples.cdnResourceExample.id },
    body: examples.replaceCdnResourceExample,
    response: examples.cdnResourceExample,
  },
  "cdn.updateResourceShielding": {
    pathParams: { resource_id: examples.cdnResourceExample.id },
    body: examples.shieldingSettingExample,
    response: examples.shieldingSettingExample,
  },
  "cdn.getClientFeatures": { response: examples.cdnFeaturesExample },
  "cdn.updateClientSettings": {
    body: { utilization_level: examples.cdnClientSettingsExample.utilization_level },
    response: examples.cdnClientSettingsExample,
  },
  "cdn.getOriginGroup": {
    pathParams: { origin_group_id: examples.originGroupExample.id },
    response: examples.originGroupExample,
  },
} satisfies AreaRouteExamples<"cdn">;
