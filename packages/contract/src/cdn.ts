/**
 * CDN area: CDN resources and their options, shielding, logs uploader targets, the account's CDN
 * client settings and features, and origin groups.
 */
import { initContract } from "@ts-rest/core";
import { z } from "zod";
import { alias } from "./alias.js";
import {
  booleanQuery,
  cdnTimestamp,
  cidr,
  errorResponses,
  headerName,
  hostname,
  idParam,
  INT32_MAX,
  integer,
  integerParam,
  isHostname,
  isIPv4,
  isIPv6,
  listOf,
  mapOf,
  PAGE_MAX,
  pageOf,
  paging,
  stringEnum,
  strictObject,
  withBody,
} from "./common.js";
import { COUNTRY_CODES } from "./country-codes.js";
import { logsUploaderContract } from "./logs-uploader.js";
import type { ClientMetadata } from "./client-names.js";
import type { RouteMetadata } from "./roles.js";

export * from "./logs-uploader.js";

const c = initContract();

// ---------------------------------------------------------------------------------------------
// Option field formats
// ---------------------------------------------------------------------------------------------

const DURATION_SECONDS = { s: 1, m: 60, h: 3600, d: 86400 } as const;
const ONE_YEAR = 365 * 86400;

/** Seconds in a duration string such as `30s`, `15m`, `2h` or `7d`; null when it is not one. */
export function durationSeconds(value: string): number | null {
  const match = /^(\d{1,9})([smhd])$/.exec(value);
  if (!match) return null;
  return Number(match[1]) * DURATION_SECONDS[match[2] as keyof typeof DURATION_SECONDS];
}

const duration = z
  .string()
  .refine((value) => {
    const seconds = durationSeconds(value);
    return seconds !== null && seconds <= ONE_YEAR;
  }, "Must be a duration such as 30s, 15m, 2h or 7d, at most one year.")
  .describe("A duration: a number and a unit, s, m, h or d (`3600s`, `1d`), at most one year.");

const secondsDuration = z
  .string()
  .refine((value) => /s$/.test(value) && (durationSeconds(value) ?? ONE_YEAR + 1) <= ONE_YEAR, "Must be a duration in seconds such as 5s.")
  .describe("A duration in seconds with an s suffix, e.g. `5s`.");

const HTTP_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
const TLS_VERSIONS = ["SSLv3", "TLSv1", "TLSv1.1", "TLSv1.2", "TLSv1.3"] as const;
const REDIRECT_CODES = [301, 302, 303, 307, 308] as const;
const STALE_TOKENS = [
  "error",
  "timeout",
  "invalid_header",
  "updating",
  "http_403",
  "http_404",
  "http_429",
  "http_500",
  "http_502",
  "http_503",
  "http_504",
] as const;

const lowerCaseHeaderName = headerName.refine((value) => value === value.toLowerCase(), "Must be lower case.");

const corsOrigin = z
  .string()
  .refine((value) => value === "*" || value === "$http_origin" || isHostname(value), "Must be a domain name.")
  .describe("A domain name, `*` (any origin) or `$http_origin` (echo the request's origin).");

const domainPattern = z
  .string()
  .refine(
    (value) => isHostname(value.startsWith("*.") ? value.slice(2) : value),
    "Must be a domain name, optionally starting with the wildcard *.",
  );

const countryCode = z
  .string()
  .refine((value) => COUNTRY_CODES.has(value), "Must be an ISO 3166-1 alpha-2 country code such as DE.");

const fileExtension = z.string().regex(/^[A-Za-z0-9]{1,16}$/, "Must be a file extension without the dot, such as m3u8.");

const enabled = z.boolean().describe("Whether the option is applied.");

function aclOption(values: z.ZodTypeAny, what: string) {
  return {
    enabled,
    policy_type: stringEnum(["allow", "deny"]).describe(
      "`allow`: allow everything except `excepted_values`; `deny`: deny everything except them.",
    ),
    excepted_values: listOf(values, { max: 1000, noun: "values", description: what }),
  };
}

const booleanOptionNames = [
  "disable_cache",
  "disable_proxy_force_ranges",
  "fetch_compressed",
  "forward_host_header",
  "gzipOn",
  "http3_enabled",
  "ignore_cookie",
  "ignoreQueryString",
  "proxy_cache_methods_set",
  "redirect_http_to_https",
  "redirect_https_to_http",
  "slice",
  "use_default_le_chain",
  "use_dns01_le_challenge",
  "use_rsa_le_cert",
  "waap",
  "websockets",
] as const;

const booleanOptionShape = { enabled, value: z.boolean().describe("The option's setting.") };

/**
 * The fields of every option besides the boolean ones, as written. `secure_key.key` is a secret:
 * it is accepted on write and never returned.
 */
