/**
 * One valid request for every route of the contract on an account's demo objects: the table the
 * handlers' auth matrix, isolation and fuzz tests and the black-box conformance suite all walk.
 * It is keyed by route id, so a route of the contract without a case fails to compile. Objects are
 * picked from the demo fixture; names that must be unique are made unique, so the same requests can
 * be sent again and again to one database.
 */
import { ROUTES, type ContractRoute, type RouteAccess, type RouteId } from "@cloudplane/contract";
import { demoFixture as defaultFixture, type DemoAccountId, type DemoFixture } from "./demo-fixture.js";

/** How to call one route on the given account's objects. */
export interface RouteCaseRequest {
  /** The path (with any query) on the given account's objects. */
  path: (account: DemoAccountId) => string;
  /**
   * Whether the path names objects (or the account) of its own, so that another account's path must
   * not reach them: 404, or 403 where the path names the account.
   */
  ownsObjects: boolean;
  /** A fresh valid body for a call on the given account's objects, for routes that take one. */
  body?: (account: DemoAccountId) => unknown;
}

/** A route of the contract with its request. */
export interface RouteCase extends RouteCaseRequest {
  /** `area.name`, the route's id in ROUTES. */
  id: RouteId;
  route: ContractRoute["route"];
  /** `read` routes are open to the Users role, `write` routes are not. */
  access: RouteAccess;
  /** The route's success status. */
  status: number;
}

/** A case for every route of the contract: leaving one out, or naming a route it lacks, fails to compile. */
export type RouteCaseTable = { readonly [Id in RouteId]: RouteCaseRequest };

