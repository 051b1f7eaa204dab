/**
 * Writes fixtures/demo.json, the demo data, deterministically: run `pnpm --filter @cloudplane/db
 * generate:fixture` after changing this script and commit the JSON. Account 1 gets the odd ids of
 * every account-owned kind and account 2 the even ones, so a query that forgets the account shows.
 */
import { createHash } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import {
  ACME_CERTIFICATE_PEM,
  ACME_ORIGIN_CA_PEM,
  ACME_PRIVATE_KEY_PEM,
  CDN_PRESETS,
  DEMO_ISSUING_CA_PEM,
  GLOBEX_CERTIFICATE_PEM,
  GLOBEX_ORIGIN_CA_PEM,
  GLOBEX_PRIVATE_KEY_PEM,
  LOGS_UPLOADER_POLICY_DEFAULTS,
} from "@cloudplane/contract";
import { getTableColumns } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { DEMO_PLAINTEXTS, type DemoFixture, type DemoRow, type DemoTableName, type DemoTokenName } from "../src/demo-fixture.js";
import * as schema from "../src/schema/index.js";

type AccountId = 1 | 2;

type Row<K extends DemoTableName> = DemoRow<K>;

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

/** A parent row whose child rows are written with it, as the API shows them: the children go to their own table's list. */
function withChildren<P, C>(row: P, table: C[], children: C[]): P {
  table.push(...children);
  return row;
}

// ---------------------------------------------------------------------------------------------
// IAM
// ---------------------------------------------------------------------------------------------

const accountNames: Record<AccountId, { name: string; domain: string }> = {
  1: { name: "Acme Media", domain: "acme.example" },
  2: { name: "Globex Streaming", domain: "globex.example" },
};