const otherOptionShapes = {
  allowedHttpMethods: {
    enabled,
    value: listOf(stringEnum(HTTP_METHODS), {
      min: 1,
      max: HTTP_METHODS.length,
      noun: "methods",
      description: "The HTTP methods the CDN accepts from clients: at least 1.",
    }),
  },
  bot_protection: {
    enabled,
    bot_challenge: strictObject({ enabled: z.boolean() }).describe("Challenge clients that look like bots."),
  },
  brotli_compression: {
    enabled,
    value: listOf(z.string().regex(/^[a-z0-9.+-]+\/[a-z0-9.+*-]+$/, "Must be a content type such as text/html."), {
      min: 1,
      max: 100,
      noun: "content types",
      description: "Content types to compress with Brotli: at least 1.",
    }),
  },
  browser_cache_settings: { enabled, value: duration.describe("How long browsers cache responses.") },
  cache_http_headers: {
    enabled,
    value: listOf(lowerCaseHeaderName, { max: 100, noun: "headers", description: "Origin response headers kept in the cache, lower case." }),
  },
  cors: {
    enabled,
    value: listOf(corsOrigin, { max: 100, noun: "origins", description: "Origins allowed by the Access-Control-Allow-Origin header." }),
    always: z.boolean().optional().describe("Add the header to every response, whatever its status. Default false."),
  },
  country_acl: aclOption(countryCode, "ISO 3166-1 alpha-2 country codes."),
  ip_address_acl: aclOption(cidr, "IPv4 or IPv6 CIDR blocks."),
  referrer_acl: aclOption(domainPattern, "Domain names; a pattern may start with the wildcard `*.`."),
  user_agent_acl: aclOption(z.string().max(1024), "User-agent strings; an empty string matches an empty User-Agent."),
  edge_cache_settings: {
    enabled,
    value: duration.optional().describe("How long the CDN caches responses with status 200, 206, 301, 302."),
    custom_values: mapOf(z.string().regex(/^(\d{3}|any)$/, "Must be a status code such as 404, or any."), duration, {
      max: 100,
      noun: "status codes",
      description: "Cache time per response status code (`\"404\": \"10s\"`); `any` stands for every other status.",
    }).optional(),
  },
  edge: {
    enabled,
    on_request_headers: strictObject({
      enabled: z.boolean(),
      app_id: z.string().min(1).describe("The id of the edge app to run."),
      interrupt_on_error: z.boolean().describe("Answer with an error instead of going on when the app fails."),
    }).describe("Run an edge app on the request headers."),
  },
  follow_origin_redirect: {
    enabled,
    codes: listOf(
      z.union(REDIRECT_CODES.map((code) => z.literal(code)) as unknown as [z.ZodLiteral<301>, z.ZodLiteral<302>, ...z.ZodLiteral<303 | 307 | 308>[]], {
        errorMap: () => ({ message: `Must be one of: ${REDIRECT_CODES.join(", ")}.` }),
      }),
      { min: 1, max: REDIRECT_CODES.length, noun: "codes", description: "Origin redirect statuses that the CDN follows itself: at least 1." },
    ),
  },
  force_return: {
    enabled,
    code: integer({ min: 100, max: 599 }).describe("The status code to answer with."),
    body: z.string().max(65536).describe("The body to answer with (for redirects, the Location URL)."),
    time_interval: strictObject({
      start_time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "Must be a time HH:MM.").describe("Start, HH:MM."),
      end_time: integer({ min: 0, max: 2359 })
        .refine((value) => value % 100 < 60, "Must be a 24-hour time written as a number, such as 1830.")
        .describe("End, a 24-hour time written as a number: 1830 is 18:30."),
      time_zone: z
        .string()
        .regex(/^[A-Za-z_]+(\/[A-Za-z0-9_+-]+)*$/, "Must be a time zone such as Europe/Luxembourg or UTC.")
        .describe("The time zone of start_time and end_time, e.g. Europe/Luxembourg or UTC."),
    })
      .nullable()
      .optional()
      .describe("Only force the answer in this daily window; always when null or absent."),
  },
  hostHeader: { enabled, value: hostname.describe("The Host header sent to the origin.") },
  image_stack: {
    enabled,
    avif_enabled: z.boolean().describe("Convert images to AVIF for clients that accept it."),
    webp_enabled: z.boolean().describe("Convert images to WebP for clients that accept it."),
    png_lossless: z.boolean().describe("Compress PNG images losslessly."),
    quality: integer({ min: 1, max: 100 }).describe("Output quality, 1 to 100."),
  },
  limit_bandwidth: {
    enabled,
    limit_type: stringEnum(["static", "dynamic"]).describe("`static`: a fixed speed; `dynamic`: by a query argument."),
    speed: integer({ min: 1 }).describe("Speed limit in KB/s."),
    buffer: integer({ min: 0 }).describe("KB sent at full speed before the limit applies."),
  },
  proxy_cache_key: {
    enabled,
    value: z.string().min(1).max(255).describe("The cache key; may contain variables such as $uri and $args."),
  },
  proxy_connect_timeout: { enabled, value: secondsDuration.describe("Timeout to connect to the origin, e.g. 4s.") },
  proxy_read_timeout: { enabled, value: secondsDuration.describe("Timeout between two reads from the origin, e.g. 10s.") },
  query_params_blacklist: {
    enabled,
    value: listOf(z.string().min(1).max(255), { max: 100, noun: "parameters", description: "Query parameters left out of the cache key." }),
  },
  query_params_whitelist: {
    enabled,
    value: listOf(z.string().min(1).max(255), { max: 100, noun: "parameters", description: "The only query parameters kept in the cache key." }),
  },
  query_string_forwarding: {
    enabled,
    forward_from_file_types: listOf(fileExtension, {
      max: 100,
      noun: "extensions",
      description: "Extensions of the files whose query string is forwarded.",
    }),
    forward_to_file_types: listOf(fileExtension, { max: 100, noun: "extensions", description: "Extensions of the files the query string is forwarded to." }),
  },
  request_limiter: {
    enabled,
    rate_unit: stringEnum(["r/s", "r/m"]).describe("Requests a second or a minute."),
    rate: integer({ min: 1 }).describe("Allowed requests per rate unit and client IP."),
    burst: integer({ min: 0 }).describe("Requests over the rate that are queued."),
    delay: integer({ min: 0 }).describe("Requests of the burst served without delay."),
  },
  response_headers_hiding_policy: {
    enabled,
    mode: stringEnum(["hide", "show"]).describe("`hide`: hide every origin header except `excepted`; `show`: show all except `excepted`."),
    excepted: listOf(headerName, { max: 100, noun: "headers", description: "Header names." }),
  },
  rewrite: {
    enabled,
    body: z.string().min(1).max(1024).describe("A regular expression and its replacement, e.g. `/(.*) /new/$1`."),
    flag: stringEnum(["break", "last", "redirect", "permanent"]).describe(
      "What follows the rewrite, as in nginx: break, last, redirect (302) or permanent (301).",
    ),
  },
  secure_key: {
    enabled,
    key: z.string().min(6).max(32).describe("The signing key, 6 to 32 characters. A secret: accepted on write, never returned."),
    type: z.union([z.literal(0), z.literal(2)], { errorMap: () => ({ message: "Must be 0 or 2." }) }).describe(
      "0: the client IP is part of the signed URL; 2: it is not.",
    ),
  },
  sni: {
    enabled,
    sni_type: stringEnum(["dynamic", "custom"]).describe("`dynamic`: the Host header; `custom`: `custom_hostname`."),
    custom_hostname: hostname.optional().describe("The SNI host name; required when `sni_type` is custom."),
  },
  stale: {
    enabled,
    value: listOf(stringEnum(STALE_TOKENS), {
      min: 1,
      max: STALE_TOKENS.length,
      noun: "failures",
      description: "Origin failures in which a stale cached copy is served: at least 1.",
    }),
  },
  static_response_headers: {
    enabled,
    value: listOf(
      strictObject({
        name: headerName.describe("The header name."),
        value: listOf(z.string().max(512), { min: 1, max: 100, noun: "values", description: "The header's values, each at most 512 characters: at least 1." }),
        always: z.boolean().optional().describe("Add the header to every response, whatever its status. Default false."),
      }),
      { max: 100, noun: "headers", description: "Headers added to responses to clients." },
    ),
  },
  staticHeaders: {
    enabled,
    value: mapOf(
      headerName,
      z.union([z.string().max(512), listOf(z.string().max(512), { max: 100, noun: "values", description: "The header's values." })], {
        // A list refused as a whole (over its maximum) says so, rather than zod's "Invalid input".
        errorMap: (issue, ctx) => ({
          message:
            issue.code === z.ZodIssueCode.invalid_union && Array.isArray(ctx.data)
              ? (issue.unionErrors.at(-1)?.issues[0]?.message ?? ctx.defaultError)
              : "Must be a string or a list of strings.",
        }),
      }),
      { max: 100, noun: "headers", description: "Headers added to responses: a name and a value or a list of values, each at most 512 characters." },
    ),
  },
  staticRequestHeaders: {
    enabled,
    value: mapOf(headerName, z.string().max(512), {
      max: 100,
      noun: "headers",
      description: "Headers added to requests to the origin, each value at most 512 characters.",
    }),
  },
  tls_versions: {
    enabled,
    value: listOf(stringEnum(TLS_VERSIONS), {
      min: 1,
      max: TLS_VERSIONS.length,
      noun: "versions",
      description: "TLS versions offered to clients: at least 1.",
    }),
  },
} satisfies Record<string, z.ZodRawShape>;

const sniCheck = (option: { sni_type: string; custom_hostname?: string }, ctx: z.RefinementCtx) => {
  if (option.sni_type === "custom" && !option.custom_hostname)
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["custom_hostname"], message: "Required when sni_type is custom." });
};

type OptionName = (typeof booleanOptionNames)[number] | keyof typeof otherOptionShapes;

/** Every option key, in the exact case the API uses. */
export const CDN_OPTION_NAMES = [...booleanOptionNames, ...Object.keys(otherOptionShapes)].sort() as OptionName[];

/**
 * What each option does: the description of both its written and its returned form.
 */
