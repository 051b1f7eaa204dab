/**
 * The CDN logs uploader: targets (the storages logs go to), policies (what is logged and how) and
 * configs (a policy and a target applied to CDN resources). Its routes are part of the cdn area.
 */
import { initContract } from "@ts-rest/core";
import { z } from "zod";
import { errorResponses, idParam, integer, isoTimestamp, listOf, mapOf, PAGE_MAX, paging, stringEnum, strictObject, withBody } from "./common.js";
import * as examples from "./examples.js";
import type { RouteMetadata } from "./roles.js";
import { route } from "./route.js";
import { missingId, uniqueName, type CaseWorld } from "./route-case.js";

const c = initContract();

// ---------------------------------------------------------------------------------------------
// Shared parts: the check status, pages, id lists in queries
// ---------------------------------------------------------------------------------------------

export const LOGS_UPLOADER_CHECK_STATUSES = ["in_progress", "successful", "failed"] as const;

/** The `code` of each check status: 0 not checked since the last change, 200 passed, 400 failed. */
export const LOGS_UPLOADER_CHECK_CODES = { in_progress: 0, successful: 200, failed: 400 } as const;

const logsUploaderValidationSchema = z
  .object({
    status: stringEnum(LOGS_UPLOADER_CHECK_STATUSES).describe(
      "in_progress: not checked since it was made or last changed; successful: the last check passed; failed: it did not (see details).",
    ),
    code: integer().describe("0 while in_progress, 200 when successful, 400 when failed."),
    updated: isoTimestamp.describe("When the status last changed."),
    details: z.string().describe('What the last check found: empty while in_progress, the reason when failed.'),
  })
  .strict()
  .describe(
    "The result of the last check (`POST …/validate`). The service cannot reach storages from here: a check " +
      "looks at what can be known without contacting the storage (see the validate routes), never at the storage itself.",
  );
export interface LogsUploaderValidationSchema extends LogsUploaderValidationSchemaType {}
type LogsUploaderValidationSchemaType = typeof logsUploaderValidationSchema;
export const logsUploaderValidation: LogsUploaderValidationSchema = logsUploaderValidationSchema;

export type LogsUploaderValidation = z.infer<typeof logsUploaderValidation>;

/** The most items a listing answers at once, and the number it answers when `limit` is not given. */
export const LOGS_UPLOADER_PAGE = { max: PAGE_MAX, default: 100 } as const;

/**
 * A page of a listing, as the platform pages its logs uploader lists: the total, the links to the pages around,
 * the items (the CDN lists' envelope, pageOf in common.ts, has no links).
 */
function linkedPageOf<T extends z.ZodTypeAny>(item: T, what: string) {
  return z
    .object({
      count: integer().describe(`The number of ${what} that match the filters, before limit and offset.`),
      next: z.string().nullable().describe("The URL of the next page (this request with `offset` moved on), or null on the last page."),
      previous: z.string().nullable().describe("The URL of the previous page, or null on the first page."),
      results: z.array(item).describe(`The ${what} of this page, in ascending id order.`),
    })
    .strict()
    .describe(`A page of ${what}.`);
}

/**
 * A list of ids in a query string: the parameter repeated (`config_ids=1&config_ids=3`), given as a
 * comma-separated list (`config_ids=1,3`), or both. Only plain decimal digits are read as ids.
 */
function idListQuery(description: string) {
  const list = listOf(integer({ min: 1 }).describe("An id."), { max: 100, noun: "ids", description });
  const schema = z.preprocess((value: unknown): unknown => {
    const texts: unknown[] | undefined = typeof value === "string" ? [value] : Array.isArray(value) ? (value as unknown[]) : undefined;
    if (!texts) return value;
    return texts
      .flatMap((text): unknown[] => (typeof text === "string" ? text.split(",") : [text]))
      // Any number is read as one (then checked as an id), so that one out of range is told so.
      .map((text): unknown => (typeof text === "string" && text.trim() !== "" && !Number.isNaN(Number(text)) ? Number(text) : text));
  }, list);
  return schema as unknown as z.ZodType<number[], z.ZodTypeDef, number[]>;
}

const pagingQuery = {
  search: z
    .string()
    .max(255)
    .optional()
    .describe("Objects whose name contains this text, case-insensitively, or whose id is this number."),
  ...paging("objects", LOGS_UPLOADER_PAGE.default, LOGS_UPLOADER_PAGE.max),
};

