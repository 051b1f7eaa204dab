/**
 * Writes fixtures/demo.json, the demo data, deterministically: run `pnpm --filter @cloudplane/db
 * generate:fixture` after changing this script and commit the JSON. Account 1 gets the odd ids of
 * every account-owned kind and account 2 the even ones, so a query that forgets the account shows.
 */
import { createHash } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { LOGS_UPLOADER_POLICY_DEFAULTS } from "@cloudplane/contract";
import type {
  DemoAccount,
  DemoApiToken,
  DemoBroadcast,
  DemoBucket,
  DemoCdnFeature,
  DemoCdnResource,
  DemoCertificate,
  DemoClip,
  DemoCloudProject,
  DemoCloudRegion,
  DemoEdgeApp,
  DemoEdgeBinary,
  DemoEdgePlan,
  DemoEdgeSecret,
  DemoEdgeTemplate,
  DemoFixture,
  DemoCloudTask,
  DemoGpuImage,
  DemoInferenceModel,
  DemoLogsUploaderConfig,
  DemoLogsUploaderPolicy,
  DemoLogsUploaderTarget,
  DemoOriginGroup,
  DemoSecurityProfile,
  DemoSecurityProfileTemplate,
  DemoShieldingPop,
  DemoStorage,
  DemoStream,
  DemoTokenName,
  DemoUsageLine,
  DemoUser,
} from "../src/demo-fixture.js";

type AccountId = 1 | 2;

const hex = (seed: string, length = 64) => createHash("sha256").update(seed).digest("hex").slice(0, length);

