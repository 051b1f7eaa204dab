/**
 * The demo data (fixtures/demo.json) as typed objects: what `pnpm start` serves and what tests compare
 * against. Objects carry the id the API shows and their account id; times are ISO 8601 UTC.
 */
import demoJson from "../fixtures/demo.json";

/** Names of the demo tokens of each account: the role group id and what the token is for. */
export type DemoTokenName =
  | "role-1-active"
  | "role-1-ci"
  | "role-2-active"
  | "role-5-active"
  | "role-3009-active"
  | "role-3022-active"
  | "role-5-expired"
  | "role-2-deleted";

export interface DemoAccount {
  id: number;
  name: string;
  utilization_level: number;
  cname: string;
  use_balancer: boolean;
  auto_suspend_enabled: boolean;
  cdn_resources_rules_max_count: number;
  service: { enabled: boolean; status: string; updated: string };
  created: string;
  updated: string;
}

export interface DemoUser {
  id: number;
  account_id: number;
  name: string;
  email: string;
  role_id: number;
  deleted: boolean;
  created: string;
}

/** A demo API token. `plaintext` is here because this is demo data; the database keeps only its hash. */
export interface DemoApiToken {
  id: number;
  account_id: number;
  user_id: number;
  /** The token's role group id (its user's role), repeated here so tests can pick tokens by role. */
  role_id: number;
  name: DemoTokenName;
  description: string;
  plaintext: string;
  exp_date: string | null;
  created: string;
  last_usage: string | null;
  deleted: boolean;
}

export interface DemoShieldingPop {
  id: number;
  datacenter: string;
  city: string;
  country: string;
}

export interface DemoOriginGroup {
  id: number;
  account_id: number;
  name: string;
  use_next: boolean;
  proxy_next_upstream: string[];
  auth_type: string;
  path: string;
  sources: { backup: boolean; enabled: boolean; source: string; host_header_override: string | null }[];
  created: string;
  updated: string;
}

export interface DemoCertificate {
  id: number;
  account_id: number;
  name: string;
  kind: "ssl" | "ca";
  created: string;
}

/** A CDN resource in the API's words; `shielding_pop` stands for shielded, shield_enabled and shield_dc. */
export interface DemoCdnResource {
  id: number;
  client: number;
  name: string;
  description: string;
  cname: string;
  active: boolean;
  enabled: boolean;
  status: string;
  deleted: boolean;
  created: string;
  updated: string;
  originGroup: number;
  originProtocol: "HTTP" | "HTTPS" | "MATCH";
  secondaryHostnames: string[];
  shielding_pop: number | null;
  shield_routing_map: number | null;
  sslEnabled: boolean;
  sslData: number | null;
  proxy_ssl_enabled: boolean;
  proxy_ssl_ca: number | null;
  proxy_ssl_data: number | null;
  preset_applied: boolean;
  vp_enabled: boolean;
  full_custom_enabled: boolean;
  can_purge_by_urls: boolean;
  suspend_date: string | null;
  suspended: boolean;
  primary_resource: number | null;
  is_primary: boolean | null;
  waap_domain_id: number | null;
  waap_api_domain_enabled: boolean;
  rules: Record<string, unknown>[];
  /** Options as written (contract: cdnResourceOptionsWrite). */
  options: Record<string, Record<string, unknown>>;
}

/** An account's CDN feature; `id` is the API's paid_feature_id or free_feature_id. */
export interface DemoCdnFeature {
  id: number;
  account_id: number;
  feature_id: number;
  name: string;
  paid: boolean;
  create_date: string;
}

/** The last check of a logs uploader target or config (the API's `status`). */
export interface DemoLogsUploaderCheck {
  status: "in_progress" | "successful" | "failed";
  code: number;
  updated: string;
  details: string;
}

/**
 * A logs uploader target; `config.secret_access_key` is stored encrypted. Its related_uploader_configs
 * are the configs whose `target` it is.
 */
export interface DemoLogsUploaderTarget {
  id: number;
  client_id: number;
  name: string;
  description: string;
  storage_type: "s3_vendor" | "s3_amazon" | "s3_other";
  status: DemoLogsUploaderCheck;
  config: {
    access_key_id: string;
    secret_access_key: string;
    region: string;
    bucket_name: string;
    directory: string | null;
    endpoint: string | null;
    use_path_style: boolean;
  };
  created: string;
  updated: string;
}

/** A logs uploader policy, as the API shows it but for the derived related_uploader_configs. */
export interface DemoLogsUploaderPolicy {
  id: number;
  client_id: number;
  name: string;
  description: string;
  include_empty_logs: boolean;
  include_shield_logs: boolean;
  escape_special_characters: boolean;
  retry_interval_minutes: number;
  rotate_interval_minutes: number;
  rotate_threshold_mb: number | null;
  rotate_threshold_lines: number;
  date_format: string;
  field_delimiter: string;
  field_separator: string;
  fields: string[];
  file_name_template: string;
  format_type: "" | "json";
  tags: Record<string, string>;
  log_sample_rate: number;
  created: string;
  updated: string;
}

