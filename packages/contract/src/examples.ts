/**
 * One realistic example of every resource and request body. The contract tests parse each against
 * its schema, and the docs show them, so an example can never drift from the schema it illustrates.
 */
import type { ApiToken } from "./iam.js";
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
} from "./cdn.js";
import type { CostReportTotals, CostReportTotalsBody, GpuImage, InferenceModel } from "./cloud.js";
import type { CreateEdgeAppSecretBody, EdgeApp, EdgeAppSecret, EdgeAppTemplate, UpdateEdgeAppBody } from "./edge.js";
import type { SecurityProfile, UpdateSecurityProfileBody } from "./security.js";
import type { BucketCors } from "./storage.js";
import type { ClipRecording, CreateClipRecordingBody, Stream } from "./streaming.js";
import type { ErrorEnvelope } from "./common.js";

export const cdnResourceExample: CdnResource = {
  id: 201,
  cname: "cdn.example.com",
  active: true,
  enabled: true,
  status: "active",
  deleted: false,
  client: 1,
  name: "Main site",
  description: "Static assets of the main site",
  created: "2026-01-12 09:30:00.123456+00:00",
  updated: "2026-03-01 12:00:00.654321+00:00",
  originGroup: 101,
  originGroup_name: "Main origins",
  originProtocol: "HTTPS",
  secondaryHostnames: ["static.example.com"],
  shielded: false,
  shield_dc: null,
  shield_enabled: false,
  shield_routing_map: null,
  sslEnabled: true,
  sslData: 301,
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
  rules: [],
  options: {
    gzipOn: { enabled: true, value: true },
    edge_cache_settings: { enabled: true, value: "1d", custom_values: { "404": "10s" } },
    cors: { enabled: true, value: ["example.com", "*"], always: true },
    ip_address_acl: { enabled: true, policy_type: "deny", excepted_values: ["192.0.2.0/24"] },
    secure_key: { enabled: true, type: 2 },
    tls_versions: { enabled: true, value: ["TLSv1.2", "TLSv1.3"] },
  },
  waap_api_domain_enabled: false,
};

export const updateCdnResourceExample: UpdateCdnResourceBody = {
  description: "Assets and images",
  options: {
    cors: { enabled: true, value: ["example.com"] },
    gzipOn: null,
    browser_cache_settings: { enabled: true, value: "3600s" },
  },
};

export const replaceCdnResourceExample: ReplaceCdnResourceBody = {
  originGroup: 101,
  name: "Main site",
  originProtocol: "HTTPS",
  secondaryHostnames: ["static.example.com"],
  sslEnabled: true,
  sslData: 301,
  options: { gzipOn: { enabled: true, value: true } },
  waap_api_domain_enabled: false,
};

export const shieldingSettingExample: ShieldingSetting = { shielding_pop: 8 };

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
  id: 17,
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
  id: 101,
  name: "Main origins",
  use_next: true,
  proxy_next_upstream: ["error", "timeout", "http_502"],
  auth_type: "none",
  sources: [
    { backup: false, enabled: true, source: "origin1.example.com" },
    { backup: true, enabled: true, source: "203.0.113.10:8080" },
  ],
  path: "",
  has_related_resources: true,
};

export const edgeAppExample: EdgeApp = {
  id: 501,
  name: "image-resizer",
  url: "https://image-resizer-501.edge.cloudplane.example",
  status: 1,
  binary: 401,
  template: 451,
  template_name: "Image resizer",
  comment: "Resizes product images",
  api_type: "wasi-http",
  debug_until: null,
  networks: ["default"],
  upgradeable_to: null,
  plan_id: 1,
  plan: "basic",
};

export const updateEdgeAppExample: UpdateEdgeAppBody = {
  status: 2,
  comment: "Paused for maintenance",
  env: { LOG_LEVEL: "debug" },
  rsp_headers: { "x-served-by": "edge" },
  secrets: { API_KEY: { id: 601 } },
  debug: true,
};

export const edgeAppTemplateExample: EdgeAppTemplate = {
  id: 451,
  binary_id: 401,
  name: "Image resizer",
  short_descr: "Resize images on the fly",
  long_descr: "Resizes and re-encodes images according to query parameters.",
  api_type: "wasi-http",
  owned: false,
  params: [{ name: "MAX_WIDTH", data_type: "string", mandatory: true, descr: "Largest width in pixels" }],
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
  id: 601,
  name: "payment-api-key",
  comment: "Key of the payment provider",
  app_count: 0,
  secret_slots: [
    { slot: 0, checksum: "5e884898da28047151d0e56f8dc6292773603d0d6aabbdd62a11ef721d1542d8" },
    { slot: 1767225600, checksum: "a665a45920422f9d417e4867efdc4fb8a04a1f3fff1fa07e998e86f7f7a27ae3" },
  ],
};