const OPTION_DESCRIPTIONS = {
  disable_cache: "Bypass the CDN cache: every request goes to the origin.",
  disable_proxy_force_ranges: "Answer Range requests with 206 Partial Content whatever the origin's own settings.",
  fetch_compressed: "Fetch content from the origin already compressed, instead of compressing it on the CDN.",
  forward_host_header: "Send the client's Host header to the origin.",
  gzipOn: "Compress responses with gzip on the CDN.",
  http3_enabled: "Serve clients over HTTP/3 (QUIC).",
  ignore_cookie: "Leave cookies out of the cache key: responses that differ only by cookie are cached once.",
  ignoreQueryString: "Leave the query string out of the cache key.",
  proxy_cache_methods_set: "Cache responses to POST requests too, besides GET and HEAD.",
  redirect_http_to_https: "Redirect HTTP requests to HTTPS.",
  redirect_https_to_http: "Redirect HTTPS requests to HTTP.",
  slice: "Fetch and cache large files in parts of at most 10 MB.",
  use_default_le_chain: "Use Let's Encrypt's default certificate chain when the resource's certificate is next issued or renewed.",
  use_dns01_le_challenge: "Prove the domain to Let's Encrypt with the DNS-01 challenge instead of HTTP-01.",
  use_rsa_le_cert: "Issue an RSA Let's Encrypt certificate instead of an ECDSA one.",
  waap: "Protect the resource with WAAP (web application and API protection).",
  websockets: "Pass WebSocket connections through to the origin.",
  allowedHttpMethods: "Limit the HTTP methods clients may use.",
  bot_protection: "Challenge clients that look like bots before serving them.",
  brotli_compression: "Compress responses of the listed content types with Brotli.",
  browser_cache_settings: "How long browsers may cache responses.",
  cache_http_headers: "Which origin response headers are cached with the content.",
  cors: "Add the Access-Control-Allow-Origin header to responses.",
  country_acl: "Allow or deny requests by the client's country.",
  ip_address_acl: "Allow or deny requests by the client's IP address.",
  referrer_acl: "Allow or deny requests by the domain in their Referer header.",
  user_agent_acl: "Allow or deny requests by their User-Agent header.",
  edge_cache_settings: "How long the CDN caches responses, by status code.",
  edge: "Run an edge app on each request.",
  follow_origin_redirect: "Follow the origin's redirects on the CDN and serve (and cache) the response of their target.",
  force_return: "Answer requests with a fixed status code and body, always or in a daily time window.",
  hostHeader: "Send this Host header to the origin.",
  image_stack: "Optimize images on the fly: convert them to AVIF or WebP, compress PNG, set the quality.",
  limit_bandwidth: "Limit the download speed of each connection.",
  proxy_cache_key: "Replace the default cache key.",
  proxy_connect_timeout: "How long the CDN waits to connect to the origin.",
  proxy_read_timeout: "How long the CDN waits between two reads from the origin.",
  query_params_blacklist: "Leave the listed query parameters out of the cache key.",
  query_params_whitelist: "Keep only the listed query parameters in the cache key.",
  query_string_forwarding:
    "Forward the query string of requests for one kind of file (such as playlists) to the files they refer to (such as segments).",
  request_limiter: "Limit the request rate of each client IP address.",
  response_headers_hiding_policy: "Hide origin response headers from clients.",
  rewrite: "Rewrite the request's URI with a regular expression before it goes to the origin.",
  secure_key: "Serve only URLs signed with the secure key.",
  sni: "Choose the TLS SNI host name the CDN sends to the origin.",
  stale: "Serve a stale cached copy when the origin fails in one of the listed ways.",
  static_response_headers: "Add headers to the responses to clients.",
  staticHeaders: "Add headers to the responses to clients: a name and a value or a list of values.",
  staticRequestHeaders: "Add headers to the requests to the origin.",
  tls_versions: "Offer clients only the listed TLS versions.",
} satisfies Record<OptionName, string>;

/** An option as written: strict, described with what it does. */
function writeOption(name: OptionName, shape: z.ZodRawShape) {
  const option = name === "sni" ? strictObject(otherOptionShapes.sni).superRefine(sniCheck) : strictObject(shape);
  return option.describe(OPTION_DESCRIPTIONS[name]);
}

/** An option as returned: strict, described with what it does. */
function readOption(name: OptionName, shape: z.ZodRawShape) {
  return z.object(shape).strict().describe(OPTION_DESCRIPTIONS[name]);
}

type OtherShapes = typeof otherOptionShapes;
type WriteSchema<S extends z.ZodRawShape> = z.ZodType<z.output<z.ZodObject<S>>, z.ZodTypeDef, z.input<z.ZodObject<S>>>;

const optionsWriteShape = {
  ...(Object.fromEntries(booleanOptionNames.map((name) => [name, writeOption(name, booleanOptionShape)])) as {
    [K in (typeof booleanOptionNames)[number]]: WriteSchema<typeof booleanOptionShape>;
  }),
  ...(Object.fromEntries(
    Object.entries(otherOptionShapes).map(([name, shape]) => [name, writeOption(name as OptionName, shape)]),
  ) as { [K in keyof OtherShapes]: WriteSchema<OtherShapes[K]> }),
};

/** A single option as written, by name; the handlers validate stored options with it too. */
export const cdnOptionSchemas = optionsWriteShape as Record<OptionName, z.ZodTypeAny>;

type OptionsWrite = typeof optionsWriteShape;

const OPTIONS_DESCRIPTION =
  "CDN options by key, in the exact case given. Every option object has `enabled`. An unknown option key, " +
  "or an unknown field inside an option, is rejected.";

/** Options as written in a PATCH or PUT body: each key may be null, which removes that option. */
const cdnResourceOptionsWriteSchema = strictObject(
  Object.fromEntries(
    Object.entries(optionsWriteShape).map(([name, schema]) => [name, schema.nullable().optional()]),
  ) as { [K in keyof OptionsWrite]: z.ZodOptional<z.ZodNullable<OptionsWrite[K]>> },
  { unknownMessage: "Unknown option." },
).describe(
  OPTIONS_DESCRIPTION +
    " PATCH: each option key given replaces that option whole, `null` removes it, keys not given stay. " +
    "PUT: the options given are the resource's options afterwards.",
);
export interface CdnResourceOptionsWriteSchema extends CdnResourceOptionsWriteSchemaType {}
type CdnResourceOptionsWriteSchemaType = typeof cdnResourceOptionsWriteSchema;
export const cdnResourceOptionsWrite: CdnResourceOptionsWriteSchema = cdnResourceOptionsWriteSchema;

const { key: _secretKey, ...secureKeyRead } = otherOptionShapes.secure_key;

/** Options as returned: like the written form, but `secure_key.key` is never returned. */
const cdnResourceOptionsSchema = z
  .object({
    ...(Object.fromEntries(booleanOptionNames.map((name) => [name, readOption(name, booleanOptionShape).optional()])) as {
      [K in (typeof booleanOptionNames)[number]]: z.ZodOptional<z.ZodObject<typeof booleanOptionShape, "strict">>;
    }),
    ...(Object.fromEntries(
      Object.entries(otherOptionShapes).map(([name, shape]) => [
        name,
        readOption(name as OptionName, name === "secure_key" ? secureKeyRead : shape).optional(),
      ]),
    ) as {
      [K in keyof typeof otherOptionShapes]: z.ZodOptional<
        z.ZodObject<K extends "secure_key" ? typeof secureKeyRead : (typeof otherOptionShapes)[K], "strict">
      >;
    }),
  })
  .strict()
  .describe(OPTIONS_DESCRIPTION + " `secure_key.key` is a secret and is never returned.");
export interface CdnResourceOptionsSchema extends CdnResourceOptionsSchemaType {}
type CdnResourceOptionsSchemaType = typeof cdnResourceOptionsSchema;
export const cdnResourceOptions: CdnResourceOptionsSchema = cdnResourceOptionsSchema;

export type CdnResourceOptions = z.infer<typeof cdnResourceOptions>;
export type CdnResourceOptionsWrite = z.input<typeof cdnResourceOptionsWrite>;

// ---------------------------------------------------------------------------------------------
// CDN resource
// ---------------------------------------------------------------------------------------------

