/**
 * The options of a CDN resource: each option's fields and formats, the options as written (PATCH, PUT,
 * create) and as returned (`secure_key.key` never), and what each option does.
 */
import { z } from "zod";
import { cidr, headerName, hostname, integer, isHostname, listOf, mapOf, stringEnum, strictObject } from "../common.js";
import { COUNTRY_CODES } from "../country-codes.js";

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

const queryKey = z.string().regex(/^[A-Za-z0-9_.~-]{1,255}$/, "Must be a query parameter name such as token.");

/** A phase of a request in which the `fastedge` option runs an edge app. */
function fastedgePhase(when: string) {
  return strictObject({
    app_id: z.string().min(1).max(255).describe("The id of the edge app to run."),
    enabled: z.boolean().optional().describe("Whether the app runs in this phase. Default true."),
    execute_on_edge: z.boolean().optional().describe("Run the app on the edge servers. Default true."),
    execute_on_shield: z.boolean().optional().describe("Run the app on the shielding servers too. Default false."),
    interrupt_on_error: z.boolean().optional().describe("Answer with an error instead of going on when the app fails. Default true."),
  })
    .optional()
    .describe(`Run an edge app ${when}.`);
}

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
  "grpc_passthrough",
  "gzipOn",
  "http3_enabled",
  "ignore_cookie",
  "ignoreQueryString",
  "network_error_logging",
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
    value: duration
      .optional()
      .describe("How long the CDN caches responses with status 200, 206, 301, 302, whatever the origin's own cache headers say."),
    default: duration
      .optional()
      .describe(
        "How long the CDN caches responses with status 200, 206, 301, 302 when the origin sends no cache headers " +
          "(Cache-Control, Expires); the origin's headers win when it sends them. Not together with `value`.",
      ),
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
  fastedge: {
    enabled,
    on_request_headers: fastedgePhase("on the request headers, before the cache is looked up"),
    on_request_headers_after_cache: fastedgePhase("on the request headers, after the cache is looked up"),
    on_request_body: fastedgePhase("on the request body"),
    on_response_headers: fastedgePhase("on the response headers"),
    on_response_body: fastedgePhase("on the response body"),
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
    forward_only_keys: listOf(queryKey, {
      max: 100,
      noun: "keys",
      description: "Forward only these query parameters; the others stay behind. Not together with `forward_except_keys`.",
    }).optional(),
    forward_except_keys: listOf(queryKey, {
      max: 100,
      noun: "keys",
      description: "Forward every query parameter but these. Not together with `forward_only_keys`.",
    }).optional(),
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

const FASTEDGE_PHASES = [
  "on_request_headers",
  "on_request_headers_after_cache",
  "on_request_body",
  "on_response_headers",
  "on_response_body",
] as const;

/** The checks across the fields of one option, by option: what a field's own schema cannot say. */
const OPTION_CHECKS: Partial<Record<string, (option: Record<string, unknown>, ctx: z.RefinementCtx) => void>> = {
  sni: (option, ctx) => sniCheck(option as { sni_type: string; custom_hostname?: string }, ctx),
  fastedge: (option, ctx) => {
    if (!FASTEDGE_PHASES.some((phase) => option[phase] !== undefined))
      for (const phase of FASTEDGE_PHASES)
        ctx.addIssue({ code: z.ZodIssueCode.custom, path: [phase], message: `At least one of ${FASTEDGE_PHASES.join(", ")} is required.` });
  },
  edge_cache_settings: (option, ctx) => {
    if (option.value !== undefined && option.default !== undefined)
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["default"], message: "Not together with value: give one of value and default." });
  },
  query_string_forwarding: (option, ctx) => {
    if (option.forward_only_keys !== undefined && option.forward_except_keys !== undefined)
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ["forward_except_keys"],
        message: "Not together with forward_only_keys: give one of the two.",
      });
  },
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
  grpc_passthrough: "Pass gRPC requests through to the origin.",
  gzipOn: "Compress responses with gzip on the CDN.",
  http3_enabled: "Serve clients over HTTP/3 (QUIC).",
  ignore_cookie: "Leave cookies out of the cache key: responses that differ only by cookie are cached once.",
  ignoreQueryString: "Leave the query string out of the cache key.",
  network_error_logging: "Ask browsers to report network errors (the NEL and Report-To headers) and collect their reports.",
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
  fastedge:
    "Run edge apps in the phases of a request given (its headers before or after the cache, its body, the response's headers or body): at least one phase.",
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
  const check = OPTION_CHECKS[name];
  const option = check ? strictObject(shape).superRefine((value, ctx) => check(value as Record<string, unknown>, ctx)) : strictObject(shape);
  return option.describe(OPTION_DESCRIPTIONS[name]);
}

/** An option as returned: strict, described with what it does. */
function readOption(name: OptionName, shape: z.ZodRawShape) {
  return (returned(z.object(shape).strict()) as z.ZodObject<z.ZodRawShape, "strict">).describe(OPTION_DESCRIPTIONS[name]);
}

/**
 * The returned form of a written field, as the platform answers: every field present, an optional one
 * null when it has no value; the checks of writes left out, the descriptions kept.
 */
