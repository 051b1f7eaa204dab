/**
 * One realistic example of every resource and request body. The contract tests parse each against
 * its schema, and the docs show them, so an example can never drift from the schema it illustrates.
 * They are the demo data's objects (packages/db/fixtures/demo.json, account 1), so that every example
 * request of the docs runs as it is against `pnpm start`; the local app's tests send each one.
 */
import type { ApiToken } from "./iam/index.js";
import type {
  CdnClientSettings,
  CdnFeatures,
  CdnResource,
  CreateLogsUploaderTargetBody,
  LogsUploaderTarget,
  OriginGroup,
  ReplaceCdnResourceBody,
  ShieldingSetting,
  UpdateCdnResourceBody,
} from "./cdn/index.js";
import type { CostReportTotals, CostReportTotalsBody, GpuImage, InferenceModel } from "./cloud/index.js";
import type { CreateEdgeAppSecretBody, EdgeApp, EdgeAppSecret, EdgeAppTemplate, UpdateEdgeAppBody } from "./edge/index.js";
import type { SecurityProfile, UpdateSecurityProfileBody } from "./security/index.js";
import type { BucketCors } from "./storage/index.js";
import type { ClipRecording, CreateClipRecordingBody, Stream } from "./streaming/index.js";
import type { ErrorEnvelope } from "./common.js";
import { completeCdnResourceOptions } from "./cdn/options.js";
import { cdnRuleExample, cdnRulePresetExample } from "./cdn/rules.js";

export const cdnResourceExample: CdnResource = {
  id: 1,
  cname: "cdn.acme.example",
  active: true,
  enabled: true,
  status: "active",
  deleted: false,
  client: 1,
  name: "Acme website",
  description: "The main site and its images, HTTPS only.",
  created: "2026-01-21 09:00:00.000000+00:00",
  updated: "2026-04-16 09:00:00.000000+00:00",
  originGroup: 1,
  originGroup_name: "acme-web-origins",
  originProtocol: "HTTPS",
  secondaryHostnames: ["static.acme.example", "img.acme.example"],
  shielded: false,
  shield_dc: null,
  shield_enabled: false,
  shield_routing_map: null,
  sslEnabled: true,
  sslData: 1,
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
  rules: [cdnRuleExample, cdnRulePresetExample],
  options: completeCdnResourceOptions({
    gzipOn: { enabled: true, value: true },
    edge_cache_settings: { enabled: true, value: "1d", custom_values: { "404": "10s" } },
    cors: { enabled: true, value: ["www.acme.example", "admin.acme.example"], always: true },
    ip_address_acl: { enabled: true, policy_type: "deny", excepted_values: ["192.0.2.0/24"] },
    secure_key: { enabled: true, type: 2 },
    tls_versions: { enabled: true, value: ["TLSv1.2", "TLSv1.3"] },
  }),
  waap_api_domain_enabled: false,
};

export const updateCdnResourceExample: UpdateCdnResourceBody = {
  description: "Assets and images",
  options: {
    cors: { enabled: true, value: ["www.acme.example"] },
    gzipOn: null,
    browser_cache_settings: { enabled: true, value: "3600s" },
  },
};

/**
 * A full replace of resource 1 that also switches it off (`active` false, which a resource must be before it
 * is deleted; left out, a replace switches it on). It leaves the SSL fields out (off, no certificate): a
 * certificate is an account's own, and no route of this API uploads one, so a newly provisioned account has
 * none to name.
 */
export const replaceCdnResourceExample: ReplaceCdnResourceBody = {
  originGroup: 1,
  name: "Acme website",
  active: false,
  originProtocol: "HTTPS",
  secondaryHostnames: ["static.acme.example", "img.acme.example"],
  options: { gzipOn: { enabled: true, value: true } },
  waap_api_domain_enabled: false,
};

/** Shielding from POP 2 (Amsterdam), one of the demo data's shielding POPs. */
export const shieldingSettingExample: ShieldingSetting = { shielding_pop: 2 };

export const createLogsUploaderTargetExample: CreateLogsUploaderTargetBody = {
  storage_type: "s3_vendor",
  name: "Access logs",
  description: "CDN access logs for analytics",
  config: {
    access_key_id: "AKIAEXAMPLE",
    secret_access_key: "<secret access key>",
    region: "eu-west-1",
    bucket_name: "cdn-logs",
    directory: "access/",
    endpoint: "https://s3.example.com",
    use_path_style: true,
  },
};

