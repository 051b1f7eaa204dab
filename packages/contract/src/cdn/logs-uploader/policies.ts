/**
 * Logs uploader policies: which fields each log line holds, how lines are written and when files are
 * uploaded; the platform's fields and defaults, the policy's bodies, listing and routes.
 */
import { initContract } from "@ts-rest/core";
import { z } from "zod";
import { errorResponses, integer, isoTimestamp, listOf, mapOf, stringEnum, strictObject, withBody } from "../../common.js";
import { route } from "../../route.js";
import { missingId, uniqueName, type CaseWorld } from "../../route-case.js";
import { read, write } from "../shared.js";
import { idListQuery, idParams, linkedPageOf, LIST_RULES, name, page, pagingQuery, policyOf } from "./shared.js";

const c = initContract();

/**
 * The fields of a new policy, in the platform's standard order: every log field there is once, and `-`
 * (an empty column) after remote_addr and after upstream_status.
 */
export const LOGS_UPLOADER_DEFAULT_FIELDS: readonly string[] = [
  "remote_addr", "-", "remote_user", "time_local", "request", "status", "body_bytes_sent", "http_referer",
  "http_user_agent", "bytes_sent", "hostname", "scheme", "host", "request_time", "upstream_response_time",
  "request_length", "http_range", "dc", "upstream_cache_status", "upstream_response_length", "upstream_addr",
  "gcdn_api_client_id", "gcdn_api_resource_id", "uid_got", "uid_set", "geoip2_country_code", "geoip2_city",
  "shield_type", "real_server_addr", "server_port", "upstream_status", "-", "upstream_connect_time",
  "upstream_header_time", "shard_addr", "geoip2_data_asnumber", "connection", "connection_requests",
  "http_traceparent", "http_x_forwarded_proto", "gcdn_internal_status_code", "ssl_cipher", "ssl_session_id",
  "ssl_session_reused", "sent_http_content_type", "real_tcpinfo_rtt", "server_country_code",
  "gcdn_tcpinfo_snd_cwnd", "gcdn_tcpinfo_total_retrans", "gcdn_rule_id",
];

/** The fields a policy may include, as `GET /cdn/logs_uploader/policies/fields` lists them: `-` first, then each log field once. */
export const LOGS_UPLOADER_POLICY_FIELDS: readonly string[] = ["-", ...new Set(LOGS_UPLOADER_DEFAULT_FIELDS.filter((field) => field !== "-"))];

export const LOGS_UPLOADER_FORMAT_TYPES = ["", "json"] as const;

/** A new policy's value of every field a client may leave out. */
export const LOGS_UPLOADER_POLICY_DEFAULTS = {
  name: "Policy",
  description: "",
  include_empty_logs: false,
  include_shield_logs: false,
  escape_special_characters: false,
  retry_interval_minutes: 60,
  rotate_interval_minutes: 5,
  rotate_threshold_mb: null,
  rotate_threshold_lines: 0,
  date_format: "",
  field_delimiter: '"',
  field_separator: " ",
  fields: LOGS_UPLOADER_DEFAULT_FIELDS,
  file_name_template: "{{YYYY}}/{{MM}}/{{DD}}/{{HH}}/{{mm}}/{{ss}}/{{HOST}}_{{CNAME}}_access.log.gz",
  format_type: "",
  tags: {},
  log_sample_rate: 1,
} as const;

const tagName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, "Must be a tag name: a letter or _, then letters, digits or _, at most 64 characters.");