function returned(schema: z.ZodTypeAny): z.ZodTypeAny {
  const described = (result: z.ZodTypeAny) => {
    const description = schema.description ?? result.description;
    return description ? result.describe(description) : result;
  };
  if (schema instanceof z.ZodOptional) return described(returned(schema.unwrap() as z.ZodTypeAny).nullable().optional());
  if (schema instanceof z.ZodNullable) return described(returned(schema.unwrap() as z.ZodTypeAny).nullable());
  if (schema instanceof z.ZodEffects) return described(returned(schema.innerType() as z.ZodTypeAny));
  if (schema instanceof z.ZodObject)
    return described(z.object(Object.fromEntries(Object.entries(schema.shape as z.ZodRawShape).map(([key, field]) => [key, returned(field)]))).strict());
  if (schema instanceof z.ZodArray) return described(z.array(returned(schema.element as z.ZodTypeAny)));
  return schema;
}

/** Puts a value in the returned form of a schema: the optional fields it lacks, null. */
type Completer = (value: unknown) => unknown;

const completers = new WeakMap<z.ZodTypeAny, Completer>();

/**
 * The completer of `schema`, made once: the schema is walked when it is made, and each value then only
 * copies its fields (a resource's listing completes every option of every rule of 25 resources).
 */
function completerOf(schema: z.ZodTypeAny): Completer {
  let completer = completers.get(schema);
  if (!completer) completers.set(schema, (completer = makeCompleter(schema)));
  return completer;
}

function makeCompleter(schema: z.ZodTypeAny): Completer {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) {
    const inner = completerOf(schema.unwrap() as z.ZodTypeAny);
    return (value) => (value === undefined || value === null ? null : inner(value));
  }
  if (schema instanceof z.ZodObject) {
    const shape = schema.shape as z.ZodRawShape;
    // Each value starts as a copy of one object that has every field, null: the copies share its layout,
    // so V8 keeps their properties fast. An object given its fields one key at a time turns into a hash
    // table past a dozen or so (the options have about 60): larger, slower to fill and to serialise
    // (a listing of 25 resources with 50 rules each completes 1,275 of them). The template comes from
    // JSON.parse, which builds fast objects of any size.
    const template = JSON.parse(JSON.stringify(Object.fromEntries(Object.keys(shape).map((key) => [key, null])))) as Record<string, unknown>;
    // An optional field the value lacks stays the template's null, so only the fields the value has are
    // visited (a stored rule has a few options of about 50); a required field is always completed.
    const optional = new Map<string, Completer>();
    const required: [string, Completer][] = [];
    for (const [key, field] of Object.entries(shape)) {
      if (field instanceof z.ZodOptional || field instanceof z.ZodNullable) optional.set(key, completerOf(field));
      else required.push([key, completerOf(field)]);
    }
    return (value) => {
      if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
      const record = value as Record<string, unknown>;
      const completed: Record<string, unknown> = { ...template };
      for (const [key, field] of required) completed[key] = field(record[key]);
      for (const key of Object.keys(record)) {
        const field = optional.get(key);
        if (field !== undefined) completed[key] = field(record[key]);
      }
      return completed;
    };
  }
  if (schema instanceof z.ZodArray) {
    const element = completerOf(schema.element as z.ZodTypeAny);
    return (value) => (Array.isArray(value) ? value.map((item) => element(item)) : value);
  }
  return (value) => value;
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

/** Each option as written in a body: it may be null, which removes that option (or adds none). */
const nullableWriteShape = Object.fromEntries(
  Object.entries(optionsWriteShape).map(([name, schema]) => [name, schema.nullable().optional()]),
) as { [K in keyof OptionsWrite]: z.ZodOptional<z.ZodNullable<OptionsWrite[K]>> };

/**
 * The options that set up a resource as a whole (its TLS, certificates and protocols) rather than the
 * delivery of some of its paths: a resource takes them, a rule or rule template does not.
 */
export const RESOURCE_ONLY_OPTIONS = [
  "grpc_passthrough",
  "http3_enabled",
  "network_error_logging",
  "tls_versions",
  "use_default_le_chain",
  "use_dns01_le_challenge",
  "use_rsa_le_cert",
] as const;
type ResourceOnlyOption = (typeof RESOURCE_ONLY_OPTIONS)[number];

function withoutResourceOnly<S extends Record<string, unknown>>(shape: S): Omit<S, ResourceOnlyOption> {
  const kept: Record<string, unknown> = { ...shape };
  for (const name of RESOURCE_ONLY_OPTIONS) delete kept[name];
  return kept as Omit<S, ResourceOnlyOption>;
}

/** Options as written in a PATCH or PUT body: each key may be null, which removes that option. */
const cdnResourceOptionsWriteSchema = strictObject(nullableWriteShape, { unknownMessage: "Unknown option." }).describe(
  OPTIONS_DESCRIPTION +
    " PATCH: each option key given replaces that option whole, `null` removes it, keys not given stay. " +
    "PUT: the options given are the resource's options afterwards.",
);
export interface CdnResourceOptionsWriteSchema extends CdnResourceOptionsWriteSchemaType {}
type CdnResourceOptionsWriteSchemaType = typeof cdnResourceOptionsWriteSchema;
export const cdnResourceOptionsWrite: CdnResourceOptionsWriteSchema = cdnResourceOptionsWriteSchema;