export const logsUploaderTargetExample: LogsUploaderTarget = {
  id: 3,
  client_id: 1,
  created: "2026-03-01T12:00:00.000Z",
  updated: "2026-03-01T12:00:00.000Z",
  storage_type: "s3_vendor",
  name: "Access logs",
  description: "CDN access logs for analytics",
  related_uploader_configs: [],
  status: { status: "in_progress", code: 0, updated: "2026-03-01T12:00:00.000Z", details: "" },
  config: {
    access_key_id: "AKIAEXAMPLE",
    region: "eu-west-1",
    bucket_name: "cdn-logs",
    directory: "access/",
    endpoint: "https://s3.example.com",
    use_path_style: true,
  },
};

export const cdnFeaturesExample: CdnFeatures = {
  id: 1,
  paid_features: [{ feature_id: 7, name: "WAAP", paid_feature_id: 1701, create_date: "2026-01-12 09:30:00.000000+00:00" }],
  free_features: [{ feature_id: 3, name: "Image stack", free_feature_id: 1301, create_date: "2026-01-12 09:30:00.000000+00:00" }],
};

export const cdnClientSettingsExample: CdnClientSettings = {
  id: 1,
  created: "2026-01-12 09:30:00.000000+00:00",
  updated: "2026-03-01 12:00:00.000000+00:00",
  service: { enabled: true, status: "active", updated: "2026-01-12 09:30:00.000000+00:00" },
  utilization_level: 3,
  cname: "cl-1.cdn.cloudplane.example",
  use_balancer: false,
  auto_suspend_enabled: true,
  cdn_resources_rules_max_count: 150,
};

export const originGroupExample: OriginGroup = {
  id: 1,
  name: "acme-web-origins",
  use_next: true,
  proxy_next_upstream: ["error", "timeout", "http_502", "http_503"],
  auth_type: "none",
  sources: [
    { backup: false, enabled: true, source: "origin-1.acme.example", host_header_override: null },
    { backup: false, enabled: true, source: "origin-2.acme.example", host_header_override: "www.acme.example" },
    { backup: true, enabled: true, source: "backup.acme.example:8080", host_header_override: null },
  ],
  path: "",
  has_related_resources: true,
};

export const edgeAppExample: EdgeApp = {
  id: 1,
  name: "image-resize-eu",
  url: "https://image-resize-eu-1.acme.edge.cloudplane.example",
  status: 1,
  binary: 1,
  template: 1,
  template_name: "Image resize",
  comment: "Resizes product images",
  api_type: "wasi-http",
  debug_until: null,
  networks: ["edge-eu", "edge-us"],
  upgradeable_to: 7,
  plan_id: 2,
  plan: "pro",
};

export const updateEdgeAppExample: UpdateEdgeAppBody = {
  status: 2,
  comment: "Paused for maintenance",
  env: { LOG_LEVEL: "debug" },
  rsp_headers: { "x-served-by": "edge" },
  secrets: { API_KEY: { id: 1 } },
  debug: true,
};

export const edgeAppTemplateExample: EdgeAppTemplate = {
  id: 1,
  binary_id: 1,
  name: "Image resize",
  short_descr: "Resizes images on the fly.",
  long_descr: "Reads width and quality from the query string and answers with a resized image.",
  api_type: "wasi-http",
  owned: true,
  params: [
    { name: "MAX_WIDTH", data_type: "number", mandatory: true, descr: "Largest width served, pixels.", metadata: null },
    { name: "QUALITY", data_type: "number", mandatory: false, descr: "JPEG and WebP quality, 1 to 100.", metadata: null },
    { name: "ORIGIN_URL", data_type: "string", mandatory: true, descr: "Where the original images are.", metadata: null },
  ],
};

export const createEdgeAppSecretExample: CreateEdgeAppSecretBody = {
  name: "payment-api-key",
  comment: "Key of the payment provider",
  secret_slots: [
    { slot: 0, value: "<old secret value>" },
    { slot: 1767225600, value: "<new secret value>" },
  ],
};