/** Every writable field of a policy, with its range; the defaults are in LOGS_UPLOADER_POLICY_DEFAULTS. */
const policyFields = {
  name: name.describe(`Default "${LOGS_UPLOADER_POLICY_DEFAULTS.name}".`),
  description: z.string().max(255).describe('Default "".'),
  include_empty_logs: z.boolean().describe("Upload a file for a period without requests too. Default false."),
  include_shield_logs: z.boolean().describe("Include the requests of origin shielding. Default false."),
  escape_special_characters: z
    .boolean()
    .describe("Escape control, quotation, backslash and non-ASCII characters, so that the logs hold printable ASCII only. Default false."),
  retry_interval_minutes: integer({ min: 5, max: 60 }).describe("Minutes between attempts to upload a file that failed, 5 to 60. Default 60."),
  rotate_interval_minutes: integer({ min: 1, max: 1440 }).describe("Minutes after which a log file is closed and uploaded, 1 to 1440. Default 5."),
  rotate_threshold_mb: integer({ min: 1, max: 10240 })
    .nullable()
    .describe("Close and upload a file once it holds this many MB (1 to 10240), or null: no size threshold. Default null."),
  rotate_threshold_lines: integer({ min: 0, max: 100_000_000 }).describe(
    "Close and upload a file once it holds this many lines (0 to 100000000), 0: no line threshold. Default 0.",
  ),
  date_format: z.string().max(64).describe('The format of time fields, e.g. "[02/Jan/2006:15:04:05 -0700]"; "" for the default. Default "".'),
  field_delimiter: z.string().max(8).describe('Written around each field value, at most 8 characters; "" for none. Default \'"\'.'),
  field_separator: z.string().min(1).max(8).describe('Written between fields, 1 to 8 characters. Default " ".'),
  fields: listOf(z.string().min(1).max(64), {
    max: 200,
    noun: "fields",
    description:
      "The fields of each log line, in order: names from `GET /cdn/logs_uploader/policies/fields`, `-` for an empty column, " +
      "or the name of one of the policy's `tags`. With format_type json a field may appear once only. Default: every field, " +
      "the platform's standard order.",
  }),
  file_name_template: z
    .string()
    .min(1)
    .max(255)
    .describe(`The name of each uploaded file, with placeholders such as {{YYYY}}, {{HOST}} and {{CNAME}}. Default "${LOGS_UPLOADER_POLICY_DEFAULTS.file_name_template}".`),
  format_type: stringEnum(LOGS_UPLOADER_FORMAT_TYPES).describe(
    '"" (default): lines of fields joined by field_separator and field_delimiter; "json": one JSON object per line.',
  ),
  tags: mapOf(tagName, z.string().max(255), {
    max: 50,
    noun: "tags",
    description: "Fixed values that log lines may carry: a tag's name listed in `fields` adds its value as that field. Values of at most 255 characters. Default {}.",
  }),
  log_sample_rate: z
    .number({ invalid_type_error: "Must be a number from 0 to 1." })
    .min(0, "Must be at least 0.")
    .max(1, "Must be at most 1.")
    .describe("The share of requests logged, 0 to 1: 1 logs every request, 0.5 about half, 0 none. Default 1."),
};

/** A policy field's meaning as its write describes it, for the policy as it is answered. */
function policyDescription(field: keyof typeof policyFields): string {
  return policyFields[field].description!;
}

const logsUploaderPolicySchema = z
  .object({
    id: integer(),
    client_id: integer().describe("The account id."),
    created: isoTimestamp,
    updated: isoTimestamp,
    name: z.string(),
    description: z.string(),
    include_empty_logs: z.boolean().describe(policyDescription("include_empty_logs")),
    include_shield_logs: z.boolean().describe(policyDescription("include_shield_logs")),
    escape_special_characters: z.boolean().describe(policyDescription("escape_special_characters")),
    retry_interval_minutes: integer().describe(policyDescription("retry_interval_minutes")),
    rotate_interval_minutes: integer().describe(policyDescription("rotate_interval_minutes")),
    rotate_threshold_mb: integer().nullable().describe(policyDescription("rotate_threshold_mb")),
    rotate_threshold_lines: integer().describe(policyDescription("rotate_threshold_lines")),
    date_format: z.string().describe(policyDescription("date_format")),
    field_delimiter: z.string().describe(policyDescription("field_delimiter")),
    field_separator: z.string().describe(policyDescription("field_separator")),
    fields: z.array(z.string()).describe(policyDescription("fields")),
    file_name_template: z.string().describe(policyDescription("file_name_template")),
    format_type: stringEnum(LOGS_UPLOADER_FORMAT_TYPES).describe(policyDescription("format_type")),
    tags: z.record(z.string()).describe(policyDescription("tags")),
    log_sample_rate: z.number().describe(policyDescription("log_sample_rate")),
    related_uploader_configs: z.array(integer()).describe("Ids of the uploader configs that use this policy, ascending."),
  })
  .strict()
  .describe("A logs uploader policy: which fields each log line holds, how lines are written, and when files are uploaded.");