/** A stable UUID (version 4 layout) made from a seed. */
function uuidFrom(seed: string): string {
  const h = hex(`uuid:${seed}`, 32).split("");
  h[12] = "4";
  h[16] = "89ab"[parseInt(h[16] ?? "0", 16) % 4] ?? "8";
  const s = h.join("");
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20, 32)}`;
}

/** The n-th (from 1) id of an account-owned kind: odd for account 1, even for account 2. */
const idOf = (account: AccountId, n: number) => 2 * n - (account === 1 ? 1 : 0);

/** Deterministic pseudo-random numbers (mulberry32), so the fixture is the same on every run. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = random(20261120);
const pick = <T>(values: readonly T[]): T => values[Math.floor(rand() * values.length)] as T;

const BASE = Date.parse("2026-01-05T09:00:00.000Z");
const DAY = 86_400_000;
/** A time `days` after 2026-01-05 09:00 UTC, plus `minutes`. */
const at = (days: number, minutes = 0) => new Date(BASE + days * DAY + minutes * 60_000).toISOString();

// ---------------------------------------------------------------------------------------------
// IAM
// ---------------------------------------------------------------------------------------------

const accountNames: Record<AccountId, { name: string; domain: string }> = {
  1: { name: "Acme Media", domain: "acme.example" },
  2: { name: "Globex Streaming", domain: "globex.example" },
};

const accounts: DemoAccount[] = ([1, 2] as const).map((id) => ({
  id,
  name: accountNames[id].name,
  utilization_level: id === 1 ? 3 : 0,
  cname: `cl-${hex(`account-cname:${id}`, 8)}.cdn.cloudplane.example`,
  use_balancer: id === 1,
  auto_suspend_enabled: id === 2,
  cdn_resources_rules_max_count: id === 1 ? 50 : 25,
  service: { enabled: true, status: "active", updated: at(id, 30) },
  created: at(id - 1),
  updated: at(200 + id),
}));

const userSpecs = [
  { n: 1, role: 1, first: { 1: "Alice Admin", 2: "Hana Admin" } },
  { n: 2, role: 2, first: { 1: "Bob Reader", 2: "Ivan Reader" } },
  { n: 3, role: 5, first: { 1: "Carol Engineer", 2: "Jun Engineer" } },
  { n: 4, role: 3009, first: { 1: "Dan Purger", 2: "Kofi Purger" } },
  { n: 5, role: 3022, first: { 1: "Erin Purger", 2: "Lena Purger" } },
  { n: 6, role: 1, first: { 1: "Frank Admin", 2: "Mira Admin" } },
  { n: 7, role: 2, first: { 1: "Grace Former", 2: "Nils Former" }, deleted: true },
] as const;

const users: DemoUser[] = ([1, 2] as const).flatMap((account) =>
  userSpecs.map((spec) => {
    const name = spec.first[account];
    return {
      id: idOf(account, spec.n),
      account_id: account,
      name,
      email: `${name.split(" ")[0]?.toLowerCase()}@${accountNames[account].domain}`,
      role_id: spec.role,
      deleted: "deleted" in spec ? spec.deleted : false,
      created: at(spec.n * 3 + account),
    };
  }),
);

const userOf = (account: AccountId, n: number) => idOf(account, n);

const tokenSpecs: { n: number; name: DemoTokenName; user: number; role: number; description: string; exp: string | null; deleted: boolean; lastUsage: boolean }[] = [
  { n: 1, name: "role-1-active", user: 1, role: 1, description: "Active token of an Administrator (role 1).", exp: null, deleted: false, lastUsage: true },
  { n: 2, name: "role-2-active", user: 2, role: 2, description: "Active token of a User (role 2): read-only.", exp: "2099-12-31T23:59:59.000Z", deleted: false, lastUsage: true },
  { n: 3, name: "role-5-active", user: 3, role: 5, description: "Active token of an Engineer (role 5).", exp: null, deleted: false, lastUsage: false },
  { n: 4, name: "role-3009-active", user: 4, role: 3009, description: "Active token of a Purge and Prefetch only (API and Web) user (role 3009).", exp: null, deleted: false, lastUsage: false },
  { n: 5, name: "role-3022-active", user: 5, role: 3022, description: "Active token of a Purge and Prefetch only (API) user (role 3022).", exp: "2099-06-30T00:00:00.000Z", deleted: false, lastUsage: false },
  { n: 6, name: "role-5-expired", user: 3, role: 5, description: "Expired token of an Engineer (role 5).", exp: "2026-03-01T00:00:00.000Z", deleted: false, lastUsage: true },
  { n: 7, name: "role-2-deleted", user: 2, role: 2, description: "Revoked (deleted) token of a User (role 2).", exp: null, deleted: true, lastUsage: true },
  { n: 8, name: "role-1-ci", user: 6, role: 1, description: "Active token of a second Administrator (role 1), for CI.", exp: "2099-01-01T00:00:00.000Z", deleted: false, lastUsage: true },
];

const apiTokens: DemoApiToken[] = ([1, 2] as const).flatMap((account) =>
  tokenSpecs.map((spec) => ({
    id: idOf(account, spec.n),
    account_id: account,
    user_id: userOf(account, spec.user),
    role_id: spec.role,
    name: spec.name,
    description: spec.description,
    plaintext: `cp_demo_${hex(`demo-token:${account}:${spec.name}`, 32)}`,
    exp_date: spec.exp,
    created: at(20 + spec.n, account),
    last_usage: spec.lastUsage ? at(250 + spec.n, 15 * account) : null,
    deleted: spec.deleted,
  })),
);

// ---------------------------------------------------------------------------------------------
// CDN
// ---------------------------------------------------------------------------------------------

const shieldingPops: DemoShieldingPop[] = [
  { id: 1, datacenter: "fra-2", city: "Frankfurt", country: "DE" },
  { id: 2, datacenter: "ams-1", city: "Amsterdam", country: "NL" },
  { id: 3, datacenter: "ash-1", city: "Ashburn", country: "US" },
  { id: 4, datacenter: "sin-1", city: "Singapore", country: "SG" },
];

const originGroups: DemoOriginGroup[] = [
  {
    id: 1,
    account_id: 1,
    name: "acme-web-origins",
    use_next: true,
    proxy_next_upstream: ["error", "timeout", "http_502", "http_503"],
    auth_type: "none",
    path: "",
    sources: [
      { backup: false, enabled: true, source: "origin-1.acme.example", host_header_override: null },
      { backup: false, enabled: true, source: "origin-2.acme.example", host_header_override: "www.acme.example" },
      { backup: true, enabled: true, source: "backup.acme.example:8080", host_header_override: null },
    ],
    created: at(10),
    updated: at(40),
  },
  {
    id: 3,
    account_id: 1,
    name: "acme-video-origin",
    use_next: false,
    proxy_next_upstream: ["error", "timeout"],
    auth_type: "none",
    path: "/vod",
    sources: [{ backup: false, enabled: true, source: "203.0.113.50:8443", host_header_override: null }],
    created: at(12),
    updated: at(12),
  },
  {
    id: 5,
    account_id: 1,
    name: "acme-unused-origins",
    use_next: true,
    proxy_next_upstream: ["error", "timeout", "invalid_header", "http_500", "http_502", "http_503", "http_504"],
    auth_type: "none",
    path: "",
    sources: [
      { backup: false, enabled: false, source: "old-origin.acme.example", host_header_override: null },
      { backup: true, enabled: true, source: "old-backup.acme.example", host_header_override: null },
    ],
    created: at(14),
    updated: at(90),
  },
  {
    id: 2,
    account_id: 2,
    name: "globex-origins",
    use_next: true,
    proxy_next_upstream: ["error", "timeout", "http_500"],
    auth_type: "none",
    path: "",
    sources: [
      { backup: false, enabled: true, source: "origin.globex.example", host_header_override: null },
      { backup: true, enabled: true, source: "origin-dr.globex.example", host_header_override: null },
    ],
    created: at(11),
    updated: at(11),
  },
  {
    id: 4,
    account_id: 2,
    name: "globex-static",
    use_next: false,
    proxy_next_upstream: ["error"],
    auth_type: "none",
    path: "/static",
    sources: [{ backup: false, enabled: true, source: "static.globex.example", host_header_override: null }],
    created: at(13),
    updated: at(13),
  },
];

const certificates: DemoCertificate[] = [
  { id: 1, account_id: 1, name: "wildcard.acme.example", kind: "ssl", created: at(9) },
  { id: 3, account_id: 1, name: "Acme origin CA", kind: "ca", created: at(9, 5) },
  { id: 2, account_id: 2, name: "www.globex.example", kind: "ssl", created: at(10) },
  { id: 4, account_id: 2, name: "Globex origin CA", kind: "ca", created: at(10, 5) },
];

function cdnResource(fields: Partial<DemoCdnResource> & Pick<DemoCdnResource, "id" | "client" | "name" | "cname" | "originGroup">): DemoCdnResource {
  return {
    description: "",
    active: true,
    enabled: true,
    status: "active",
    deleted: false,
    created: at(15 + fields.id),
    updated: at(100 + fields.id),
    originProtocol: "HTTP",
    secondaryHostnames: [],
    shielding_pop: null,
    shield_routing_map: null,
    sslEnabled: false,
    sslData: null,
    proxy_ssl_enabled: false,
    proxy_ssl_ca: null,
    proxy_ssl_data: null,
    preset_applied: false,
    vp_enabled: false,
    full_custom_enabled: false,
    can_purge_by_urls: true,
    suspend_date: null,
    suspended: false,
    primary_resource: null,
    is_primary: null,
    waap_domain_id: null,
    waap_api_domain_enabled: false,
    rules: [],
    options: {},
    ...fields,
  };
}

const cdnResources: DemoCdnResource[] = [
  cdnResource({
    id: 1,
    client: 1,
    name: "Acme website",
    description: "The main site and its images, HTTPS only.",
    cname: "cdn.acme.example",
    originGroup: 1,
    originProtocol: "HTTPS",
    secondaryHostnames: ["static.acme.example", "img.acme.example"],
    shielding_pop: 1,
    sslEnabled: true,
    sslData: 1,
    proxy_ssl_enabled: true,
    proxy_ssl_ca: 3,
    is_primary: true,
    options: {
      edge_cache_settings: { enabled: true, value: "4d", custom_values: { "404": "10s", any: "1m" } },
      browser_cache_settings: { enabled: true, value: "3600s" },
      gzipOn: { enabled: true, value: true },
      brotli_compression: { enabled: true, value: ["text/html", "text/css", "application/javascript", "image/svg+xml"] },
      cors: { enabled: true, value: ["www.acme.example", "admin.acme.example"], always: true },
      country_acl: { enabled: true, policy_type: "allow", excepted_values: ["KP", "IR"] },
      ip_address_acl: { enabled: true, policy_type: "allow", excepted_values: ["192.0.2.0/24", "2001:db8::/32"] },
      staticHeaders: { enabled: true, value: { "X-Served-By": "cloudplane", Vary: ["Accept-Encoding", "Origin"] } },
      tls_versions: { enabled: true, value: ["TLSv1.2", "TLSv1.3"] },
      http3_enabled: { enabled: true, value: true },
      redirect_http_to_https: { enabled: true, value: true },
      follow_origin_redirect: { enabled: true, codes: [301, 302] },
      stale: { enabled: true, value: ["error", "timeout", "http_500", "http_502"] },
      image_stack: { enabled: true, avif_enabled: true, webp_enabled: true, png_lossless: false, quality: 80 },
      sni: { enabled: true, sni_type: "custom", custom_hostname: "origin-1.acme.example" },
      hostHeader: { enabled: true, value: "www.acme.example" },
    },
  }),
  cdnResource({
    id: 3,
    client: 1,
    name: "Acme downloads",
    cname: "downloads.acme.example",
    originGroup: 1,
  }),
  cdnResource({
    id: 5,
    client: 1,
    name: "Acme video",
    description: "Video segments with hotlink protection and rate limits.",
    cname: "video-cdn.acme.example",
    originGroup: 3,
    originProtocol: "MATCH",
    secondaryHostnames: ["video.acme.example"],
    shielding_pop: 2,
    vp_enabled: true,
    options: {
      referrer_acl: { enabled: true, policy_type: "deny", excepted_values: ["acme.example", "*.acme.example"] },
      user_agent_acl: { enabled: true, policy_type: "allow", excepted_values: ["BadBot/1.0", ""] },
      rewrite: { enabled: true, body: "/(.*)/index.m3u8 /$1/master.m3u8", flag: "break" },
      force_return: {
        enabled: true,
        code: 503,
        body: "Maintenance",
        time_interval: { start_time: "02:00", end_time: 230, time_zone: "Europe/Luxembourg" },
      },
      request_limiter: { enabled: true, rate_unit: "r/s", rate: 20, burst: 40, delay: 5 },
      limit_bandwidth: { enabled: true, limit_type: "static", speed: 2048, buffer: 512 },
      query_params_whitelist: { enabled: true, value: ["quality", "start"] },
      proxy_cache_key: { enabled: true, value: "$scheme$uri" },
      response_headers_hiding_policy: { enabled: true, mode: "hide", excepted: ["Content-Type", "Cache-Control"] },
      allowedHttpMethods: { enabled: true, value: ["GET", "HEAD", "OPTIONS"] },
      static_response_headers: {
        enabled: true,
        value: [{ name: "Access-Control-Expose-Headers", value: ["Content-Length", "Content-Range"], always: true }],
      },
      slice: { enabled: true, value: true },
      disable_proxy_force_ranges: { enabled: true, value: false },
    },
  }),
  cdnResource({
    id: 7,
    client: 1,
    name: "Acme legacy API",
    description: "Suspended: no traffic for months.",
    cname: "legacy-api.acme.example",
    originGroup: 1,
    active: false,
    enabled: false,
    status: "suspended",
    suspended: true,
    suspend_date: at(240),
    sslEnabled: true,
    sslData: 1,
    options: {
      websockets: { enabled: true, value: true },
      proxy_connect_timeout: { enabled: true, value: "4s" },
      proxy_read_timeout: { enabled: true, value: "30s" },
      staticRequestHeaders: { enabled: true, value: { "X-From-Cdn": "cloudplane" } },
      query_string_forwarding: { enabled: true, forward_from_file_types: ["m3u8", "mpd"], forward_to_file_types: ["ts", "m4s"] },
      edge: { enabled: true, on_request_headers: { enabled: true, app_id: "13", interrupt_on_error: false } },
      bot_protection: { enabled: true, bot_challenge: { enabled: true } },
      cache_http_headers: { enabled: true, value: ["content-type", "etag", "last-modified"] },
      query_params_blacklist: { enabled: true, value: ["utm_source", "utm_medium"] },
      ignoreQueryString: { enabled: false, value: false },
      ignore_cookie: { enabled: true, value: true },
      fetch_compressed: { enabled: true, value: true },
      forward_host_header: { enabled: false, value: false },
    },
  }),
  cdnResource({
    id: 2,
    client: 2,
    name: "Globex site",
    cname: "cdn.globex.example",
    originGroup: 2,
    originProtocol: "HTTPS",
    // The same host name as one of account 1's resources: host names are unique per account only.
    secondaryHostnames: ["static.acme.example", "www.globex.example"],
    shielding_pop: 3,
    sslEnabled: true,
    sslData: 2,
    options: {
      edge_cache_settings: { enabled: true, value: "1h" },
      gzipOn: { enabled: true, value: true },
      redirect_http_to_https: { enabled: true, value: true },
      waap: { enabled: false, value: false },
    },
  }),
  cdnResource({
    id: 4,
    client: 2,
    name: "Globex static",
    cname: "static-cdn.globex.example",
    originGroup: 4,
    options: { browser_cache_settings: { enabled: true, value: "86400s" }, use_rsa_le_cert: { enabled: true, value: true } },
  }),
];

const cdnFeatures: DemoCdnFeature[] = [
  { id: 1, account_id: 1, feature_id: 7, name: "Image optimization", paid: true, create_date: at(30) },
  { id: 3, account_id: 1, feature_id: 12, name: "Origin shielding", paid: true, create_date: at(31) },
  { id: 5, account_id: 1, feature_id: 101, name: "Brotli compression", paid: false, create_date: at(5) },
  { id: 7, account_id: 1, feature_id: 102, name: "HTTP/3", paid: false, create_date: at(5) },
  { id: 2, account_id: 2, feature_id: 12, name: "Origin shielding", paid: true, create_date: at(33) },
  { id: 4, account_id: 2, feature_id: 101, name: "Brotli compression", paid: false, create_date: at(6) },
];

const logsUploaderTargets: DemoLogsUploaderTarget[] = ([1, 2] as const).map((account) => ({
  id: idOf(account, 1),
  client_id: account,
  name: `${account === 1 ? "acme" : "globex"}-cdn-logs`,
  description: "Raw CDN access logs, uploaded every 5 minutes.",
  storage_type: account === 1 ? "s3_vendor" : "s3_amazon",
  status: { status: "successful", code: 200, updated: at(60 + account), details: "" },
  config: {
    access_key_id: `AKIADEMO${hex(`access-key:${account}`, 12).toUpperCase()}`,
    secret_access_key: `demo-secret-access-key-${hex(`secret-access-key:${account}`, 24)}`,
    region: account === 1 ? "s-ed1" : "eu-central-1",
    bucket_name: `${account === 1 ? "acme" : "globex"}-cdn-logs`,
    directory: account === 1 ? "cdn/raw" : null,
    endpoint: account === 1 ? "https://s-ed1.storage.cloudplane.example" : null,
    use_path_style: account === 1,
  },
  created: at(58 + account),
  updated: at(60 + account),
}));

/** A policy with the platform's defaults but for `overrides`. */
const logsUploaderPolicy = (id: number, account: AccountId, overrides: Partial<DemoLogsUploaderPolicy>): DemoLogsUploaderPolicy => ({
  id,
  client_id: account,
  ...LOGS_UPLOADER_POLICY_DEFAULTS,
  fields: [...LOGS_UPLOADER_POLICY_DEFAULTS.fields],
  tags: {},
  created: at(56 + account),
  updated: at(57 + account),
  ...overrides,
});

const logsUploaderPolicies: DemoLogsUploaderPolicy[] = [
  logsUploaderPolicy(1, 1, { name: "acme-standard", description: "Every field, the standard text format." }),
  // JSON lines of a few fields and a tag, half of the requests: the policy a test of the field rules starts from.
  logsUploaderPolicy(3, 1, {
    name: "acme-json-sample",
    description: "Half of the requests as JSON lines, tagged with the environment.",
    fields: ["remote_addr", "time_local", "request", "status", "bytes_sent", "upstream_cache_status", "env"],
    format_type: "json",
    tags: { env: "production" },
    log_sample_rate: 0.5,
    rotate_interval_minutes: 15,
    rotate_threshold_mb: 100,
    include_shield_logs: true,
  }),
  logsUploaderPolicy(2, 2, { name: "globex-standard" }),
];

const logsUploaderConfigs: DemoLogsUploaderConfig[] = [
  {
    id: 1,
    client_id: 1,
    name: "acme-all-resources",
    enabled: true,
    for_all_resources: true,
    policy: 1,
    target: 1,
    resources: [],
    status: { status: "successful", code: 200, updated: at(62), details: "" },
    created: at(61),
    updated: at(62),
  },
  {
    id: 3,
    client_id: 1,
    name: "acme-sampled",
    enabled: false,
    for_all_resources: false,
    policy: 3,
    target: 1,
    resources: [1, 3],
    status: { status: "in_progress", code: 0, updated: at(63), details: "" },
    created: at(63),
    updated: at(63),
  },
  {
    id: 2,
    client_id: 2,
    name: "globex-static",
    enabled: true,
    for_all_resources: false,
    policy: 2,
    target: 2,
    resources: [4],
    status: { status: "successful", code: 200, updated: at(64), details: "" },
    created: at(62),
    updated: at(64),
  },
];

// ---------------------------------------------------------------------------------------------
// Edge apps
// ---------------------------------------------------------------------------------------------

const edgePlans: DemoEdgePlan[] = [
  { id: 1, name: "basic", max_duration_ms: 50, memory_limit_mb: 128, max_subrequests: 10 },
  { id: 2, name: "pro", max_duration_ms: 200, memory_limit_mb: 256, max_subrequests: 50 },
  { id: 3, name: "enterprise", max_duration_ms: 1000, memory_limit_mb: 1024, max_subrequests: 500 },
];

const binary = (
  id: number,
  account: AccountId | null,
  apiType: "wasi-http" | "proxy-wasm",
  day: number,
  more: Partial<Pick<DemoEdgeBinary, "status" | "source" | "unref_since">> = {},
): DemoEdgeBinary => ({
  id,
  account_id: account,
  api_type: apiType,
  checksum: hex(`binary:${id}`),
  status: 1,
  source: ((id % 3) + 1) as DemoEdgeBinary["source"],
  unref_since: null,
  created: at(day),
  ...more,
});

const edgeBinaries: DemoEdgeBinary[] = [
  // The platform's binaries, behind the public templates; 1003 is a newer build of 1001.
  binary(1001, null, "wasi-http", 2),
  binary(1002, null, "proxy-wasm", 2),
  binary(1003, null, "wasi-http", 150),
  binary(1, 1, "wasi-http", 20),
  binary(3, 1, "proxy-wasm", 21),
  binary(5, 1, "wasi-http", 22),
  binary(7, 1, "wasi-http", 120),
  binary(9, 1, "proxy-wasm", 121),
  binary(2, 2, "wasi-http", 25),
  binary(4, 2, "proxy-wasm", 26),
  // Binaries no app or template uses: one left over since an upgrade, one that failed to compile.
  binary(11, 1, "wasi-http", 160, { unref_since: at(170) }),
  binary(13, 1, "proxy-wasm", 161, { status: 2, source: 0 }),
];

const edgeTemplates: DemoEdgeTemplate[] = [
  {
    id: 1001,
    account_id: null,
    binary_id: 1001,
    name: "Geo redirect",
    short_descr: "Redirects visitors by country.",
    long_descr: "Answers with a redirect to a per-country URL, read from the visitor's geo data.",
    api_type: "wasi-http",
    params: [
      { name: "DEFAULT_URL", data_type: "string", mandatory: true, descr: "Where visitors from other countries go.", metadata: null },
      { name: "COUNTRY_URLS", data_type: "string", mandatory: false, descr: "Comma-separated CC=URL pairs.", metadata: null },
    ],
    created: at(2),
  },
  {
    id: 1002,
    account_id: null,
    binary_id: 1002,
    name: "Header rewrite",
    short_descr: "Adds, changes or removes headers.",
    long_descr: "Applies header rules to requests and responses with the proxy-wasm ABI.",
    api_type: "proxy-wasm",
    params: [
      { name: "REQUEST_RULES", data_type: "string", mandatory: false, descr: "Rules for request headers.", metadata: null },
      { name: "RESPONSE_RULES", data_type: "string", mandatory: false, descr: "Rules for response headers.", metadata: null },
    ],
    created: at(2),
  },
  {
    id: 1,
    account_id: 1,
    binary_id: 1,
    name: "Image resize",
    short_descr: "Resizes images on the fly.",
    long_descr: "Reads width and quality from the query string and answers with a resized image.",
    api_type: "wasi-http",
    params: [
      { name: "MAX_WIDTH", data_type: "number", mandatory: true, descr: "Largest width served, pixels.", metadata: null },
      { name: "QUALITY", data_type: "number", mandatory: false, descr: "JPEG and WebP quality, 1 to 100.", metadata: null },
      { name: "ORIGIN_URL", data_type: "string", mandatory: true, descr: "Where the original images are.", metadata: null },
    ],
    created: at(20),
  },
  {
    id: 3,
    account_id: 1,
    binary_id: 3,
    name: "Auth gateway",
    short_descr: "Checks JWTs before the origin.",
    long_descr: "Validates the bearer JWT of each request and forwards the claims as headers.",
    api_type: "proxy-wasm",
    params: [
      { name: "JWKS_URL", data_type: "string", mandatory: true, descr: "The key set that signs the tokens.", metadata: null },
      { name: "AUDIENCE", data_type: "string", mandatory: false, descr: "Expected aud claim.", metadata: null },
    ],
    created: at(21),
  },
  {
    id: 5,
    account_id: 1,
    binary_id: 5,
    name: "A/B testing",
    short_descr: "Splits traffic between two origins.",
    long_descr: "Assigns each visitor to variant A or B with a sticky cookie.",
    api_type: "wasi-http",
    params: [
      { name: "SPLIT_PERCENT", data_type: "number", mandatory: true, descr: "Share of visitors sent to B.", metadata: null },
      { name: "COOKIE_NAME", data_type: "string", mandatory: false, descr: "Cookie that keeps the variant.", metadata: null },
      {
        name: "ASSIGNMENT",
        data_type: "enum",
        mandatory: false,
        descr: "How a visitor is put in a variant.",
        metadata: '{"values":["cookie","header","random"]}',
      },
    ],
    created: at(22),
  },
  {
    id: 2,
    account_id: 2,
    binary_id: 2,
    name: "Custom router",
    short_descr: "Routes by path prefix.",
    long_descr: "Sends each path prefix to its own backend.",
    api_type: "wasi-http",
    params: [{ name: "ROUTES", data_type: "string", mandatory: true, descr: "prefix=backend pairs, comma separated.", metadata: null }],
    created: at(25),
  },
];

const edgeSecrets: DemoEdgeSecret[] = [
  {
    id: 1,
    account_id: 1,
    name: "stripe-api-key",
    comment: "Payments, rotated on 2027-01-01.",
    secret_slots: [
      { slot: 0, value: "sk_demo_acme_2a3b4c5d6e7f8091a2b3c4d5" },
      { slot: 1798761600, value: "sk_demo_acme_rotated_9f8e7d6c5b4a3928" },
    ],
    created: at(40),
    updated: at(40),
  },
  {
    id: 3,
    account_id: 1,
    name: "jwt_signing_key",
    comment: "",
    secret_slots: [{ slot: 0, value: "demo-jwt-signing-key-acme-6b1f0c2d" }],
    created: at(41),
    updated: at(41),
  },
  {
    id: 5,
    account_id: 1,
    name: "DB-PASSWORD",
    comment: "Read-only replica.",
    secret_slots: [{ slot: 0, value: "demo-db-password-acme-77c1e0" }],
    created: at(42),
    updated: at(42),
  },
  {
    id: 2,
    account_id: 2,
    // The same name as account 1's secret: names are unique per account only.
    name: "stripe-api-key",
    comment: "",
    secret_slots: [{ slot: 0, value: "sk_demo_globex_0a1b2c3d4e5f6a7b8c9d" }],
    created: at(43),
    updated: at(43),
  },
  {
    id: 4,
    account_id: 2,
    name: "origin-token",
    comment: "Shared with the origin team.",
    secret_slots: [{ slot: 0, value: "demo-origin-token-globex-3e4f5a" }],
    created: at(44),
    updated: at(44),
  },
];

const account1AppNames = [
  "image-resize-eu",
  "image-resize-us",
  "geo-redirect-shop",
  "geo-redirect-blog",
  "auth-gateway-api",
  "auth-gateway-admin",
  "ab-test-checkout",
  "ab-test-landing",
  "header-rewrite-cdn",
  "header-rewrite-media",
  "bot-filter",
  "cache-warmer",
  "edge-router",
  "maintenance-page",
  "locale-detector",
  "cookie-consent",
  "request-logger",
  "rate-guard",
  "token-validator",
  "pixel-tracker",
  "sitemap-builder",
  "json-transformer",
  "cors-proxy",
  "video-token-signer",
  "feature-flags",
  "search-suggest",
  "price-formatter",
  "canary-router",
  "hello-world",
  "draft-experiment",
  "legacy-redirects",
  "webhook-relay",
  "og-image",
  "security-headers",
  "status-page",
  "device-detect",
] as const;

type TemplateChoice = { template: number | null; binary: number | null; apiType: "wasi-http" | "proxy-wasm"; upgradeableTo: number | null };

const templateChoices: TemplateChoice[] = [
  { template: 1, binary: 1, apiType: "wasi-http", upgradeableTo: 7 },
  { template: 3, binary: 3, apiType: "proxy-wasm", upgradeableTo: 9 },
  { template: 5, binary: 5, apiType: "wasi-http", upgradeableTo: null },
  { template: 1001, binary: 1001, apiType: "wasi-http", upgradeableTo: 1003 },
  { template: 1002, binary: 1002, apiType: "proxy-wasm", upgradeableTo: null },
  { template: null, binary: 7, apiType: "wasi-http", upgradeableTo: null },
  { template: null, binary: 9, apiType: "proxy-wasm", upgradeableTo: null },
];

const NETWORKS = [["edge-eu"], ["edge-eu", "edge-us"], ["edge-global"], ["edge-us", "edge-asia"]] as const;

function edgeApp(account: AccountId, n: number, name: string, status: DemoEdgeApp["status"], choice: TemplateChoice): DemoEdgeApp {
  const id = idOf(account, n);
  // A draft made from scratch has no binary yet.
  const binaryId = status === 0 && choice.template === null && n % 2 === 0 ? null : choice.binary;
  return {
    id,
    account_id: account,
    name,
    url: `https://${name}-${id}.${account === 1 ? "acme" : "globex"}.edge.cloudplane.example`,
    status,
    binary: binaryId,
    template: choice.template,
    comment: n % 3 === 0 ? `Owned by the ${pick(["web", "video", "platform", "growth"])} team.` : "",
    api_type: choice.apiType,
    debug_until: n % 11 === 0 ? at(318, n) : null,
    networks: [...(NETWORKS[n % NETWORKS.length] ?? [])],
    upgradeable_to: binaryId === null ? null : choice.upgradeableTo,
    plan_id: (n % 3) + 1,
    env: n % 4 === 0 ? { LOG_LEVEL: pick(["info", "debug", "warn"]), REGION: pick(["eu", "us"]) } : {},
    rsp_headers: n % 5 === 0 ? { "X-Edge-App": name } : {},
    log: n % 2 === 0 ? "kafka" : "none",
    secrets: {},
    created: at(30 + n, account),
    updated: at(200 + n, account),
  };
}