const name = z.string().min(1).max(255);

// ---------------------------------------------------------------------------------------------
// Targets
// ---------------------------------------------------------------------------------------------

export const LOGS_UPLOADER_STORAGE_TYPES = ["s3_vendor", "s3_amazon", "s3_other"] as const;

const storageType = stringEnum(LOGS_UPLOADER_STORAGE_TYPES).describe(
  "An object storage with an S3-style interface: s3_vendor (the platform's own), s3_amazon or s3_other.",
);

const logsUploaderTargetSchema = z
  .object({
    id: integer(),
    client_id: integer().describe("The account id."),
    created: isoTimestamp,
    updated: isoTimestamp,
    storage_type: storageType,
    name: z.string(),
    description: z.string(),
    related_uploader_configs: z.array(integer()).describe("Ids of the uploader configs that send logs here, ascending."),
    status: logsUploaderValidation.describe("The last check of the target; a new or changed target is in_progress (code 0)."),
    config: z
      .object({
        access_key_id: z.string(),
        region: z.string(),
        bucket_name: z.string(),
        directory: z.string().nullable().describe("Folder inside the bucket; null for the bucket's root."),
        endpoint: z.string().nullable().describe("The storage's endpoint URL; null for the type's default."),
        use_path_style: z.boolean().describe("Path-style addressing (endpoint/bucket) instead of bucket.endpoint."),
      })
      .strict()
      .describe("Where logs go. `secret_access_key` is accepted on write and never returned."),
  })
  .strict()
  .describe("A logs uploader target: an object storage bucket that CDN logs are uploaded to.");
export interface LogsUploaderTargetSchema extends LogsUploaderTargetSchemaType {}
type LogsUploaderTargetSchemaType = typeof logsUploaderTargetSchema;
export const logsUploaderTarget: LogsUploaderTargetSchema = logsUploaderTargetSchema;

export type LogsUploaderTarget = z.infer<typeof logsUploaderTarget>;

const TARGET_READ_ONLY = ["id", "client_id", "created", "updated", "related_uploader_configs", "status"];

const targetConfigFields = {
  access_key_id: z.string().min(1).max(256),
  secret_access_key: z.string().min(1).max(256).describe("A secret: stored encrypted, never returned, logged or echoed in errors."),
  region: z.string().min(1).max(64),
  bucket_name: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, "Must be a bucket name: 3 to 63 lower-case letters, digits, dots and hyphens."),
  directory: z.string().max(1024).describe("Folder inside the bucket; the root when absent."),
  endpoint: z
    .string()
    .url("Must be a URL such as https://s3.example.com.")
    .refine((value) => /^https?:\/\//.test(value), "Must be an http or https URL.")
    .describe("Endpoint URL; the type's default when absent. s3_other has no default: its targets need one to pass validate."),
  use_path_style: z.boolean().describe("Default false."),
};

const targetConfigWrite = strictObject({
  ...targetConfigFields,
  directory: targetConfigFields.directory.optional(),
  endpoint: targetConfigFields.endpoint.optional(),
  use_path_style: targetConfigFields.use_path_style.optional(),
}).describe("The bucket, and the credentials to write to it.");

const createLogsUploaderTargetBodySchema = strictObject(
  {
    storage_type: storageType,
    name,
    description: z.string().max(1024).optional().describe('Default "".'),
    config: targetConfigWrite,
  },
  { readOnly: TARGET_READ_ONLY },
).describe("A new logs uploader target.");
export interface CreateLogsUploaderTargetBodySchema extends CreateLogsUploaderTargetBodySchemaType {}
type CreateLogsUploaderTargetBodySchemaType = typeof createLogsUploaderTargetBodySchema;
export const createLogsUploaderTargetBody: CreateLogsUploaderTargetBodySchema = createLogsUploaderTargetBodySchema;

export type CreateLogsUploaderTargetBody = z.input<typeof createLogsUploaderTargetBody>;

const replaceLogsUploaderTargetBodySchema = strictObject(
  {
    storage_type: storageType,
    name: name.optional().describe("Kept when absent."),
    description: z.string().max(1024).optional().describe('Default "".'),
    config: targetConfigWrite,
  },
  { readOnly: TARGET_READ_ONLY },
).describe(
  "The whole target: `storage_type` and `config` (with `secret_access_key`) are required; `description` left out " +
    'becomes "", config fields left out their defaults (directory and endpoint null, use_path_style false); the name is kept when left out.',
);
export interface ReplaceLogsUploaderTargetBodySchema extends ReplaceLogsUploaderTargetBodySchemaType {}
type ReplaceLogsUploaderTargetBodySchemaType = typeof replaceLogsUploaderTargetBodySchema;
export const replaceLogsUploaderTargetBody: ReplaceLogsUploaderTargetBodySchema = replaceLogsUploaderTargetBodySchema;

