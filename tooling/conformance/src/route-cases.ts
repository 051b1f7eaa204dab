/**
 * One valid request for every route of the contract on account 1's demo objects, and the same request
 * aimed at account 2's objects. Objects are picked from the demo fixture; names that must be unique
 * are made unique, so the suite can run again and again against one database.
 */
import { contract } from "@cloudplane/contract";
import type { DemoAccountId, DemoFixture } from "@cloudplane/db";
import { isAppRoute, type AppRoute, type AppRouter } from "@ts-rest/core";

export interface RouteCase {
  /** `area.route`, as in the contract. */
  name: string;
  route: AppRoute;
  /** The route's success status. */
  status: number;
  /** `read` routes are open to the Users role, `write` routes are not. */
  access: "read" | "write";
  /** The path on the given account's objects. */
  path: (account: DemoAccountId) => string;
  /** Whether the path names objects (or the account) of its own, so that another account's path must not reach them. */
  ownsObjects: boolean;
  /** A fresh valid body for a call on the given account's objects. */
  body?: (account: DemoAccountId) => unknown;
}

/** A name no earlier run used: the suite may run many times against one database. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

function first<T>(items: T[], what: string, matches: (item: T) => boolean): T {
  const found = items.find(matches);
  if (!found) throw new Error(`The demo fixture has no ${what}; the conformance suite needs one.`);
  return found;
}

type CaseTable = Record<string, Omit<RouteCase, "name" | "route" | "status" | "access">>;

function caseTable(fixture: DemoFixture): CaseTable {
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
      body: () => ({ description: uniqueName("Changed by the conformance suite") }),
    },
    "cdn.replaceResource": {
      // The second resource, so that the full replace leaves the first one's options for other checks.
      path: (account) => `/cdn/resources/${resource(account, 1).id}`,
      ownsObjects: true,
      body: (account) => ({ originGroup: originGroup(account).id, name: "Replaced by the conformance suite" }),
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
        name: uniqueName("conformance-target"),
        description: "Made by the conformance suite",
        config: { access_key_id: "AKIACONFORMANCE", secret_access_key: "conformance-secret-access-key", region: "eu-1", bucket_name: "conformance-logs" },
      }),
    },
    "cdn.getClientFeatures": { path: () => "/cdn/clients/me/features", ownsObjects: false },
    "cdn.updateClientSettings": { path: () => "/cdn/clients/me", ownsObjects: false, body: () => ({ utilization_level: 2 }) },
    "cdn.getOriginGroup": { path: (account) => `/cdn/origin_groups/${originGroup(account).id}`, ownsObjects: true },
    "edge.listApps": { path: () => "/edge/v1/apps?limit=5", ownsObjects: false },
    "edge.updateApp": {
      path: (account) => `/edge/v1/apps/${app(account).id}`,
      ownsObjects: true,
      body: () => ({ comment: uniqueName("Changed by the conformance suite") }),
    },
    "edge.getTemplate": { path: (account) => `/edge/v1/template/${template(account).id}`, ownsObjects: true },
    "edge.createSecret": {
      path: () => "/edge/v1/secrets",
      ownsObjects: false,
      body: () => ({ name: uniqueName("conformance"), comment: "Made by the conformance suite", secret_slots: [{ slot: 0, value: "conformance-value" }] }),
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
      body: () => ({ time_from: months[0] ?? "2026-01", time_to: months.at(-1) ?? "2026-12" }),
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

function routesOf(router: AppRouter, prefix = ""): Array<[string, AppRoute]> {
  return Object.entries(router).flatMap(([key, value]) =>
    isAppRoute(value) ? [[`${prefix}${key}`, value] as [string, AppRoute]] : routesOf(value, `${prefix}${key}.`),
  );
}

/** Every route of the contract with its case; throws if a route has none, so a new route cannot be left out. */
export function routeCases(fixture: DemoFixture): RouteCase[] {
  const table = caseTable(fixture);
  return routesOf(contract).map(([name, route]) => {
    const known = table[name];
    if (!known) throw new Error(`The conformance suite has no case for ${name}: add one to tooling/conformance/src/route-cases.ts.`);
    const status = Number(Object.keys(route.responses).find((code) => Number(code) < 300));
    const access = (route.metadata as { access: "read" | "write" }).access;
    return { name, route, status, access, ...known };
  });
}