// Every status appears several times, the rare ones (3, 4, 5) at least twice.
const statusCycle: DemoEdgeApp["status"][] = [1, 1, 2, 0, 1, 3, 2, 1, 4, 0, 5, 1];

const edgeApps: DemoEdgeApp[] = account1AppNames.map((name, index) =>
  edgeApp(1, index + 1, name, statusCycle[index % statusCycle.length] ?? 1, templateChoices[index % templateChoices.length] as TemplateChoice),
);
const appSecrets: Record<string, Record<string, { id: number }>> = {
  "auth-gateway-api": { JWT_KEY: { id: 3 } },
  "auth-gateway-admin": { JWT_KEY: { id: 3 }, DB_PASSWORD: { id: 5 } },
  "ab-test-checkout": { STRIPE_KEY: { id: 1 } },
};
for (const app of edgeApps) app.secrets = appSecrets[app.name] ?? {};

const account2Apps: DemoEdgeApp[] = [
  // The same name as an app of account 1: names are unique per account only.
  edgeApp(2, 1, "geo-redirect-shop", 1, { template: 1001, binary: 1001, apiType: "wasi-http", upgradeableTo: 1003 }),
  edgeApp(2, 2, "globex-router", 1, { template: 2, binary: 2, apiType: "wasi-http", upgradeableTo: null }),
  edgeApp(2, 3, "globex-headers", 2, { template: 1002, binary: 1002, apiType: "proxy-wasm", upgradeableTo: null }),
  edgeApp(2, 4, "globex-auth", 0, { template: null, binary: 4, apiType: "proxy-wasm", upgradeableTo: null }),
  edgeApp(2, 5, "globex-checkout", 3, { template: 2, binary: 2, apiType: "wasi-http", upgradeableTo: null }),
];
const globexAuth = account2Apps[3];
if (globexAuth) globexAuth.secrets = { ORIGIN_TOKEN: { id: 4 } };
const globexCheckout = account2Apps[4];
if (globexCheckout) globexCheckout.secrets = { STRIPE_KEY: { id: 2 } };
edgeApps.push(...account2Apps);