const accounts: Row<"accounts">[] = ([1, 2] as const).map((id) => ({
  id,
  name: accountNames[id].name,
  utilizationLevel: id === 1 ? 3 : 0,
  cname: `cl-${hex(`account-cname:${id}`, 8)}.cdn.cloudplane.example`,
  useBalancer: id === 1,
  autoSuspendEnabled: id === 2,
  cdnResourcesRulesMaxCount: id === 1 ? 50 : 25,
  cdnServiceEnabled: true,
  cdnServiceStatus: "active",
  cdnServiceUpdated: at(id, 30),
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

const users: Row<"users">[] = ([1, 2] as const).flatMap((account) =>
  userSpecs.map((spec) => {
    const name = spec.first[account];
    return {
      id: idOf(account, spec.n),
      accountId: account,
      name,
      email: `${name.split(" ")[0]?.toLowerCase()}@${accountNames[account].domain}`,
      roleId: spec.role,
      phone: null,
      company: "",
      lang: "en",
      authTypes: ["password"],
      activated: true,
      deleted: "deleted" in spec ? spec.deleted : false,
      created: at(spec.n * 3 + account),
    };
  }),
);

const userOf = (account: AccountId, n: number) => idOf(account, n);

const tokenSpecs: { n: number; name: DemoTokenName; user: number; description: string; exp: string | null; deleted: boolean; lastUsage: boolean }[] = [
  { n: 1, name: "role-1-active", user: 1, description: "Active token of an Administrator (role 1).", exp: null, deleted: false, lastUsage: true },
  { n: 2, name: "role-2-active", user: 2, description: "Active token of a User (role 2): read-only.", exp: "2099-12-31T23:59:59.000Z", deleted: false, lastUsage: true },
  { n: 3, name: "role-5-active", user: 3, description: "Active token of an Engineer (role 5).", exp: null, deleted: false, lastUsage: false },
  { n: 4, name: "role-3009-active", user: 4, description: "Active token of a Purge and Prefetch only (API and Web) user (role 3009).", exp: null, deleted: false, lastUsage: false },
  { n: 5, name: "role-3022-active", user: 5, description: "Active token of a Purge and Prefetch only (API) user (role 3022).", exp: "2099-06-30T00:00:00.000Z", deleted: false, lastUsage: false },
  { n: 6, name: "role-5-expired", user: 3, description: "Expired token of an Engineer (role 5).", exp: "2026-03-01T00:00:00.000Z", deleted: false, lastUsage: true },
  { n: 7, name: "role-2-deleted", user: 2, description: "Revoked (deleted) token of a User (role 2).", exp: null, deleted: true, lastUsage: true },
  { n: 8, name: "role-1-ci", user: 6, description: "Active token of a second Administrator (role 1), for CI.", exp: "2099-01-01T00:00:00.000Z", deleted: false, lastUsage: true },
];

const apiTokens: Row<"apiTokens">[] = ([1, 2] as const).flatMap((account) =>
  tokenSpecs.map((spec) => ({
    id: idOf(account, spec.n),
    accountId: account,
    userId: userOf(account, spec.user),
    name: spec.name,
    description: spec.description,
    plaintext: `cp_demo_${hex(`demo-token:${account}:${spec.name}`, 32)}`,
    expDate: spec.exp,
    created: at(20 + spec.n, account),
    lastUsage: spec.lastUsage ? at(250 + spec.n, 15 * account) : null,
    deleted: spec.deleted,
  })),
);

// ---------------------------------------------------------------------------------------------
// CDN
// ---------------------------------------------------------------------------------------------

const shieldingPops: Row<"shieldingPops">[] = [
  { id: 1, datacenter: "fra-2", city: "Frankfurt", country: "DE" },
  { id: 2, datacenter: "ams-1", city: "Amsterdam", country: "NL" },
  { id: 3, datacenter: "ash-1", city: "Ashburn", country: "US" },
  { id: 4, datacenter: "sin-1", city: "Singapore", country: "SG" },
];

const originGroupSources: Row<"originGroupSources">[] = [];

/** An origin group without origin authentication; its sources, in their order, go to their own table. */
function originGroup(
  group: Omit<Row<"originGroups">, "authType" | "created" | "updated">,
  [created, updated]: [number, number],
  sources: Omit<Row<"originGroupSources">, "accountId" | "originGroupId" | "position">[],
): Row<"originGroups"> {
  const row = { ...group, authType: "none", created: at(created), updated: at(updated) };
  return withChildren(row, originGroupSources, sources.map((source, position) => ({ accountId: group.accountId, originGroupId: group.id, position, ...source })));
}

const originGroups: Row<"originGroups">[] = [
  originGroup({ id: 1, accountId: 1, name: "acme-web-origins", useNext: true, path: "", proxyNextUpstream: ["error", "timeout", "http_502", "http_503"] }, [10, 40], [
    { backup: false, enabled: true, source: "origin-1.acme.example", hostHeaderOverride: null },
    { backup: false, enabled: true, source: "origin-2.acme.example", hostHeaderOverride: "www.acme.example" },
    { backup: true, enabled: true, source: "backup.acme.example:8080", hostHeaderOverride: null },
  ]),
  originGroup({ id: 3, accountId: 1, name: "acme-video-origin", useNext: false, path: "/vod", proxyNextUpstream: ["error", "timeout"] }, [12, 12], [
    { backup: false, enabled: true, source: "203.0.113.50:8443", hostHeaderOverride: null },
  ]),
  originGroup({ id: 5, accountId: 1, name: "acme-unused-origins", useNext: true, path: "", proxyNextUpstream: ["error", "timeout", "invalid_header", "http_500", "http_502", "http_503", "http_504"] }, [14, 90], [
    { backup: false, enabled: false, source: "old-origin.acme.example", hostHeaderOverride: null },
    { backup: true, enabled: true, source: "old-backup.acme.example", hostHeaderOverride: null },
  ]),
  originGroup({ id: 2, accountId: 2, name: "globex-origins", useNext: true, path: "", proxyNextUpstream: ["error", "timeout", "http_500"] }, [11, 11], [
    { backup: false, enabled: true, source: "origin.globex.example", hostHeaderOverride: null },
    { backup: true, enabled: true, source: "origin-dr.globex.example", hostHeaderOverride: null },
  ]),
  originGroup({ id: 4, accountId: 2, name: "globex-static", useNext: false, path: "/static", proxyNextUpstream: ["error"] }, [13, 13], [
    { backup: false, enabled: true, source: "static.globex.example", hostHeaderOverride: null },
  ]),
];

/** An SSL or CA certificate with the facts of its PEM (the same the API reads from it), its private key to its own table. */
function certificate(
  fields: Pick<Row<"certificates">, "id" | "accountId" | "name" | "kind" | "created"> & Partial<Row<"certificates">>,
  pem?: { chain: string; issuer: string; subjectCn: string; subjectAlt: string; notBefore: string; notAfter: string; privateKey?: string },
): Row<"certificates"> {
  if (pem?.privateKey) certificateKeys.push({ accountId: fields.accountId, certificateId: fields.id, privateKey: pem.privateKey });
  return {
    chainPem: pem?.chain ?? null,
    issuer: pem?.issuer ?? null,
    subjectCn: pem?.subjectCn ?? null,
    subjectAlt: pem?.subjectAlt ?? null,
    notBefore: pem?.notBefore ?? null,
    notAfter: pem?.notAfter ?? null,
    validateRootCa: false,
    automated: false,
    leStarted: null,
    leAttempts: 0,
    leResourceId: null,
    leCname: null,
    updated: fields.created,
    ...fields,
  };
}

const certificateKeys: Row<"certificateKeys">[] = [];

// The facts of the demo PEMs (contract: demo-certificates.ts), as the certificate routes read them.
const LEAF_VALIDITY = { notBefore: "2026-11-26T20:39:57.000Z", notAfter: "2027-12-31T20:39:57.000Z" };
const CA_VALIDITY = { notBefore: "2026-11-26T20:39:57.000Z", notAfter: "2036-11-23T20:39:57.000Z" };
const ISSUING_CA = "Demo Issuing CA R1";

const certificates: Row<"certificates">[] = [
  certificate({ id: 1, accountId: 1, name: "wildcard.acme.example", kind: "ssl", created: at(9) }, {
    chain: ACME_CERTIFICATE_PEM, issuer: ISSUING_CA, subjectCn: "*.acme.example", subjectAlt: "*.acme.example,acme.example", ...LEAF_VALIDITY, privateKey: ACME_PRIVATE_KEY_PEM,
  }),
  certificate({ id: 3, accountId: 1, name: "Acme origin CA", kind: "ca", created: at(9, 5) }, {
    chain: ACME_ORIGIN_CA_PEM, issuer: "Acme Origin CA", subjectCn: "Acme Origin CA", subjectAlt: "", ...CA_VALIDITY,
  }),
  // A Let's Encrypt certificate whose one attempt failed: no resource served HTTPS with it.
  certificate({ id: 5, accountId: 1, name: "le-video.acme.example", kind: "ssl", created: at(9, 60), automated: true, leStarted: at(9, 60), leAttempts: 1 }),
  certificate({ id: 7, accountId: 1, name: "Acme legacy CA", kind: "ca", created: at(9, 90) }, {
    chain: DEMO_ISSUING_CA_PEM, issuer: ISSUING_CA, subjectCn: ISSUING_CA, subjectAlt: "", ...CA_VALIDITY,
  }),
  certificate({ id: 2, accountId: 2, name: "www.globex.example", kind: "ssl", created: at(10) }, {
    chain: GLOBEX_CERTIFICATE_PEM, issuer: ISSUING_CA, subjectCn: "www.globex.example", subjectAlt: "www.globex.example,globex.example", ...LEAF_VALIDITY, privateKey: GLOBEX_PRIVATE_KEY_PEM,
  }),
  certificate({ id: 4, accountId: 2, name: "Globex origin CA", kind: "ca", created: at(10, 5) }, {
    chain: GLOBEX_ORIGIN_CA_PEM, issuer: "Globex Origin CA", subjectCn: "Globex Origin CA", subjectAlt: "", ...CA_VALIDITY,
  }),
  certificate({ id: 6, accountId: 2, name: "le-static.globex.example", kind: "ssl", created: at(10, 60), automated: true, leStarted: at(10, 60), leAttempts: 1 }),
  certificate({ id: 8, accountId: 2, name: "Globex legacy CA", kind: "ca", created: at(10, 90) }, {
    chain: DEMO_ISSUING_CA_PEM, issuer: ISSUING_CA, subjectCn: ISSUING_CA, subjectAlt: "", ...CA_VALIDITY,
  }),
];

/** The purges and prefetches of the demo resources, long done: [id, account, resource, cname, kind, payload, day, minute]. */
const cdnCacheRequests: Row<"cdnCacheRequests">[] = (
  [
    [1, 1, 1, "cdn.acme.example", "purge_all", { paths: [] }, 14, 0],
    [3, 1, 1, "cdn.acme.example", "purge_by_url", { urls: ["/static/app.js", "/index.html?lang=en"] }, 15, 0],
    [5, 1, 3, "downloads.acme.example", "purge_by_pattern", { paths: ["/downloads/*"] }, 16, 0],
    [7, 1, 5, "video-cdn.acme.example", "prefetch", { paths: ["/videos/launch-4k.mp4"] }, 16, 30],
    [9, 1, 3, "downloads.acme.example", "purge_by_url", { urls: ["/downloads/setup.exe"] }, 17, 0],
    [2, 2, 2, "cdn.globex.example", "purge_by_url", { urls: ["/index.html"] }, 15, 0],
    [4, 2, 4, "static-cdn.globex.example", "purge_by_pattern", { paths: ["/static/css*"] }, 16, 0],
    [6, 2, 2, "cdn.globex.example", "purge_all", { paths: [] }, 17, 0],
  ] as const
).map(([id, accountId, resourceId, cname, kind, payload, day, minute]) => ({
  id,
  accountId,
  resourceId,
  cname,
  kind,
  payload: JSON.parse(JSON.stringify(payload)) as Row<"cdnCacheRequests">["payload"],
  created: at(day, minute),
}));

/** The options preset `id` of the catalogue writes onto the object it is applied to. */
function presetOptions(id: number): Record<string, Record<string, unknown>> {
  return structuredClone(CDN_PRESETS.find((preset) => preset.id === id)!.preset_settings.options) as Record<string, Record<string, unknown>>;
}

const cdnResourceHostnames: Row<"cdnResourceHostnames">[] = [];

/** A CDN resource with the defaults but for `fields`; its secondary host names, in their order, go to their own table. */
function cdnResource(
  fields: Partial<Row<"cdnResources">> & Pick<Row<"cdnResources">, "id" | "accountId" | "name" | "cname" | "originGroupId">,
  secondaryHostnames: string[] = [],
): Row<"cdnResources"> {
  const { accountId, id: resourceId } = fields;
  const hostnames = secondaryHostnames.map((hostname, position) => ({ accountId, resourceId, position, hostname }));
  const row: Row<"cdnResources"> = {
    description: "",
    active: true,
    enabled: true,
    status: "active",
    deleted: false,
    created: at(15 + fields.id),
    updated: at(100 + fields.id),
    originProtocol: "HTTP",
    shieldingPopId: null,
    shieldRoutingMap: null,
    sslEnabled: false,
    sslDataId: null,
    proxySslEnabled: false,
    proxySslCaId: null,
    proxySslDataId: null,
    presetApplied: false,
    vpEnabled: false,
    fullCustomEnabled: false,
    canPurgeByUrls: true,
    suspendDate: null,
    suspended: false,
    primaryResourceId: null,
    isPrimary: null,
    waapDomainId: null,
    waapApiDomainEnabled: false,
    rules: [],
    options: {},
    ...fields,
  };
  return withChildren(row, cdnResourceHostnames, hostnames);
}

const cdnResources: Row<"cdnResources">[] = [
  cdnResource(
    {
      id: 1,
      accountId: 1,
      name: "Acme website",
      description: "The main site and its images, HTTPS only.",
      cname: "cdn.acme.example",
      originGroupId: 1,
      originProtocol: "HTTPS",
      shieldingPopId: 1,
      sslEnabled: true,
      sslDataId: 1,
      proxySslEnabled: true,
      proxySslCaId: 3,
      isPrimary: true,
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
    },
    ["static.acme.example", "img.acme.example"],
  ),
  cdnResource({
    id: 3,
    accountId: 1,
    name: "Acme downloads",
    cname: "downloads.acme.example",
    originGroupId: 1,
  }),
  cdnResource(
    {
      id: 5,
      accountId: 1,
      name: "Acme video",
      description: "Video segments with hotlink protection and rate limits.",
      cname: "video-cdn.acme.example",
      originGroupId: 3,
      originProtocol: "MATCH",
      shieldingPopId: 2,
      vpEnabled: true,
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
        // Preset 3 (Video streaming (HLS)) applied over its own options (see cdnAppliedPresets).
        ...presetOptions(3),
      },
      presetApplied: true,
    },
    ["video.acme.example"],
  ),
  cdnResource({
    id: 7,
    accountId: 1,
    name: "Acme legacy API",
    description: "Suspended: no traffic for months.",
    cname: "legacy-api.acme.example",
    originGroupId: 1,
    active: false,
    enabled: false,
    status: "suspended",
    suspended: true,
    suspendDate: at(240),
    sslEnabled: true,
    sslDataId: 1,
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
  cdnResource(
    {
      id: 2,
      accountId: 2,
      name: "Globex site",
      cname: "cdn.globex.example",
      originGroupId: 2,
      originProtocol: "HTTPS",
      shieldingPopId: 3,
      sslEnabled: true,
      sslDataId: 2,
      options: {
        edge_cache_settings: { enabled: true, value: "1h" },
        gzipOn: { enabled: true, value: true },
        redirect_http_to_https: { enabled: true, value: true },
        waap: { enabled: false, value: false },
      },
    },
    // The same host name as one of account 1's resources: host names are unique per account only.
    ["static.acme.example", "www.globex.example"],
  ),
  cdnResource({
    id: 4,
    accountId: 2,
    name: "Globex static",
    cname: "static-cdn.globex.example",
    originGroupId: 4,
    // Preset 1 (Static website) applied over its own options.
    presetApplied: true,
    options: { browser_cache_settings: { enabled: true, value: "86400s" }, use_rsa_le_cert: { enabled: true, value: true }, ...presetOptions(1) },
  }),
];

/** A rule of a resource with the defaults but for `fields`. */
function cdnRule(
  fields: Partial<Row<"cdnResourceRules">> & Pick<Row<"cdnResourceRules">, "id" | "accountId" | "resourceId" | "name" | "rule">,
): Row<"cdnResourceRules"> {
  return {
    ruleType: 0,
    weight: 1,
    active: true,
    originGroupId: null,
    overrideOriginProtocol: null,
    options: {},
    presetApplied: false,
    created: at(120 + fields.id),
    updated: at(130 + fields.id),
    ...fields,
  };
}

// Each account's first resource has rules, one of them with a rule preset applied (see cdnAppliedPresets).
const cdnResourceRules: Row<"cdnResourceRules">[] = [
  cdnRule({
    id: 1,
    accountId: 1,
    resourceId: 1,
    name: "Static assets",
    rule: "^/static/",
    options: { browser_cache_settings: { enabled: true, value: "1d" }, edge_cache_settings: { enabled: true, default: "7d" } },
  }),
  cdnRule({
    id: 2,
    accountId: 1,
    resourceId: 1,
    name: "Images",
    rule: "^/images/.*\\.(jpe?g|png)$",
    weight: 2,
    originGroupId: 3,
    overrideOriginProtocol: "HTTP",
    presetApplied: true,
    options: presetOptions(4),
  }),
  cdnRule({
    id: 3,
    accountId: 2,
    resourceId: 2,
    name: "Checkout",
    rule: "^/checkout/",
    overrideOriginProtocol: "HTTPS",
    presetApplied: true,
    options: presetOptions(5),
  }),
  cdnRule({
    id: 4,
    accountId: 2,
    resourceId: 2,
    name: "Legacy downloads",
    rule: "files/",
    ruleType: 1,
    weight: 3,
    active: false,
    options: {
      query_string_forwarding: { enabled: true, forward_from_file_types: ["m3u8"], forward_to_file_types: ["ts"], forward_only_keys: ["token"] },
      rewrite: { enabled: true, body: "/files/(.*) /downloads/$1", flag: "break" },
    },
  }),
];

const cdnRuleTemplates: Row<"cdnRuleTemplates">[] = [
  {
    id: 1,
    accountId: 1,
    name: "Long cache for fonts",
    rule: "^/fonts/",
    ruleType: 0,
    weight: 5,
    overrideOriginProtocol: null,
    options: { browser_cache_settings: { enabled: true, value: "30d" }, cors: { enabled: true, value: ["*"] } },
    created: at(140),
    updated: at(140),
  },
  {
    id: 2,
    accountId: 2,
    name: "Media over HTTPS",
    rule: "^/media/",
    ruleType: 0,
    weight: 2,
    overrideOriginProtocol: "HTTPS",
    options: { edge_cache_settings: { enabled: true, value: "1h", custom_values: { "404": "10s" } } },
    created: at(141),
    updated: at(141),
  },
];

/** The presets applied: to a resource (resourceId) or to a rule (ruleId); the objects' options hold what they wrote. */
const cdnAppliedPresets: Row<"cdnAppliedPresets">[] = [
  { id: 1, accountId: 1, presetId: 3, resourceId: 5, ruleId: null, created: at(150) },
  { id: 2, accountId: 1, presetId: 4, resourceId: null, ruleId: 2, created: at(151) },
  { id: 3, accountId: 2, presetId: 1, resourceId: 4, ruleId: null, created: at(152) },
  { id: 4, accountId: 2, presetId: 5, resourceId: null, ruleId: 3, created: at(153) },
];

const cdnFeatures: Row<"cdnFeatures">[] = [
  { id: 1, accountId: 1, featureId: 7, name: "Image optimization", paid: true, created: at(30) },
  { id: 3, accountId: 1, featureId: 12, name: "Origin shielding", paid: true, created: at(31) },
  { id: 5, accountId: 1, featureId: 101, name: "Brotli compression", paid: false, created: at(5) },
  { id: 7, accountId: 1, featureId: 102, name: "HTTP/3", paid: false, created: at(5) },
  { id: 2, accountId: 2, featureId: 12, name: "Origin shielding", paid: true, created: at(33) },
  { id: 4, accountId: 2, featureId: 101, name: "Brotli compression", paid: false, created: at(6) },
];

/** The last check of a logs uploader target or config, in its columns. */
const check = (status: "in_progress" | "successful", statusCode: number, statusUpdated: string) => ({ status, statusCode, statusUpdated, statusDetails: "" });

const logsUploaderTargets: Row<"logsUploaderTargets">[] = ([1, 2] as const).map((account) => ({
  id: idOf(account, 1),
  accountId: account,
  name: `${account === 1 ? "acme" : "globex"}-cdn-logs`,
  description: "Raw CDN access logs, uploaded every 5 minutes.",
  storageType: account === 1 ? "s3_vendor" : "s3_amazon",
  ...check("successful", 200, at(60 + account)),
  accessKeyId: `AKIADEMO${hex(`access-key:${account}`, 12).toUpperCase()}`,
  secretAccessKey: `demo-secret-access-key-${hex(`secret-access-key:${account}`, 24)}`,
  region: account === 1 ? "s-ed1" : "eu-central-1",
  bucketName: `${account === 1 ? "acme" : "globex"}-cdn-logs`,
  directory: account === 1 ? "cdn/raw" : null,
  endpoint: account === 1 ? "https://s-ed1.storage.cloudplane.example" : null,
  usePathStyle: account === 1,
  created: at(58 + account),
  updated: at(60 + account),
}));

/** A row of `table` from an object in the API's field names, which are the table's SQL column names. */
function fromColumnNames<K extends DemoTableName>(table: K, fields: object): Partial<Row<K>> {
  const keys = new Map(Object.entries(getTableColumns(schema[table] as PgTable)).map(([key, column]) => [column.name, key]));
  return Object.fromEntries(Object.entries(fields).map(([name, value]) => [keys.get(name) ?? name, value])) as Partial<Row<K>>;
}

/** A policy with the platform's defaults but for `overrides`. */
const logsUploaderPolicy = (id: number, account: AccountId, overrides: Partial<Row<"logsUploaderPolicies">>): Row<"logsUploaderPolicies"> =>
  ({
    id,
    accountId: account,
    ...fromColumnNames("logsUploaderPolicies", LOGS_UPLOADER_POLICY_DEFAULTS),
    fields: [...LOGS_UPLOADER_POLICY_DEFAULTS.fields],
    tags: {},
    created: at(56 + account),
    updated: at(57 + account),
    ...overrides,
  }) as Row<"logsUploaderPolicies">;

const logsUploaderPolicies: Row<"logsUploaderPolicies">[] = [
  logsUploaderPolicy(1, 1, { name: "acme-standard", description: "Every field, the standard text format." }),
  // JSON lines of a few fields and a tag, half of the requests: the policy a test of the field rules starts from.
  logsUploaderPolicy(3, 1, {
    name: "acme-json-sample",
    description: "Half of the requests as JSON lines, tagged with the environment.",
    fields: ["remote_addr", "time_local", "request", "status", "bytes_sent", "upstream_cache_status", "env"],
    formatType: "json",
    tags: { env: "production" },
    logSampleRate: 0.5,
    rotateIntervalMinutes: 15,
    rotateThresholdMb: 100,
    includeShieldLogs: true,
  }),
  logsUploaderPolicy(2, 2, { name: "globex-standard" }),
];

const logsUploaderConfigResources: Row<"logsUploaderConfigResources">[] = [];

/** A logs uploader config; the resources it applies to go to their own table. */
const logsUploaderConfig = (config: Row<"logsUploaderConfigs">, resources: number[]) =>
  withChildren(config, logsUploaderConfigResources, resources.map((resourceId) => ({ accountId: config.accountId, configId: config.id, resourceId })));

const logsUploaderConfigs: Row<"logsUploaderConfigs">[] = [
  logsUploaderConfig(
    {
      id: 1,
      accountId: 1,
      name: "acme-all-resources",
      enabled: true,
      forAllResources: true,
      policyId: 1,
      targetId: 1,
      ...check("successful", 200, at(62)),
      created: at(61),
      updated: at(62),
    },
    [],
  ),
  logsUploaderConfig(
    {
      id: 3,
      accountId: 1,
      name: "acme-sampled",
      enabled: false,
      forAllResources: false,
      policyId: 3,
      targetId: 1,
      ...check("in_progress", 0, at(63)),
      created: at(63),
      updated: at(63),
    },
    [1, 3],
  ),
  logsUploaderConfig(
    {
      id: 2,
      accountId: 2,
      name: "globex-static",
      enabled: true,
      forAllResources: false,
      policyId: 2,
      targetId: 2,
      ...check("successful", 200, at(64)),
      created: at(62),
      updated: at(64),
    },
    [4],
  ),
];

// ---------------------------------------------------------------------------------------------
// Edge apps
// ---------------------------------------------------------------------------------------------

const edgePlans: Row<"edgePlans">[] = [
  { id: 1, name: "basic", maxDurationMs: 50, memoryLimitMb: 128, maxSubrequests: 10 },
  { id: 2, name: "pro", maxDurationMs: 200, memoryLimitMb: 256, maxSubrequests: 50 },
  { id: 3, name: "enterprise", maxDurationMs: 1000, memoryLimitMb: 1024, maxSubrequests: 500 },
];

const binary = (
  id: number,
  account: AccountId | null,
  apiType: "wasi-http" | "proxy-wasm",
  day: number,
  more: Partial<Pick<Row<"edgeBinaries">, "status" | "source" | "unrefSince">> = {},
): Row<"edgeBinaries"> => ({
  id,
  accountId: account,
  apiType,
  checksum: hex(`binary:${id}`),
  status: 1,
  source: (id % 3) + 1,
  unrefSince: null,
  created: at(day),
  content: null,
  ...more,
});

const edgeBinaries: Row<"edgeBinaries">[] = [
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
  binary(11, 1, "wasi-http", 160, { unrefSince: at(170) }),
  binary(13, 1, "proxy-wasm", 161, { status: 2, source: 0 }),
];

const edgeTemplateParams: Row<"edgeTemplateParams">[] = [];

/** The parameters of a template: name, data type, mandatory, description (and metadata where it has some). */
type ParamSpec = [name: string, dataType: string, mandatory: boolean, descr: string, metadata?: string];

/** A template, run by the binary of the same id; its parameters, in their order, go to their own table. */
function edgeTemplate(
  id: number,
  account: AccountId | null,
  apiType: "wasi-http" | "proxy-wasm",
  day: number,
  [name, shortDescr, longDescr]: [string, string, string],
  params: ParamSpec[],
): Row<"edgeTemplates"> {
  const row = { id, accountId: account, binaryId: id, name, shortDescr, longDescr, apiType, created: at(day) };
  return withChildren(
    row,
    edgeTemplateParams,
    params.map(([paramName, dataType, mandatory, descr, metadata = null], position) => ({ templateId: id, position, name: paramName, dataType, mandatory, descr, metadata })),
  );
}

const edgeTemplates: Row<"edgeTemplates">[] = [
  edgeTemplate(1001, null, "wasi-http", 2, ["Geo redirect", "Redirects visitors by country.", "Answers with a redirect to a per-country URL, read from the visitor's geo data."], [
    ["DEFAULT_URL", "string", true, "Where visitors from other countries go."],
    ["COUNTRY_URLS", "string", false, "Comma-separated CC=URL pairs."],
  ]),
  edgeTemplate(1002, null, "proxy-wasm", 2, ["Header rewrite", "Adds, changes or removes headers.", "Applies header rules to requests and responses with the proxy-wasm ABI."], [
    ["REQUEST_RULES", "string", false, "Rules for request headers."],
    ["RESPONSE_RULES", "string", false, "Rules for response headers."],
  ]),
  edgeTemplate(1, 1, "wasi-http", 20, ["Image resize", "Resizes images on the fly.", "Reads width and quality from the query string and answers with a resized image."], [
    ["MAX_WIDTH", "number", true, "Largest width served, pixels."],
    ["QUALITY", "number", false, "JPEG and WebP quality, 1 to 100."],
    ["ORIGIN_URL", "string", true, "Where the original images are."],
  ]),
  edgeTemplate(3, 1, "proxy-wasm", 21, ["Auth gateway", "Checks JWTs before the origin.", "Validates the bearer JWT of each request and forwards the claims as headers."], [
    ["JWKS_URL", "string", true, "The key set that signs the tokens."],
    ["AUDIENCE", "string", false, "Expected aud claim."],
  ]),
  edgeTemplate(5, 1, "wasi-http", 22, ["A/B testing", "Splits traffic between two origins.", "Assigns each visitor to variant A or B with a sticky cookie."], [
    ["SPLIT_PERCENT", "number", true, "Share of visitors sent to B."],
    ["COOKIE_NAME", "string", false, "Cookie that keeps the variant."],
    ["ASSIGNMENT", "enum", false, "How a visitor is put in a variant.", '{"values":["cookie","header","random"]}'],
  ]),
  edgeTemplate(2, 2, "wasi-http", 25, ["Custom router", "Routes by path prefix.", "Sends each path prefix to its own backend."], [
    ["ROUTES", "string", true, "prefix=backend pairs, comma separated."],
  ]),
];

const edgeSecretSlots: Row<"edgeSecretSlots">[] = [];

/** A secret; its slots go to their own table. */
const edgeSecret = (secret: Row<"edgeSecrets">, slots: Pick<Row<"edgeSecretSlots">, "slot" | "value">[]) =>
  withChildren(secret, edgeSecretSlots, slots.map((slot) => ({ accountId: secret.accountId, secretId: secret.id, ...slot })));

const edgeSecrets: Row<"edgeSecrets">[] = [
  edgeSecret(
    {
      id: 1,
      accountId: 1,
      name: "stripe-api-key",
      comment: "Payments, rotated on 2027-01-01.",
      created: at(40),
      updated: at(40),
    },
    [
      { slot: 0, value: "sk_demo_acme_2a3b4c5d6e7f8091a2b3c4d5" },
      { slot: 1798761600, value: "sk_demo_acme_rotated_9f8e7d6c5b4a3928" },
    ],
  ),
  edgeSecret(
    {
      id: 3,
      accountId: 1,
      name: "jwt_signing_key",
      comment: "",
      created: at(41),
      updated: at(41),
    },
    [{ slot: 0, value: "demo-jwt-signing-key-acme-6b1f0c2d" }],
  ),
  edgeSecret(
    {
      id: 5,
      accountId: 1,
      name: "DB-PASSWORD",
      comment: "Read-only replica.",
      created: at(42),
      updated: at(42),
    },
    [{ slot: 0, value: "demo-db-password-acme-77c1e0" }],
  ),
  edgeSecret(
    {
      id: 2,
      accountId: 2,
      // The same name as account 1's secret: names are unique per account only.
      name: "stripe-api-key",
      comment: "",
      created: at(43),
      updated: at(43),
    },
    [{ slot: 0, value: "sk_demo_globex_0a1b2c3d4e5f6a7b8c9d" }],
  ),
  edgeSecret(
    {
      id: 4,
      accountId: 2,
      name: "origin-token",
      comment: "Shared with the origin team.",
      created: at(44),
      updated: at(44),
    },
    [{ slot: 0, value: "demo-origin-token-globex-3e4f5a" }],
  ),
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

function edgeApp(account: AccountId, n: number, name: string, status: number, choice: TemplateChoice): Row<"edgeApps"> {
  const id = idOf(account, n);
  // A draft made from scratch has no binary yet.
  const binaryId = status === 0 && choice.template === null && n % 2 === 0 ? null : choice.binary;
  return {
    id,
    accountId: account,
    name,
    url: `https://${name}-${id}.${account === 1 ? "acme" : "globex"}.edge.cloudplane.example`,
    status,
    binaryId,
    templateId: choice.template,
    comment: n % 3 === 0 ? `Owned by the ${pick(["web", "video", "platform", "growth"])} team.` : "",
    apiType: choice.apiType,
    debugUntil: n % 11 === 0 ? at(318, n) : null,
    networks: [...(NETWORKS[n % NETWORKS.length] ?? [])],
    upgradeableTo: binaryId === null ? null : choice.upgradeableTo,
    planId: (n % 3) + 1,
    env: n % 4 === 0 ? { LOG_LEVEL: pick(["info", "debug", "warn"]), REGION: pick(["eu", "us"]) } : {},
    rspHeaders: n % 5 === 0 ? { "X-Edge-App": name } : {},
    log: n % 2 === 0 ? "kafka" : "none",
    created: at(30 + n, account),
    updated: at(200 + n, account),
  };
}

// Every status appears several times, the rare ones (3, 4, 5) at least twice.
const statusCycle: number[] = [1, 1, 2, 0, 1, 3, 2, 1, 4, 0, 5, 1];

const edgeApps: Row<"edgeApps">[] = account1AppNames.map((name, index) =>
  edgeApp(1, index + 1, name, statusCycle[index % statusCycle.length] ?? 1, templateChoices[index % templateChoices.length] as TemplateChoice),
);

const account2Apps: Row<"edgeApps">[] = [
  // The same name as an app of account 1: names are unique per account only.
  edgeApp(2, 1, "geo-redirect-shop", 1, { template: 1001, binary: 1001, apiType: "wasi-http", upgradeableTo: 1003 }),
  edgeApp(2, 2, "globex-router", 1, { template: 2, binary: 2, apiType: "wasi-http", upgradeableTo: null }),
  edgeApp(2, 3, "globex-headers", 2, { template: 1002, binary: 1002, apiType: "proxy-wasm", upgradeableTo: null }),
  edgeApp(2, 4, "globex-auth", 0, { template: null, binary: 4, apiType: "proxy-wasm", upgradeableTo: null }),
  edgeApp(2, 5, "globex-checkout", 3, { template: 2, binary: 2, apiType: "wasi-http", upgradeableTo: null }),
];
edgeApps.push(...account2Apps);

/** The secrets apps read, by account and app name: the environment variable and the secret's id. */
const appSecrets: Record<AccountId, Record<string, Record<string, number>>> = {
  1: { "auth-gateway-api": { JWT_KEY: 3 }, "auth-gateway-admin": { JWT_KEY: 3, DB_PASSWORD: 5 }, "ab-test-checkout": { STRIPE_KEY: 1 } },
  2: { "globex-auth": { ORIGIN_TOKEN: 4 }, "globex-checkout": { STRIPE_KEY: 2 } },
};

/** The account's KV stores: platform-kept ones and a BYOD one (its data in the account's own Redis). */
const edgeKvStores: Row<"edgeKvStores">[] = [
  { id: 1, accountId: 1, name: "product-catalog", comment: "Prices and stock, refreshed hourly.", byodPrefix: null, byodUrl: null, revision: 14, size: 524288, created: at(45), updated: at(290) },
  { id: 3, accountId: 1, name: "feature-flags", comment: "", byodPrefix: null, byodUrl: null, revision: 3, size: 2048, created: at(46), updated: at(250) },
  { id: 5, accountId: 1, name: "sessions", comment: "In Acme's own Redis.", byodPrefix: "edge:", byodUrl: "redis://cache.acme.example:6379/2", revision: 1, size: 0, created: at(47), updated: at(47) },
  { id: 2, accountId: 2, name: "routes", comment: "Router table.", byodPrefix: null, byodUrl: null, revision: 6, size: 16384, created: at(48), updated: at(260) },
];

/** The stores apps read, by account and app name: the name the app reads it under and the store's id. */
const appStores: Record<AccountId, Record<string, Record<string, number>>> = {
  1: { "feature-flags": { FLAGS: 3 }, "price-formatter": { CATALOG: 1 }, "search-suggest": { CATALOG: 1, SESSIONS: 5 } },
  2: { "globex-router": { ROUTES: 2 } },
};

// ---------------------------------------------------------------------------------------------
// Streaming
// ---------------------------------------------------------------------------------------------

/** The ingest regions a live stream's primary and backup ingest arrive in. */
const INGEST_REGIONS = ["eu-west", "eu-central", "us-east", "ap-southeast"] as const;

const QUALITY_LADDERS = [["1080p", "720p", "480p", "360p"], ["720p", "480p"], ["2160p", "1080p", "720p"], []] as const;

function stream(account: AccountId, n: number): Row<"streams"> {
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
    accountId: account,
    name: `${account === 1 ? "Acme" : "Globex"} ${pick(["news", "sports", "concert", "keynote", "studio", "webinar", "gaming", "lobby cam"])} ${n}`,
    pull,
    active: n % 9 !== 8,
    autoRecord: n % 3 === 0,
    htmlOverlay: n % 8 === 2,
    live,
    backupLive: liveWithDvr && n % 8 === 1,
    clientUserId: idOf(account, n % 2 === 0 ? 1 : 3),
    uri: pull ? `rtmp://origin.${owner}.example/live/${n}` : null,
    pushUrl: `rtmp://vp-push.cloudplane.example/in/${id}?${key}`,
    backupPushUrl: `rtmp://vp-push-backup.cloudplane.example/in/${id}?${key}`,
    pushUrlSrt: `srt://vp-push.cloudplane.example:5001?streamid=${id}#${key}`,
    backupPushUrlSrt: `srt://vp-push-backup.cloudplane.example:5001?streamid=${id}#${key}`,
    pushUrlWhip: `https://whip.cloudplane.example/whip/${id}/${key}`,
    createdAt: created,
    startedAtPrimary: neverStarted ? null : at(300 + n, account * 10),
    finishedAtPrimary: neverStarted || live ? null : at(300 + n, account * 10 + 90),
    startedAtBackup: liveWithDvr && n % 8 === 1 ? at(300 + n, account * 10 + 1) : null,
    dvrDuration: dvrDuration,
    // No recording is under way: a recording's length moves with the clock (start one with start_recording).
    recordingStartedAt: null,
    iframeUrl: `${playback}/player.html`,
    dashUrl: `${playback}/index.mpd`,
    hlsCmafUrl: `${playback}/index.m3u8`,
    hlsMpegtsUrl: `${playback}/index-ts.m3u8`,
    screenshot: `${playback}/screenshot.jpg`,
    transcodedQualities: [...(ladder ?? [])],
    transcodingSpeed: live ? 1 + Math.round(rand() * 20) / 100 : 0,
    frameRate: live ? pick([25, 29.97, 30, 50, 60]) : 0,
    videoHeight: live ? height : 0,
    videoWidth: live ? Math.round((height * 16) / 9) : 0,
    // No rand() below: drawing more numbers would change every later object of the fixture.
    cdnId: null,
    clientEntityData: n % 7 === 2 ? JSON.stringify({ event_id: `${owner}-${n}` }) : null,
    hlsMpegtsEndlistTag: n % 4 === 2,
    projection: n % 11 === 4 ? "vr360" : "regular",
    qualitySetId: null,
    recordType: n % 3 === 0 ? "transcoded" : "origin",
    streamSourceType: live ? (!pull && n % 3 === 2 ? "srt" : "rtmp") : null,
    srtPassphrase: !pull && n % 10 === 7 ? `srt-${hex(`srt-passphrase:${id}`, 20)}` : null,
    ingestRegionPrimary: live ? INGEST_REGIONS[(n - 1) % INGEST_REGIONS.length]! : null,
    ingestRegionBackup: liveWithDvr && n % 8 === 1 ? INGEST_REGIONS[n % INGEST_REGIONS.length]! : null,
    dvrClearedAt: null,
  };
}

const streams: Row<"streams">[] = [
  ...Array.from({ length: 36 }, (_, index) => stream(1, index + 1)),
  ...Array.from({ length: 8 }, (_, index) => stream(2, index + 1)),
];

/** The streams of the demo broadcasts, in order, by broadcast id. */
const broadcastStreams: Row<"broadcastStreams">[] = [];

/** A broadcast of `streamIds`, with the player settings left at their defaults unless given. */
function broadcast(
  streamIds: number[],
  row: Pick<Row<"broadcasts">, "id" | "accountId" | "name" | "status" | "created"> & Partial<Row<"broadcasts">>,
): Row<"broadcasts"> {
  broadcastStreams.push(...streamIds.map((streamId, position) => ({ accountId: row.accountId, broadcastId: row.id, position, streamId })));
  return {
    adId: null,
    customIframeUrl: null,
    pendingMessage: null,
    playerId: null,
    poster: null,
    shareUrl: null,
    showDvrAfterFinish: false,
    spectators: 0,
    ...row,
  };
}

const broadcasts: Row<"broadcasts">[] = [
  broadcast([1], {
    id: 1,
    accountId: 1,
    name: "Morning news",
    status: "live",
    created: at(310),
    poster: "https://acme.video.cloudplane.example/posters/morning-news.jpg",
    shareUrl: "https://acme.example/live/morning-news",
    showDvrAfterFinish: true,
    spectators: 148,
  }),
  broadcast([1], { id: 3, accountId: 1, name: "Evening news", status: "pending", created: at(311) }),
  broadcast([3], { id: 5, accountId: 1, name: "Cup final", status: "finished", created: at(280), showDvrAfterFinish: true }),
  // Two cameras: the stage and the slides.
  broadcast([9, 5], { id: 7, accountId: 1, name: "Product keynote", status: "live", created: at(312), spectators: 37, pendingMessage: "The keynote starts at 17:00 UTC." }),
  broadcast([2], { id: 2, accountId: 2, name: "Globex town hall", status: "pending", created: at(313), playerId: 2 }),
];

/** HTML overlays on streams that have them switched on: a scoreboard box and a ticker over the whole frame. */
const streamOverlays: Row<"streamOverlays">[] = [
  { id: 1, accountId: 1, streamId: 3, url: "https://widgets.acme.example/scoreboard.html", width: 480, height: 120, x: 40, y: 900, stretch: false, createdAt: at(300, 480), updatedAt: at(300, 480) },
  { id: 2, accountId: 1, streamId: 3, url: "https://widgets.acme.example/ticker.html", width: null, height: null, x: null, y: null, stretch: true, createdAt: at(300, 485), updatedAt: at(300, 485) },
  { id: 3, accountId: 2, streamId: 4, url: "https://widgets.globex.example/logo.html", width: 200, height: 200, x: 1680, y: 40, stretch: false, createdAt: at(301), updatedAt: at(302) },
  { id: 5, accountId: 1, streamId: 51, url: "https://widgets.acme.example/poll.html", width: 640, height: 360, x: 1240, y: 680, stretch: false, createdAt: at(303), updatedAt: at(303) },
];

/** Restreams: live while active and their stream is live. */
const restreams: Row<"restreams">[] = [
  { id: 1, accountId: 1, streamId: 1, clientUserId: 5, name: "Lobby cam to YouTube", uri: "rtmp://a.rtmp.youtube.com/live2/acme-lobby-4f2a", active: true, createdAt: at(305) },
  { id: 2, accountId: 1, streamId: 5, clientUserId: 1, name: "Webinar to Facebook", uri: "rtmps://live-api-s.facebook.com:443/rtmp/acme-webinar-77d0", active: false, createdAt: at(306) },
  { id: 3, accountId: 2, streamId: 2, clientUserId: 6, name: "Studio to partner", uri: "srt://ingest.partner.example:9000?mode=caller", active: true, createdAt: at(307) },
];

function clip(account: AccountId, n: number, streamId: number, start: number, duration: number): Row<"clips"> {
  const id = `clip_${hex(`clip:${account}:${n}`, 16)}`;
  const owner = account === 1 ? "acme" : "globex";
  return {
    id,
    accountId: account,
    streamId: streamId,
    createdAt: new Date((start + duration) * 1000 + 5000).toISOString(),
    vodRequired: false,
    videoId: null,
    renditions: streams.find((candidate) => candidate.id === streamId)?.transcodedQualities ?? [],
    hlsMaster: `https://${owner}.video.cloudplane.example/clips/${id}/master.m3u8`,
    mp4Master: `https://${owner}.video.cloudplane.example/clips/${id}/master.mp4`,
    start,
    duration,
    expiration: start + duration + 3600,
  };
}

const clips: Row<"clips">[] = [clip(1, 1, 1, 1794556800, 120), clip(1, 2, 1, 1794557400, 60), clip(2, 1, 2, 1794560000, 90)];

// Video on demand: the platform's quality sets (the catalog), and each account's directories, videos and subtitles.

const streamingQualitySets: Row<"streamingQualitySets">[] = [
  { id: 1, kind: "live", name: "Live HD", qualities: [{ id: 11, name: "live_1080p" }, { id: 12, name: "live_720p" }, { id: 13, name: "live_480p" }], platformDefault: true },
  { id: 2, kind: "live", name: "Live SD", qualities: [{ id: 12, name: "live_720p" }, { id: 13, name: "live_480p" }], platformDefault: false },
  { id: 3, kind: "vod", name: "VOD HD", qualities: [{ id: 1, name: "vod_1080p" }, { id: 2, name: "vod_720p" }], platformDefault: true },
  {
    id: 4,
    kind: "vod",
    name: "VOD full ladder",
    qualities: [{ id: 1, name: "vod_1080p" }, { id: 2, name: "vod_720p" }, { id: 5, name: "vod_480p" }, { id: 6, name: "vod_360p" }],
    platformDefault: false,
  },
];

const videoDirectories: Row<"videoDirectories">[] = [
  { id: 1, accountId: 1, name: "Marketing", parentId: null, createdAt: at(239, -60), updatedAt: at(239, -60) },
  { id: 3, accountId: 1, name: "Events", parentId: 1, createdAt: at(239, -55), updatedAt: at(239, -55) },
  { id: 5, accountId: 1, name: "Archive", parentId: null, createdAt: at(240), updatedAt: at(240) },
  { id: 2, accountId: 2, name: "Training", parentId: null, createdAt: at(241), updatedAt: at(241) },
  { id: 4, accountId: 2, name: "Old recordings", parentId: 2, createdAt: at(242), updatedAt: at(242) },
];

/** A video of the demo data; its source, when it has one, arrived long ago: it is ready (or failed). */
function video(
  account: AccountId,
  n: number,
  name: string,
  fields: Partial<Row<"videos">> & { originUrl?: string | null; durationS?: number },
): Row<"videos"> {
  const { durationS, ...rest } = fields;
  const id = idOf(account, n);
  const created = at(280 + n * 3 + account);
  const hasSource = fields.originUrl !== null || fields.streamId != null;
  return {
    id,
    accountId: account,
    clientUserId: userOf(account, 1),
    name,
    description: "",
    directoryId: null,
    originUrl: null,
    originHttpHeaders: null,
    originSize: hasSource ? (durationS ?? 600) * 250_000 : null,
    originVideoDuration: hasSource ? (durationS ?? 600) * 1000 : null,
    sourceAt: hasSource ? created : null,
    error: null,
    customIframeUrl: null,
    poster: null,
    priority: 0,
    projection: "regular",
    qualitySetId: null,
    recordType: "origin",
    streamId: null,
    recordingStartedAt: null,
    screenshotId: 0,
    shareUrl: null,
    clipStartSeconds: null,
    clipDurationSeconds: null,
    autoTranscribeAudioLanguage: "disable",
    autoTranslateSubtitlesLanguage: "disable",
    sourceBitrateLimit: true,
    views: 0,
    cdnViews: 0,
    slug: hex(`video-slug:${id}`, 12),
    createdAt: created,
    updatedAt: created,
    ...rest,
  };
}

const videos: Row<"videos">[] = [
  video(1, 1, "Product launch keynote", {
    description: "The autumn launch, full length.",
    directoryId: 1,
    originUrl: "https://media.acme.example/keynote-2026.mp4",
    durationS: 2712,
    poster: "https://media.acme.example/keynote-poster.jpg",
    views: 1840,
    cdnViews: 2210,
  }),
  video(1, 2, "Support webinar: billing", { directoryId: 1, originUrl: "https://media.acme.example/webinar-billing.mp4", durationS: 3305, qualitySetId: 4, views: 312, cdnViews: 351 }),
  video(1, 3, "Teaser (draft)", { originUrl: null }),
  video(1, 4, "Recording: Morning news", {
    originUrl: null,
    streamId: 1,
    recordType: "transcoded",
    recordingStartedAt: at(310, 30),
    durationS: 1800,
    views: 95,
    cdnViews: 120,
  }),
  video(1, 5, "Broken upload", { originUrl: "https://media.acme.example/broken.avi", error: "The source could not be read: the codec is not supported." }),
  video(1, 6, "Summer campaign", {
    directoryId: 1,
    originUrl: "https://media.acme.example/summer-campaign.mp4",
    durationS: 45,
    clipStartSeconds: 5,
    clipDurationSeconds: 30,
    autoTranscribeAudioLanguage: "eng",
    views: 5120,
    cdnViews: 6004,
  }),
  video(2, 1, "Globex all-hands", { directoryId: 2, originUrl: "https://media.globex.example/all-hands.mp4", durationS: 3600, views: 44, cdnViews: 51 }),
  video(2, 2, "Globex onboarding", { originUrl: null }),
];

const player = (account: AccountId, n: number, name: string, fields: Partial<Row<"videoPlayers">> = {}): Row<"videoPlayers"> => ({
  id: idOf(account, n),
  accountId: account,
  name,
  design: "default",
  framework: "videojs",
  autoplay: false,
  mute: false,
  disableSkin: false,
  saveOptionsToCookies: true,
  showSharing: true,
  speedControl: true,
  bgColor: "#000000",
  fgColor: "#ffffff",
  hoverColor: "#ff6600",
  textColor: "#ffffff",
  logo: null,
  logoPosition: "tr",
  customCss: "",
  jsUrl: null,
  skinIsUrl: null,
  ...fields,
});

const videoPlayers: Row<"videoPlayers">[] = [
  player(1, 1, "Acme brand player", { hoverColor: "#e4002b", logo: "https://media.acme.example/logo.png" }),
  player(1, 2, "Acme kiosk player", { autoplay: true, mute: true, showSharing: false }),
  player(2, 1, "Globex player", { bgColor: "#102030" }),
];

const videoPlaylists: Row<"videoPlaylists">[] = [
  { id: 1, accountId: 1, clientUserId: userOf(1, 1), name: "Acme product tour", active: true, playlistType: "vod", startTime: null, loop: false, countdown: false, playerId: 1 },
  { id: 3, accountId: 1, clientUserId: userOf(1, 1), name: "Acme lobby screens", active: true, playlistType: "live", startTime: at(330, 8 * 60), loop: true, countdown: true, playerId: 1 },
  { id: 2, accountId: 2, clientUserId: userOf(2, 1), name: "Globex induction", active: false, playlistType: "vod", startTime: null, loop: false, countdown: false, playerId: 2 },
];

const playlistVideos: Row<"playlistVideos">[] = [
  { accountId: 1, playlistId: 1, position: 0, videoId: 1 },
  { accountId: 1, playlistId: 1, position: 1, videoId: 3 },
  { accountId: 1, playlistId: 3, position: 0, videoId: 11 },
  { accountId: 1, playlistId: 3, position: 1, videoId: 1 },
  { accountId: 2, playlistId: 2, position: 0, videoId: 2 },
];

/** An AI task of the demo data, made long ago: it has ended. */
const aiTask = (account: AccountId, n: number, fields: Pick<Row<"aiTasks">, "taskName" | "url"> & Partial<Row<"aiTasks">>): Row<"aiTasks"> => ({
  id: uuidFrom(`ai-task:${account}:${n}`),
  accountId: account,
  category: null,
  stopObjects: null,
  audioLanguage: null,
  subtitlesLanguage: null,
  clientEntityData: null,
  clientUserId: null,
  createdAt: at(300 + n, account * 10),
  cancelledAt: null,
  ...fields,
});

const aiTasks: Row<"aiTasks">[] = [
  // The id the docs' examples name, as the create example answers it: on a new account it stands for the task the create made.
  aiTask(1, 1, { id: "0d4c2b1a-9e8f-4a7b-8c6d-5e4f3a2b1c0d", taskName: "transcription", url: "https://media.acme.example/keynote-2026.mp4", audioLanguage: "eng" }),
  aiTask(1, 2, { taskName: "content-moderation", url: "https://media.acme.example/summer-campaign.mp4", category: "nsfw", clientEntityData: '{"campaign":"summer"}' }),
  aiTask(1, 3, { taskName: "transcription", url: "https://media.acme.example/webinar-billing.mp4", subtitlesLanguage: "deu", cancelledAt: at(303, 10 + 0.1) }),
  aiTask(2, 1, { taskName: "content-moderation", url: "https://media.globex.example/all-hands.mp4", category: "sport" }),
];

const vtt = (...lines: string[]) => `WEBVTT\n\n${lines.map((line, index) => `00:00:0${index * 4 + 1}.000 --> 00:00:0${index * 4 + 4}.000\n${line}\n`).join("\n")}`;

const videoSubtitles: Row<"videoSubtitles">[] = [
  { id: 1, accountId: 1, videoId: 1, name: "English", language: "eng", vtt: vtt("Welcome to the autumn launch.", "Let's start with what's new.") },
  { id: 3, accountId: 1, videoId: 1, name: "Français", language: "fra", vtt: vtt("Bienvenue au lancement d'automne.") },
  { id: 5, accountId: 1, videoId: 11, name: "English", language: "eng", vtt: vtt("Summer is here.") },
  { id: 2, accountId: 2, videoId: 2, name: "English", language: "eng", vtt: vtt("Good morning, Globex.") },
  { id: 4, accountId: 2, videoId: 4, name: "English", language: "eng", vtt: vtt("Welcome to Globex.") },
];

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

const inferenceModels: Row<"inferenceModels">[] = modelSpecs.map(([name, developer, category, modelId, backend, openai, eula], index) => {
  const large = /70B|32B|27b|24B|Mixtral|3\.5-large|FLUX\.1-dev/.test(name);
  const port = backend === "tei" || backend === "tgi" ? 80 : backend === "triton" ? 8001 : 8000;
  return {
    id: uuidFrom(`inference-model:${modelId}`),
    name,
    category,
    defaultFlavorId: large ? "inference-16vcpu-232gib-1xh100-80gb" : "inference-4vcpu-16gib-1xl40s-48gb",
    description: `${name} by ${developer}, served with ${backend}.`,
    developer,
    documentationPage: `https://huggingface.co/${modelId}`,
    eulaUrl: eula ? `https://huggingface.co/${modelId}/blob/main/LICENSE` : "",
    exampleCurlRequest:
      openai === "chat_completions"
        ? `curl -X POST https://<deployment>/v1/chat/completions -H 'Content-Type: application/json' -d '{"model": "${modelId}", "messages": [{"role": "user", "content": "Hello"}]}'`
        : openai === "embeddings"
          ? `curl -X POST https://<deployment>/v1/embeddings -H 'Content-Type: application/json' -d '{"model": "${modelId}", "input": "Hello"}'`
          : `curl -X POST https://<deployment>/predict -F file=@input`,
    hasEula: eula,
    imageRegistryId: index % 4 === 0 ? uuidFrom(`registry:${index}`) : "",
    imageUrl: `registry.cloudplane.example/inference/${backend}:${backend === "vllm" ? "0.6.3" : "1.4.0"}`,
    inferenceBackend: backend,
    inferenceFrontend: openai === "" ? "gradio" : "openai",
    modelId: modelId,
    openaiCompatibility: openai,
    port,
    version: index % 5 === 0 ? "2.0" : "1.0",
  };
});

const cloudRegions: Row<"cloudRegions">[] = [
  {
    id: 1, name: "luxembourg-2", displayName: "Luxembourg-2", country: "LU", zone: "EMEA", accessLevel: "core", state: "ACTIVE",
    latitude: 49.6116, longitude: 6.1319, keystoneId: 76, created: at(-400),
    capabilities: ["ai", "ai_gpu", "baremetal", "basic_vm", "dbaas", "ddos", "k8s", "kvm", "sfs", "containers", "inference"],
    volumeTypes: ["standard", "ssd_hiiops", "cold"], fileShareTypes: ["standard", "vast"],
  },
  {
    id: 2, name: "frankfurt-1", displayName: "Frankfurt", country: "DE", zone: "EMEA", accessLevel: "core", state: "ACTIVE",
    latitude: 50.1109, longitude: 8.6821, keystoneId: 38, created: at(-300),
    capabilities: ["ai", "ai_gpu", "baremetal", "k8s", "kvm", "inference"], volumeTypes: ["standard", "ssd_hiiops"], fileShareTypes: ["standard"],
  },
  {
    id: 3, name: "singapore-1", displayName: "Singapore", country: "SG", zone: "APAC", accessLevel: "edge", state: "MAINTENANCE",
    latitude: 1.3521, longitude: 103.8198, keystoneId: 91, created: at(-200),
    capabilities: ["basic_vm", "kvm"], volumeTypes: ["standard"], fileShareTypes: [],
  },
];

const cloudProjects: Row<"cloudProjects">[] = [
  { id: 1, accountId: 1, name: "production", description: "Customer-facing workloads.", created: at(8) },
  { id: 3, accountId: 1, name: "research", description: "Model training experiments.", created: at(9) },
  { id: 2, accountId: 2, name: "default", description: "", created: at(8) },
  { id: 4, accountId: 2, name: "ml-platform", description: "Shared GPU capacity.", created: at(12) },
];

const imageSpecs = [
  { name: "ubuntu-22.04-x64-nvidia-550", distro: "ubuntu", version: "22.04", visibility: "public", size: 5_368_709_120, driver: ["proprietary", "550.127.05"], cuda: null },
  { name: "ubuntu-24.04-x64-nvidia-560-cuda-12.6", distro: "ubuntu", version: "24.04", visibility: "public", size: 7_516_192_768, driver: ["open", "560.35.03"], cuda: "12.6" },
  { name: "debian-12-x64-nvidia-535", distro: "debian", version: "12", visibility: "public", size: 4_831_838_208, driver: ["proprietary", "535.216.01"], cuda: null },
  { name: "acme-llm-trainer-v3", distro: "ubuntu", version: "22.04", visibility: "private", size: 21_474_836_480, driver: null, cuda: null },
] as const;

const gpuImages: Row<"gpuImages">[] = [];
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
      accountId: account,
      projectId: project,
      regionId: region,
      clusterType: "virtual",
      name,
      architecture: "x86_64",
      osDistro: spec.distro,
      osType: "linux",
      osVersion: spec.version,
      sshKey: spec.visibility === "private" ? "required" : "allow",
      status: index === 2 && project === 3 && region === 2 ? "queued" : "active",
      visibility: spec.visibility,
      createdAt: at(50 + index * 7 + region, project),
      updatedAt: at(150 + index * 7 + region, project),
      minDisk: spec.visibility === "private" ? 100 : 40,
      minRam: spec.visibility === "private" ? 65536 : 16384,
      size: spec.size,
      tags: [
        { key: "os", read_only: true, value: `${spec.distro}-${spec.version}` },
        ...(spec.visibility === "private" ? [{ key: "team", read_only: false, value: account === 1 ? "research" : "ml" }] : []),
      ],
      taskId: index === 2 && project === 3 && region === 2 ? uuidFrom("task:image-upload") : null,
      diskFormat: spec.visibility === "private" ? "raw" : "qcow2",
      hwFirmwareType: spec.visibility === "private" ? "uefi" : null,
      cudaToolkitVersion: spec.cuda,
      gpuDriver: spec.driver ? "nvidia" : null,
      gpuDriverType: spec.driver ? spec.driver[0] : null,
      gpuDriverVersion: spec.driver ? spec.driver[1] : null,
      cowFormat: false,
    });
  }
}

