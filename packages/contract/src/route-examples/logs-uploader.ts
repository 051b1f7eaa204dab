/**
 * Example calls of the CDN logs uploader's routes, keyed by route id (see ../route-examples.ts). They
 * name account 1's demo objects (target 1, policy 3, config 3, CDN resources 1 and 3); the deletes name the
 * objects the create examples make, so that the examples run in order against the demo data.
 */
import * as examples from "../examples.js";
import type {
  LogsUploaderConfig,
  LogsUploaderPolicy,
  LogsUploaderPolicyBody,
  LogsUploaderTarget,
  LogsUploaderValidation,
} from "../logs-uploader.js";
import type { AreaRouteExamples } from "./example.js";

const checked: LogsUploaderValidation = { status: "successful", code: 200, updated: "2026-03-02T09:00:00.000Z", details: "" };
const unchecked: LogsUploaderValidation = { status: "in_progress", code: 0, updated: "2026-03-02T09:00:00.000Z", details: "" };

const target: LogsUploaderTarget = {
  id: 1,
  client_id: 1,
  created: "2026-03-01T12:00:00.000Z",
  updated: "2026-03-02T09:00:00.000Z",
  storage_type: "s3_vendor",
  name: "acme-cdn-logs",
  description: "Raw CDN access logs, uploaded every 5 minutes.",
  related_uploader_configs: [1, 3],
  status: checked,
  config: {
    access_key_id: "AKIAEXAMPLE",
    region: "s-ed1",
    bucket_name: "acme-cdn-logs",
    directory: "cdn/raw",
    endpoint: "https://s-ed1.storage.cloudplane.example",
    use_path_style: true,
  },
};

const policyBody = {
  name: "acme-json-sample",
  description: "Half of the requests as JSON lines, tagged with the environment.",
  fields: ["remote_addr", "time_local", "request", "status", "bytes_sent", "upstream_cache_status", "env"],
  format_type: "json",
  tags: { env: "production" },
  log_sample_rate: 0.5,
  rotate_interval_minutes: 15,
  rotate_threshold_mb: 100,
  include_shield_logs: true,
} satisfies LogsUploaderPolicyBody;

const policy: LogsUploaderPolicy = {
  id: 3,
  client_id: 1,
  created: "2026-03-01T12:00:00.000Z",
  updated: "2026-03-02T09:00:00.000Z",
  include_empty_logs: false,
  escape_special_characters: false,
  retry_interval_minutes: 60,
  rotate_threshold_lines: 0,
  date_format: "",
  field_delimiter: '"',
  field_separator: " ",
  file_name_template: "{{YYYY}}/{{MM}}/{{DD}}/{{HH}}/{{mm}}/{{ss}}/{{HOST}}_{{CNAME}}_access.log.gz",
  ...policyBody,
  related_uploader_configs: [3],
};

const configBody = { name: "acme-sampled", policy: 3, target: 1, enabled: false, for_all_resources: false, resources: [1, 3] };

const config: LogsUploaderConfig = {
  id: 3,
  client_id: 1,
  created: "2026-03-01T12:00:00.000Z",
  updated: "2026-03-02T09:00:00.000Z",
  ...configBody,
  status: unchecked,
};

const page = <T>(results: T[]) => ({ count: results.length, next: null, previous: null, results });

export const logsUploaderRouteExamples = {
  "cdn.listLogsUploaderTargets": { query: { search: "acme", limit: 100 }, response: page([target]) },
  "cdn.createLogsUploaderTarget": {
    body: examples.createLogsUploaderTargetExample,
    response: examples.logsUploaderTargetExample,
  },
  "cdn.getLogsUploaderTarget": { pathParams: { id: 1 }, response: target },
  "cdn.replaceLogsUploaderTarget": {
    pathParams: { id: 1 },
    body: {
      storage_type: "s3_vendor",
      description: target.description,
      config: {
        access_key_id: "AKIAEXAMPLE",
        secret_access_key: "<secret access key>",
        region: "s-ed1",
        bucket_name: "acme-cdn-logs",
        directory: "cdn/raw",
        endpoint: "https://s-ed1.storage.cloudplane.example",
        use_path_style: true,
      },
    },
    response: { ...target, status: unchecked },
  },
  "cdn.updateLogsUploaderTarget": {
    pathParams: { id: 1 },
    body: { description: "Raw CDN access logs." },
    response: { ...target, description: "Raw CDN access logs." },
  },
  "cdn.deleteLogsUploaderTarget": {
    // Target 3, the one the create example makes (targets 1 and 2 are in use: 409).
    pathParams: { id: examples.logsUploaderTargetExample.id },
    // A 204 has no body; the example type asks for one (reported to the lead).
  },
  "cdn.validateLogsUploaderTarget": { pathParams: { id: 1 }, body: {}, response: checked },

  "cdn.listLogsUploaderPolicies": { query: { config_ids: 3 }, response: page([policy]) },
  "cdn.createLogsUploaderPolicy": { body: policyBody, response: { ...policy, id: 4, related_uploader_configs: [] } },
  "cdn.getLogsUploaderPolicyFields": { response: ["-", "remote_addr", "remote_user", "time_local", "request", "status"] },
  "cdn.getLogsUploaderPolicy": { pathParams: { id: 3 }, response: policy },
  "cdn.replaceLogsUploaderPolicy": { pathParams: { id: 3 }, body: policyBody, response: policy },
  "cdn.updateLogsUploaderPolicy": { pathParams: { id: 3 }, body: { log_sample_rate: 0.25 }, response: { ...policy, log_sample_rate: 0.25 } },
  "cdn.deleteLogsUploaderPolicy": {
    // Policy 4, the one the create example makes (policies 1 to 3 are in use: 409).
    pathParams: { id: 4 },
  },

  "cdn.listLogsUploaderConfigs": { query: { resource_ids: 1 }, response: page([config]) },
  "cdn.createLogsUploaderConfig": { body: configBody, response: { ...config, id: 4 } },
  "cdn.getLogsUploaderConfig": { pathParams: { id: 3 }, response: config },
  "cdn.replaceLogsUploaderConfig": { pathParams: { id: 3 }, body: configBody, response: config },
  "cdn.updateLogsUploaderConfig": {
    pathParams: { id: 3 },
    body: { enabled: true },
    response: { ...config, enabled: true },
  },
  // Config 4, the one the create example makes.
  "cdn.deleteLogsUploaderConfig": { pathParams: { id: 4 } },
  "cdn.validateLogsUploaderConfig": {
    pathParams: { id: 3 },
    body: {},
    response: checked,
  },
} satisfies AreaRouteExamples<"cdn">;