// ---------------------------------------------------------------------------------------------
// Streaming
// ---------------------------------------------------------------------------------------------

const QUALITY_LADDERS = [["1080p", "720p", "480p", "360p"], ["720p", "480p"], ["2160p", "1080p", "720p"], []] as const;

function stream(account: AccountId, n: number): DemoStream {
  const id = idOf(account, n);
  const owner = account === 1 ? "acme" : "globex";
  // Every 4th stream is live with DVR, every 6th (that is not) live without; the rest are offline.
  const liveWithDvr = n % 4 === 1;
  const liveWithoutDvr = !liveWithDvr && n % 6 === 0;
  const live = liveWithDvr || liveWithoutDvr;
  const pull = n % 5 === 0;
  const neverStarted = !live && n % 7 === 3;
  const ladder = live || n % 3 === 0 ? QUALITY_LADDERS[n % 3] : QUALITY_LADDERS[3];
  const height = ladder?.[0] === "2160p" ? 2160 : ladder?.[0] === "1080p" ? 1080 : ladder?.[0] === "720p" ? 720 : 0;
  const key = hex(`stream-key:${id}`, 12);
  const playback = `https://${owner}.video.cloudplane.example/streams/${id}`;
  const created = at(40 + n * 3, account);
  const dvrDuration = liveWithDvr ? (n % 8 === 1 ? 7200 : 3600) : n % 10 === 2 ? 1800 : 0;
  return {
    id,
    account_id: account,
    name: `${account === 1 ? "Acme" : "Globex"} ${pick(["news", "sports", "concert", "keynote", "studio", "webinar", "gaming", "lobby cam"])} ${n}`,
    pull,
    active: n % 9 !== 8,
    auto_record: n % 3 === 0,
    html_overlay: n % 8 === 2,
    live,
    backup_live: liveWithDvr && n % 8 === 1,
    client_user_id: idOf(account, n % 2 === 0 ? 1 : 3),
    uri: pull ? `rtmp://origin.${owner}.example/live/${n}` : null,
    push_url: `rtmp://vp-push.cloudplane.example/in/${id}?${key}`,
    backup_push_url: `rtmp://vp-push-backup.cloudplane.example/in/${id}?${key}`,
    push_url_srt: `srt://vp-push.cloudplane.example:5001?streamid=${id}#${key}`,
    backup_push_url_srt: `srt://vp-push-backup.cloudplane.example:5001?streamid=${id}#${key}`,
    push_url_whip: `https://whip.cloudplane.example/whip/${id}/${key}`,
    created_at: created,
    started_at_primary: neverStarted ? null : at(300 + n, account * 10),
    finished_at_primary: neverStarted || live ? null : at(300 + n, account * 10 + 90),
    started_at_backup: liveWithDvr && n % 8 === 1 ? at(300 + n, account * 10 + 1) : null,
    dvr_duration: dvrDuration,
    recording_duration: n % 3 === 0 ? 600 * n : 0,
    iframe_url: `${playback}/player.html`,
    dash_url: `${playback}/index.mpd`,
    hls_cmaf_url: `${playback}/index.m3u8`,
    hls_mpegts_url: `${playback}/index-ts.m3u8`,
    screenshot: `${playback}/screenshot.jpg`,
    transcoded_qualities: [...(ladder ?? [])],
    transcoding_speed: live ? 1 + Math.round(rand() * 20) / 100 : 0,
    frame_rate: live ? pick([25, 29.97, 30, 50, 60]) : 0,
    video_height: live ? height : 0,
    video_width: live ? Math.round((height * 16) / 9) : 0,
    // No rand() below: drawing more numbers would change every later object of the fixture.
    dvr_enabled: dvrDuration > 0,
    broadcast_ids: [],
    cdn_id: null,
    client_entity_data: n % 7 === 2 ? JSON.stringify({ event_id: `${owner}-${n}` }) : null,
    hls_mpegts_endlist_tag: n % 4 === 2,
    projection: n % 11 === 4 ? "vr360" : "regular",
    quality_set_id: null,
    record_type: n % 3 === 0 ? "transcoded" : "origin",
    stream_source_type: live ? (!pull && n % 3 === 2 ? "srt" : "rtmp") : null,
  };
}