export interface LogsUploaderPolicySchema extends LogsUploaderPolicySchemaType {}
type LogsUploaderPolicySchemaType = typeof logsUploaderPolicySchema;
export const logsUploaderPolicy: LogsUploaderPolicySchema = logsUploaderPolicySchema;

export type LogsUploaderPolicy = z.infer<typeof logsUploaderPolicy>;

const POLICY_READ_ONLY = ["id", "client_id", "created", "updated", "related_uploader_configs"];

const optionalPolicyFields = Object.fromEntries(Object.entries(policyFields).map(([key, schema]) => [key, schema.optional()])) as {
  [K in keyof typeof policyFields]: z.ZodOptional<(typeof policyFields)[K]>;
};

const createLogsUploaderPolicyBodySchema = strictObject(optionalPolicyFields, { readOnly: POLICY_READ_ONLY }).describe(
  "A new policy: every field is optional and takes its default when left out.",
);
export interface CreateLogsUploaderPolicyBodySchema extends CreateLogsUploaderPolicyBodySchemaType {}
type CreateLogsUploaderPolicyBodySchemaType = typeof createLogsUploaderPolicyBodySchema;
export const createLogsUploaderPolicyBody: CreateLogsUploaderPolicyBodySchema = createLogsUploaderPolicyBodySchema;

/** The body of a policy's create, full replace (PUT) and change (PATCH): every field optional. */
export type LogsUploaderPolicyBody = z.input<typeof createLogsUploaderPolicyBody>;

const listLogsUploaderPoliciesQuerySchema = z.object({
  config_ids: idListQuery("Only the policies that any of these configs uses.").optional(),
  ...pagingQuery,
});
export interface ListLogsUploaderPoliciesQuerySchema extends ListLogsUploaderPoliciesQuerySchemaType {}
type ListLogsUploaderPoliciesQuerySchemaType = typeof listLogsUploaderPoliciesQuerySchema;
export const listLogsUploaderPoliciesQuery: ListLogsUploaderPoliciesQuerySchema = listLogsUploaderPoliciesQuerySchema;

export type ListLogsUploaderPoliciesQuery = z.input<typeof listLogsUploaderPoliciesQuery>;

const logsUploaderPolicyListSchema = linkedPageOf(logsUploaderPolicy, "logs uploader policies");
export interface LogsUploaderPolicyListSchema extends LogsUploaderPolicyListSchemaType {}
type LogsUploaderPolicyListSchemaType = typeof logsUploaderPolicyListSchema;
export const logsUploaderPolicyList: LogsUploaderPolicyListSchema = logsUploaderPolicyListSchema;

export type LogsUploaderPolicyList = z.infer<typeof logsUploaderPolicyList>;
// ---------------------------------------------------------------------------------------------
// Routes
// ---------------------------------------------------------------------------------------------

// The examples' objects: the demo data's, of account 1.
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

// The cases' policy (the account's first, shared.ts).
const policyPath = (w: CaseWorld) => `/cdn/logs_uploader/policies/${policyOf(w).id}`;

