/**
 * Descriptions of the fields whose meaning their name does not say and the contract does not describe
 * (yet). Each is applied only where the contract has no description, and the tests fail once the
 * contract describes the field itself, so that the note moves into the contract instead of drifting.
 */
import type { SchemaObject } from "./json-schema.js";

/** The CDN options, by key: what each option does (api.md lists their fields, not their purpose). */
const CDN_OPTION_NOTES: Record<string, string> = {
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
  "force_return.time_interval.time_zone": "The time zone of start_time and end_time, e.g. Europe/Luxembourg or UTC.",
  hostHeader: "Send this Host header to the origin.",
  image_stack: "Optimize images on the fly: convert them to AVIF or WebP, compress PNG, set the quality.",
  "image_stack.avif_enabled": "Convert images to AVIF for clients that accept it.",
  "image_stack.webp_enabled": "Convert images to WebP for clients that accept it.",
  "image_stack.png_lossless": "Compress PNG images losslessly.",
  limit_bandwidth: "Limit the download speed of each connection.",
  proxy_cache_key: "Replace the default cache key.",
  proxy_connect_timeout: "How long the CDN waits to connect to the origin.",
  proxy_read_timeout: "How long the CDN waits between two reads from the origin.",
  query_params_blacklist: "Leave the listed query parameters out of the cache key.",
  query_params_whitelist: "Keep only the listed query parameters in the cache key.",
  query_string_forwarding: "Forward the query string of requests for one kind of file (such as playlists) to the files they refer to (such as segments).",
  request_limiter: "Limit the request rate of each client IP address.",
  response_headers_hiding_policy: "Hide origin response headers from clients.",
  rewrite: "Rewrite the request's URI with a regular expression before it goes to the origin.",
  "rewrite.flag": "What follows the rewrite, as in nginx: break, last, redirect (302) or permanent (301).",
  secure_key: "Serve only URLs signed with the secure key.",
  sni: "The TLS SNI host name sent to the origin.",
  stale: "Serve a stale cached copy when the origin fails in one of the listed ways.",
  static_response_headers: "Add headers to the responses to clients.",
  "static_response_headers.value[].name": "The header name.",
  "static_response_headers.value[].value": "The header's values.",
  staticHeaders: "Add headers to the responses to clients: a name and a value or a list of values.",
  staticRequestHeaders: "Add headers to the requests to the origin.",
  tls_versions: "The TLS versions offered to clients.",
};

/**
 * Notes by component, then by the field's path in it (`a.b[].c`; `[]` steps into array items; "" is the
 * component itself).
 */
