/**
 * Route cases of the CDN area: one valid request per route on the demo data (see ../route-cases.ts).
 */
import type { DemoFixture, DemoAccountId } from "../demo-fixture.js";
import { type AreaRouteCases, first, uniqueName } from "./case.js";

export function cdnRouteCases(fixture: DemoFixture) {
  const resources = (account: DemoAccountId) => fixture.cdnResources.filter((resource) => resource.accountId === account && !resource.deleted);
  const resource = (account: DemoAccountId, index: number) => {
    const found = resources(account)[index];
    if (!found) throw new Error(`The demo fixture has fewer than ${index + 1} CDN resources in account ${account}.`);
    return found;
  };
  const originGroup = (account: DemoAccountId) => first(fixture.originGroups, `origin group of account ${account}`, (group) => group.accountId === account);
  const pop = first(fixture.shieldingPops, "shielding POP", () => true);
  const certificates = fixture.certificates.filter((item) => item.kind === "ssl").map((item) => item.id);
  return {
    "cdn.listResources": {
      // The same query for both accounts: each sees its own resources with its own certificates.
      path: () => `/cdn/resources?sslEnabled=true&sslData_in=${certificates.join(",")}&limit=10`,
      ownsObjects: false,
    },
    "cdn.createResource": {
      path: () => "/cdn/resources",
      ownsObjects: false,
      // Inactive, so that the delete's case can delete what this one makes.
      body: (account) => ({
        cname: `${uniqueName("route-case")}.cdn-cases.example`,
        originGroup: originGroup(account).id,
        active: false,
        options: { gzipOn: { enabled: true, value: true } },
      }),
    },
    "cdn.getResource": { path: (account) => `/cdn/resources/${resource(account, 0).id}`, ownsObjects: true },
    "cdn.deleteResource": {
      path: (account, made) => `/cdn/resources/${made?.id ?? 2147483000 + account}`,
      ownsObjects: true,
      makes: "cdn.createResource",
    },
    "cdn.getResourceShielding": { path: (account) => `/cdn/resources/${resource(account, 0).id}/shielding_v2`, ownsObjects: true },
    "cdn.listShieldingPops": { path: () => "/cdn/shieldingpop_v2?limit=10", ownsObjects: false },
    "cdn.getClientSettings": { path: () => "/cdn/clients/me", ownsObjects: false },
    "cdn.listOriginGroups": { path: () => "/cdn/origin_groups?has_related_resources=true", ownsObjects: false },
    "cdn.createOriginGroup": {
      path: () => "/cdn/origin_groups",
      ownsObjects: false,
      body: () => ({
        name: uniqueName("route-case-origins"),
        use_next: true,
        proxy_next_upstream: ["error", "http_502"],
        sources: [{ source: "origin.cdn-cases.example", host_header_override: "www.cdn-cases.example" }, { source: "203.0.113.9:8080", backup: true }],
      }),
    },
    "cdn.updateOriginGroup": {
      path: (account) => `/cdn/origin_groups/${originGroup(account).id}`,
      ownsObjects: true,
      body: () => ({ proxy_next_upstream: ["error", "timeout", "http_503"] }),
    },
    "cdn.replaceOriginGroup": {
      // The group made by the create case, so that the demo groups keep their sources for other checks.
      path: (account, made) => `/cdn/origin_groups/${made?.id ?? 2147483000 + account}`,
      ownsObjects: true,
      makes: "cdn.createOriginGroup",
      body: () => ({ name: uniqueName("route-case-replaced"), use_next: false, sources: [{ source: "replaced.cdn-cases.example" }] }),
    },
    "cdn.deleteOriginGroup": {
      path: (account, made) => `/cdn/origin_groups/${made?.id ?? 2147483000 + account}`,
      ownsObjects: true,
      makes: "cdn.createOriginGroup",
    },
    "cdn.updateResource": {
      path: (account) => `/cdn/resources/${resource(account, 0).id}`,
      ownsObjects: true,
      body: () => ({ description: uniqueName("Changed by the route cases") }),
    },
    "cdn.replaceResource": {
      // The second resource, so that the full replace leaves the first one's options for other checks.
      path: (account) => `/cdn/resources/${resource(account, 1).id}`,
      ownsObjects: true,
      body: (account) => ({ originGroup: originGroup(account).id, name: "Replaced by the route cases" }),
    },
    "cdn.updateResourceShielding": {
      path: (account) => `/cdn/resources/${resource(account, 0).id}/shielding_v2`,
      ownsObjects: true,
      body: () => ({ shielding_pop: pop.id }),
    },
    "cdn.getClientFeatures": { path: () => "/cdn/clients/me/features", ownsObjects: false },
    "cdn.updateClientSettings": { path: () => "/cdn/clients/me", ownsObjects: false, body: () => ({ utilization_level: 2 }) },
    "cdn.getOriginGroup": { path: (account) => `/cdn/origin_groups/${originGroup(account).id}`, ownsObjects: true },
  } satisfies AreaRouteCases<"cdn">;
}