export const edgeAppSecretExample: EdgeAppSecret = {
  id: 6,
  name: "payment-api-key",
  comment: "Key of the payment provider",
  app_count: 0,
  secret_slots: [
    { slot: 0, checksum: "5e884898da28047151d0e56f8dc6292773603d0d6aabbdd62a11ef721d1542d8" },
    { slot: 1767225600, checksum: "a665a45920422f9d417e4867efdc4fb8a04a1f3fff1fa07e998e86f7f7a27ae3" },
  ],
};

export const streamExample: Stream = {
  id: 1,
  name: "Acme lobby cam 1",
  pull: false,
  active: true,
  auto_record: false,
  html_overlay: false,
  live: true,
  backup_live: true,
  client_user_id: 5,
  uri: null,
  push_url: "rtmp://vp-push.cloudplane.example/in/1?fb809ced87f6",
  backup_push_url: "rtmp://vp-push-backup.cloudplane.example/in/1?fb809ced87f6",
  push_url_srt: "srt://vp-push.cloudplane.example:5001?streamid=1#fb809ced87f6",
  backup_push_url_srt: "srt://vp-push-backup.cloudplane.example:5001?streamid=1#fb809ced87f6",
  push_url_whip: "https://whip.cloudplane.example/whip/1/fb809ced87f6",
  token: "fb809ced87f6",
  srt_passphrase: null,
  active_ingest_region_primary: "eu-west",
  active_ingest_region_backup: "eu-central",
  html_overlays: [],
  created_at: "2026-02-17T09:01:00.000Z",
  started_at_primary: "2026-11-02T09:10:00.000Z",
  finished_at_primary: null,
  started_at_backup: "2026-11-02T09:11:00.000Z",
  dvr_duration: 7200,
  recording_duration: 0,
  iframe_url: "https://acme.video.cloudplane.example/streams/1/player.html",
  dash_url: "https://acme.video.cloudplane.example/streams/1/index.mpd",
  hls_cmaf_url: "https://acme.video.cloudplane.example/streams/1/index.m3u8",
  hls_mpegts_url: "https://acme.video.cloudplane.example/streams/1/index-ts.m3u8",
  screenshot: "https://acme.video.cloudplane.example/streams/1/screenshot.jpg",
  transcoded_qualities: ["720p", "480p"],
  transcoding_speed: 1.13,
  frame_rate: 30,
  video_height: 720,
  video_width: 1280,
  dvr_enabled: true,
  broadcast_ids: [1, 3],
  cdn_id: null,
  client_entity_data: null,
  hls_mpegts_endlist_tag: false,
  projection: "regular",
  quality_set_id: null,
  record_type: "origin",
  stream_source_type: "rtmp",
};

/**
 * The last minute, cut now: `start` (default: now) and `expiration` (default: an hour after the clip
 * ends) are left out, as a fixed time would fall outside the stream's DVR window by the time it is sent.
 */
export const createClipRecordingExample: CreateClipRecordingBody = { duration: 60 };

export const clipRecordingExample: ClipRecording = {
  id: "clip_5f0c3a1e9b2d4c7a",
  created_at: "2026-03-01T11:01:30.000Z",
  vod_required: false,
  video_id: null,
  renditions: ["720p", "480p"],
  hls_master: "https://acme.video.cloudplane.example/clips/clip_5f0c3a1e9b2d4c7a/master.m3u8",
  mp4_master: "https://acme.video.cloudplane.example/clips/clip_5f0c3a1e9b2d4c7a/master.mp4",
  start: 1772362800,
  duration: 60,
  expiration: 1772370060,
};

export const inferenceModelExample: InferenceModel = {
  id: "8f1c1b5e-4a7d-4b8e-9a51-0d7c2f9e6a11",
  name: "Llama-3.1-8B-Instruct",
  category: "Text Generation",
  default_flavor_id: "inference-16vcpu-232gib-1xh100-80gb",
  description: "An instruction-tuned 8B language model.",
  developer: "Meta",
  documentation_page: "https://docs.cloudplane.example/inference/llama-3-1-8b",
  eula_url: "https://llama.meta.com/llama3_1/license/",
  example_curl_request: "curl -X POST https://<deployment>/v1/chat/completions -d '{\"messages\":[]}'",
  has_eula: true,
  image_registry_id: "registry-1",
  image_url: "registry.cloudplane.example/inference/llama-3.1-8b:1.0",
  inference_backend: "vllm",
  inference_frontend: "openai",
  model_id: "meta-llama/Llama-3.1-8B-Instruct",
  openai_compatibility: "chat_completions",
  port: 8000,
  version: "1.0",
};