/** A logs uploader config: a policy and a target of its account, applied to CDN resources of it. */
export interface DemoLogsUploaderConfig {
  id: number;
  client_id: number;
  name: string;
  enabled: boolean;
  for_all_resources: boolean;
  policy: number;
  target: number;
  resources: number[];
  status: DemoLogsUploaderCheck;
  created: string;
  updated: string;
}

export interface DemoEdgePlan {
  id: number;
  name: string;
  max_duration_ms: number;
  memory_limit_mb: number;
  max_subrequests: number;
}

/** A binary; `account_id` null for the platform's binaries behind public templates. */
export interface DemoEdgeBinary {
  id: number;
  account_id: number | null;
  api_type: "wasi-http" | "proxy-wasm";
  checksum: string;
  /** 0 pending, 1 compiled, 2 and 3 compilation failed, 4 over the size limit, 5 unsupported source language. */
  status: 0 | 1 | 2 | 3 | 4 | 5;
  /** 0 unknown, 1 Rust, 2 JavaScript, 3 Go. */
  source: 0 | 1 | 2 | 3;
  unref_since: string | null;
  created: string;
}

/** A template; `account_id` null for public templates. */
export interface DemoEdgeTemplate {
  id: number;
  account_id: number | null;
  binary_id: number;
  name: string;
  short_descr: string;
  long_descr: string;
  api_type: "wasi-http" | "proxy-wasm";
  params: { name: string; data_type: string; mandatory: boolean; descr: string; metadata: string | null }[];
  created: string;
}

/** An edge app with its write-only fields; `secrets` maps an environment name to a secret id. */
export interface DemoEdgeApp {
  id: number;
  account_id: number;
  name: string;
  url: string;
  status: 0 | 1 | 2 | 3 | 4 | 5;
  binary: number | null;
  template: number | null;
  comment: string;
  api_type: "wasi-http" | "proxy-wasm";
  debug_until: string | null;
  networks: string[];
  upgradeable_to: number | null;
  plan_id: number;
  env: Record<string, string>;
  rsp_headers: Record<string, string>;
  log: "kafka" | "none";
  secrets: Record<string, { id: number }>;
  created: string;
  updated: string;
}

/** A secret; slot values are plaintext here (demo data) and stored encrypted. */
export interface DemoEdgeSecret {
  id: number;
  account_id: number;
  name: string;
  comment: string;
  secret_slots: { slot: number; value: string }[];
  created: string;
  updated: string;
}

export interface DemoStream {
  id: number;
  account_id: number;
  name: string;
  pull: boolean;
  active: boolean;
  auto_record: boolean;
  html_overlay: boolean;
  live: boolean;
  backup_live: boolean;
  client_user_id: number;
  uri: string | null;
  push_url: string;
  backup_push_url: string;
  push_url_srt: string;
  backup_push_url_srt: string;
  push_url_whip: string;
  created_at: string;
  started_at_primary: string | null;
  finished_at_primary: string | null;
  started_at_backup: string | null;
  dvr_duration: number;
  recording_duration: number;
  iframe_url: string;
  dash_url: string;
  hls_cmaf_url: string;
  hls_mpegts_url: string;
  screenshot: string;
  transcoded_qualities: string[];
  transcoding_speed: number;
  frame_rate: number;
  video_height: number;
  video_width: number;
  /** dvr_duration > 0, as the API derives it. */
  dvr_enabled: boolean;
  /** The ids of the broadcasts of the stream, as the API derives them. */
  broadcast_ids: number[];
  cdn_id: number | null;
  client_entity_data: string | null;
  hls_mpegts_endlist_tag: boolean;
  projection: "regular" | "vr360" | "vr180" | "vr360tb";
  quality_set_id: number | null;
  record_type: "origin" | "transcoded";
  stream_source_type: "rtmp" | "srt" | "webrtc" | "https" | null;
}

export interface DemoBroadcast {
  id: number;
  account_id: number;
  stream_id: number;
  name: string;
  status: string;
  created: string;
}

export interface DemoClip {
  id: string;
  account_id: number;
  stream_id: number;
  created_at: string;
  vod_required: boolean;
  video_id: number | null;
  renditions: string[];
  hls_master: string;
  mp4_master: string;
  start: number;
  duration: number;
  expiration: number;
}

/** A model of the platform's catalogue (no account). */
export interface DemoInferenceModel {
  id: string;
  name: string;
  category: string;
  default_flavor_id: string;
  description: string;
  developer: string;
  documentation_page: string;
  eula_url: string;
  example_curl_request: string;
  has_eula: boolean;
  image_registry_id: string;
  image_url: string;
  inference_backend: string;
  inference_frontend: string;
  model_id: string;
  openai_compatibility: string;
  port: number;
  version: string;
}

export interface DemoCloudRegion {
  id: number;
  name: string;
  display_name: string;
}

export interface DemoCloudProject {
  id: number;
  account_id: number;
  name: string;
  description: string;
  created: string;
}