const streams: DemoStream[] = [
  ...Array.from({ length: 36 }, (_, index) => stream(1, index + 1)),
  ...Array.from({ length: 8 }, (_, index) => stream(2, index + 1)),
];

const broadcasts: DemoBroadcast[] = [
  { id: 1, account_id: 1, stream_id: 1, name: "Morning news", status: "live", created: at(310) },
  { id: 3, account_id: 1, stream_id: 1, name: "Evening news", status: "pending", created: at(311) },
  { id: 5, account_id: 1, stream_id: 3, name: "Cup final", status: "finished", created: at(280) },
  { id: 7, account_id: 1, stream_id: 9, name: "Product keynote", status: "live", created: at(312) },
  { id: 2, account_id: 2, stream_id: 2, name: "Globex town hall", status: "pending", created: at(313) },
];

for (const entry of streams)
  entry.broadcast_ids = broadcasts
    .filter((broadcast) => broadcast.stream_id === entry.id)
    .map((broadcast) => broadcast.id)
    .sort((a, b) => a - b);

function clip(account: AccountId, n: number, streamId: number, start: number, duration: number): DemoClip {
  const id = `clip_${hex(`clip:${account}:${n}`, 16)}`;
  const owner = account === 1 ? "acme" : "globex";
  return {
    id,
    account_id: account,
    stream_id: streamId,
    created_at: new Date((start + duration) * 1000 + 5000).toISOString(),
    vod_required: false,
    video_id: null,
    renditions: streams.find((candidate) => candidate.id === streamId)?.transcoded_qualities ?? [],
    hls_master: `https://${owner}.video.cloudplane.example/clips/${id}/master.m3u8`,
    mp4_master: `https://${owner}.video.cloudplane.example/clips/${id}/master.mp4`,
    start,
    duration,
    expiration: start + duration + 3600,
  };
}

const clips: DemoClip[] = [clip(1, 1, 1, 1794556800, 120), clip(1, 2, 1, 1794557400, 60), clip(2, 1, 2, 1794560000, 90)];

// ---------------------------------------------------------------------------------------------
// Cloud
// ---------------------------------------------------------------------------------------------