const { key: _secretKey, ...secureKeyRead } = otherOptionShapes.secure_key;

const RETURNED_DESCRIPTION =
  " Every option key is returned, null for an option that is not set, and every field of a set option, null for one " +
  "without a value. `secure_key.key` is a secret and is never returned.";

/** The type of a value as returned: each optional field of an object may also be null (see `returned`). */
export type Returned<T> = T extends readonly (infer Item)[]
  ? Returned<Item>[]
  : T extends object
    ? { [K in keyof T]: undefined extends T[K] ? Returned<Exclude<T[K], undefined>> | null | undefined : Returned<T[K]> }
    : T;

/** An option as returned: present or null, with the returned type of its fields. */
type ReadOption<S extends z.ZodRawShape> = z.ZodOptional<z.ZodNullable<z.ZodType<Returned<z.output<z.ZodObject<S>>>>>>;

const optionsReadShape = {
    ...(Object.fromEntries(booleanOptionNames.map((name) => [name, readOption(name, booleanOptionShape).nullable().optional()])) as unknown as {
      [K in (typeof booleanOptionNames)[number]]: ReadOption<typeof booleanOptionShape>;
    }),
    ...(Object.fromEntries(
      Object.entries(otherOptionShapes).map(([name, shape]) => [
        name,
        readOption(name as OptionName, name === "secure_key" ? secureKeyRead : shape).nullable().optional(),
      ]),
    ) as unknown as {
      [K in keyof typeof otherOptionShapes]: ReadOption<K extends "secure_key" ? typeof secureKeyRead : (typeof otherOptionShapes)[K]>;
    }),
};

/** Options as returned: like the written form, but `secure_key.key` is never returned. */
const cdnResourceOptionsSchema = z
  .object(optionsReadShape)
  .strict()
  .describe(OPTIONS_DESCRIPTION + RETURNED_DESCRIPTION);
export interface CdnResourceOptionsSchema extends CdnResourceOptionsSchemaType {}
type CdnResourceOptionsSchemaType = typeof cdnResourceOptionsSchema;
export const cdnResourceOptions: CdnResourceOptionsSchema = cdnResourceOptionsSchema;

export type CdnResourceOptions = z.infer<typeof cdnResourceOptions>;
export type CdnResourceOptionsWrite = z.input<typeof cdnResourceOptionsWrite>;

const RULE_OPTIONS_DESCRIPTION =
  OPTIONS_DESCRIPTION +
  " The options of a rule are a resource's, with the same fields and checks, but for those that set up the resource as a whole (" +
  RESOURCE_ONLY_OPTIONS.join(", ") +
  "): a rule's option applies to the requests its pattern matches, in place of the resource's option of the same key.";

/** A rule's (or rule template's) options as written: PATCH merges them by key, null removes one. */
const cdnRuleOptionsWriteSchema = strictObject(withoutResourceOnly(nullableWriteShape), { unknownMessage: "Unknown option." }).describe(
  RULE_OPTIONS_DESCRIPTION +
    " PATCH: each option key given replaces that option whole, `null` removes it, keys not given stay. " +
    "PUT and create: the options given (null ones left out) are the options afterwards.",
);
export interface CdnRuleOptionsWriteSchema extends CdnRuleOptionsWriteSchemaType {}
type CdnRuleOptionsWriteSchemaType = typeof cdnRuleOptionsWriteSchema;
export const cdnRuleOptionsWrite: CdnRuleOptionsWriteSchema = cdnRuleOptionsWriteSchema;

/** A rule's (or rule template's) options as returned: `secure_key.key` is never returned. */
const cdnRuleOptionsSchema = z
  .object(withoutResourceOnly(optionsReadShape))
  .strict()
  .describe(RULE_OPTIONS_DESCRIPTION + RETURNED_DESCRIPTION);
export interface CdnRuleOptionsSchema extends CdnRuleOptionsSchemaType {}
type CdnRuleOptionsSchemaType = typeof cdnRuleOptionsSchema;
export const cdnRuleOptions: CdnRuleOptionsSchema = cdnRuleOptionsSchema;

export type CdnRuleOptions = z.infer<typeof cdnRuleOptions>;
export type CdnRuleOptionsWrite = z.input<typeof cdnRuleOptionsWrite>;

/** A resource's stored options (`secure_key.key` left out) as returned: every key and field present, null without a value. */
export function completeCdnResourceOptions(options: Record<string, unknown>): CdnResourceOptions {
  return completerOf(cdnResourceOptions)(options) as CdnResourceOptions;
}

/** A rule's or template's stored options (`secure_key.key` left out) as returned: every key and field present, null without a value. */
export function completeCdnRuleOptions(options: Record<string, unknown>): CdnRuleOptions {
  return completerOf(cdnRuleOptions)(options) as CdnRuleOptions;
}
