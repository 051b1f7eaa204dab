/**
 * One valid request for every route of the contract, on account 1's demo objects, and the same
 * request aimed at account 2's objects: the table the auth matrix and isolation tests walk.
 */
import { contract } from "@cloudplane/contract";
import { isAppRoute, type AppRoute, type AppRouter } from "@ts-rest/core";

export interface RouteCase {
  /** `area.route`, as in the contract. */
  name: string;
  route: AppRoute;
  /** The path on account 1's objects. */
  path: string;
  /** The path on account 2's objects: 404 for account 1 (403 where the path names an account); null if the route takes no id. */
  otherPath: string | null;
  /** A fresh valid body for each call on the given account's objects (names that must be unique are made unique). */
  body?: (account: 1 | 2) => unknown;
}

let serial = 0;

const cases: Record<string, Omit<RouteCase, "name" | "route">> = {
  "iam.listTokens": { path: "/iam/clients/1/tokens", otherPath: "/iam/clients/2/tokens" },
  "cdn.updateResource": {
    path: "/cdn/resources/1",
    otherPath: "/cdn/resources/2",
    body: () => ({ description: "Changed by the route table" }),
  },
  "cdn.replaceResource": {
    path: "/cdn/resources/3",
    otherPath: "/cdn/resources/4",
    // Origin group 1 is account 1's and 2 is account 2's.
    body: (account) => ({ originGroup: account, name: "Replaced by the route table" }),
  },
  "cdn.updateResourceShielding": {
    path: "/cdn/resources/1/shielding_v2",
    otherPath: "/cdn/resources/2/shielding_v2",
    body: () => ({ shielding_pop: 1 }),
  },
  "cdn.createLogsUploaderTarget": {
    path: "/cdn/logs_uploader/targets",
    otherPath: null,
    body: () => ({
      storage_type: "s3_other",
      name: `Route table target ${++serial}`,
      config: { access_key_id: "AKIAROUTETABLE", secret_access_key: "route-table-secret", region: "eu-1", bucket_name: "route-logs" },
    }),
  },
  "cdn.getClientFeatures": { path: "/cdn/clients/me/features", otherPath: null },
  "cdn.updateClientSettings": { path: "/cdn/clients/me", otherPath: null, body: () => ({ utilization_level: 2 }) },
  "cdn.getOriginGroup": { path: "/cdn/origin_groups/1", otherPath: "/cdn/origin_groups/2" },
  "edge.listApps": { path: "/edge/v1/apps?limit=5", otherPath: null },
  "edge.updateApp": { path: "/edge/v1/apps/1", otherPath: "/edge/v1/apps/2", body: () => ({ comment: "Changed by the route table" }) },
  "edge.getTemplate": { path: "/edge/v1/template/1", otherPath: "/edge/v1/template/2" },
  "edge.createSecret": {
    path: "/edge/v1/secrets",
    otherPath: null,
    body: () => ({ name: `route-table-${++serial}`, secret_slots: [{ slot: 0, value: "route-table-value" }] }),
  },
  "streaming.listStreams": { path: "/streaming/streams", otherPath: null },
  "streaming.getStream": { path: "/streaming/streams/1", otherPath: "/streaming/streams/2" },
  "streaming.createClipRecording": {
    path: "/streaming/streams/1/clip_recording",
    otherPath: "/streaming/streams/2/clip_recording",
    body: () => ({ duration: 30 }),
  },
  "cloud.listInferenceModels": { path: "/cloud/v2/inference/models?limit=5", otherPath: null },
  "cloud.listGpuImages": { path: "/cloud/v3/gpu/virtual/1/1/images", otherPath: "/cloud/v3/gpu/virtual/2/1/images" },
  "cloud.getReservationCostReportTotals": {
    path: "/cloud/v1/reservation_cost_report/totals",
    otherPath: null,
    body: () => ({ time_from: "2026-08", time_to: "2026-10" }),
  },
  "security.updateProfile": {
    path: "/security/iaas/v2/profiles/1",
    otherPath: "/security/iaas/v2/profiles/2",
    body: () => ({ profile_template: 1, ip_address: "203.0.113.10", fields: [{ base_field: 1, field_value: [80, 443] }], site: "ED" }),
  },
  "storage.getBucketCors": {
    path: "/storage/provisioning/v1/storage/1/s3/bucket/media-assets/cors",
    otherPath: "/storage/provisioning/v1/storage/2/s3/bucket/media-assets/cors",
  },
};

function routesOf(router: AppRouter, prefix = ""): Array<[string, AppRoute]> {
  return Object.entries(router).flatMap(([key, value]) =>
    isAppRoute(value) ? [[`${prefix}${key}`, value] as [string, AppRoute]] : routesOf(value, `${prefix}${key}.`),
  );
}

/** Every route of the contract with its case; throws if a route has none, so a new route cannot be forgotten. */
export const routeCases: RouteCase[] = routesOf(contract).map(([name, route]) => {
  const known = cases[name];
  if (!known) throw new Error(`No route case for ${name}: add one to test/routes.ts.`);
  return { name, route, ...known };
});

export function isRead(route: AppRoute): boolean {
  return (route.metadata as { access: string }).access === "read";
}

export function successStatus(route: AppRoute): number {
  return Number(Object.keys(route.responses).find((status) => Number(status) < 300));
}