const originProtocol = stringEnum(["HTTP", "HTTPS", "MATCH"]).describe(
  "Protocol to the origin: HTTP, HTTPS, or MATCH (the protocol the client used).",
);

const cdnResourceSchema = z
  .object({
    id: integer(),
    cname: z.string().describe("The delivery host name of the resource, through which content is served."),
    active: z.boolean().describe("Whether the resource serves traffic. Writable."),
    enabled: z.boolean().describe("Whether the resource is enabled by the service (false while suspended)."),
    status: z.string().describe('Service status of the resource; "active" for resources that serve.'),
    deleted: z.boolean().describe("Whether the resource was deleted."),
    client: integer().describe("The account id."),
    name: z.string().describe("Writable."),
    description: z.string().describe("Writable."),
    created: cdnTimestamp,
    updated: cdnTimestamp,
    originGroup: integer().describe("The origin group id. Writable."),
    originGroup_name: z.string().describe("The origin group's name."),
    originProtocol,
    secondaryHostnames: z.array(z.string()).describe("Further delivery host names. Writable."),
    shielded: z.boolean().describe("Whether origin shielding is on (see the shielding_v2 route)."),
    shield_dc: z.string().nullable().describe("The data center of the shielding POP, or null without shielding."),
    shield_enabled: z.boolean().describe("Whether origin shielding is on."),
    shield_routing_map: integer().nullable().describe("Routing map of the shielding; null unless set by the service."),
    sslEnabled: z.boolean().describe("Whether HTTPS is served with the certificate `sslData`."),
    sslData: integer().nullable().describe("The id of one of the account's certificates."),
    proxy_ssl_enabled: z.boolean().describe("Whether the origin's certificate is verified."),
    proxy_ssl_ca: integer().nullable().describe("The id of the account's CA certificate that verifies the origin."),
    proxy_ssl_data: integer().nullable().describe("The id of the account's client certificate shown to the origin."),
    preset_applied: z
      .boolean()
      .describe("Set by the service; read-only. Whether a preset is applied to the resource; the options a preset sets cannot be edited while it is applied."),
    vp_enabled: z.boolean().describe("Set by the service; read-only. Whether the resource is set up for the streaming platform, whose delivery changes to its settings can affect."),
    full_custom_enabled: z.boolean().describe("Set by the service; read-only. Whether the resource has a custom configuration, set up by support: only its SSL certificate is then meant to be changed by the account."),
    can_purge_by_urls: z
      .boolean()
      .describe("Set by the service; read-only. Whether the resource's cache can be purged by URL (purging is not part of this API)."),
    suspend_date: cdnTimestamp.nullable().describe("When the resource was or will be suspended; null if not."),
    suspended: z.boolean().describe("Whether the resource is suspended (see suspend_date)."),
    primary_resource: integer().nullable().describe("The id of the primary resource of a shared-cache resource."),
    is_primary: z
      .boolean()
      .nullable()
      .describe("Whether the resource is the primary one of a cache shared with other resources; null when it shares none."),
    waap_domain_id: integer().nullable().describe("The id of the resource's domain in WAAP (not part of this API), or null."),
    rules: z
      .array(z.record(z.unknown()))
      .describe("Rules of the resource; managed by rule operations that this API does not include, so empty here."),
    options: cdnResourceOptions,
    waap_api_domain_enabled: z.boolean().describe("Whether WAAP API domain protection is on. Written by PUT only."),
  })
  .strict()
  .describe("A CDN resource: a delivery host name with its origin group and options.");
export interface CdnResourceSchema extends CdnResourceSchemaType {}
type CdnResourceSchemaType = typeof cdnResourceSchema;
export const cdnResource: CdnResourceSchema = cdnResourceSchema;

export type CdnResource = z.infer<typeof cdnResource>;

const CDN_RESOURCE_READ_ONLY = Object.keys(cdnResource.shape).filter(
  (key) =>
    ![
      "active",
      "name",
      "description",
      "secondaryHostnames",
      "originGroup",
      "originProtocol",
      "sslEnabled",
      "sslData",
      "proxy_ssl_enabled",
      "proxy_ssl_ca",
      "proxy_ssl_data",
      "options",
      "waap_api_domain_enabled",
    ].includes(key),
);

const cdnResourceWritable = {
  active: z.boolean().describe("Whether the resource serves traffic."),
  name: z.string().min(1).max(255).describe("Name of the resource, 1 to 255 characters."),
  description: z.string().max(1024).describe("At most 1024 characters."),
  secondaryHostnames: listOf(hostname, {
    max: 10,
    noun: "secondary host names",
    description: "Host names, each unused by the account's other resources (409 otherwise).",
  }).refine((names) => new Set(names.map((name) => name.toLowerCase())).size === names.length, "Host names must be unique."),
  originGroup: integer({ min: 1 }).describe("An origin group of the account (400 `errors.originGroup` otherwise)."),
  originProtocol,
  sslEnabled: z.boolean().describe("Serve HTTPS; needs `sslData` (given or already set)."),
  sslData: integer({ min: 1 }).nullable().describe("A certificate of the account (400 `errors.sslData` otherwise)."),
  proxy_ssl_enabled: z.boolean().describe("Verify the origin's certificate."),
  proxy_ssl_ca: integer({ min: 1 }).nullable().describe("A CA certificate of the account, or null."),
  proxy_ssl_data: integer({ min: 1 }).nullable().describe("A client certificate of the account, or null."),
  options: cdnResourceOptionsWrite,
};

const updateCdnResourceBodySchema = strictObject(
  Object.fromEntries(Object.entries(cdnResourceWritable).map(([key, schema]) => [key, schema.optional()])) as {
    [K in keyof typeof cdnResourceWritable]: z.ZodOptional<(typeof cdnResourceWritable)[K]>;
  },
  {
    readOnly: CDN_RESOURCE_READ_ONLY,
    rejected: { waap_api_domain_enabled: "Only the full-replace operation (PUT) takes this field." },
  },
).describe("The fields to change; fields not given keep their value.");
export interface UpdateCdnResourceBodySchema extends UpdateCdnResourceBodySchemaType {}
type UpdateCdnResourceBodySchemaType = typeof updateCdnResourceBodySchema;
export const updateCdnResourceBody: UpdateCdnResourceBodySchema = updateCdnResourceBodySchema;

const replaceCdnResourceBodySchema = strictObject(
  {
    ...(Object.fromEntries(Object.entries(cdnResourceWritable).map(([key, schema]) => [key, schema.optional()])) as {
      [K in keyof typeof cdnResourceWritable]: z.ZodOptional<(typeof cdnResourceWritable)[K]>;
    }),
    originGroup: cdnResourceWritable.originGroup,
    waap_api_domain_enabled: z.boolean().optional().describe("Turn WAAP API domain protection on. Default false."),
  },
  { readOnly: CDN_RESOURCE_READ_ONLY },
).describe(
  "Every writable field. `originGroup` is required; any other writable field left out returns to the default " +
    'of a new resource: options {}, secondaryHostnames [], description "", active true, the SSL booleans false, ' +
    "sslData, proxy_ssl_ca and proxy_ssl_data null, originProtocol HTTP, waap_api_domain_enabled false; the name is kept.",
);
export interface ReplaceCdnResourceBodySchema extends ReplaceCdnResourceBodySchemaType {}
type ReplaceCdnResourceBodySchemaType = typeof replaceCdnResourceBodySchema;
export const replaceCdnResourceBody: ReplaceCdnResourceBodySchema = replaceCdnResourceBodySchema;

export type UpdateCdnResourceBody = z.input<typeof updateCdnResourceBody>;
export type ReplaceCdnResourceBody = z.input<typeof replaceCdnResourceBody>;