export type ReplaceLogsUploaderTargetBody = z.input<typeof replaceLogsUploaderTargetBody>;

const updateLogsUploaderTargetBodySchema = strictObject(
  {
    storage_type: storageType.optional(),
    name: name.optional(),
    description: z.string().max(1024).optional(),
    config: strictObject({
      access_key_id: targetConfigFields.access_key_id.optional(),
      secret_access_key: targetConfigFields.secret_access_key.optional().describe("A secret: stored encrypted, never returned. Kept when absent."),
      region: targetConfigFields.region.optional(),
      bucket_name: targetConfigFields.bucket_name.optional(),
      directory: targetConfigFields.directory.nullable().optional().describe("Folder inside the bucket; null goes back to the root."),
      endpoint: targetConfigFields.endpoint.nullable().optional().describe("Endpoint URL; null goes back to the type's default."),
      use_path_style: targetConfigFields.use_path_style.optional(),
    })
      .optional()
      .describe("The config fields to change; the others, the secret among them, keep their value."),
  },
  { readOnly: TARGET_READ_ONLY },
).describe("The fields to change; fields not given keep their value.");
export interface UpdateLogsUploaderTargetBodySchema extends UpdateLogsUploaderTargetBodySchemaType {}
type UpdateLogsUploaderTargetBodySchemaType = typeof updateLogsUploaderTargetBodySchema;
export const updateLogsUploaderTargetBody: UpdateLogsUploaderTargetBodySchema = updateLogsUploaderTargetBodySchema;

export type UpdateLogsUploaderTargetBody = z.input<typeof updateLogsUploaderTargetBody>;

const listLogsUploaderTargetsQuerySchema = z.object({
  config_ids: idListQuery("Only the targets that any of these configs sends logs to.").optional(),
  ...pagingQuery,
});
export interface ListLogsUploaderTargetsQuerySchema extends ListLogsUploaderTargetsQuerySchemaType {}
type ListLogsUploaderTargetsQuerySchemaType = typeof listLogsUploaderTargetsQuerySchema;
export const listLogsUploaderTargetsQuery: ListLogsUploaderTargetsQuerySchema = listLogsUploaderTargetsQuerySchema;

export type ListLogsUploaderTargetsQuery = z.input<typeof listLogsUploaderTargetsQuery>;

const logsUploaderTargetListSchema = linkedPageOf(logsUploaderTarget, "logs uploader targets");
export interface LogsUploaderTargetListSchema extends LogsUploaderTargetListSchemaType {}
type LogsUploaderTargetListSchemaType = typeof logsUploaderTargetListSchema;
export const logsUploaderTargetList: LogsUploaderTargetListSchema = logsUploaderTargetListSchema;

export type LogsUploaderTargetList = z.infer<typeof logsUploaderTargetList>;

// ---------------------------------------------------------------------------------------------
// Policies
// ---------------------------------------------------------------------------------------------

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
// Configs
// ---------------------------------------------------------------------------------------------

const logsUploaderConfigSchema = z
  .object({
    id: integer(),
    client_id: integer().describe("The account id."),
    created: isoTimestamp,
    updated: isoTimestamp,
    name: z.string(),
    enabled: z.boolean().describe("Whether logs are uploaded."),
    for_all_resources: z.boolean().describe("true: applies to every CDN resource of the account, whatever `resources` holds."),
    policy: integer().describe("The policy's id."),
    target: integer().describe("The target's id."),
    resources: z.array(integer()).describe("The CDN resources it applies to (when for_all_resources is false), ascending ids."),
    status: logsUploaderValidation.describe("The last check of the config; a new or changed config is in_progress (code 0)."),
  })
  .strict()
  .describe("A logs uploader config: the logs of some CDN resources, written as a policy says, uploaded to a target.");
export interface LogsUploaderConfigSchema extends LogsUploaderConfigSchemaType {}
type LogsUploaderConfigSchemaType = typeof logsUploaderConfigSchema;
export const logsUploaderConfig: LogsUploaderConfigSchema = logsUploaderConfigSchema;