/** The routes of logs uploader policies. */
export const cdnLogsUploaderPoliciesRoutes = {
  listLogsUploaderPolicies: route({
    method: "GET",
    path: "/cdn/logs_uploader/policies",
    query: listLogsUploaderPoliciesQuery,
    responses: { 200: logsUploaderPolicyList, ...errorResponses() },
    summary: "List logs uploader policies",
    description: `The account's logs uploader policies. ${LIST_RULES}`,
    metadata: read,
  }, {
    example: { query: { config_ids: 3 }, response: page([policy]) },
    case: { path: () => "/cdn/logs_uploader/policies?limit=10", ownsObjects: false },
  }),
  createLogsUploaderPolicy: route({
    method: "POST",
    path: "/cdn/logs_uploader/policies",
    body: createLogsUploaderPolicyBody,
    responses: { 201: logsUploaderPolicy, ...errorResponses(withBody) },
    summary: "Create a logs uploader policy",
    description:
      "Adds a policy. Every field is optional; one left out takes the platform's default (name \"Policy\", every log " +
      "field in the standard order, files rotated every 5 minutes and retried every 60, each field's description says " +
      "its default). Each of `fields` must be a field `GET /cdn/logs_uploader/policies/fields` lists, `-`, or a name in " +
      "`tags` (400 `errors.fields.<index>` otherwise); with format_type json no field may appear twice.",
    metadata: write,
  }, {
    example: { body: policyBody, response: { ...policy, id: 4, related_uploader_configs: [] } },
    case: {
      path: () => "/cdn/logs_uploader/policies",
      ownsObjects: false,
      body: () => ({ name: uniqueName("route-case-policy"), fields: ["remote_addr", "status"] }),
    },
  }),
  getLogsUploaderPolicyFields: route({
    method: "GET",
    path: "/cdn/logs_uploader/policies/fields",
    responses: {
      200: z.array(z.string()).describe("The field names, `-` (an empty column) first."),
      ...errorResponses(),
    },
    summary: "List the fields a logs uploader policy may include",
    description: "The log fields a policy's `fields` may name: the same list for every account. `-` stands for an empty column.",
    metadata: read,
  }, {
    example: { response: ["-", "remote_addr", "remote_user", "time_local", "request", "status"] },
    case: { path: () => "/cdn/logs_uploader/policies/fields", ownsObjects: false },
  }),
  getLogsUploaderPolicy: route({
    method: "GET",
    path: "/cdn/logs_uploader/policies/:id",
    pathParams: idParams("policy"),
    responses: { 200: logsUploaderPolicy, ...errorResponses() },
    summary: "Get a logs uploader policy",
    description: "One policy of the account, with the configs that use it.",
    metadata: read,
  }, {
    example: { pathParams: { id: 3 }, response: policy },
    case: { path: policyPath, ownsObjects: true },
  }),
  replaceLogsUploaderPolicy: route({
    method: "PUT",
    path: "/cdn/logs_uploader/policies/:id",
    pathParams: idParams("policy"),
    body: createLogsUploaderPolicyBody,
    responses: { 200: logsUploaderPolicy, ...errorResponses(withBody) },
    summary: "Replace a logs uploader policy",
    description:
      "Replaces every field of the policy: fields left out go back to their defaults, as in a new policy (the name " +
      "included). The rules of `fields` are those of the create. The configs that use the policy keep using it.",
    metadata: write,
  }, {
    example: { pathParams: { id: 3 }, body: policyBody, response: policy },
    case: {
      // The account's first policy has the defaults: a replace that names it keeps it as it is.
      path: policyPath,
      ownsObjects: true,
      body: (w) => ({ name: policyOf(w).name }),
    },
  }),
  updateLogsUploaderPolicy: route({
    method: "PATCH",
    path: "/cdn/logs_uploader/policies/:id",
    pathParams: idParams("policy"),
    body: createLogsUploaderPolicyBody,
    responses: { 200: logsUploaderPolicy, ...errorResponses(withBody) },
    summary: "Change a logs uploader policy",
    description:
      "Changes only the fields given; `fields` and `tags` given replace the list or map whole. The rules of `fields` " +
      "hold for the policy as it is after the change (a tag removed while `fields` names it is 400 `errors.fields.<index>`). " +
      "A PATCH with no field changes nothing (`updated` included).",
    metadata: write,
  }, {
    example: { pathParams: { id: 3 }, body: { log_sample_rate: 0.25 }, response: { ...policy, log_sample_rate: 0.25 } },
    case: {
      path: policyPath,
      ownsObjects: true,
      body: () => ({ description: uniqueName("Changed by the route cases") }),
    },
  }),
  deleteLogsUploaderPolicy: route({
    method: "DELETE",
    path: "/cdn/logs_uploader/policies/:id",
    pathParams: idParams("policy"),
    responses: { 204: c.noBody(), ...errorResponses([409]) },
    summary: "Delete a logs uploader policy",
    description:
      "Deletes the policy for good. 409 `conflict` while a config uses it: delete those configs, or give them another " +
      "policy, first. Answers 204 with no body.",
    metadata: write,
  }, {
    example: {
      // Policy 4, the one the create example makes (policies 1 to 3 are in use: 409).
      pathParams: { id: 4 },
    },
    case: {
      path: (w, made) => `/cdn/logs_uploader/policies/${made?.id ?? missingId(w.account)}`,
      ownsObjects: true,
      makes: "cdn.createLogsUploaderPolicy",
    },
  }),
} as const;