const modelSpecs: [name: string, developer: string, category: string, modelId: string, backend: string, openai: string, eula: boolean][] = [
  ["Llama-3.1-8B-Instruct", "Meta", "Text Generation", "meta-llama/Llama-3.1-8B-Instruct", "vllm", "chat_completions", true],
  ["Llama-3.1-70B-Instruct", "Meta", "Text Generation", "meta-llama/Llama-3.1-70B-Instruct", "vllm", "chat_completions", true],
  ["Llama-3.2-1B-Instruct", "Meta", "Text Generation", "meta-llama/Llama-3.2-1B-Instruct", "vllm", "chat_completions", true],
  ["Llama-3.2-3B-Instruct", "Meta", "Text Generation", "meta-llama/Llama-3.2-3B-Instruct", "vllm", "chat_completions", true],
  ["Llama-3.2-11B-Vision-Instruct", "Meta", "Image-Text-to-Text", "meta-llama/Llama-3.2-11B-Vision-Instruct", "vllm", "chat_completions", true],
  ["Llama-3.3-70B-Instruct", "Meta", "Text Generation", "meta-llama/Llama-3.3-70B-Instruct", "vllm", "chat_completions", true],
  ["Mistral-7B-Instruct-v0.3", "Mistral AI", "Text Generation", "mistralai/Mistral-7B-Instruct-v0.3", "vllm", "chat_completions", false],
  ["Mistral-Nemo-Instruct-2407", "Mistral AI", "Text Generation", "mistralai/Mistral-Nemo-Instruct-2407", "vllm", "chat_completions", false],
  ["Mixtral-8x7B-Instruct-v0.1", "Mistral AI", "Text Generation", "mistralai/Mixtral-8x7B-Instruct-v0.1", "vllm", "chat_completions", false],
  ["Mistral-Small-24B-Instruct-2501", "Mistral AI", "Text Generation", "mistralai/Mistral-Small-24B-Instruct-2501", "vllm", "chat_completions", false],
  ["Pixtral-12B-2409", "Mistral AI", "Image-Text-to-Text", "mistralai/Pixtral-12B-2409", "vllm", "chat_completions", false],
  ["gemma-2-9b-it", "Google", "Text Generation", "google/gemma-2-9b-it", "tgi", "chat_completions", true],
  ["gemma-2-27b-it", "Google", "Text Generation", "google/gemma-2-27b-it", "tgi", "chat_completions", true],
  ["gemma-3-12b-it", "Google", "Image-Text-to-Text", "google/gemma-3-12b-it", "vllm", "chat_completions", true],
  ["vit-base-patch16-224", "Google", "Image Classification", "google/vit-base-patch16-224", "triton", "", false],
  ["Phi-3.5-mini-instruct", "Microsoft", "Text Generation", "microsoft/Phi-3.5-mini-instruct", "vllm", "chat_completions", false],
  ["Phi-4", "Microsoft", "Text Generation", "microsoft/phi-4", "vllm", "chat_completions", false],
  ["Qwen2.5-7B-Instruct", "Alibaba Cloud", "Text Generation", "Qwen/Qwen2.5-7B-Instruct", "vllm", "chat_completions", false],
  ["Qwen2.5-14B-Instruct", "Alibaba Cloud", "Text Generation", "Qwen/Qwen2.5-14B-Instruct", "vllm", "chat_completions", false],
  ["Qwen2.5-Coder-32B-Instruct", "Alibaba Cloud", "Text Generation", "Qwen/Qwen2.5-Coder-32B-Instruct", "vllm", "chat_completions", false],
  ["QwQ-32B", "Alibaba Cloud", "Text Generation", "Qwen/QwQ-32B", "vllm", "chat_completions", false],
  ["DeepSeek-R1-Distill-Llama-8B", "DeepSeek", "Text Generation", "deepseek-ai/DeepSeek-R1-Distill-Llama-8B", "vllm", "chat_completions", false],
  ["DeepSeek-R1-Distill-Qwen-32B", "DeepSeek", "Text Generation", "deepseek-ai/DeepSeek-R1-Distill-Qwen-32B", "vllm", "chat_completions", false],
  ["whisper-large-v3", "OpenAI", "Automatic Speech Recognition", "openai/whisper-large-v3", "triton", "audio_transcriptions", false],
  ["whisper-large-v3-turbo", "OpenAI", "Automatic Speech Recognition", "openai/whisper-large-v3-turbo", "triton", "audio_transcriptions", false],
  ["stable-diffusion-xl-base-1.0", "Stability AI", "Text-to-Image", "stabilityai/stable-diffusion-xl-base-1.0", "diffusers", "", true],
  ["stable-diffusion-3.5-large", "Stability AI", "Text-to-Image", "stabilityai/stable-diffusion-3.5-large", "diffusers", "", true],
  ["FLUX.1-schnell", "Black Forest Labs", "Text-to-Image", "black-forest-labs/FLUX.1-schnell", "diffusers", "", false],
  ["FLUX.1-dev", "Black Forest Labs", "Text-to-Image", "black-forest-labs/FLUX.1-dev", "diffusers", "", true],
  ["bge-m3", "BAAI", "Sentence Similarity", "BAAI/bge-m3", "tei", "embeddings", false],
  ["bge-large-en-v1.5", "BAAI", "Sentence Similarity", "BAAI/bge-large-en-v1.5", "tei", "embeddings", false],
  ["multilingual-e5-large", "intfloat", "Sentence Similarity", "intfloat/multilingual-e5-large", "tei", "embeddings", false],
  ["XTTS-v2", "Coqui", "Text-to-Speech", "coqui/XTTS-v2", "triton", "", true],
  ["detr-resnet-50", "Facebook", "Object Detection", "facebook/detr-resnet-50", "triton", "", false],
];

const inferenceModels: DemoInferenceModel[] = modelSpecs.map(([name, developer, category, modelId, backend, openai, eula], index) => {
  const large = /70B|32B|27b|24B|Mixtral|3\.5-large|FLUX\.1-dev/.test(name);
  const port = backend === "tei" || backend === "tgi" ? 80 : backend === "triton" ? 8001 : 8000;
  return {
    id: uuidFrom(`inference-model:${modelId}`),
    name,
    category,
    default_flavor_id: large ? "inference-16vcpu-232gib-1xh100-80gb" : "inference-4vcpu-16gib-1xl40s-48gb",
    description: `${name} by ${developer}, served with ${backend}.`,
    developer,
    documentation_page: `https://huggingface.co/${modelId}`,
    eula_url: eula ? `https://huggingface.co/${modelId}/blob/main/LICENSE` : "",
    example_curl_request:
      openai === "chat_completions"
        ? `curl -X POST https://<deployment>/v1/chat/completions -H 'Content-Type: application/json' -d '{"model": "${modelId}", "messages": [{"role": "user", "content": "Hello"}]}'`
        : openai === "embeddings"
          ? `curl -X POST https://<deployment>/v1/embeddings -H 'Content-Type: application/json' -d '{"model": "${modelId}", "input": "Hello"}'`
          : `curl -X POST https://<deployment>/predict -F file=@input`,
    has_eula: eula,
    image_registry_id: index % 4 === 0 ? uuidFrom(`registry:${index}`) : "",
    image_url: `registry.cloudplane.example/inference/${backend}:${backend === "vllm" ? "0.6.3" : "1.4.0"}`,
    inference_backend: backend,
    inference_frontend: openai === "" ? "gradio" : "openai",
    model_id: modelId,
    openai_compatibility: openai,
    port,
    version: index % 5 === 0 ? "2.0" : "1.0",
  };
});

const cloudRegions: DemoCloudRegion[] = [
  { id: 1, name: "luxembourg-2", display_name: "Luxembourg-2" },
  { id: 2, name: "frankfurt-1", display_name: "Frankfurt" },
  { id: 3, name: "singapore-1", display_name: "Singapore" },
];

const cloudProjects: DemoCloudProject[] = [
  { id: 1, account_id: 1, name: "production", description: "Customer-facing workloads.", created: at(8) },
  { id: 3, account_id: 1, name: "research", description: "Model training experiments.", created: at(9) },
  { id: 2, account_id: 2, name: "default", description: "", created: at(8) },
  { id: 4, account_id: 2, name: "ml-platform", description: "Shared GPU capacity.", created: at(12) },
];