// Images for bare-metal GPU clusters: the platform's in each account's default project in region 1, and
// an image of account 1's own in its research project.
for (const [project, region, spec] of [
  [1, 1, imageSpecs[0]],
  [1, 1, imageSpecs[1]],
  [3, 1, imageSpecs[3]],
  [2, 1, imageSpecs[0]],
] as const) {
  const account: AccountId = project % 2 === 1 ? 1 : 2;
  const index = gpuImages.filter((image) => image.clusterType === "baremetal" && image.projectId === project).length;
  gpuImages.push({
    id: uuidFrom(`gpu-baremetal-image:${project}:${region}:${index}`),
    accountId: account,
    projectId: project,
    regionId: region,
    clusterType: "baremetal",
    name: spec.visibility === "private" ? "acme-bm-trainer" : `${spec.name}-bm`,
    architecture: "x86_64",
    osDistro: spec.distro,
    osType: "linux",
    osVersion: spec.version,
    sshKey: spec.visibility === "private" ? "required" : "allow",
    status: "active",
    visibility: spec.visibility,
    createdAt: at(70 + index * 5, project),
    updatedAt: at(170 + index * 5, project),
    minDisk: spec.visibility === "private" ? 200 : 60,
    minRam: spec.visibility === "private" ? 131072 : 32768,
    size: spec.size,
    tags: [{ key: "os", read_only: true, value: `${spec.distro}-${spec.version}` }],
    taskId: null,
    diskFormat: "raw",
    hwFirmwareType: "uefi",
    cudaToolkitVersion: spec.cuda,
    gpuDriver: spec.driver ? "nvidia" : null,
    gpuDriverType: spec.driver ? spec.driver[0] : null,
    gpuDriverVersion: spec.driver ? spec.driver[1] : null,
    cowFormat: false,
  });
}