/** A name no earlier run used: the requests may be sent many times to one database. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

function first<T>(items: T[], what: string, matches: (item: T) => boolean): T {
  const found = items.find(matches);
  if (!found) throw new Error(`The demo fixture has no ${what}; the route cases need one.`);
  return found;
}

/** The request of every route on the objects of `fixture`. */
export function routeCaseTable(fixture: DemoFixture = defaultFixture): RouteCaseTable {
  const { cdn, edge, streaming, cloud, security, storage } = fixture;
  const resources = (account: DemoAccountId) => cdn.resources.filter((resource) => resource.client === account && !resource.deleted);
  const resource = (account: DemoAccountId, index: number) => {
    const found = resources(account)[index];
    if (!found) throw new Error(`The demo fixture has fewer than ${index + 1} CDN resources in account ${account}.`);
    return found;
  };
  const originGroup = (account: DemoAccountId) => first(cdn.origin_groups, `origin group of account ${account}`, (group) => group.account_id === account);
  const app = (account: DemoAccountId) => first(edge.apps, `edge app of account ${account}`, (candidate) => candidate.account_id === account);
  const template = (account: DemoAccountId) => first(edge.templates, `private template of account ${account}`, (candidate) => candidate.account_id === account);
  const stream = (account: DemoAccountId) => first(streaming.streams, `stream of account ${account}`, (candidate) => candidate.account_id === account);
  const dvrStream = (account: DemoAccountId) =>
    first(streaming.streams, `live stream with DVR of account ${account}`, (candidate) => candidate.account_id === account && candidate.live && candidate.dvr_duration > 0);
  const image = (account: DemoAccountId) => first(cloud.gpu_images, `GPU image of account ${account}`, (candidate) => candidate.account_id === account);
  const profile = (account: DemoAccountId) => first(security.profiles, `security profile of account ${account}`, (candidate) => candidate.account_id === account);
  const bucket = (account: DemoAccountId) => first(storage.buckets, `bucket of account ${account}`, (candidate) => candidate.account_id === account);
  const months = cloud.usage_lines.map((line) => line.month).sort();
  const pop = first(cdn.shielding_pops, "shielding POP", () => true);

  return {
    "iam.listTokens": { path: (account) => `/iam/clients/${account}/tokens`, ownsObjects: true },
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
    "cdn.createLogsUploaderTarget": {
      path: () => "/cdn/logs_uploader/targets",
      ownsObjects: false,
      body: () => ({
        storage_type: "s3_other",
        name: uniqueName("route-case-target"),
        description: "Made by the route cases",
        config: { access_key_id: "AKIAROUTECASES", secret_access_key: "route-case-secret-access-key", region: "eu-1", bucket_name: "route-case-logs" },
      }),
    },
    "cdn.getClientFeatures": { path: () => "/cdn/clients/me/features", ownsObjects: false },
    "cdn.updateClientSettings": { path: () => "/cdn/clients/me", ownsObjects: false, body: () => ({ utilization_level: 2 }) },
    "cdn.getOriginGroup": { path: (account) => `/cdn/origin_groups/${originGroup(account).id}`, ownsObjects: true },
    "edge.listApps": { path: () => "/edge/v1/apps?limit=5", ownsObjects: false },
    "edge.updateApp": {
      path: (account) => `/edge/v1/apps/${app(account).id}`,
      ownsObjects: true,
      body: () => ({ comment: uniqueName("Changed by the route cases") }),
    },
    "edge.getTemplate": { path: (account) => `/edge/v1/template/${template(account).id}`, ownsObjects: true },
    "edge.createSecret": {
      path: () => "/edge/v1/secrets",
      ownsObjects: false,
      body: () => ({ name: uniqueName("route-case"), comment: "Made by the route cases", secret_slots: [{ slot: 0, value: "route-case-value" }] }),
    },
    "streaming.listStreams": { path: () => "/streaming/streams", ownsObjects: false },
    "streaming.getStream": { path: (account) => `/streaming/streams/${stream(account).id}`, ownsObjects: true },
    "streaming.createClipRecording": {
      path: (account) => `/streaming/streams/${dvrStream(account).id}/clip_recording`,
      ownsObjects: true,
      body: (account) => ({ duration: Math.min(30, dvrStream(account).dvr_duration) }),
    },
    "cloud.listInferenceModels": { path: () => "/cloud/v2/inference/models?limit=5", ownsObjects: false },
    "cloud.listGpuImages": {
      path: (account) => `/cloud/v3/gpu/virtual/${image(account).project_id}/${image(account).region_id}/images`,
      ownsObjects: true,
    },
    "cloud.getReservationCostReportTotals": {
      path: () => "/cloud/v1/reservation_cost_report/totals",
      ownsObjects: false,
      // Lists as filters too: every deployment's driver must send them as arrays.
      body: () => ({
        time_from: months[0] ?? "2026-01",
        time_to: months.at(-1) ?? "2026-12",
        types: ["instance", "egress_traffic", "volume"],
        regions: [image(1).region_id, image(2).region_id],
        schema_filter: { type: "instance", field: "flavor", values: ["g1-gpu-1", "it's \"quoted\""] },
      }),
    },
    "security.updateProfile": {
      path: (account) => `/security/iaas/v2/profiles/${profile(account).id}`,
      ownsObjects: true,
      // The profile's own settings: valid against its template by construction.
      body: (account) => {
        const own = profile(account);
        return {
          profile_template: own.profile_template,
          ip_address: own.ip_address,
          site: own.site,
          fields: own.fields.map((field) => ({ base_field: field.base_field, field_value: field.field_value })),
        };
      },
    },
    "storage.getBucketCors": {
      path: (account) => `/storage/provisioning/v1/storage/${bucket(account).storage_id}/s3/bucket/${encodeURIComponent(bucket(account).name)}/cors`,
      ownsObjects: true,
    },
  };
}

/** Every route of the contract (in ROUTES' order) with its request on the objects of `fixture`. */
export function routeCases(fixture: DemoFixture = defaultFixture): RouteCase[] {
  const table = routeCaseTable(fixture);
  return ROUTES.map(({ id, route, access }) => {
    const request = (table as Partial<RouteCaseTable>)[id];
    // Unreachable while the table is typed by RouteId; kept for a contract built apart from this package.
    if (!request) throw new Error(`No route case for ${id}: add one to @cloudplane/db's src/route-cases.ts.`);
    const status = Number(Object.keys(route.responses).find((code) => Number(code) < 300));
    return { id, route, access, status, ...request };
  });
}