const imageSpecs = [
  { name: "ubuntu-22.04-x64-nvidia-550", distro: "ubuntu", version: "22.04", visibility: "public", size: 5_368_709_120, driver: ["proprietary", "550.127.05"], cuda: null },
  { name: "ubuntu-24.04-x64-nvidia-560-cuda-12.6", distro: "ubuntu", version: "24.04", visibility: "public", size: 7_516_192_768, driver: ["open", "560.35.03"], cuda: "12.6" },
  { name: "debian-12-x64-nvidia-535", distro: "debian", version: "12", visibility: "public", size: 4_831_838_208, driver: ["proprietary", "535.216.01"], cuda: null },
  { name: "acme-llm-trainer-v3", distro: "ubuntu", version: "22.04", visibility: "private", size: 21_474_836_480, driver: null, cuda: null },
] as const;

const gpuImages: DemoGpuImage[] = [];
for (const [project, region, count] of [
  [1, 1, 3],
  [1, 2, 2],
  [3, 1, 4],
  [3, 2, 3],
  [2, 1, 2],
  [4, 2, 1],
] as const) {
  const account: AccountId = project % 2 === 1 ? 1 : 2;
  for (const [index, spec] of imageSpecs.slice(0, count).entries()) {
    const name = spec.visibility === "private" && account === 2 ? "globex-inference-base" : spec.name;
    gpuImages.push({
      id: uuidFrom(`gpu-image:${project}:${region}:${index}`),
      account_id: account,
      project_id: project,
      region_id: region,
      name,
      architecture: "x86_64",
      os_distro: spec.distro,
      os_type: "linux",
      os_version: spec.version,
      ssh_key: spec.visibility === "private" ? "required" : "allow",
      status: index === 2 && project === 3 && region === 2 ? "queued" : "active",
      visibility: spec.visibility,
      created_at: at(50 + index * 7 + region, project),
      updated_at: at(150 + index * 7 + region, project),
      min_disk: spec.visibility === "private" ? 100 : 40,
      min_ram: spec.visibility === "private" ? 65536 : 16384,
      size: spec.size,
      tags: [
        { key: "os", read_only: true, value: `${spec.distro}-${spec.version}` },
        ...(spec.visibility === "private" ? [{ key: "team", read_only: false, value: account === 1 ? "research" : "ml" }] : []),
      ],
      task_id: index === 2 && project === 3 && region === 2 ? uuidFrom("task:image-upload") : null,
      disk_format: spec.visibility === "private" ? "raw" : "qcow2",
      hw_firmware_type: spec.visibility === "private" ? "uefi" : null,
      cuda_toolkit_version: spec.cuda,
      gpu_driver: spec.driver ? "nvidia" : null,
      gpu_driver_type: spec.driver ? spec.driver[0] : null,
      gpu_driver_version: spec.driver ? spec.driver[1] : null,
    });
  }
}

// Tasks: the upload still running for the "queued" image, a finished upload (the task takes its image's
// id, as uploads through the API do) and a finished deletion of account 2.
const queuedImage = gpuImages.find((image) => image.status === "queued")!;
const uploadedImage = gpuImages.find((image) => image.account_id === 1 && image.visibility === "private")!;
const cloudTasks: DemoCloudTask[] = [
  {
    id: queuedImage.task_id!,
    account_id: 1,
    user_id: userOf(1, 1),
    project_id: queuedImage.project_id,
    region_id: queuedImage.region_id,
    task_type: "upload_gpu_virtual_image",
    state: "RUNNING",
    created_resources: null,
    data: { image_name: queuedImage.name },
    created_on: queuedImage.created_at,
    finished_on: null,
  },
  {
    id: uploadedImage.id,
    account_id: 1,
    user_id: userOf(1, 3),
    project_id: uploadedImage.project_id,
    region_id: uploadedImage.region_id,
    task_type: "upload_gpu_virtual_image",
    state: "FINISHED",
    created_resources: { images: [uploadedImage.id] },
    data: { image_name: uploadedImage.name },
    created_on: uploadedImage.created_at,
    finished_on: uploadedImage.created_at,
  },
  {
    id: uuidFrom("task:image-delete:2"),
    account_id: 2,
    user_id: userOf(2, 1),
    project_id: 2,
    region_id: 1,
    task_type: "delete_gpu_virtual_image",
    state: "FINISHED",
    created_resources: null,
    data: { image_id: uuidFrom("gpu-image:2:1:deleted") },
    created_on: at(160, 2),
    finished_on: at(160, 2),
  },
];

interface UsageSpec {
  type: string;
  flavor: string;
  instanceType: string | null;
  volumeType: string | null;
  metric: string;
  feature: string;
  /** The platform's unit of the type: minutes, gbminutes (GiB times minutes) or bytes. */
  unit: string;
  base: number;
  /** Per unit. */
  price: number;
}

const GIB = 1024 ** 3;
const usageSpecs: UsageSpec[] = [
  { type: "instance", flavor: "g1-standard-4-16", instanceType: null, volumeType: null, metric: "vm_minutes", feature: "instance", unit: "minutes", base: 720 * 60, price: 0.085 / 60 },
  { type: "instance", flavor: "g2-gpu-1xl40s", instanceType: null, volumeType: null, metric: "vm_minutes", feature: "gpu instance", unit: "minutes", base: 160 * 60, price: 1.45 / 60 },
  { type: "egress_traffic", flavor: "", instanceType: "vm", volumeType: null, metric: "traffic_bytes", feature: "internet egress", unit: "bytes", base: 1800 * GIB, price: 0.01 / GIB },
  { type: "volume", flavor: "ssd_hiiops", instanceType: null, volumeType: "ssd_hiiops", metric: "volume_gbminutes", feature: "ssd volume", unit: "gbminutes", base: 250_000 * 60, price: 0.00014 / 60 },
  { type: "floatingip", flavor: "", instanceType: null, volumeType: null, metric: "ip_minutes", feature: "floating ip", unit: "minutes", base: 1440 * 60, price: 0.004 / 60 },
  { type: "inference", flavor: "inference-4vcpu-16gib-1xl40s-48gb", instanceType: null, volumeType: null, metric: "inference_minutes", feature: "inference deployment", unit: "minutes", base: 300 * 60, price: 1.2 / 60 },
];