// Tasks: the upload still running for the "queued" image, a finished upload (the task takes its image's
// id, as uploads through the API do) and a finished deletion of account 2.
const queuedImage = gpuImages.find((image) => image.status === "queued")!;
const uploadedImage = gpuImages.find((image) => image.accountId === 1 && image.visibility === "private")!;
const cloudTasks: Row<"cloudTasks">[] = [
  {
    id: queuedImage.taskId!,
    accountId: 1,
    userId: userOf(1, 1),
    projectId: queuedImage.projectId,
    regionId: queuedImage.regionId,
    taskType: "upload_gpu_virtual_image",
    state: "RUNNING",
    createdResources: null,
    data: { image_name: queuedImage.name },
    createdOn: queuedImage.createdAt,
    finishedOn: null,
    error: null,
    acknowledgedAt: null,
    acknowledgedBy: null,
  },
  {
    id: uploadedImage.id,
    accountId: 1,
    userId: userOf(1, 3),
    projectId: uploadedImage.projectId,
    regionId: uploadedImage.regionId,
    taskType: "upload_gpu_virtual_image",
    state: "FINISHED",
    createdResources: { images: [uploadedImage.id] },
    data: { image_name: uploadedImage.name },
    createdOn: uploadedImage.createdAt,
    finishedOn: uploadedImage.createdAt,
    error: null,
    // Seen by the user who started it.
    acknowledgedAt: at(55, 3),
    acknowledgedBy: userOf(1, 3),
  },
  {
    id: uuidFrom("task:image-delete:2"),
    accountId: 2,
    userId: userOf(2, 1),
    projectId: 2,
    regionId: 1,
    taskType: "delete_gpu_virtual_image",
    state: "FINISHED",
    createdResources: null,
    data: { image_id: uuidFrom("gpu-image:2:1:deleted") },
    createdOn: at(160, 2),
    finishedOn: at(160, 2),
    error: null,
    acknowledgedAt: null,
    acknowledgedBy: null,
  },
];