export type LogsUploaderConfig = z.infer<typeof logsUploaderConfig>;

const CONFIG_READ_ONLY = ["id", "client_id", "created", "updated", "status"];

const configFields = {
  name,
  policy: integer({ min: 1 }).describe("A logs uploader policy of the account (400 `errors.policy` otherwise)."),
  target: integer({ min: 1 }).describe("A logs uploader target of the account (400 `errors.target` otherwise)."),
  enabled: z.boolean().describe("Default true."),
  for_all_resources: z.boolean().describe("Apply to every CDN resource of the account. Default false."),
  resources: listOf(integer({ min: 1 }), {
    max: 1000,
    noun: "resources",
    description:
      "CDN resources of the account that are not deleted, each once (400 `errors.resources.<index>` otherwise); kept " +
      "but not used while for_all_resources is true. Default [].",
  }),
};

const createLogsUploaderConfigBodySchema = strictObject(
  {
    name: configFields.name,
    policy: configFields.policy,
    target: configFields.target,
    enabled: configFields.enabled.optional(),
    for_all_resources: configFields.for_all_resources.optional(),
    resources: configFields.resources.optional(),
  },
  { readOnly: CONFIG_READ_ONLY },
).describe("A config: `name`, `policy` and `target` are required; the others take their defaults when left out.");
export interface CreateLogsUploaderConfigBodySchema extends CreateLogsUploaderConfigBodySchemaType {}
type CreateLogsUploaderConfigBodySchemaType = typeof createLogsUploaderConfigBodySchema;
export const createLogsUploaderConfigBody: CreateLogsUploaderConfigBodySchema = createLogsUploaderConfigBodySchema;

/** The body of a config's create and full replace (PUT). */
export type CreateLogsUploaderConfigBody = z.input<typeof createLogsUploaderConfigBody>;

const updateLogsUploaderConfigBodySchema = strictObject(
  Object.fromEntries(Object.entries(configFields).map(([key, schema]) => [key, schema.optional()])) as {
    [K in keyof typeof configFields]: z.ZodOptional<(typeof configFields)[K]>;
  },
  { readOnly: CONFIG_READ_ONLY },
).describe("The fields to change; fields not given keep their value. `resources` given replaces the list whole.");
export interface UpdateLogsUploaderConfigBodySchema extends UpdateLogsUploaderConfigBodySchemaType {}
type UpdateLogsUploaderConfigBodySchemaType = typeof updateLogsUploaderConfigBodySchema;
export const updateLogsUploaderConfigBody: UpdateLogsUploaderConfigBodySchema = updateLogsUploaderConfigBodySchema;

export type UpdateLogsUploaderConfigBody = z.input<typeof updateLogsUploaderConfigBody>;

const listLogsUploaderConfigsQuerySchema = z.object({
  resource_ids: idListQuery(
    "Only the configs whose `resources` list any of these CDN resources (configs for all resources are matched by their list too, not by the flag).",
  ).optional(),
  ...pagingQuery,
});
export interface ListLogsUploaderConfigsQuerySchema extends ListLogsUploaderConfigsQuerySchemaType {}
type ListLogsUploaderConfigsQuerySchemaType = typeof listLogsUploaderConfigsQuerySchema;
export const listLogsUploaderConfigsQuery: ListLogsUploaderConfigsQuerySchema = listLogsUploaderConfigsQuerySchema;

export type ListLogsUploaderConfigsQuery = z.input<typeof listLogsUploaderConfigsQuery>;

const logsUploaderConfigListSchema = linkedPageOf(logsUploaderConfig, "logs uploader configs");
export interface LogsUploaderConfigListSchema extends LogsUploaderConfigListSchemaType {}
type LogsUploaderConfigListSchemaType = typeof logsUploaderConfigListSchema;
export const logsUploaderConfigList: LogsUploaderConfigListSchema = logsUploaderConfigListSchema;

export type LogsUploaderConfigList = z.infer<typeof logsUploaderConfigList>;

// ---------------------------------------------------------------------------------------------
// Routes
// ---------------------------------------------------------------------------------------------

const write: RouteMetadata = { access: "write" };
const read: RouteMetadata = { access: "read" };
const idParams = (what: string) => z.object({ id: idParam(`The ${what} id.`) });