/** Is `value` an origin: a host name or IP address, with an optional port (an IPv6 address with a port in brackets)? */
export function isOriginSource(value: string): boolean {
  const bracketed = /^\[([0-9A-Fa-f:.]+)\](?::(\d{1,5}))?$/.exec(value);
  if (bracketed) return isIPv6(bracketed[1]!) && validPort(bracketed[2]);
  if (isIPv6(value)) return true;
  const [host, port, extra] = value.split(":");
  if (extra !== undefined || host === undefined) return false;
  return (isIPv4(host) || isHostname(host)) && validPort(port);
}

function validPort(port: string | undefined): boolean {
  return port === undefined || (/^\d{1,5}$/.test(port) && Number(port) >= 1 && Number(port) <= 65535);
}

const originSource = z
  .string()
  .max(261)
  .refine(isOriginSource, "Must be a host name or IP address with an optional port, such as origin.example.com:8080.")
  .describe("A host name or IP address with an optional port (1 to 65535): `origin.example.com`, `203.0.113.7:8080`, `[2001:db8::1]:8443`.");

const createCdnResourceBodySchema = strictObject(
  {
    cname: hostname
      .describe(
        "The delivery host name, unique on the platform (409 when any resource already uses it, in any case); " +
          "stored and returned in lower case.",
      ),
    origin: originSource
      .optional()
      .describe(
        "An origin host (and port): a new origin group is made for it, named after the cname, with this one enabled " +
          "source. Exactly one of `origin` and `originGroup` is given.",
      ),
    originGroup: cdnResourceWritable.originGroup.optional().describe(
      "An origin group of the account (400 `errors.originGroup` otherwise). Exactly one of `origin` and `originGroup` is given.",
    ),
    name: cdnResourceWritable.name.nullable().optional().describe("Name of the resource, 1 to 255 characters; the cname when absent or null."),
    active: cdnResourceWritable.active.optional().describe("Whether the resource serves traffic. Default true."),
    description: cdnResourceWritable.description.optional().describe('At most 1024 characters. Default "".'),
    secondaryHostnames: cdnResourceWritable.secondaryHostnames.optional(),
    originProtocol: originProtocol.optional().describe("Protocol to the origin: HTTP (the default), HTTPS, or MATCH (the protocol the client used)."),
    sslEnabled: cdnResourceWritable.sslEnabled.optional().describe("Serve HTTPS; needs `sslData`. Default false."),
    sslData: cdnResourceWritable.sslData.optional(),
    proxy_ssl_enabled: cdnResourceWritable.proxy_ssl_enabled.optional().describe("Verify the origin's certificate. Default false."),
    proxy_ssl_ca: cdnResourceWritable.proxy_ssl_ca.optional(),
    proxy_ssl_data: cdnResourceWritable.proxy_ssl_data.optional(),
    options: cdnResourceWritable.options.optional(),
    waap_api_domain_enabled: z.boolean().optional().describe("Turn WAAP API domain protection on. Default false."),
  },
  {
    readOnly: CDN_RESOURCE_READ_ONLY.filter((key) => key !== "cname"),
    rejected: { primary_resource: "Reserve resources that share a primary resource's cache are not part of this API." },
  },
)
  .superRefine((body, ctx) => {
    if ((body.origin === undefined) === (body.originGroup === undefined))
      for (const path of ["origin", "originGroup"])
        ctx.addIssue({ code: z.ZodIssueCode.custom, path: [path], message: "Exactly one of origin and originGroup is required." });
  })
  .describe(
    "A new CDN resource: `cname` and exactly one of `origin` and `originGroup` are required; every other writable field " +
      "takes the default of a new resource when left out. Inside `options`, a key set to null adds no option.",
  );
export interface CreateCdnResourceBodySchema extends CreateCdnResourceBodySchemaType {}
type CreateCdnResourceBodySchemaType = typeof createCdnResourceBodySchema;
export const createCdnResourceBody: CreateCdnResourceBodySchema = createCdnResourceBodySchema;

export type CreateCdnResourceBody = z.input<typeof createCdnResourceBody>;

// ---------------------------------------------------------------------------------------------
// Lists
// ---------------------------------------------------------------------------------------------

/** The most items a page of any CDN list holds. */
export const CDN_PAGE_MAX = PAGE_MAX;

/** Statuses the listing filters by, as the platform names them. */
export const CDN_RESOURCE_STATUSES = ["active", "processed", "suspended", "deleted"] as const;

const certificateIdList = z
  .string()
  .regex(/^[1-9]\d{0,9}(,[1-9]\d{0,9}){0,99}$/, "Must be 1 to 100 certificate ids separated by commas, such as 12,15.")
  .transform((text) => text.split(",").map(Number))
  .refine((ids) => ids.every((id) => id <= INT32_MAX), `Each id must be at most ${INT32_MAX}.`);

const createdBound = z
  .string()
  .datetime({ offset: true, message: "Must be an ISO 8601 date and time, e.g. 2026-03-01T00:00:00Z." });

const listCdnResourcesQuerySchema = z.object({
  cname: z.string().max(253).optional().describe("Resources with this delivery host name, compared case-insensitively."),
  name: z.string().max(255).optional().describe("Resources whose name contains this text, case-insensitively."),
  status: stringEnum(CDN_RESOURCE_STATUSES).optional().describe("Resources with this status."),
  deleted: booleanQuery("Resources that are (true) or are not (false) marked deleted by the service.").optional(),
  enabled: booleanQuery("Resources that the service has (true) or has not (false) enabled.").optional(),
  active: booleanQuery("Resources that serve traffic (true) or are deactivated (false).").optional(),
  originGroup: integerParam({ min: 1, description: "Resources that pull from this origin group." }).optional(),
  sslEnabled: booleanQuery("Resources that serve HTTPS (true) or not (false).").optional(),
  sslData: integerParam({ min: 1, description: "Resources that serve HTTPS with this certificate." }).optional(),
  sslData_in: certificateIdList.optional().describe("Resources that serve HTTPS with one of these certificates: ids separated by commas, at most 100."),
  shielded: booleanQuery("Resources with (true) or without (false) origin shielding.").optional(),
  shield_dc: z.string().max(64).optional().describe("Resources shielded through the POP of this data center, e.g. fra-2."),
  vp_enabled: booleanQuery("Resources that are (true) or are not (false) set up for the streaming platform.").optional(),
  secondaryHostnames: z
    .string()
    .max(253)
    .optional()
    .describe("Resources that have this secondary host name, compared case-insensitively."),
  min_created: createdBound.optional().describe("Resources created at or after this time (ISO 8601)."),
  max_created: createdBound.optional().describe("Resources created at or before this time (ISO 8601)."),
  ...paging("resources", 25),
});
export interface ListCdnResourcesQuerySchema extends ListCdnResourcesQuerySchemaType {}
type ListCdnResourcesQuerySchemaType = typeof listCdnResourcesQuerySchema;
export const listCdnResourcesQuery: ListCdnResourcesQuerySchema = listCdnResourcesQuerySchema;

export type ListCdnResourcesQuery = z.input<typeof listCdnResourcesQuery>;

const cdnResourceListSchema = pageOf(cdnResource, "resources");
export interface CdnResourceListSchema extends CdnResourceListSchemaType {}
type CdnResourceListSchemaType = typeof cdnResourceListSchema;
export const cdnResourceList: CdnResourceListSchema = cdnResourceListSchema;

export type CdnResourceList = z.infer<typeof cdnResourceList>;

// ---------------------------------------------------------------------------------------------
// Shielding, logs uploader, client settings, features, origin groups
// ---------------------------------------------------------------------------------------------