// Inference: the platform's flavors and how many containers of each its regions hold, and its application
// catalogue; each account's registry credentials, secrets, API keys, deployments (one running, one stopped,
// one in another project) with the lines their containers logged, and an application deployment.
const inferenceFlavors: Row<"inferenceFlavors">[] = [
  { name: "inference-4vcpu-16gib-1xl40s-48gb", description: "4 vCPU, 16 GiB memory, one NVIDIA L40S (48 GB).", cpu: 4, memory: 16, gpu: 1, gpuModel: "L40S", gpuMemory: 48, gpuComputeCapability: "8.9" },
  { name: "inference-16vcpu-232gib-1xh100-80gb", description: "16 vCPU, 232 GiB memory, one NVIDIA H100 (80 GB).", cpu: 16, memory: 232, gpu: 1, gpuModel: "H100", gpuMemory: 80, gpuComputeCapability: "9.0" },
  { name: "inference-32vcpu-464gib-2xh100-80gb", description: "32 vCPU, 464 GiB memory, two NVIDIA H100 (80 GB).", cpu: 32, memory: 464, gpu: 2, gpuModel: "H100", gpuMemory: 160, gpuComputeCapability: "9.0" },
  { name: "inference-2vcpu-8gib-cpu", description: "2 vCPU, 8 GiB memory, no GPU.", cpu: 2, memory: 8, gpu: 0, gpuModel: "", gpuMemory: 0, gpuComputeCapability: "" },
];

