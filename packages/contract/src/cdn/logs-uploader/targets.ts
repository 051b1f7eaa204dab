/**
 * Logs uploader targets: the object storages CDN logs are uploaded to (the secret access key accepted on
 * write, never returned), their bodies, listing and routes, the offline check among them.
 */
import { initContract } from "@ts-rest/core";
import { z } from "zod";
import { emptyInput, errorResponses, integer, isoTimestamp, strictObject, stringEnum, withBody } from "../../common.js";
import * as examples from "../../examples.js";
import { route } from "../../route.js";
import { missingId, uniqueName, type CaseWorld } from "../../route-case.js";
import { read, write } from "../shared.js";
import { CHANGE_RESETS_CHECK, checked, idListQuery, idParams, linkedPageOf, LIST_RULES, logsUploaderValidation, name, page, pagingQuery, targetOf, unchecked } from "./shared.js";

const c = initContract();

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
// Routes
// ---------------------------------------------------------------------------------------------

// The examples' objects: the demo data's, of account 1.
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

// The cases' target (the account's first, shared.ts).
const targetPath = (w: CaseWorld) => `/cdn/logs_uploader/targets/${targetOf(w).id}`;

/** The routes of logs uploader targets. */
export const cdnLogsUploaderTargetsRoutes = {
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
    body: emptyInput("a check takes no input"),
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
} as const;