/** The body of a check: none (or `{}`); any field is refused. */
const noInput = strictObject({}).optional().describe("No body, or {}: a check takes no input.");

const LIST_RULES =
  `Paged by \`limit\` (default ${LOGS_UPLOADER_PAGE.default}, at most ${LOGS_UPLOADER_PAGE.max}) and \`offset\`, in ascending id order; ` +
  "`count` is the number of all the matching objects, `next` and `previous` the URLs of the pages around. `search` matches " +
  "the name (a substring, case-insensitively) or, when it is a number, the id too. Id lists in the query may repeat the " +
  "parameter or separate ids with commas (at most 100 ids).";

const CHANGE_RESETS_CHECK = "A change answers the object with its status back at in_progress (code 0): the last check no longer holds.";

// The examples' objects: the demo data's, of account 1.
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

// The cases' objects: the account's first target, policy and config.
const targetOf = (w: CaseWorld) => w.first("cdn.listLogsUploaderTargets");
const policyOf = (w: CaseWorld) => w.first("cdn.listLogsUploaderPolicies");
const configOf = (w: CaseWorld) => w.first("cdn.listLogsUploaderConfigs");
const targetPath = (w: CaseWorld) => `/cdn/logs_uploader/targets/${targetOf(w).id}`;
const policyPath = (w: CaseWorld) => `/cdn/logs_uploader/policies/${policyOf(w).id}`;
const configPath = (w: CaseWorld) => `/cdn/logs_uploader/configs/${configOf(w).id}`;