const inferenceRegionFlavors: Row<"inferenceRegionFlavors">[] = cloudRegions.flatMap((region) =>
  inferenceFlavors.map((flavor, index) => ({ regionId: region.id, flavorName: flavor.name, containers: (4 - index) * 8 + region.id * 2 })),
);

const inferenceRegistryCredentials: Row<"inferenceRegistryCredentials">[] = ([1, 2] as const).map((account) => ({
  id: idOf(account, 1),
  accountId: account,
  projectId: account === 1 ? 1 : 2,
  name: account === 1 ? "acme-registry" : "globex-registry",
  registryUrl: account === 1 ? "registry.acme.example" : "ghcr.io",
  username: account === 1 ? "acme-deployer" : "globex-bot",
  password: `demo-registry-password-${hex(`registry-password:${account}`, 16)}`,
  created: at(120 + account),
}));

const inferenceSecrets: Row<"inferenceSecrets">[] = ([1, 2] as const).map((account) => ({
  id: idOf(account, 1),
  accountId: account,
  projectId: account === 1 ? 1 : 2,
  name: account === 1 ? "acme-sqs" : "globex-sqs",
  type: "aws-iam",
  awsAccessKeyId: `AKIAINFER${hex(`inference-secret-id:${account}`, 11).toUpperCase()}`,
  awsSecretAccessKey: `demo-aws-secret-${hex(`inference-secret:${account}`, 24)}`,
  created: at(121 + account),
}));

const inferenceApiKeys: Row<"inferenceApiKeys">[] = [
  { id: idOf(1, 1), accountId: 1, projectId: 1, name: "acme-prod-key", description: "The product's calls to the chat model.", expiresAt: null, secret: `demo-inference-key-${hex("inference-key:1:1", 32)}`, created: at(122) },
  { id: idOf(1, 2), accountId: 1, projectId: 1, name: "acme-ci-key", description: null, expiresAt: at(400), secret: `demo-inference-key-${hex("inference-key:1:2", 32)}`, created: at(123) },
  { id: idOf(2, 1), accountId: 2, projectId: 2, name: "globex-key", description: "Embeddings for search.", expiresAt: null, secret: `demo-inference-key-${hex("inference-key:2:1", 32)}`, created: at(124) },
];

const scaleOf = (min: number, max: number, triggers: Record<string, Record<string, unknown> | null> = {}) => ({ min, max, cooldown_period: 60, polling_interval: 30, triggers });
const inferenceDeployments: Row<"inferenceDeployments">[] = [
  {
    id: idOf(1, 1), accountId: 1, projectId: 1, name: "acme-chat", description: "The product's chat assistant.",
    image: "registry.acme.example/llm/vllm-llama:3.1", listeningPort: 8000, flavorName: "inference-16vcpu-232gib-1xh100-80gb",
    command: ["vllm", "serve", "meta-llama/Llama-3.1-8B-Instruct"], credentialsName: "acme-registry", envs: { MAX_MODEL_LEN: "8192" },
    containers: [
      { region_id: 1, scale: scaleOf(1, 3, { gpu_utilization: { threshold: 80 }, http: { rate: 100, window: 60 } }) },
      { region_id: 2, scale: scaleOf(1, 2, { sqs: { activation_queue_length: 1, aws_endpoint: null, aws_region: "eu-central-1", queue_length: 10, queue_url: "https://sqs.eu-central-1.amazonaws.com/123456789012/acme-chat", scale_on_delayed: false, scale_on_flight: true, secret_name: "acme-sqs" } }) },
    ],
    apiKeys: ["acme-prod-key"], authEnabled: true, ingressOpts: { disable_response_buffering: true },
    logging: { enabled: true, destination_region_id: 1, topic_name: "acme-chat-logs", retention_policy: { period: 14 } },
    probes: { readiness_probe: { enabled: true, probe: { exec: null, failure_threshold: 3, http_get: { headers: {}, host: null, path: "/health", port: 8000, schema: "HTTP" }, initial_delay_seconds: 30, period_seconds: 10, success_threshold: 1, tcp_socket: null, timeout_seconds: 5 } } },
    timeout: 300, state: "running", stateSince: at(130), created: at(130),
  },
  {
    id: idOf(1, 2), accountId: 1, projectId: 1, name: "acme-whisper", description: "", image: "ghcr.io/acme/whisper:large-v3", listeningPort: 9000,
    flavorName: "inference-4vcpu-16gib-1xl40s-48gb", command: null, credentialsName: null, envs: {},
    containers: [{ region_id: 1, scale: scaleOf(0, 1, { cpu: { threshold: 75 } }) }],
    apiKeys: [], authEnabled: false, ingressOpts: null, logging: null, probes: null, timeout: 120, state: "stopped", stateSince: at(140), created: at(132),
  },
  {
    id: idOf(1, 3), accountId: 1, projectId: 3, name: "research-embed", description: "Embeddings for experiments.", image: "ghcr.io/huggingface/text-embeddings-inference:1.5",
    listeningPort: 80, flavorName: "inference-2vcpu-8gib-cpu", command: null, credentialsName: null, envs: { MODEL_ID: "BAAI/bge-m3" },
    containers: [{ region_id: 3, scale: scaleOf(1, 1) }], apiKeys: [], authEnabled: false, ingressOpts: null, logging: null, probes: null, timeout: null,
    state: "running", stateSince: at(133), created: at(133),
  },
  {
    id: idOf(2, 1), accountId: 2, projectId: 2, name: "globex-embed", description: "Search embeddings.", image: "ghcr.io/huggingface/text-embeddings-inference:1.5",
    listeningPort: 80, flavorName: "inference-4vcpu-16gib-1xl40s-48gb", command: null, credentialsName: "globex-registry", envs: { MODEL_ID: "BAAI/bge-large-en-v1.5" },
    containers: [{ region_id: 2, scale: scaleOf(1, 2) }], apiKeys: ["globex-key"], authEnabled: true, ingressOpts: null, logging: null, probes: null, timeout: 600,
    state: "running", stateSince: at(134), created: at(134),
  },
];

// Each container's start-up, as its log shows it: the image pulled, the server up, then a request now and then.
const inferenceDeploymentLogs: Row<"inferenceDeploymentLogs">[] = [];
for (const deployment of inferenceDeployments) {
  for (const container of deployment.containers) {
    const pod = `${deployment.name}-${hex(`pod:${deployment.id}:${container.region_id}`, 10)}-${hex(`pod-suffix:${deployment.id}:${container.region_id}`, 5)}`;
    const start = Date.parse(deployment.created);
    const lines = [
      `Pulling image "${deployment.image}"`,
      `Successfully pulled image "${deployment.image}"`,
      `Started container, listening on port ${deployment.listeningPort}`,
      ...Array.from({ length: 4 }, (_, n) => `GET /health 200 (${2 + ((deployment.id * 7 + n * 3) % 9)} ms)`),
      ...(deployment.state === "stopped" ? ["Stopping container: the deployment was stopped"] : []),
    ];
    for (const [index, message] of lines.entries())
      inferenceDeploymentLogs.push({
        id: 0,
        accountId: deployment.accountId,
        deploymentId: deployment.id,
        regionId: container.region_id,
        pod,
        message,
        time: new Date(start + (index < 3 ? index * 20_000 : index * 3_600_000) + container.region_id * 1000).toISOString(),
      });
  }
}
inferenceDeploymentLogs.forEach((line, index) => (line.id = index + 1));