export interface DemoGpuImage {
  id: string;
  account_id: number;
  project_id: number;
  region_id: number;
  name: string;
  architecture: string;
  os_distro: string;
  os_type: string;
  os_version: string;
  ssh_key: string;
  status: string;
  visibility: string;
  created_at: string;
  updated_at: string;
  min_disk: number;
  min_ram: number;
  size: number;
  tags: { key: string; read_only: boolean; value: string }[];
  task_id: string | null;
  disk_format: string;
  hw_firmware_type: string | null;
  cuda_toolkit_version: string | null;
  gpu_driver: string | null;
  gpu_driver_type: string | null;
  gpu_driver_version: string | null;
}

/** A task of the Cloud area (an image upload or deletion). */
export interface DemoCloudTask {
  id: string;
  account_id: number;
  user_id: number;
  project_id: number;
  region_id: number;
  task_type: string;
  state: string;
  created_resources: { images: string[] } | null;
  data: Record<string, unknown>;
  created_on: string;
  finished_on: string | null;
}

/** A usage line; `cost` null: the usage has no price. */
export interface DemoUsageLine {
  id: number;
  account_id: number;
  month: string;
  type: string;
  region_id: number;
  flavor: string;
  instance_type: string | null;
  volume_type: string | null;
  billing_metric_name: string;
  billing_feature_name: string;
  billing_value_unit: string;
  currency: string;
  billing_value: number;
  cost: number | null;
  tags: Record<string, string>;
}

export interface DemoSecurityProfileTemplate {
  id: number;
  name: string;
  description: string;
  base_template: number | null;
  version: string;
  created: string;
  template_sifter: string;
  /** The account the template was made for; null for a common one. */
  account_id: number | null;
  accepts_ip_address: boolean;
  fields: {
    id: number;
    name: string;
    description: string;
    field_type: string;
    required: boolean;
    default: string | null;
    validation_schema: Record<string, unknown>;
  }[];
}

export interface DemoSecurityProfile {
  id: number;
  account_id: number;
  profile_template: number;
  ip_address: string | null;
  site: string;
  options: { bgp: boolean; active: boolean; price: string };
  protocols: Record<string, unknown>[];
  status: Record<string, unknown>;
  plan: string;
  /** `id` is the profile field's own id, `base_field` the template field it gives a value for. */
  fields: { id: number; base_field: number; field_value: unknown }[];
  created: string;
  updated: string;
  /** When the profile was deleted; null while it is live. */
  deleted: string | null;
}

export interface DemoStorage {
  id: number;
  account_id: number;
  name: string;
  type: string;
  location: string;
  created: string;
}

export interface DemoBucket {
  id: number;
  account_id: number;
  storage_id: number;
  name: string;
  allowedOrigins: string[];
  created: string;
}

export interface DemoFixture {
  iam: { accounts: DemoAccount[]; users: DemoUser[]; api_tokens: DemoApiToken[] };
  cdn: {
    shielding_pops: DemoShieldingPop[];
    origin_groups: DemoOriginGroup[];
    certificates: DemoCertificate[];
    resources: DemoCdnResource[];
    features: DemoCdnFeature[];
    logs_uploader_targets: DemoLogsUploaderTarget[];
    logs_uploader_policies: DemoLogsUploaderPolicy[];
    logs_uploader_configs: DemoLogsUploaderConfig[];
  };
  edge: {
    plans: DemoEdgePlan[];
    binaries: DemoEdgeBinary[];
    templates: DemoEdgeTemplate[];
    secrets: DemoEdgeSecret[];
    apps: DemoEdgeApp[];
  };
  streaming: { streams: DemoStream[]; broadcasts: DemoBroadcast[]; clips: DemoClip[] };
  cloud: {
    inference_models: DemoInferenceModel[];
    regions: DemoCloudRegion[];
    projects: DemoCloudProject[];
    gpu_images: DemoGpuImage[];
    tasks: DemoCloudTask[];
    usage_lines: DemoUsageLine[];
  };
  security: { profile_templates: DemoSecurityProfileTemplate[]; profiles: DemoSecurityProfile[] };
  storage: { storages: DemoStorage[]; buckets: DemoBucket[] };
}

/**
 * The demo data. Treat it as read-only: tests across the repository compare against it. The JSON is
 * written from a `DemoFixture` by scripts/generate-demo-fixture.ts, which is where its type is checked.
 */
export const demoFixture: DemoFixture = demoJson as unknown as DemoFixture;

/** The demo account ids: account 1 owns the odd ids of every account-owned kind, account 2 the even ones. */
export const DEMO_ACCOUNT_IDS = [1, 2] as const;

export type DemoAccountId = (typeof DEMO_ACCOUNT_IDS)[number];

/** A demo token of an account by name, e.g. `demoToken(1, "role-5-active").plaintext`. */
export function demoToken(accountId: DemoAccountId, name: DemoTokenName): DemoApiToken {
  const token = demoFixture.iam.api_tokens.find((candidate) => candidate.account_id === accountId && candidate.name === name);
  if (!token) throw new Error(`The demo fixture has no token ${name} in account ${accountId}.`);
  return token;
}