/** The logs uploader's routes, spread into the cdn area's router. */
export const logsUploaderContract = c.router({
  listLogsUploaderTargets: route({
    method: "GET",
    path: "/cdn/logs_uploader/targets",
    query: listLogsUploaderTargetsQuery,
    responses: { 200: logsUploaderTargetList, ...errorResponses() },
    summary: "List logs uploader targets",
    description: `The account's logs uploader targets. ${LIST_RULES}`,
    metadata: read,
  }, {
    example: { query: { search: "acme", limit: 100 }, response: page([target]) },
    case: { path: () => "/cdn/logs_uploader/targets?limit=10", ownsObjects: false },
  }),
  createLogsUploaderTarget: route({
    method: "POST",
    path: "/cdn/logs_uploader/targets",
    body: createLogsUploaderTargetBody,
    responses: { 201: logsUploaderTarget, ...errorResponses(withBody) },
    summary: "Create a logs uploader target",
    description:
      "Adds an S3-style bucket that CDN logs can be uploaded to. The new target starts with status in_progress " +
      "(code 0). `config.secret_access_key` is stored encrypted and never returned.",
    metadata: write,
  }, {
    example: {
      body: examples.createLogsUploaderTargetExample,
      response: examples.logsUploaderTargetExample,
    },
    case: {
      path: () => "/cdn/logs_uploader/targets",
      ownsObjects: false,
      body: () => ({
        storage_type: "s3_other",
        name: uniqueName("route-case-target"),
        description: "Made by the route cases",
        config: { access_key_id: "AKIAROUTECASES", secret_access_key: "route-case-secret-access-key", region: "eu-1", bucket_name: "route-case-logs" },
      }),
    },
  }),
  getLogsUploaderTarget: route({
    method: "GET",
    path: "/cdn/logs_uploader/targets/:id",
    pathParams: idParams("target"),
    responses: { 200: logsUploaderTarget, ...errorResponses() },
    summary: "Get a logs uploader target",
    description: "One target of the account, with the configs that use it. The secret access key is never returned.",
    metadata: read,
  }, {
    example: { pathParams: { id: 1 }, response: target },
    case: { path: targetPath, ownsObjects: true },
  }),
  replaceLogsUploaderTarget: route({
    method: "PUT",
    path: "/cdn/logs_uploader/targets/:id",
    pathParams: idParams("target"),
    body: replaceLogsUploaderTargetBody,
    responses: { 200: logsUploaderTarget, ...errorResponses(withBody) },
    summary: "Replace a logs uploader target",
    description:
      "Replaces the target's storage and config whole: `storage_type` and `config` with its `secret_access_key` are " +
      'required; a description left out becomes "", config fields left out their defaults; the name is kept when ' +
      `left out. The configs that use the target keep using it. ${CHANGE_RESETS_CHECK}`,
    metadata: write,
  }, {
    example: {
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
    case: {
      path: targetPath,
      ownsObjects: true,
      // The target as it is, with a new secret: the configs that use it keep working.
      body: (w) => {
        const { storage_type, name, description, config } = targetOf(w) as unknown as Pick<LogsUploaderTarget, "storage_type" | "name" | "description" | "config">;
        const written = Object.fromEntries(Object.entries(config).filter(([, value]) => value !== null));
        return { storage_type, name, description, config: { ...written, secret_access_key: "route-case-replaced-secret" } };
      }
    },
  }),
  updateLogsUploaderTarget: route({
    method: "PATCH",
    path: "/cdn/logs_uploader/targets/:id",
    pathParams: idParams("target"),
    body: updateLogsUploaderTargetBody,
    responses: { 200: logsUploaderTarget, ...errorResponses(withBody) },
    summary: "Change a logs uploader target",
    description:
      "Changes only the fields given; inside `config` too, where the secret access key is kept unless given and " +
      "`directory` or `endpoint` set to null go back to their defaults. A change of `storage_type` or `config` puts the " +
      "target's status back at in_progress (code 0); a change of name or description keeps it. A PATCH with no field " +
      "changes nothing (`updated` included).",
    metadata: write,
  }, {
    example: {
      pathParams: { id: 1 },
      body: { description: "Raw CDN access logs." },
      response: { ...target, description: "Raw CDN access logs." },
    },
    case: {
      path: targetPath,
      ownsObjects: true,
      body: () => ({ description: uniqueName("Changed by the route cases") }),
    },
  }),
  deleteLogsUploaderTarget: route({
    method: "DELETE",
    path: "/cdn/logs_uploader/targets/:id",
    pathParams: idParams("target"),
    responses: { 204: c.noBody(), ...errorResponses([409]) },
    summary: "Delete a logs uploader target",
    description:
      "Deletes the target for good, with its stored secret. 409 `conflict` while a config sends logs to it: delete " +
      "those configs, or point them at another target, first. Answers 204 with no body.",
    metadata: write,
  }, {
    example: {
      // Target 3, the one the create example makes (targets 1 and 2 are in use: 409).
      pathParams: { id: examples.logsUploaderTargetExample.id },
      // A 204 has no body; the example type asks for one (reported to the lead).
    },
    case: {
      path: (w, made) => `/cdn/logs_uploader/targets/${made?.id ?? missingId(w.account)}`,
      ownsObjects: true,
      makes: "cdn.createLogsUploaderTarget",
    },
  }),
  validateLogsUploaderTarget: route({
    method: "POST",
    path: "/cdn/logs_uploader/targets/:id/validate",
    pathParams: idParams("target"),
    body: noInput,
    responses: { 200: logsUploaderValidation, ...errorResponses(withBody) },
    summary: "Check a logs uploader target",
    description:
      "Checks the target and stores the result as its `status`, which it answers. This service does not contact the " +
      "storage (no credentials are tried): the check passes (successful, code 200) when the target says everything " +
      "needed to reach its bucket, and fails (failed, code 400, `details` saying why) when it does not: an s3_other " +
      "target has no default endpoint, so it needs `config.endpoint`. s3_vendor and s3_amazon use their type's endpoint when none is given.",
    metadata: write,
  }, {
    example: { pathParams: { id: 1 }, body: {}, response: checked },
    case: { path: (w) => `${targetPath(w)}/validate`, ownsObjects: true },
  }),

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

  listLogsUploaderConfigs: route({
    method: "GET",
    path: "/cdn/logs_uploader/configs",
    query: listLogsUploaderConfigsQuery,
    responses: { 200: logsUploaderConfigList, ...errorResponses() },
    summary: "List logs uploader configs",
    description: `The account's logs uploader configs. ${LIST_RULES}`,
    metadata: read,
  }, {
    example: { query: { resource_ids: 1 }, response: page([config]) },
    case: { path: () => "/cdn/logs_uploader/configs?limit=10", ownsObjects: false },
  }),
  createLogsUploaderConfig: route({
    method: "POST",
    path: "/cdn/logs_uploader/configs",
    body: createLogsUploaderConfigBody,
    responses: { 201: logsUploaderConfig, ...errorResponses(withBody) },
    summary: "Create a logs uploader config",
    description:
      "Sends the logs of CDN resources, written as `policy` says, to `target`. `policy`, `target` and each of " +
      "`resources` must be objects of the account (400 naming the field otherwise; a deleted CDN resource does not " +
      "count). enabled defaults to true, for_all_resources to false, resources to []. The new config starts with " +
      "status in_progress (code 0).",
    metadata: write,
  }, {
    example: { body: configBody, response: { ...config, id: 4 } },
    case: {
      path: () => "/cdn/logs_uploader/configs",
      ownsObjects: false,
      body: (w) => ({ name: uniqueName("route-case-config"), policy: policyOf(w).id, target: targetOf(w).id, enabled: false }),
    },
  }),
  getLogsUploaderConfig: route({
    method: "GET",
    path: "/cdn/logs_uploader/configs/:id",
    pathParams: idParams("config"),
    responses: { 200: logsUploaderConfig, ...errorResponses() },
    summary: "Get a logs uploader config",
    description: "One config of the account.",
    metadata: read,
  }, {
    example: { pathParams: { id: 3 }, response: config },
    case: { path: configPath, ownsObjects: true },
  }),
  replaceLogsUploaderConfig: route({
    method: "PUT",
    path: "/cdn/logs_uploader/configs/:id",
    pathParams: idParams("config"),
    body: createLogsUploaderConfigBody,
    responses: { 200: logsUploaderConfig, ...errorResponses(withBody) },
    summary: "Replace a logs uploader config",
    description:
      "Replaces every field: `name`, `policy` and `target` are required; enabled left out becomes true, " +
      `for_all_resources false and resources []. The rules of the create hold. ${CHANGE_RESETS_CHECK}`,
    metadata: write,
  }, {
    example: { pathParams: { id: 3 }, body: configBody, response: config },
    case: {
      path: configPath,
      ownsObjects: true,
      // The config as the fixture has it.
      body: (w) => {
        const { name, policy, target, enabled, for_all_resources, resources } = configOf(w) as unknown as LogsUploaderConfig;
        return { name, policy, target, enabled, for_all_resources, resources };
      }
    },
  }),
  updateLogsUploaderConfig: route({
    method: "PATCH",
    path: "/cdn/logs_uploader/configs/:id",
    pathParams: idParams("config"),
    body: updateLogsUploaderConfigBody,
    responses: { 200: logsUploaderConfig, ...errorResponses(withBody) },
    summary: "Change a logs uploader config",
    description:
      "Changes only the fields given (`resources` given replaces the list). The rules of the create hold. A change of " +
      "any field but the name puts the status back at in_progress (code 0). A PATCH with no field changes nothing " +
      "(`updated` included).",
    metadata: write,
  }, {
    example: {
      pathParams: { id: 3 },
      body: { enabled: true },
      response: { ...config, enabled: true },
    },
    case: {
      path: configPath,
      ownsObjects: true,
      body: () => ({ name: uniqueName("route-case-config") }),
    },
  }),
  deleteLogsUploaderConfig: route({
    method: "DELETE",
    path: "/cdn/logs_uploader/configs/:id",
    pathParams: idParams("config"),
    responses: { 204: c.noBody(), ...errorResponses() },
    summary: "Delete a logs uploader config",
    description:
      "Deletes the config for good: its resources' logs are no longer uploaded. Its policy and target stay. Answers 204 with no body.",
    metadata: write,
  }, {
    // Config 4, the one the create example makes.
    example: { pathParams: { id: 4 } },
    case: {
      path: (w, made) => `/cdn/logs_uploader/configs/${made?.id ?? missingId(w.account)}`,
      ownsObjects: true,
      makes: "cdn.createLogsUploaderConfig",
    },
  }),
  validateLogsUploaderConfig: route({
    method: "POST",
    path: "/cdn/logs_uploader/configs/:id/validate",
    pathParams: idParams("config"),
    body: noInput,
    responses: { 200: logsUploaderValidation, ...errorResponses(withBody) },
    summary: "Check a logs uploader config",
    description:
      "Checks that the config can upload logs, without contacting the storage, and stores the result as its `status`, " +
      "which it answers. It passes (successful, code 200) when the config is enabled, its target passes the target " +
      "check, its policy has at least one field and it applies to at least one CDN resource (for_all_resources, or a " +
      "resource in `resources`); otherwise it fails (failed, code 400) with `details` naming each unmet condition. " +
      "The target's own status is not changed by this check.",
    metadata: write,
  }, {
    example: {
      pathParams: { id: 3 },
      body: {},
      response: checked,
    },
    case: { path: (w) => `${configPath(w)}/validate`, ownsObjects: true },
  }),
});