const chatParameters = {
  max_model_len: { default_value: "8192", description: "The longest context the model takes, in tokens.", display_name: "Context length", enum_values: null, max_value: "131072", min_value: "1024", pattern: null, required: false, type: "integer" as const },
  model: { default_value: "meta-llama/Llama-3.1-8B-Instruct", description: "The model the chat serves.", display_name: "Model", enum_values: ["meta-llama/Llama-3.1-8B-Instruct", "mistralai/Mistral-7B-Instruct-v0.3"], max_value: null, min_value: null, pattern: null, required: true, type: "enum" as const },
  temperature: { default_value: "0.7", description: "Sampling temperature.", display_name: "Temperature", enum_values: null, max_value: "2", min_value: "0", pattern: null, required: false, type: "float" as const },
};
const inferenceApplicationTemplates: Row<"inferenceApplicationTemplates">[] = [
  {
    name: "chat-ui-llm",
    displayName: "Chat with a language model",
    description: "A language model behind an OpenAI-style API, with a web chat in front of it.",
    coverUrl: "https://catalog.cloudplane.example/applications/chat-ui-llm.png",
    readme: "Deploys the model component and, if asked, a chat UI that talks to it.",
    tags: { category: "Text Generation", interface: "openai" },
    components: {
      model: {
        description: "The language model, served with vLLM.", display_name: "Model", exposable: true, license_url: "https://llama.meta.com/llama3_1/license/",
        parameters: chatParameters, readme: "The model's OpenAI-style API.", required: true,
        suitable_flavors: [{ name: "inference-4vcpu-16gib-1xl40s-48gb" }, { name: "inference-16vcpu-232gib-1xh100-80gb" }],
      },
      ui: {
        description: "A web chat for the model.", display_name: "Chat UI", exposable: true, license_url: "https://opensource.org/licenses/MIT",
        parameters: { title: { default_value: "Chat", description: "The page's title.", display_name: "Title", enum_values: null, max_value: null, min_value: null, pattern: "^[\\w .-]{1,64}$", required: false, type: "string" } },
        readme: "Open the exposed address in a browser.", required: false, suitable_flavors: [{ name: "inference-2vcpu-8gib-cpu" }],
      },
    },
  },
  {
    name: "speech-to-text",
    displayName: "Speech to text",
    description: "Whisper transcription behind an HTTP API.",
    coverUrl: "https://catalog.cloudplane.example/applications/speech-to-text.png",
    readme: "Send audio, get text.",
    tags: { category: "Automatic Speech Recognition" },
    components: {
      whisper: {
        description: "Whisper large-v3.", display_name: "Whisper", exposable: true, license_url: "https://opensource.org/licenses/MIT",
        parameters: { language: { default_value: "auto", description: "The language spoken, or auto.", display_name: "Language", enum_values: null, max_value: null, min_value: null, pattern: "^(auto|[a-z]{2})$", required: false, type: "string" } },
        readme: "POST /transcribe with the audio.", required: true, suitable_flavors: [{ name: "inference-4vcpu-16gib-1xl40s-48gb" }],
      },
    },
  },
];

const inferenceApplicationDeployments: Row<"inferenceApplicationDeployments">[] = [
  {
    id: idOf(1, 1), accountId: 1, projectId: 1, name: "acme-assistant", applicationName: "chat-ui-llm",
    componentsConfiguration: {
      model: { exposed: true, flavor: "inference-4vcpu-16gib-1xl40s-48gb", parameter_overrides: { model: { value: "meta-llama/Llama-3.1-8B-Instruct" } }, scale: { min: 1, max: 2 } },
      ui: { exposed: true, flavor: "inference-2vcpu-8gib-cpu", parameter_overrides: {}, scale: { min: 1, max: 1 } },
    },
    regions: [1], apiKeys: ["acme-prod-key"], state: "running", stateSince: at(135), created: at(135),
  },
  {
    id: idOf(2, 1), accountId: 2, projectId: 2, name: "globex-transcribe", applicationName: "speech-to-text",
    componentsConfiguration: { whisper: { exposed: true, flavor: "inference-4vcpu-16gib-1xl40s-48gb", parameter_overrides: {}, scale: { min: 0, max: 1 } } },
    regions: [2], apiKeys: [], state: "running", stateSince: at(136), created: at(136),
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

/** What the detailed reports show of a usage line's resource beside its usage, by type. */
function usageDetails(account: AccountId, region: number, spec: UsageSpec): Row<"usageLines">["details"] {
  const vm = uuidFrom(`usage-resource:${account}:${region}:instance:g1-standard-4-16`);
  if (spec.type === "floatingip") return { ip_address: `203.0.113.${10 * account + region}` };
  if (spec.type === "volume") return { last_size: 250, size_unit: "GiB", attached_to_vm: vm };
  if (spec.type === "egress_traffic")
    return { port_id: uuidFrom(`usage-port:${account}:${region}`), vm_id: vm, instance_name: `instance-${region === 1 ? "lux" : "fra"}`, size_unit: "bytes" };
  return {};
}

const usageLines: Row<"usageLines">[] = [];
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
          accountId: account,
          month,
          type: spec.type,
          regionId: region,
          flavor: spec.flavor,
          instanceType: spec.instanceType,
          volumeType: spec.volumeType,
          billingMetricName: spec.metric,
          billingFeatureName: spec.feature,
          billingValueUnit: spec.unit,
          currency: "EUR",
          billingValue: billingValue,
          // One line without a price: the cost report shows err and price_status "error" for it.
          cost: noPrice ? null : Math.round(billingValue * spec.price * 100) / 100,
          tags:
            spec.type === "egress_traffic"
              ? {}
              : { env: region === 1 ? "production" : "staging", team: spec.type === "inference" ? "ML-Research" : "web-platform" },
          // Region 1's resources are in the account's first project, region 2's in its second.
          projectId: account === 1 ? (region === 1 ? 1 : 3) : region === 1 ? 2 : 4,
          resourceId: uuidFrom(`usage-resource:${account}:${region}:${spec.type}:${spec.flavor}`),
          resourceName: `${spec.feature.replaceAll(" ", "-")}-${region === 1 ? "lux" : "fra"}`,
          // Seen from the month's second day (the third in the first month) to its last.
          firstSeen: new Date(Date.parse(`${month}-01T00:00:00.000Z`) + (monthIndex === 0 ? 2 : 1) * DAY).toISOString(),
          lastSeen: new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 1) - 60_000).toISOString(),
          details: usageDetails(account, region, spec),
        });
      }
    }
  }
}

// Cloud secrets: a load balancer's TLS certificate in each account's default project in region 1. The
// payload stands in for the encrypted column; it is never read back.
const cloudSecrets: Row<"cloudSecrets">[] = ([1, 2] as const).map((account) => ({
  id: uuidFrom(`cloud-secret:${account}`),
  accountId: account,
  projectId: account,
  regionId: 1,
  name: account === 1 ? "www-acme-example-tls" : "api-globex-example-tls",
  secretType: "certificate",
  status: "ACTIVE",
  algorithm: null,
  bitLength: null,
  mode: null,
  contentTypes: { default: "text/plain" },
  payload: JSON.stringify({
    certificate: `-----BEGIN CERTIFICATE-----\ndemo-${account}\n-----END CERTIFICATE-----`,
    certificate_chain: "",
    private_key: `-----BEGIN PRIVATE KEY-----\ndemo-${account}\n-----END PRIVATE KEY-----`,
  }),
  created: at(120, account),
  expiration: at(485, account),
}));

// ---------------------------------------------------------------------------------------------
// Security
// ---------------------------------------------------------------------------------------------

const portList = { type: "array", items: { type: "integer", minimum: 0, maximum: 65535 }, uniqueItems: true, maxItems: 64 };

const securityTemplateFields: Row<"securityTemplateFields">[] = [];

/** A profile template; its fields, in their order, go to their own table. */
const securityTemplate = (template: Row<"securityProfileTemplates">, fields: Omit<Row<"securityTemplateFields">, "templateId" | "position">[]) =>
  withChildren(template, securityTemplateFields, fields.map((field, position) => ({ templateId: template.id, position, ...field })));

const securityTemplates: Row<"securityProfileTemplates">[] = [
  securityTemplate(
    {
      id: 1,
      name: "Basic DDoS protection",
      description: "Filters volumetric attacks on the listed TCP ports.",
      baseTemplateId: null,
      version: uuidFrom("security-template:1:v1"),
      created: at(1),
      templateSifter: "tcp_ports",
      accountId: null,
      acceptsIpAddress: true,
    },
    [
      { id: 1, name: "tcp_ports", description: "TCP ports to protect.", fieldType: "int", required: true, default: null, validationSchema: portList },
      {
        id: 2,
        name: "bandwidth_limit_mbps",
        description: "Clean traffic limit, Mbit/s.",
        fieldType: "int",
        required: false,
        default: "1000",
        validationSchema: { type: "array", items: { type: "integer", minimum: 10, maximum: 100000 }, minItems: 1, maxItems: 1 },
      },
    ],
  ),
  securityTemplate(
    {
      id: 2,
      name: "Game server",
      description: "Basic protection plus UDP game traffic filters.",
      baseTemplateId: 1,
      version: uuidFrom("security-template:2:v3"),
      created: at(3),
      templateSifter: "tcp_ports,udp_ports,allowed_countries",
      accountId: null,
      acceptsIpAddress: true,
    },
    [
      { id: 3, name: "tcp_ports", description: "TCP ports to protect.", fieldType: "int", required: false, default: "[]", validationSchema: portList },
      { id: 4, name: "udp_ports", description: "UDP game ports.", fieldType: "int", required: true, default: null, validationSchema: portList },
      {
        id: 5,
        name: "allowed_countries",
        description: "Only these countries may connect; every country when empty.",
        fieldType: "str",
        required: false,
        default: "[]",
        validationSchema: { type: "array", items: { type: "string", pattern: "^[A-Z]{2}$" } },
      },
    ],
  ),
];

// Templates made for one account: account 1's protects its fixed prefixes (no address per profile).
securityTemplates.push(
  securityTemplate(
    {
      id: 3,
      name: "Acme edge network",
      description: "Protects Acme's announced prefixes; the addresses are fixed by the template.",
      baseTemplateId: 1,
      version: uuidFrom("security-template:3:v1"),
      created: at(5),
      templateSifter: "tcp_ports",
      accountId: 1,
      acceptsIpAddress: false,
    },
    [{ id: 6, name: "tcp_ports", description: "TCP ports to protect.", fieldType: "int", required: true, default: null, validationSchema: portList }],
  ),
  securityTemplate(
    {
      id: 4,
      name: "Globex game servers",
      description: "Game server protection tuned for Globex.",
      baseTemplateId: 2,
      version: uuidFrom("security-template:4:v1"),
      created: at(6),
      templateSifter: "udp_ports",
      accountId: 2,
      acceptsIpAddress: true,
    },
    [{ id: 7, name: "udp_ports", description: "UDP game ports.", fieldType: "int", required: true, default: null, validationSchema: portList }],
  ),
);

const securityProfileFields: Row<"securityProfileFields">[] = [];

/** A security profile; the values it gives its template's fields go to their own table. */
const securityProfile = (profile: Row<"securityProfiles">, fields: Pick<Row<"securityProfileFields">, "id" | "baseFieldId" | "fieldValue">[]) =>
  withChildren(profile, securityProfileFields, fields.map((field) => ({ accountId: profile.accountId, profileId: profile.id, ...field })));