export const shieldingSetting = z
  .object({
    shielding_pop: integer({ min: 1 })
      .nullable()
      .describe("The id of one of the platform's shielding POPs, or null: shielding is off."),
  })
  .strict()
  .describe("The origin shielding of a CDN resource.");

export type ShieldingSetting = z.infer<typeof shieldingSetting>;

export const shieldingSettingWrite = strictObject(shieldingSetting.shape).describe(
  "Set `shielding_pop` to a POP id to shield the origin through it (the resource's shielded, shield_enabled and " +
    "shield_dc follow), or to null to switch shielding off. An unknown POP id is 400 `errors.shielding_pop`.",
);

export const shieldingPop = z
  .object({
    id: integer().describe("The POP id, the value of a resource's `shielding_pop`."),
    datacenter: z.string().describe("The data center, the value of a shielded resource's `shield_dc`."),
    country: z.string().describe("The country, an ISO 3166-1 alpha-2 code."),
    city: z.string().describe("The city where the POP is."),
  })
  .strict()
  .describe("A shielding POP of the platform: a point of presence through which a resource's requests to its origin can go.");

export type ShieldingPop = z.infer<typeof shieldingPop>;

const shieldingPopListSchema = pageOf(shieldingPop, "shielding POPs");
export interface ShieldingPopListSchema extends ShieldingPopListSchemaType {}
type ShieldingPopListSchemaType = typeof shieldingPopListSchema;
export const shieldingPopList: ShieldingPopListSchema = shieldingPopListSchema;

export type ShieldingPopList = z.infer<typeof shieldingPopList>;

export const listShieldingPopsQuery = z.object(paging("POPs", CDN_PAGE_MAX));

export type ListShieldingPopsQuery = z.input<typeof listShieldingPopsQuery>;

const cdnClientSettingsSchema = z
  .object({
    id: integer().describe("The account id."),
    created: cdnTimestamp,
    updated: cdnTimestamp,
    service: z
      .object({
        enabled: z.boolean(),
        status: z.string().describe('"active" when the CDN service is on.'),
        updated: cdnTimestamp,
      })
      .strict()
      .describe("The account's CDN service."),
    utilization_level: integer().describe("Expected traffic utilization level. Writable."),
    cname: z.string().describe("The account's CNAME target for delivery host names."),
    use_balancer: z
      .boolean()
      .describe("Set by the service; read-only. Whether custom balancing is used to deliver the account's content."),
    auto_suspend_enabled: z.boolean().describe("Whether resources without traffic are suspended automatically."),
    cdn_resources_rules_max_count: integer().describe("Maximum count of rules per CDN resource."),
  })
  .strict()
  .describe("The account-level CDN settings.");
export interface CdnClientSettingsSchema extends CdnClientSettingsSchemaType {}
type CdnClientSettingsSchemaType = typeof cdnClientSettingsSchema;
export const cdnClientSettings: CdnClientSettingsSchema = cdnClientSettingsSchema;

export type CdnClientSettings = z.infer<typeof cdnClientSettings>;

export const updateCdnClientSettingsBody = strictObject(
  { utilization_level: integer({ min: 0 }).describe("An integer from 0 to 2147483647.") },
  {
    readOnly: ["id", "created", "updated", "service", "cname", "use_balancer", "auto_suspend_enabled", "cdn_resources_rules_max_count"],
  },
).describe("The account-level CDN setting to change: utilization_level, the only writable one.");

const feature = {
  feature_id: integer(),
  name: z.string(),
  create_date: cdnTimestamp.describe("When the account got the feature."),
};

const cdnFeaturesSchema = z
  .object({
    id: integer().describe("The account id."),
    paid_features: z
      .array(z.object({ ...feature, paid_feature_id: integer() }).strict())
      .describe("The features the account pays for."),
    free_features: z
      .array(z.object({ ...feature, free_feature_id: integer() }).strict())
      .describe("The features the account has at no cost."),
  })
  .strict()
  .describe("The CDN features of the account, paid and free.");
export interface CdnFeaturesSchema extends CdnFeaturesSchemaType {}
type CdnFeaturesSchemaType = typeof cdnFeaturesSchema;
export const cdnFeatures: CdnFeaturesSchema = cdnFeaturesSchema;

export type CdnFeatures = z.infer<typeof cdnFeatures>;

/** The origin failures after which the next origin may be tried, as the platform names them. */
export const PROXY_NEXT_UPSTREAM = [
  "error",
  "timeout",
  "invalid_header",
  "http_403",
  "http_404",
  "http_429",
  "http_500",
  "http_502",
  "http_503",
  "http_504",
] as const;

const originGroupSchema = z
  .object({
    id: integer(),
    name: z.string(),
    use_next: z.boolean().describe("Try the next origin when one fails in a way listed in proxy_next_upstream."),
    proxy_next_upstream: z
      .array(stringEnum(PROXY_NEXT_UPSTREAM))
      .describe("The origin failures after which the next origin is tried (when use_next is on)."),
    auth_type: z.string().describe('"none": the origins are public.'),
    sources: z
      .array(
        z
          .object({
            backup: z.boolean().describe("Used only when every non-backup source fails."),
            enabled: z.boolean(),
            source: z.string().describe("A domain name or IP address, with an optional port."),
            host_header_override: z
              .string()
              .nullable()
              .describe("The Host header sent to this origin instead of the default; null: the default."),
          })
          .strict(),
      )
      .describe("The origins, in the order given."),
    path: z.string().describe("Path prefix added to requests to the origins."),
    has_related_resources: z.boolean().describe("Whether any CDN resource of the account uses this group."),
  })
  .strict()
  .describe("An origin group: the origins a CDN resource pulls from.");
export interface OriginGroupSchema extends OriginGroupSchemaType {}
type OriginGroupSchemaType = typeof originGroupSchema;
export const originGroup: OriginGroupSchema = originGroupSchema;

export type OriginGroup = z.infer<typeof originGroup>;

const NOT_HOST_ORIGINS = "S3 and FastEdge origins are not part of this API: a source is a host origin (`source`).";

const originGroupSourceWrite = strictObject(
  {
    source: originSource,
    backup: z.boolean().optional().describe("Used only when every non-backup source fails. Default false."),
    enabled: z.boolean().optional().describe("Whether the CDN pulls from this origin. Default true."),
    host_header_override: hostname
      .nullable()
      .optional()
      .describe("The Host header to send to this origin instead of the default, a host name; null or absent: the default."),
  },
  { rejected: { origin_type: NOT_HOST_ORIGINS, config: NOT_HOST_ORIGINS } },
).describe("An origin of the group.");

