/**
 * Logs uploader configs: the logs of some CDN resources, written as a policy says, uploaded to a target;
 * their bodies, listing and routes, the offline check among them.
 */
import { initContract } from "@ts-rest/core";
import { z } from "zod";
import { emptyInput, errorResponses, integer, isoTimestamp, listOf, strictObject, withBody } from "../../common.js";
import { route } from "../../route.js";
import { missingId, uniqueName, type CaseWorld } from "../../route-case.js";
import { read, write } from "../shared.js";
import {
  CHANGE_RESETS_CHECK,
  checked,
  idListQuery,
  idParams,
  linkedPageOf,
  LIST_RULES,
  logsUploaderValidation,
  name,
  page,
  pagingQuery,
  policyOf,
  targetOf,
  unchecked,
} from "./shared.js";

const c = initContract();

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

// The examples' objects: the demo data's, of account 1.
const configBody = { name: "acme-sampled", policy: 3, target: 1, enabled: false, for_all_resources: false, resources: [1, 3] };

const config: LogsUploaderConfig = {
  id: 3,
  client_id: 1,
  created: "2026-03-01T12:00:00.000Z",
  updated: "2026-03-02T09:00:00.000Z",
  ...configBody,
  status: unchecked,
};

// The cases' config: the account's first.
const configOf = (w: CaseWorld) => w.first("cdn.listLogsUploaderConfigs");
const configPath = (w: CaseWorld) => `/cdn/logs_uploader/configs/${configOf(w).id}`;

/** The routes of logs uploader configs. */
export const cdnLogsUploaderConfigsRoutes = {
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
    body: emptyInput("a check takes no input"),
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
} as const;