export const FIELD_NOTES: Record<string, Record<string, string>> = {
  ApiToken: { "client_user.role": "The user's role: its group id and name." },
  Broadcast: { "": "A broadcast of a stream." },
  BucketCors: { data: "The bucket's CORS settings." },
  CdnClientSettings: { use_balancer: "Whether custom balancing is used to deliver the account's content; set by the service." },
  CdnFeatures: {
    paid_features: "The features the account pays for.",
    free_features: "The features the account has at no cost.",
  },
  CdnResource: {
    deleted: "Whether the resource was deleted.",
    preset_applied: "Whether a preset (a predefined set of options) is applied to the resource; set by the service.",
    vp_enabled: "Whether the resource serves the video streaming platform; set by the service.",
    full_custom_enabled: "Whether the resource has a custom configuration made by the platform; set by the service.",
    can_purge_by_urls: "Whether the resource's cache can be purged by URL.",
    suspended: "Whether the resource is suspended (see suspend_date).",
    is_primary: "Whether the resource is the primary one of a cache zone shared with other resources; null when it shares none.",
    waap_domain_id: "The id of the WAAP domain that protects the resource, or null.",
  },
  CdnResourceOptions: CDN_OPTION_NOTES,
  CdnResourceOptionsWrite: CDN_OPTION_NOTES,
  CostReportTotals: {
    results: "One line per type, region, flavor, metric, feature, unit and currency.",
    "results[].flavor": "The flavor (machine type) the usage was on, e.g. g1-standard-2-4; empty when it has none.",
    "results[].billing_metric_name": "The billed metric, e.g. vm_hours.",
    "results[].billing_feature_name": "The billed feature, e.g. instance_g1-standard-2-4.",
    "results[].billing_value_unit": "The unit of billing_value, e.g. h (hours).",
  },
  CostReportTotalsBody: {
    "": "The months of the report and the filters of the usage it sums.",
    "tags.conditions": "The conditions on resource tags, combined by condition_type.",
    "tags.conditions[].key": "The tag's key.",
    "tags.conditions[].value": "The tag value to match (see strict).",
  },
  CreateClipRecordingBody: { "": "Where the clip starts, how long it is and when it expires." },
  CreateEdgeAppSecretBody: {
    "": "A new secret: its name, comment and values.",
    secret_slots: "The secret's values, one per slot: at least 1 and at most 100, each slot once.",
  },
  CreateLogsUploaderTargetBody: {
    "": "A new logs uploader target.",
    config: "The bucket, and the credentials to write to it.",
  },
  EdgeAppList: { "": "A page of edge apps, and the number of all the apps that match." },
  EdgeAppSecret: {
    "secret_slots[].slot": "The slot: a Unix time (seconds) from which the value is in effect; 0 for always.",
  },
  EdgeAppTemplate: {
    short_descr: "A one-line description of the template.",
    long_descr: "The template's full description.",
    "params[].mandatory": "Whether an app made from the template must set the parameter.",
    "params[].descr": "What the parameter is for.",
  },
  GpuImage: {
    tags: "Key-value tags of the image.",
    "tags[].key": "The tag's key.",
    "tags[].value": "The tag's value.",
    "tags[].read_only": "Whether the tag is set by the platform and cannot be changed.",
  },
  GpuImageList: { "": "The GPU images, and their number." },
  InferenceModel: {
    inference_backend: "The engine that serves the model, e.g. vllm.",
    inference_frontend: "The API a deployment of the model offers, e.g. openai.",
  },
  InferenceModelList: { "": "A page of inference models, and the number of all the models." },
  LogsUploaderTarget: { "status.details": "What the check found; empty while it is in progress." },
  OriginGroup: { proxy_next_upstream: "The origin failures after which the next origin is tried (when use_next is on)." },
  SecurityProfile: {
    fields: "The profile's values of its template's fields.",
    options: "Options of the profile's service, set by the service.",
    "options.active": "Whether the protection is active.",
  },
  SecurityProfileTemplate: { fields: "The fields a profile of this template gives." },
  UpdateCdnClientSettingsBody: { "": "The account-level CDN setting to change." },
  ShieldingSetting: { "": "The origin shielding of a CDN resource." },
  Stream: { html_overlay: "Whether HTML overlays (widgets drawn over the video) are on." },
};

/** The schema at `path` inside `schema`, or undefined when there is none. */
export function schemaAt(schema: SchemaObject, path: string): SchemaObject | undefined {
  let current: SchemaObject | undefined = schema;
  if (path === "") return current;
  for (const step of path.split(".")) {
    const [name, ...items] = step.split("[]");
    current = current?.properties?.[name!];
    for (let index = 0; index < items.length; index++) current = current?.items;
  }
  return current;
}

/**
 * Adds each note to its field where the contract gave no description. Throws when a note names a field
 * that does not exist, so that a renamed field cannot leave its note behind.
 */
export function applyFieldNotes(components: Record<string, SchemaObject>): void {
  for (const [component, notes] of Object.entries(FIELD_NOTES)) {
    for (const [path, note] of Object.entries(notes)) {
      const field = components[component] && schemaAt(components[component], path);
      if (!field) throw new Error(`FIELD_NOTES: ${component} has no field ${path}`);
      field.description ??= note;
    }
  }
}