export const streamExample: Stream = {
  id: 701,
  name: "Main stage",
  pull: false,
  active: true,
  auto_record: false,
  html_overlay: false,
  live: true,
  backup_live: false,
  client_user_id: 11,
  uri: null,
  push_url: "rtmp://push.stream.cloudplane.example/in/701?key",
  backup_push_url: "rtmp://push-backup.stream.cloudplane.example/in/701?key",
  push_url_srt: "srt://push.stream.cloudplane.example:5001?streamid=701",
  backup_push_url_srt: "srt://push-backup.stream.cloudplane.example:5001?streamid=701",
  push_url_whip: "https://whip.stream.cloudplane.example/whip/701",
  created_at: "2026-02-01T10:00:00.000Z",
  started_at_primary: "2026-03-01T11:00:00.000Z",
  finished_at_primary: null,
  started_at_backup: null,
  dvr_duration: 7200,
  recording_duration: 0,
  iframe_url: "https://player.stream.cloudplane.example/streams/701",
  dash_url: "https://cdn.stream.cloudplane.example/701/index.mpd",
  hls_cmaf_url: "https://cdn.stream.cloudplane.example/701/master-cmaf.m3u8",
  hls_mpegts_url: "https://cdn.stream.cloudplane.example/701/master.m3u8",
  screenshot: "https://cdn.stream.cloudplane.example/701/screenshot.jpg",
  transcoded_qualities: ["1080p", "720p", "480p"],
  transcoding_speed: 1,
  frame_rate: 30,
  video_height: 1080,
  video_width: 1920,
};

export const createClipRecordingExample: CreateClipRecordingBody = { start: 1772362800, duration: 60, expiration: 1772370060 };

export const clipRecordingExample: ClipRecording = {
  id: "clip_5f0c3a1e9b2d4c7a",
  created_at: "2026-03-01T11:01:30.000Z",
  vod_required: false,
  video_id: null,
  renditions: ["1080p", "720p", "480p"],
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
      billing_metric_name: "vm_hours",
      billing_feature_name: "instance_g1-standard-2-4",
      billing_value_unit: "hours",
      currency: "EUR",
      billing_value: 1488,
      cost: 74.4,
      err: null,
    },
  ],
};

export const securityProfileExample: SecurityProfile = {
  id: 901,
  profile_template: {
    id: 851,
    name: "Web server",
    description: "Protection for HTTP and HTTPS servers",
    fields: [
      {
        id: 861,
        name: "Allowed TCP ports",
        description: "Ports that accept traffic",
        field_type: "int",
        required: true,
        default: null,
        validation_schema: { type: "array", items: { type: "integer", minimum: 1, maximum: 65535 } },
      },
    ],
    base_template: null,
    version: "3f2c8e1a-6b4d-4f7e-9c2a-1d5e8f0b3a47",
    created: "2026-01-01T00:00:00.000Z",
    template_sifter: "tcp_ports",
  },
  ip_address: "203.0.113.5",
  fields: [
    {
      id: 861,
      name: "Allowed TCP ports",
      description: "Ports that accept traffic",
      field_type: "int",
      required: true,
      default: null,
      validation_schema: { type: "array", items: { type: "integer", minimum: 1, maximum: 65535 } },
      field_value: [80, 443],
      base_field: 861,
    },
  ],
  site: "ED",
  options: { bgp: true, active: true, price: "0.00" },
  protocols: [],
  status: {},
  plan: "basic",
};

export const updateSecurityProfileExample: UpdateSecurityProfileBody = {
  profile_template: 851,
  ip_address: "203.0.113.5",
  fields: [{ base_field: 861, field_value: [80, 443] }],
  site: "ED",
};

export const apiTokenExample: ApiToken = {
  id: 31,
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
    user_name: "Ada Admin",
    user_email: "ada@example.com",
    client_id: 1,
  },
};

export const bucketCorsExample: BucketCors = { data: { allowedOrigins: ["https://example.com", "https://app.example.com"] } };

export const validationErrorExample: ErrorEnvelope = {
  message: "The request did not pass validation: see errors.",
  code: "validation_error",
  errors: { "options.cors.value.0": ["Must be a domain name."] },
  request_id: "req_5f0c3a1e9b2d4c7a",
};