export const gpuImageExample: GpuImage = {
  id: "2b0e7a3c-9d4f-4c1e-8f5a-6e7d8c9b0a12",
  name: "ubuntu-22.04-cuda-12",
  architecture: "x86_64",
  os_distro: "ubuntu",
  os_type: "linux",
  os_version: "22.04",
  ssh_key: "allow",
  status: "active",
  visibility: "public",
  created_at: "2026-01-05T08:00:00.000Z",
  updated_at: "2026-02-05T08:00:00.000Z",
  min_disk: 40,
  min_ram: 4096,
  size: 5368709120,
  tags: [{ key: "cuda", read_only: true, value: "12.4" }],
  task_id: null,
  disk_format: "qcow2",
  hw_firmware_type: null,
  cuda_toolkit_version: "12.4",
  gpu_driver: "nvidia",
  gpu_driver_type: "proprietary",
  gpu_driver_version: "550.127.05",
};

export const costReportTotalsRequestExample: CostReportTotalsBody = {
  time_from: "2026-01",
  time_to: "2026-03",
  regions: [1, 2],
  types: ["instance", "egress_traffic"],
  response_format: "json",
  tags: { condition_type: "OR", conditions: [{ key: "env", value: "prod", strict: true }] },
};

export const costReportTotalsExample: CostReportTotals = {
  count: 1,
  price_status: "show",
  results: [
    {
      type: "instance",
      region: 1,
      region_id: 1,
      flavor: "g1-standard-2-4",
      instance_type: null,
      volume_type: null,
      billing_metric_name: "vm_minutes",
      billing_feature_name: "instance_g1-standard-2-4",
      billing_value_unit: "minutes",
      currency: "EUR",
      billing_value: 89280,
      cost: 74.4,
      err: null,
    },
  ],
};

export const securityProfileExample: SecurityProfile = {
  id: 1,
  profile_template: {
    id: 1,
    name: "Basic DDoS protection",
    description: "Filters volumetric attacks on the listed TCP ports.",
    fields: [
      {
        id: 1,
        name: "tcp_ports",
        description: "TCP ports to protect.",
        field_type: "int",
        required: true,
        default: null,
        validation_schema: { type: "array", items: { type: "integer", minimum: 0, maximum: 65535 }, uniqueItems: true, maxItems: 64 },
      },
    ],
    base_template: null,
    version: "6f5c05cc-7b35-4c8a-bc10-29db3fa2e204",
    created: "2026-01-06T09:00:00.000Z",
    template_sifter: "tcp_ports",
  },
  ip_address: "203.0.113.10",
  fields: [
    {
      id: 1,
      name: "tcp_ports",
      description: "TCP ports to protect.",
      field_type: "int",
      required: true,
      default: null,
      validation_schema: { type: "array", items: { type: "integer", minimum: 0, maximum: 65535 }, uniqueItems: true, maxItems: 64 },
      field_value: [80, 443],
      base_field: 1,
    },
  ],
  site: "ED",
  options: { bgp: true, active: true, price: "0.00" },
  protocols: [],
  status: {},
  plan: "basic",
};

export const updateSecurityProfileExample: UpdateSecurityProfileBody = {
  profile_template: 1,
  ip_address: "203.0.113.10",
  fields: [{ base_field: 1, field_value: [80, 443] }],
  site: "ED",
};

export const apiTokenExample: ApiToken = {
  id: 15,
  name: "CI deploys",
  description: "Used by the deploy pipeline",
  exp_date: "2027-01-01 00:00:00+00:00",
  created: "2026-01-12 09:30:00+00:00",
  last_usage: "2026-03-01 12:00:00+00:00",
  deleted: false,
  expired: false,
  client_user: {
    role: { id: 1, name: "Administrators" },
    deleted: false,
    user_id: 11,
    user_name: "Frank Admin",
    user_email: "frank@acme.example",
    client_id: 1,
  },
};

export const bucketCorsExample: BucketCors = { data: { allowedOrigins: ["https://www.acme.example", "https://admin.acme.example"] } };

export const validationErrorExample: ErrorEnvelope = {
  message: "The request did not pass validation: see errors.",
  code: "validation_error",
  errors: { "options.cors.value.0": ["Must be a domain name."] },
  request_id: "req_5f0c3a1e9b2d4c7a",
};