const securityProfiles: Row<"securityProfiles">[] = [
  securityProfile(
    {
      id: 1,
      accountId: 1,
      templateId: 1,
      ipAddress: "203.0.113.10",
      site: "ED",
      options: { bgp: true, active: true, price: "120.00" },
      protocols: [
        { port: 443, protocol: "tcp" },
        { port: 80, protocol: "tcp" },
      ],
      status: { status: "active", updated: at(100) },
      plan: "standard",
      created: at(70),
      updated: at(100),
      deleted: null,
    },
    [
      { id: 1, baseFieldId: 1, fieldValue: [80, 443] },
      { id: 3, baseFieldId: 2, fieldValue: [2000] },
    ],
  ),
  securityProfile(
    {
      id: 3,
      accountId: 1,
      templateId: 2,
      ipAddress: "2001:db8::10",
      site: "LU",
      options: { bgp: false, active: true, price: "340.00" },
      protocols: [{ port: 27015, protocol: "udp" }],
      status: { status: "active", updated: at(110) },
      plan: "advanced",
      created: at(72),
      updated: at(110),
      deleted: null,
    },
    [
      { id: 5, baseFieldId: 4, fieldValue: [27015, 27016] },
      { id: 7, baseFieldId: 5, fieldValue: ["DE", "FR", "LU"] },
    ],
  ),
  securityProfile(
    {
      id: 2,
      accountId: 2,
      templateId: 1,
      ipAddress: "198.51.100.20",
      site: "ED",
      options: { bgp: true, active: false, price: "120.00" },
      protocols: [],
      status: { status: "pending", updated: at(120) },
      plan: "standard",
      created: at(71),
      updated: at(120),
      deleted: null,
    },
    [{ id: 2, baseFieldId: 1, fieldValue: [22, 443] }],
  ),
  securityProfile(
    {
      // On account 1's own template with fixed addresses: no address of its own.
      id: 5,
      accountId: 1,
      templateId: 3,
      ipAddress: null,
      site: "ED",
      options: { bgp: true, active: true, price: "450.00" },
      protocols: [{ port: 443, protocol: "tcp" }],
      status: { status: "active", updated: at(115) },
      plan: "enterprise",
      created: at(74),
      updated: at(115),
      deleted: null,
    },
    [{ id: 9, baseFieldId: 6, fieldValue: [443] }],
  ),
  securityProfile(
    {
      // Deleted: listed only with include_deleted=true.
      id: 7,
      accountId: 1,
      templateId: 1,
      ipAddress: "203.0.113.77",
      site: "ED",
      options: { bgp: false, active: false, price: "120.00" },
      protocols: [],
      status: { status: "deleted", updated: at(130) },
      plan: "standard",
      created: at(76),
      updated: at(130),
      deleted: at(130),
    },
    [{ id: 11, baseFieldId: 1, fieldValue: [8080] }],
  ),
];

// ---------------------------------------------------------------------------------------------
// Storage
// ---------------------------------------------------------------------------------------------

/** The fields the demo storages (S3 ones, none deleted) share. */
const storageDefaults = { deleted: null, passwordEncrypted: null, httpDisabled: false, customConfigFile: false };

const storages: Row<"storages">[] = [
  { id: 1, accountId: 1, name: "acme-s3-lux", type: "s3", location: "s-ed1", created: at(16), expires: null, serverAlias: null, ...storageDefaults },
  { id: 3, accountId: 1, name: "acme-s3-ams", type: "s3", location: "s-ams1", created: at(17), expires: null, serverAlias: null, ...storageDefaults },
  { id: 2, accountId: 2, name: "globex-s3", type: "s3", location: "s-ed1", created: at(18), expires: null, serverAlias: null, ...storageDefaults },
];

// One access key for each demo storage; the secrets are the demo's plaintexts, encrypted when loaded.
const storageAccessKeys: DemoRow<"storageAccessKeys">[] = [
  { id: 1, accountId: 1, storageId: 1, accessKey: "CPDEMOACME0000000001", secretKey: "demo-acme-lux-secret-0000000000000000001", created: at(16) },
  { id: 2, accountId: 2, storageId: 2, accessKey: "CPDEMOGLOBEX00000002", secretKey: "demo-globex-secret-000000000000000000002", created: at(18) },
  { id: 3, accountId: 1, storageId: 3, accessKey: "CPDEMOACME0000000003", secretKey: "demo-acme-ams-secret-0000000000000000003", created: at(17) },
];

const storageSshKeys: Row<"storageSshKeys">[] = [
  {
    id: 1,
    accountId: 1,
    name: "acme-deploy",
    publicKey: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHg3cB7cmTqL0sVn2kX9yPq4Rz8aWfJd1oEeUu5tYi0M deploy@acme.example",
    created: at(18),
  },
  {
    id: 2,
    accountId: 2,
    name: "globex-backup",
    publicKey: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIKp2dW7xQe4Rt9Yu1Io3Pa5Sd8Fg0Hj6Kl2Zx4Cv7Bn1 backup@globex.example",
    created: at(19),
  },
];

const buckets: Row<"buckets">[] = [
  { id: 1, accountId: 1, storageId: 1, name: "media-assets", allowedOrigins: ["https://www.acme.example", "https://admin.acme.example"], created: at(20), lifecycleDays: null, public: false },
  { id: 3, accountId: 1, storageId: 1, name: "backups", allowedOrigins: [], created: at(21), lifecycleDays: null, public: false },
  { id: 5, accountId: 1, storageId: 3, name: "public-downloads", allowedOrigins: ["*"], created: at(22), lifecycleDays: null, public: false },
  // The same bucket name as account 1's, in account 2's own storage.
  { id: 2, accountId: 2, storageId: 2, name: "media-assets", allowedOrigins: ["https://www.globex.example"], created: at(23), lifecycleDays: null, public: false },
  { id: 4, accountId: 2, storageId: 2, name: "exports", allowedOrigins: ["https://reports.globex.example"], created: at(24), lifecycleDays: null, public: false },
];

// ---------------------------------------------------------------------------------------------

const byId = <T extends { id: number | string }>(rows: T[]) =>
  [...rows].sort((a, b) => (typeof a.id === "number" && typeof b.id === "number" ? a.id - b.id : String(a.id).localeCompare(String(b.id))));

/** Child rows grouped by their parent's id (ascending), each parent's in the order they were given. */
const byParent = <T, K extends keyof T>(rows: T[], parent: K) => [...rows].sort((a, b) => Number(a[parent]) - Number(b[parent]));

/** The CDN audit log: a few write requests of each account's administrators, one of them refused. */
const cdnAuditLog: Row<"cdnAuditLog">[] = [
  { id: 1, accountId: 1, userId: 1, tokenId: 1, requestedAt: "2026-10-28T16:40:00.000Z", method: "POST", path: "/cdn/origin_groups", queryParams: "", host: "api.cloudplane.example", remoteIpAddress: "203.0.113.10", statusCode: 201, data: { name: "acme-unused-origins", sources: [{ source: "spare.acme.example" }] }, actionType: "C" },
  { id: 2, accountId: 1, userId: 11, tokenId: 15, requestedAt: "2026-10-29T08:05:00.000Z", method: "DELETE", path: "/cdn/resources/1", queryParams: "", host: "api.cloudplane.example", remoteIpAddress: "198.51.100.77", statusCode: 409, data: null, actionType: null },
  { id: 3, accountId: 1, userId: 1, tokenId: 1, requestedAt: "2026-10-30T09:12:00.000Z", method: "PATCH", path: "/cdn/resources/1", queryParams: "", host: "api.cloudplane.example", remoteIpAddress: "203.0.113.10", statusCode: 200, data: { description: "The main site and its images, HTTPS only." }, actionType: "U" },
  { id: 4, accountId: 2, userId: 2, tokenId: 2, requestedAt: "2026-10-30T11:30:00.000Z", method: "PUT", path: "/cdn/resources/2/shielding_v2", queryParams: "", host: "api.cloudplane.example", remoteIpAddress: "192.0.2.44", statusCode: 200, data: { shielding_pop: 1 }, actionType: "U" },
];

const fixture: DemoFixture = {
  accounts,
  users: byId(users),
  apiTokens: byId(apiTokens),
  shieldingPops,
  originGroups: byId(originGroups),
  originGroupSources: byParent(originGroupSources, "originGroupId"),
  certificates: byId(certificates),
  certificateKeys: byParent(certificateKeys, "certificateId"),
  cdnCacheRequests: byId(cdnCacheRequests),
  cdnResources: byId(cdnResources),
  cdnResourceHostnames: byParent(cdnResourceHostnames, "resourceId"),
  cdnResourceRules: byId(cdnResourceRules),
  cdnRuleTemplates: byId(cdnRuleTemplates),
  cdnAppliedPresets: byId(cdnAppliedPresets),
  cdnFeatures: byId(cdnFeatures),
  logsUploaderTargets: byId(logsUploaderTargets),
  logsUploaderPolicies: byId(logsUploaderPolicies),
  logsUploaderConfigs: byId(logsUploaderConfigs),
  logsUploaderConfigResources: byParent(logsUploaderConfigResources, "configId"),
  edgePlans,
  edgeBinaries: byId(edgeBinaries),
  edgeTemplates: byId(edgeTemplates),
  edgeTemplateParams: byParent(edgeTemplateParams, "templateId"),
  edgeSecrets: byId(edgeSecrets),
  edgeSecretSlots: byParent(edgeSecretSlots, "secretId"),
  edgeApps: byId(edgeApps),
  edgeAppSecrets: byId(edgeApps).flatMap((app) =>
    Object.entries(appSecrets[app.accountId as AccountId][app.name] ?? {}).map(([name, secretId]) => ({ accountId: app.accountId, appId: app.id, name, secretId })),
  ),
  edgeKvStores: byId(edgeKvStores),
  edgeAppStores: byId(edgeApps).flatMap((app) =>
    Object.entries(appStores[app.accountId as AccountId][app.name] ?? {}).map(([name, storeId]) => ({ accountId: app.accountId, appId: app.id, name, storeId })),
  ),
  streams: byId(streams),
  broadcasts: byId(broadcasts),
  broadcastStreams: [...broadcastStreams].sort((a, b) => a.broadcastId - b.broadcastId || a.position - b.position),
  clips,
  streamOverlays,
  restreams,
  streamingQualitySets,
  streamingDefaultQualitySets: [],
  videoDirectories: byId(videoDirectories),
  videos: byId(videos),
  videoSubtitles: byId(videoSubtitles),
  videoPlayers: byId(videoPlayers),
  videoPlaylists: byId(videoPlaylists),
  playlistVideos,
  aiTasks,
  inferenceModels,
  cloudRegions,
  cloudProjects: byId(cloudProjects),
  gpuImages,
  cloudTasks,
  inferenceFlavors,
  inferenceRegionFlavors,
  inferenceRegistryCredentials: byId(inferenceRegistryCredentials),
  inferenceSecrets: byId(inferenceSecrets),
  inferenceApiKeys: byId(inferenceApiKeys),
  inferenceDeployments: byId(inferenceDeployments),
  inferenceDeploymentLogs,
  inferenceApplicationTemplates,
  inferenceApplicationDeployments: byId(inferenceApplicationDeployments),
  usageLines: byId(usageLines),
  cloudSecrets,
  securityProfileTemplates: securityTemplates,
  securityTemplateFields: byParent(securityTemplateFields, "templateId"),
  securityProfiles: byId(securityProfiles),
  securityProfileFields: byParent(securityProfileFields, "profileId"),
  // Profile 1's address is protected with bgp on, but its announce was turned off.
  securityBgpAnnounces: [{ accountId: 1, network: "203.0.113.10/32", enabled: false, updated: at(305) }],
  storages: byId(storages),
  storageAccessKeys: byId(storageAccessKeys),
  storageSshKeys: byId(storageSshKeys),
  // No SFTP storage in the demo data, so no links; the usage is generated when the data is loaded (demo-storage-usage.ts).
  storageSshKeyLinks: [],
  storageUsage: [],
  buckets: byId(buckets),
  cdnAuditLog,
};

/** A row with its keys in its table's column order, a plaintext where the column it stands in for is, so the JSON reads alike however a row was written. */
function inColumnOrder(table: DemoTableName, row: object): object {
  const columns = Object.keys(getTableColumns(schema[table] as PgTable));
  const plaintexts: Record<string, object> = DEMO_PLAINTEXTS[table as keyof typeof DEMO_PLAINTEXTS] ?? {};
  const place = (key: string) => columns.indexOf(plaintexts[key] ? Object.keys(plaintexts[key])[0]! : key);
  return Object.fromEntries(Object.entries(row).sort(([a], [b]) => place(a) - place(b)));
}

const ordered = Object.fromEntries(Object.entries(fixture).map(([table, rows]) => [table, (rows as object[]).map((row) => inColumnOrder(table as DemoTableName, row))]));
const target = new URL("../fixtures/demo.json", import.meta.url);
await writeFile(target, `${JSON.stringify(ordered, null, 2)}\n`);
console.log(`Wrote ${fileURLToPath(target)}`);