const usageLines: DemoUsageLine[] = [];
const usageCounter: Record<AccountId, number> = { 1: 0, 2: 0 };
const months = ["2026-08", "2026-09", "2026-10"] as const;
for (const account of [1, 2] as const) {
  for (const [monthIndex, month] of months.entries()) {
    if (account === 2 && monthIndex === 0) continue;
    for (const region of [1, 2]) {
      for (const spec of account === 1 ? usageSpecs : usageSpecs.slice(0, 3)) {
        if (spec.type === "inference" && region === 1) continue;
        const factor = 1 + monthIndex * 0.1 + (region === 2 ? -0.3 : 0);
        // Bytes are whole; the other units keep two decimals.
        const billingValue = spec.unit === "bytes" ? Math.round(spec.base * factor) : Math.round(spec.base * factor * 100) / 100;
        usageCounter[account] += 1;
        const n = usageCounter[account];
        const noPrice = account === 1 && spec.type === "inference" && month === "2026-10";
        usageLines.push({
          id: idOf(account, n),
          account_id: account,
          month,
          type: spec.type,
          region_id: region,
          flavor: spec.flavor,
          instance_type: spec.instanceType,
          volume_type: spec.volumeType,
          billing_metric_name: spec.metric,
          billing_feature_name: spec.feature,
          billing_value_unit: spec.unit,
          currency: "EUR",
          billing_value: billingValue,
          // One line without a price: the cost report shows err and price_status "error" for it.
          cost: noPrice ? null : Math.round(billingValue * spec.price * 100) / 100,
          tags:
            spec.type === "egress_traffic"
              ? {}
              : { env: region === 1 ? "production" : "staging", team: spec.type === "inference" ? "ML-Research" : "web-platform" },
        });
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Security
// ---------------------------------------------------------------------------------------------

const portList = { type: "array", items: { type: "integer", minimum: 0, maximum: 65535 }, uniqueItems: true, maxItems: 64 };

const securityTemplates: DemoSecurityProfileTemplate[] = [
  {
    id: 1,
    name: "Basic DDoS protection",
    description: "Filters volumetric attacks on the listed TCP ports.",
    base_template: null,
    version: uuidFrom("security-template:1:v1"),
    created: at(1),
    template_sifter: "tcp_ports",
    account_id: null,
    accepts_ip_address: true,
    fields: [
      { id: 1, name: "tcp_ports", description: "TCP ports to protect.", field_type: "int", required: true, default: null, validation_schema: portList },
      {
        id: 2,
        name: "bandwidth_limit_mbps",
        description: "Clean traffic limit, Mbit/s.",
        field_type: "int",
        required: false,
        default: "1000",
        validation_schema: { type: "array", items: { type: "integer", minimum: 10, maximum: 100000 }, minItems: 1, maxItems: 1 },
      },
    ],
  },
  {
    id: 2,
    name: "Game server",
    description: "Basic protection plus UDP game traffic filters.",
    base_template: 1,
    version: uuidFrom("security-template:2:v3"),
    created: at(3),
    template_sifter: "tcp_ports,udp_ports,allowed_countries",
    account_id: null,
    accepts_ip_address: true,
    fields: [
      { id: 3, name: "tcp_ports", description: "TCP ports to protect.", field_type: "int", required: false, default: "[]", validation_schema: portList },
      { id: 4, name: "udp_ports", description: "UDP game ports.", field_type: "int", required: true, default: null, validation_schema: portList },
      {
        id: 5,
        name: "allowed_countries",
        description: "Only these countries may connect; every country when empty.",
        field_type: "string",
        required: false,
        default: "[]",
        validation_schema: { type: "array", items: { type: "string", pattern: "^[A-Z]{2}$" } },
      },
    ],
  },
];

// Templates made for one account: account 1's protects its fixed prefixes (no address per profile).
securityTemplates.push(
  {
    id: 3,
    name: "Acme edge network",
    description: "Protects Acme's announced prefixes; the addresses are fixed by the template.",
    base_template: 1,
    version: uuidFrom("security-template:3:v1"),
    created: at(5),
    template_sifter: "tcp_ports",
    account_id: 1,
    accepts_ip_address: false,
    fields: [{ id: 6, name: "tcp_ports", description: "TCP ports to protect.", field_type: "int", required: true, default: null, validation_schema: portList }],
  },
  {
    id: 4,
    name: "Globex game servers",
    description: "Game server protection tuned for Globex.",
    base_template: 2,
    version: uuidFrom("security-template:4:v1"),
    created: at(6),
    template_sifter: "udp_ports",
    account_id: 2,
    accepts_ip_address: true,
    fields: [{ id: 7, name: "udp_ports", description: "UDP game ports.", field_type: "int", required: true, default: null, validation_schema: portList }],
  },
);

const securityProfiles: DemoSecurityProfile[] = [
  {
    id: 1,
    account_id: 1,
    profile_template: 1,
    ip_address: "203.0.113.10",
    site: "ED",
    options: { bgp: true, active: true, price: "120.00" },
    protocols: [
      { port: 443, protocol: "tcp" },
      { port: 80, protocol: "tcp" },
    ],
    status: { status: "active", updated: at(100) },
    plan: "standard",
    fields: [
      { id: 1, base_field: 1, field_value: [80, 443] },
      { id: 3, base_field: 2, field_value: [2000] },
    ],
    created: at(70),
    updated: at(100),
    deleted: null,
  },
  {
    id: 3,
    account_id: 1,
    profile_template: 2,
    ip_address: "2001:db8::10",
    site: "LU",
    options: { bgp: false, active: true, price: "340.00" },
    protocols: [{ port: 27015, protocol: "udp" }],
    status: { status: "active", updated: at(110) },
    plan: "advanced",
    fields: [
      { id: 5, base_field: 4, field_value: [27015, 27016] },
      { id: 7, base_field: 5, field_value: ["DE", "FR", "LU"] },
    ],
    created: at(72),
    updated: at(110),
    deleted: null,
  },
  {
    id: 2,
    account_id: 2,
    profile_template: 1,
    ip_address: "198.51.100.20",
    site: "ED",
    options: { bgp: true, active: false, price: "120.00" },
    protocols: [],
    status: { status: "pending", updated: at(120) },
    plan: "standard",
    fields: [{ id: 2, base_field: 1, field_value: [22, 443] }],
    created: at(71),
    updated: at(120),
    deleted: null,
  },
  {
    // On account 1's own template with fixed addresses: no address of its own.
    id: 5,
    account_id: 1,
    profile_template: 3,
    ip_address: null,
    site: "ED",
    options: { bgp: true, active: true, price: "450.00" },
    protocols: [{ port: 443, protocol: "tcp" }],
    status: { status: "active", updated: at(115) },
    plan: "enterprise",
    fields: [{ id: 9, base_field: 6, field_value: [443] }],
    created: at(74),
    updated: at(115),
    deleted: null,
  },
  {
    // Deleted: listed only with include_deleted=true.
    id: 7,
    account_id: 1,
    profile_template: 1,
    ip_address: "203.0.113.77",
    site: "ED",
    options: { bgp: false, active: false, price: "120.00" },
    protocols: [],
    status: { status: "deleted", updated: at(130) },
    plan: "standard",
    fields: [{ id: 11, base_field: 1, field_value: [8080] }],
    created: at(76),
    updated: at(130),
    deleted: at(130),
  },
];

// ---------------------------------------------------------------------------------------------
// Storage
// ---------------------------------------------------------------------------------------------

const storages: DemoStorage[] = [
  { id: 1, account_id: 1, name: "acme-s3-lux", type: "s3", location: "s-ed1", created: at(16) },
  { id: 3, account_id: 1, name: "acme-s3-ams", type: "s3", location: "s-ams1", created: at(17) },
  { id: 2, account_id: 2, name: "globex-s3", type: "s3", location: "s-ed1", created: at(18) },
];

const buckets: DemoBucket[] = [
  { id: 1, account_id: 1, storage_id: 1, name: "media-assets", allowedOrigins: ["https://www.acme.example", "https://admin.acme.example"], created: at(20) },
  { id: 3, account_id: 1, storage_id: 1, name: "backups", allowedOrigins: [], created: at(21) },
  { id: 5, account_id: 1, storage_id: 3, name: "public-downloads", allowedOrigins: ["*"], created: at(22) },
  // The same bucket name as account 1's, in account 2's own storage.
  { id: 2, account_id: 2, storage_id: 2, name: "media-assets", allowedOrigins: ["https://www.globex.example"], created: at(23) },
  { id: 4, account_id: 2, storage_id: 2, name: "exports", allowedOrigins: ["https://reports.globex.example"], created: at(24) },
];

// ---------------------------------------------------------------------------------------------

const byId = <T extends { id: number | string }>(rows: T[]) =>
  [...rows].sort((a, b) => (typeof a.id === "number" && typeof b.id === "number" ? a.id - b.id : String(a.id).localeCompare(String(b.id))));

const fixture: DemoFixture = {
  iam: { accounts, users: byId(users), api_tokens: byId(apiTokens) },
  cdn: {
    shielding_pops: shieldingPops,
    origin_groups: byId(originGroups),
    certificates: byId(certificates),
    resources: byId(cdnResources),
    features: byId(cdnFeatures),
    logs_uploader_targets: byId(logsUploaderTargets),
    logs_uploader_policies: byId(logsUploaderPolicies),
    logs_uploader_configs: byId(logsUploaderConfigs),
  },
  edge: {
    plans: edgePlans,
    binaries: byId(edgeBinaries),
    templates: byId(edgeTemplates),
    secrets: byId(edgeSecrets),
    apps: byId(edgeApps),
  },
  streaming: { streams: byId(streams), broadcasts: byId(broadcasts), clips },
  cloud: {
    inference_models: inferenceModels,
    regions: cloudRegions,
    projects: byId(cloudProjects),
    gpu_images: gpuImages,
    tasks: cloudTasks,
    usage_lines: byId(usageLines),
  },
  security: { profile_templates: securityTemplates, profiles: byId(securityProfiles) },
  storage: { storages: byId(storages), buckets: byId(buckets) },
};

const target = new URL("../fixtures/demo.json", import.meta.url);
await writeFile(target, `${JSON.stringify(fixture, null, 2)}\n`);
console.log(`Wrote ${fileURLToPath(target)}`);