const originGroupWritable = {
  name: z.string().min(1).max(255).describe("Name of the group, 1 to 255 characters."),
  sources: listOf(originGroupSourceWrite, {
    min: 1,
    max: 20,
    noun: "sources",
    description: "The origins, in order; the list given replaces the group's list. At least 1, at least one of them enabled, no source twice.",
  })
    .refine((sources) => sources.some((source) => source.enabled !== false), "At least one source must be enabled.")
    .refine(
      (sources) => new Set(sources.map((source) => source.source.toLowerCase())).size === sources.length,
      "Each source may be given once.",
    ),
  use_next: z.boolean().describe("Try the next origin when one fails in a way listed in `proxy_next_upstream`; needs at least one of them."),
  proxy_next_upstream: listOf(stringEnum(PROXY_NEXT_UPSTREAM), {
    max: PROXY_NEXT_UPSTREAM.length,
    noun: "failures",
    description: `The origin failures after which the next origin is tried: ${PROXY_NEXT_UPSTREAM.join(", ")}.`,
  }).refine((failures) => new Set(failures).size === failures.length, "Each failure may be given once."),
  auth_type: stringEnum(["none"]).describe('"none", the only type here: the origins are public.'),
  path: z
    .string()
    .max(255)
    .regex(/^(\/[^\s?#]*)?$/, "Must be empty or a path starting with /, without spaces, query or fragment.")
    .describe('A path prefix added to requests to the origins: empty, or starting with /. At most 255 characters.'),
};

const ORIGIN_GROUP_REJECTED = { auth: "S3 origin authentication (awsSignatureV4) is not part of this API." };
const ORIGIN_GROUP_READ_ONLY = ["id", "has_related_resources"];

function optionalFields<S extends z.ZodRawShape>(shape: S) {
  return Object.fromEntries(Object.entries(shape).map(([key, schema]) => [key, schema.optional()])) as {
    [K in keyof S]: z.ZodOptional<S[K]>;
  };
}

const createOriginGroupBodySchema = strictObject(
  {
    ...optionalFields(originGroupWritable),
    name: originGroupWritable.name,
    sources: originGroupWritable.sources,
  },
  { readOnly: ORIGIN_GROUP_READ_ONLY, rejected: ORIGIN_GROUP_REJECTED },
).describe(
  "A new origin group: `name` and `sources` are required. Defaults: use_next false, proxy_next_upstream " +
    '[error, timeout], auth_type "none", path "".',
);
export interface CreateOriginGroupBodySchema extends CreateOriginGroupBodySchemaType {}
type CreateOriginGroupBodySchemaType = typeof createOriginGroupBodySchema;
export const createOriginGroupBody: CreateOriginGroupBodySchema = createOriginGroupBodySchema;

export type CreateOriginGroupBody = z.input<typeof createOriginGroupBody>;

const updateOriginGroupBodySchema = strictObject(optionalFields(originGroupWritable), {
  readOnly: ORIGIN_GROUP_READ_ONLY,
  rejected: ORIGIN_GROUP_REJECTED,
}).describe("The fields to change; fields not given keep their value. `sources`, when given, replaces the whole list.");
export interface UpdateOriginGroupBodySchema extends UpdateOriginGroupBodySchemaType {}
type UpdateOriginGroupBodySchemaType = typeof updateOriginGroupBodySchema;
export const updateOriginGroupBody: UpdateOriginGroupBodySchema = updateOriginGroupBodySchema;

export type UpdateOriginGroupBody = z.input<typeof updateOriginGroupBody>;

const replaceOriginGroupBodySchema = strictObject(
  {
    ...optionalFields(originGroupWritable),
    name: originGroupWritable.name,
    sources: originGroupWritable.sources,
    use_next: originGroupWritable.use_next,
  },
  { readOnly: ORIGIN_GROUP_READ_ONLY, rejected: ORIGIN_GROUP_REJECTED },
).describe(
  "Every writable field: `name`, `sources` and `use_next` are required; proxy_next_upstream, auth_type and path left " +
    'out return to their defaults ([error, timeout], "none", "").',
);
export interface ReplaceOriginGroupBodySchema extends ReplaceOriginGroupBodySchemaType {}
type ReplaceOriginGroupBodySchemaType = typeof replaceOriginGroupBodySchema;
export const replaceOriginGroupBody: ReplaceOriginGroupBodySchema = replaceOriginGroupBodySchema;

export type ReplaceOriginGroupBody = z.input<typeof replaceOriginGroupBody>;

const listOriginGroupsQuerySchema = z.object({
  name: z.string().max(255).optional().describe("Groups whose name contains this text, case-insensitively."),
  sources: z.string().max(261).optional().describe("Groups with a source that contains this text, case-insensitively."),
  has_related_resources: booleanQuery("Groups that a CDN resource of the account uses (true) or that none uses (false).").optional(),
  ...paging("groups", 25),
});
export interface ListOriginGroupsQuerySchema extends ListOriginGroupsQuerySchemaType {}
type ListOriginGroupsQuerySchemaType = typeof listOriginGroupsQuerySchema;
export const listOriginGroupsQuery: ListOriginGroupsQuerySchema = listOriginGroupsQuerySchema;

export type ListOriginGroupsQuery = z.input<typeof listOriginGroupsQuery>;

const originGroupListSchema = pageOf(originGroup, "origin groups");
export interface OriginGroupListSchema extends OriginGroupListSchemaType {}
type OriginGroupListSchemaType = typeof originGroupListSchema;
export const originGroupList: OriginGroupListSchema = originGroupListSchema;

export type OriginGroupList = z.infer<typeof originGroupList>;

// ---------------------------------------------------------------------------------------------
// Routes
// ---------------------------------------------------------------------------------------------

const resourceIdParams = z.object({ resource_id: idParam("The CDN resource id.") });
const originGroupIdParams = z.object({ origin_group_id: idParam("The origin group id.") });
const write: RouteMetadata = { access: "write" };
const read: RouteMetadata = { access: "read" };

const ORIGIN_GROUP_RULES =
  "`use_next` true needs at least one `proxy_next_upstream` failure (400 `errors.proxy_next_upstream`). Each source is a " +
  "host origin; `host_header_override` sets the Host header sent to that origin.";

/** The CDN area's routes (the aliases are added to them in `cdnContract`). */
const cdnRoutes = {
  ...logsUploaderContract,
  listResources: {
    method: "GET",
    path: "/cdn/resources",
    query: listCdnResourcesQuery,
    responses: { 200: cdnResourceList, ...errorResponses() },
    summary: "List CDN resources",
    description:
      "The account's CDN resources that match every filter given. `name` matches a case-insensitive substring; `cname` and " +
      "`secondaryHostnames` match a whole host name, case-insensitively; the other filters match exactly. Paged by `limit` " +
      `(default 25, at most ${CDN_PAGE_MAX}) and \`offset\`; \`count\` is the number of all matches. Ordered by id ascending. ` +
      "Always answers the page envelope `{count, results}` (the platform answers a bare list when no limit is given). Deleted " +
      "resources are gone for good (see the delete operation), so `deleted=true` and `status=deleted` find only resources " +
      "the service itself marked deleted. The platform's `rules` and `suspend` filters are not taken here (unknown " +
      "parameters are ignored).",
    metadata: read,
  },
  createResource: {
    method: "POST",
    path: "/cdn/resources",
    body: createCdnResourceBody,
    responses: { 201: cdnResource, ...errorResponses([409, ...withBody]) },
    summary: "Create a CDN resource",
    description:
      "Creates a CDN resource for the delivery host name `cname`, pulling from `originGroup` (an origin group of the account) " +
      "or from `origin` (a host, for which a new origin group named after the cname is made in the same transaction: one " +
      "enabled source, use_next false). Exactly one of the two is given. The other writable fields follow the rules of the " +
      "change operations and take a new resource's defaults when left out (active true, originProtocol HTTP, options {}, " +
      "SSL off, name = cname). The cname is stored in lower case; 409 when any resource on the platform uses it already " +
      "(delivery host names are global), or when a secondary host name is used by another resource of the account. " +
      "A new resource has status active, enabled true and no shielding. Answers 201 with the resource as the change " +
      "operations return it.",
    metadata: write,
  },
  getResource: {
    method: "GET",
    path: "/cdn/resources/:resource_id",
    pathParams: resourceIdParams,
    responses: { 200: cdnResource, ...errorResponses() },
    summary: "Get a CDN resource",
    description: "One CDN resource of the account, as the change operations return it.",
    metadata: read,
  },
  deleteResource: {
    method: "DELETE",
    path: "/cdn/resources/:resource_id",
    pathParams: resourceIdParams,
    responses: { 204: c.noBody(), ...errorResponses([409]) },
    summary: "Delete a CDN resource",
    description:
      "Deletes the resource for good: it cannot be recovered, answers 404 afterwards, and its cname and secondary host " +
      "names are free again. As on the platform, the resource must be deactivated first (`active` false through a " +
      "change operation): deleting an active resource answers 409 and changes nothing. A resource that delivers streams " +
      "(their `cdn_id`) answers 409 naming them: give them another `cdn_id`, or null, or delete them first (a stream never " +
      "keeps a resource that is gone). Its origin group stays. Answers 204 with no body.",
    metadata: write,
  },
  updateResource: {
    method: "PATCH",
    path: "/cdn/resources/:resource_id",
    pathParams: resourceIdParams,
    body: updateCdnResourceBody,
    responses: { 200: cdnResource, ...errorResponses([409, ...withBody]) },
    summary: "Change a CDN resource",
    description:
      "Changes only the fields given. Inside `options`, each option key given replaces that option whole, " +
      "`\"<key>\": null` removes it, and keys not given stay as they are. `waap_api_domain_enabled` is only " +
      "taken by the full-replace operation. 409 when a secondary host name is used by another resource of the account. " +
      "A PATCH with no field changes nothing (`updated` included) and answers the resource as it is.",
    metadata: write,
  },
  replaceResource: {
    method: "PUT",
    path: "/cdn/resources/:resource_id",
    pathParams: resourceIdParams,
    body: replaceCdnResourceBody,
    responses: { 200: cdnResource, ...errorResponses([409, ...withBody]) },
    summary: "Replace a CDN resource",
    description:
      "Replaces every writable field. `originGroup` is required; every other writable field left out returns to " +
      "the default of a new resource (options {}, secondaryHostnames [], description \"\", active true, SSL " +
      "booleans false, certificate ids null). Also takes `waap_api_domain_enabled`.",
    metadata: write,
  },
  getResourceShielding: {
    method: "GET",
    path: "/cdn/resources/:resource_id/shielding_v2",
    pathParams: resourceIdParams,
    responses: { 200: shieldingSetting, ...errorResponses() },
    summary: "Get the origin shielding of a CDN resource",
    description: "The shielding POP the resource's requests to its origin go through (`shielding_pop`), or null when shielding is off.",
    metadata: read,
  },
  updateResourceShielding: {
    method: "PUT",
    path: "/cdn/resources/:resource_id/shielding_v2",
    pathParams: resourceIdParams,
    body: shieldingSettingWrite,
    responses: { 200: shieldingSetting, ...errorResponses(withBody) },
    summary: "Set the origin shielding of a CDN resource",
    description:
      "Routes the resource's requests to its origin through one shielding POP (`shielding_pop`), or switches " +
      "shielding off with null.",
    metadata: write,
  },
  listShieldingPops: {
    method: "GET",
    path: "/cdn/shieldingpop_v2",
    query: listShieldingPopsQuery,
    responses: { 200: shieldingPopList, ...errorResponses() },
    summary: "List the shielding POPs",
    description:
      "The platform's shielding POPs, the same for every account: the values a resource's `shielding_pop` may take. " +
      `Paged by \`limit\` (default and at most ${CDN_PAGE_MAX}) and \`offset\`, ordered by id ascending; always the page ` +
      "envelope `{count, results}`.",
    // The path's `shieldingpop` is one word to the rule: named here in the API's two words.
    metadata: { ...read, client: { resource: "shieldingPops" } } satisfies ClientMetadata,
  },
  getClientFeatures: {
    method: "GET",
    path: "/cdn/clients/me/features",
    responses: { 200: cdnFeatures, ...errorResponses() },
    summary: "List the account's CDN features",
    description: "The paid and free CDN features of the caller's account.",
    // The account's CDN features, which the path files under `clients/me`.
    metadata: { ...read, client: { resource: "features", method: "get" } } satisfies ClientMetadata,
  },
  getClientSettings: {
    method: "GET",
    path: "/cdn/clients/me",
    responses: { 200: cdnClientSettings, ...errorResponses() },
    summary: "Get the account's CDN settings",
    description: "The account-level CDN settings of the caller's account, as the change operation returns them.",
    // `/cdn/clients/me` is the account's CDN settings, not an account.
    metadata: { ...read, client: { resource: "clientSettings" } } satisfies ClientMetadata,
  },
  updateClientSettings: {
    method: "PUT",
    path: "/cdn/clients/me",
    body: updateCdnClientSettingsBody,
    responses: { 200: cdnClientSettings, ...errorResponses(withBody) },
    summary: "Change the account's CDN settings",
    description: "Sets the account's `utilization_level` (an integer from 0 to 2147483647) and returns the account-level CDN settings.",
    metadata: { ...write, client: { resource: "clientSettings" } } satisfies ClientMetadata,
  },
  listOriginGroups: {
    method: "GET",
    path: "/cdn/origin_groups",
    query: listOriginGroupsQuery,
    responses: { 200: originGroupList, ...errorResponses() },
    summary: "List origin groups",
    description:
      "The account's origin groups that match every filter given, with their sources. `name` and `sources` match a " +
      "case-insensitive substring (of the name, of any source); `has_related_resources` tells groups a CDN resource of the " +
      `account uses from the others. Paged by \`limit\` (default 25, at most ${CDN_PAGE_MAX}) and \`offset\`; \`count\` is ` +
      "the number of all matches. Ordered by id ascending; always the page envelope `{count, results}`.",
    metadata: read,
  },
  createOriginGroup: {
    method: "POST",
    path: "/cdn/origin_groups",
    body: createOriginGroupBody,
    responses: { 201: originGroup, ...errorResponses(withBody) },
    summary: "Create an origin group",
    description: `Creates an origin group of 1 to 20 sources, at least one of them enabled. ${ORIGIN_GROUP_RULES} Answers 201 with the group.`,
    metadata: write,
  },
  getOriginGroup: {
    method: "GET",
    path: "/cdn/origin_groups/:origin_group_id",
    pathParams: originGroupIdParams,
    responses: { 200: originGroup, ...errorResponses() },
    summary: "Get an origin group",
    description: "One origin group of the account; `has_related_resources` tells whether a CDN resource uses it.",
    metadata: read,
  },
  updateOriginGroup: {
    method: "PATCH",
    path: "/cdn/origin_groups/:origin_group_id",
    pathParams: originGroupIdParams,
    body: updateOriginGroupBody,
    responses: { 200: originGroup, ...errorResponses(withBody) },
    summary: "Change an origin group",
    description:
      "Changes only the fields given; `sources`, when given, replaces the whole list. " +
      `${ORIGIN_GROUP_RULES} The CDN resources that use the group use its new settings at once.`,
    metadata: write,
  },
  replaceOriginGroup: {
    method: "PUT",
    path: "/cdn/origin_groups/:origin_group_id",
    pathParams: originGroupIdParams,
    body: replaceOriginGroupBody,
    responses: { 200: originGroup, ...errorResponses(withBody) },
    summary: "Replace an origin group",
    description:
      "Replaces every writable field: `name`, `sources` and `use_next` are required; proxy_next_upstream, auth_type and " +
      `path left out return to their defaults ([error, timeout], "none", ""). ${ORIGIN_GROUP_RULES}`,
    metadata: write,
  },
  deleteOriginGroup: {
    method: "DELETE",
    path: "/cdn/origin_groups/:origin_group_id",
    pathParams: originGroupIdParams,
    responses: { 204: c.noBody(), ...errorResponses([409]) },
    summary: "Delete an origin group",
    description:
      "Deletes the origin group and its sources. 409 while a CDN resource of the account uses it (move the resources to " +
      "another group, or delete them, first); nothing is changed then. Answers 204 with no body.",
    metadata: write,
  },
} as const;

export const cdnContract = c.router({
  ...cdnRoutes,
  patchClientSettings: alias(cdnRoutes, "updateClientSettings", { path: "/cdn/clients/me", method: "PATCH" }),
});
