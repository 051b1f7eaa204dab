/**
 * Origin groups: the origins a CDN resource pulls from. The group, its create, PATCH and PUT bodies, the
 * filtered listing, and their routes.
 */
import { initContract } from "@ts-rest/core";
import { z } from "zod";
import { booleanQuery, errorResponses, hostname, idParam, integer, listOf, pageOf, paging, stringEnum, strictObject, withBody } from "../common.js";
import * as examples from "../examples.js";
import { route } from "../route.js";
import { missingId, uniqueName } from "../route-case.js";
import { CDN_PAGE_MAX, originGroupOf, originSource, read, write } from "./shared.js";

const c = initContract();

/** The origin failures after which the next origin may be tried, as the platform names them. */
export const PROXY_NEXT_UPSTREAM = [
  "error",
  "timeout",
  "invalid_header",
  "http_403",
  "http_404",
  "http_429",
  "http_500",
  "http_502",
  "http_503",
  "http_504",
] as const;

const originGroupSchema = z
  .object({
    id: integer(),
    name: z.string(),
    use_next: z.boolean().describe("Try the next origin when one fails in a way listed in proxy_next_upstream."),
    proxy_next_upstream: z
      .array(stringEnum(PROXY_NEXT_UPSTREAM))
      .describe("The origin failures after which the next origin is tried (when use_next is on)."),
    auth_type: z.string().describe('"none": the origins are public.'),
    sources: z
      .array(
        z
          .object({
            backup: z.boolean().describe("Used only when every non-backup source fails."),
            enabled: z.boolean(),
            source: z.string().describe("A domain name or IP address, with an optional port."),
            host_header_override: z
              .string()
              .nullable()
              .describe("The Host header sent to this origin instead of the default; null: the default."),
          })
          .strict(),
      )
      .describe("The origins, in the order given."),
    path: z.string().describe("Path prefix added to requests to the origins."),
    has_related_resources: z.boolean().describe("Whether any CDN resource of the account uses this group."),
  })
  .strict()
  .describe("An origin group: the origins a CDN resource pulls from.");
export interface OriginGroupSchema extends OriginGroupSchemaType {}
type OriginGroupSchemaType = typeof originGroupSchema;
export const originGroup: OriginGroupSchema = originGroupSchema;

export type OriginGroup = z.infer<typeof originGroup>;

const NOT_HOST_ORIGINS = "S3 and FastEdge origins are not part of this API: a source is a host origin (`source`).";

const originGroupSourceWrite = strictObject(
  {
    source: originSource,
    backup: z.boolean().optional().describe("Used only when every non-backup source fails. Default false."),
    enabled: z.boolean().optional().describe("Whether the CDN pulls from this origin. Default true."),
    host_header_override: hostname
      .nullable()
      .optional()
      .describe("The Host header to send to this origin instead of the default, a host name; null or absent: the default."),
  },
  { rejected: { origin_type: NOT_HOST_ORIGINS, config: NOT_HOST_ORIGINS } },
).describe("An origin of the group.");

const originGroupWritable = {
  name: z.string().min(1).max(255).describe("Name of the group, 1 to 255 characters."),
  sources: listOf(originGroupSourceWrite, {
    min: 1,
    max: 20,
    noun: "sources",
    description: "The origins, in order; the list given replaces the group's list. At least 1, at least one of them enabled, no source twice.",
  })
    .refine((sources) => sources.some((source) => source.enabled !== false), "At least one source must be enabled.")
    .refine(
      (sources) => new Set(sources.map((source) => source.source.toLowerCase())).size === sources.length,
      "Each source may be given once.",
    ),
  use_next: z.boolean().describe("Try the next origin when one fails in a way listed in `proxy_next_upstream`; needs at least one of them."),
  proxy_next_upstream: listOf(stringEnum(PROXY_NEXT_UPSTREAM), {
    max: PROXY_NEXT_UPSTREAM.length,
    noun: "failures",
    description: `The origin failures after which the next origin is tried: ${PROXY_NEXT_UPSTREAM.join(", ")}.`,
  }).refine((failures) => new Set(failures).size === failures.length, "Each failure may be given once."),
  auth_type: stringEnum(["none"]).describe('"none", the only type here: the origins are public.'),
  path: z
    .string()
    .max(255)
    .regex(/^(\/[^\s?#]*)?$/, "Must be empty or a path starting with /, without spaces, query or fragment.")
    .describe('A path prefix added to requests to the origins: empty, or starting with /. At most 255 characters.'),
};

const ORIGIN_GROUP_REJECTED = { auth: "S3 origin authentication (awsSignatureV4) is not part of this API." };
const ORIGIN_GROUP_READ_ONLY = ["id", "has_related_resources"];

function optionalFields<S extends z.ZodRawShape>(shape: S) {
  return Object.fromEntries(Object.entries(shape).map(([key, schema]) => [key, schema.optional()])) as {
    [K in keyof S]: z.ZodOptional<S[K]>;
  };
}

const createOriginGroupBodySchema = strictObject(
  {
    ...optionalFields(originGroupWritable),
    name: originGroupWritable.name,
    sources: originGroupWritable.sources,
  },
  { readOnly: ORIGIN_GROUP_READ_ONLY, rejected: ORIGIN_GROUP_REJECTED },
).describe(
  "A new origin group: `name` and `sources` are required. Defaults: use_next false, proxy_next_upstream " +
    '[error, timeout], auth_type "none", path "".',
);
export interface CreateOriginGroupBodySchema extends CreateOriginGroupBodySchemaType {}
type CreateOriginGroupBodySchemaType = typeof createOriginGroupBodySchema;
export const createOriginGroupBody: CreateOriginGroupBodySchema = createOriginGroupBodySchema;

export type CreateOriginGroupBody = z.input<typeof createOriginGroupBody>;

const updateOriginGroupBodySchema = strictObject(optionalFields(originGroupWritable), {
  readOnly: ORIGIN_GROUP_READ_ONLY,
  rejected: ORIGIN_GROUP_REJECTED,
}).describe("The fields to change; fields not given keep their value. `sources`, when given, replaces the whole list.");
export interface UpdateOriginGroupBodySchema extends UpdateOriginGroupBodySchemaType {}
type UpdateOriginGroupBodySchemaType = typeof updateOriginGroupBodySchema;
export const updateOriginGroupBody: UpdateOriginGroupBodySchema = updateOriginGroupBodySchema;

export type UpdateOriginGroupBody = z.input<typeof updateOriginGroupBody>;

const replaceOriginGroupBodySchema = strictObject(
  {
    ...optionalFields(originGroupWritable),
    name: originGroupWritable.name,
    sources: originGroupWritable.sources,
    use_next: originGroupWritable.use_next,
  },
  { readOnly: ORIGIN_GROUP_READ_ONLY, rejected: ORIGIN_GROUP_REJECTED },
).describe(
  "Every writable field: `name`, `sources` and `use_next` are required; proxy_next_upstream, auth_type and path left " +
    'out return to their defaults ([error, timeout], "none", "").',
);
export interface ReplaceOriginGroupBodySchema extends ReplaceOriginGroupBodySchemaType {}
type ReplaceOriginGroupBodySchemaType = typeof replaceOriginGroupBodySchema;
export const replaceOriginGroupBody: ReplaceOriginGroupBodySchema = replaceOriginGroupBodySchema;

export type ReplaceOriginGroupBody = z.input<typeof replaceOriginGroupBody>;

const listOriginGroupsQuerySchema = z.object({
  name: z.string().max(255).optional().describe("Groups whose name contains this text, case-insensitively."),
  sources: z.string().max(261).optional().describe("Groups with a source that contains this text, case-insensitively."),
  has_related_resources: booleanQuery("Groups that a CDN resource of the account uses (true) or that none uses (false).").optional(),
  ...paging("groups", 25),
});
export interface ListOriginGroupsQuerySchema extends ListOriginGroupsQuerySchemaType {}
type ListOriginGroupsQuerySchemaType = typeof listOriginGroupsQuerySchema;
export const listOriginGroupsQuery: ListOriginGroupsQuerySchema = listOriginGroupsQuerySchema;

export type ListOriginGroupsQuery = z.input<typeof listOriginGroupsQuery>;

const originGroupListSchema = pageOf(originGroup, "origin groups");
export interface OriginGroupListSchema extends OriginGroupListSchemaType {}
type OriginGroupListSchemaType = typeof originGroupListSchema;
export const originGroupList: OriginGroupListSchema = originGroupListSchema;

export type OriginGroupList = z.infer<typeof originGroupList>;

// ---------------------------------------------------------------------------------------------
// Routes
// ---------------------------------------------------------------------------------------------

const originGroupIdParams = z.object({ origin_group_id: idParam("The origin group id.") });

const ORIGIN_GROUP_RULES =
  "`use_next` true needs at least one `proxy_next_upstream` failure (400 `errors.proxy_next_upstream`). Each source is a " +
  "host origin; `host_header_override` sets the Host header sent to that origin.";

// The examples' objects: the demo data's, of account 1.
const group = examples.originGroupExample;

const newGroup = {
  id: 6,
  name: "acme-assets-origins",
  use_next: true,
  proxy_next_upstream: ["error", "timeout", "http_502"] as ("error" | "timeout" | "http_502")[],
  auth_type: "none",
  sources: [
    { backup: false, enabled: true, source: "assets-1.acme.example", host_header_override: "assets.acme.example" },
    { backup: true, enabled: true, source: "203.0.113.80:8080", host_header_override: null },
  ],
  path: "",
  has_related_resources: false,
};

/** The routes of origin groups. */
export const cdnOriginGroupsRoutes = {
  listOriginGroups: route({
    method: "GET",
    path: "/cdn/origin_groups",
    query: listOriginGroupsQuery,
    responses: { 200: originGroupList, ...errorResponses() },
    summary: "List origin groups",
    description:
      "The account's origin groups that match every filter given, with their sources. `name` and `sources` match a " +
      "case-insensitive substring (of the name, of any source); `has_related_resources` tells groups a CDN resource of the " +
      `account uses from the others. Paged by \`limit\` (default 25, at most ${CDN_PAGE_MAX}) and \`offset\`; \`count\` is ` +
      "the number of all matches. Ordered by id ascending; always the page envelope `{count, results}`.",
    metadata: read,
  }, {
    example: {
      query: { has_related_resources: true, limit: 25, offset: 0 },
      response: { count: 1, results: [group] },
    },
    case: { path: () => "/cdn/origin_groups?has_related_resources=true", ownsObjects: false },
  }),
  createOriginGroup: route({
    method: "POST",
    path: "/cdn/origin_groups",
    body: createOriginGroupBody,
    responses: { 201: originGroup, ...errorResponses(withBody) },
    summary: "Create an origin group",
    description: `Creates an origin group of 1 to 20 sources, at least one of them enabled. ${ORIGIN_GROUP_RULES} Answers 201 with the group.`,
    metadata: write,
  }, {
    example: {
      body: {
        name: newGroup.name,
        use_next: newGroup.use_next,
        proxy_next_upstream: newGroup.proxy_next_upstream,
        sources: [
          { source: "assets-1.acme.example", host_header_override: "assets.acme.example" },
          { source: "203.0.113.80:8080", backup: true },
        ],
      },
      response: newGroup,
    },
    case: {
      path: () => "/cdn/origin_groups",
      ownsObjects: false,
      body: () => ({
        name: uniqueName("route-case-origins"),
        use_next: true,
        proxy_next_upstream: ["error", "http_502"],
        sources: [{ source: "origin.cdn-cases.example", host_header_override: "www.cdn-cases.example" }, { source: "203.0.113.9:8080", backup: true }],
      }),
    },
  }),
  getOriginGroup: route({
    method: "GET",
    path: "/cdn/origin_groups/:origin_group_id",
    pathParams: originGroupIdParams,
    responses: { 200: originGroup, ...errorResponses() },
    summary: "Get an origin group",
    description: "One origin group of the account; `has_related_resources` tells whether a CDN resource uses it.",
    metadata: read,
  }, {
    example: {
      pathParams: { origin_group_id: examples.originGroupExample.id },
      response: examples.originGroupExample,
    },
    case: { path: (w) => `/cdn/origin_groups/${originGroupOf(w).id}`, ownsObjects: true },
  }),
  updateOriginGroup: route({
    method: "PATCH",
    path: "/cdn/origin_groups/:origin_group_id",
    pathParams: originGroupIdParams,
    body: updateOriginGroupBody,
    responses: { 200: originGroup, ...errorResponses(withBody) },
    summary: "Change an origin group",
    description:
      "Changes only the fields given; `sources`, when given, replaces the whole list. " +
      `${ORIGIN_GROUP_RULES} The CDN resources that use the group use its new settings at once.`,
    metadata: write,
  }, {
    example: {
      pathParams: { origin_group_id: group.id },
      body: { use_next: false },
      response: { ...group, use_next: false },
    },
    case: {
      path: (w) => `/cdn/origin_groups/${originGroupOf(w).id}`,
      ownsObjects: true,
      body: () => ({ proxy_next_upstream: ["error", "timeout", "http_503"] }),
    },
  }),
  replaceOriginGroup: route({
    method: "PUT",
    path: "/cdn/origin_groups/:origin_group_id",
    pathParams: originGroupIdParams,
    body: replaceOriginGroupBody,
    responses: { 200: originGroup, ...errorResponses(withBody) },
    summary: "Replace an origin group",
    description:
      "Replaces every writable field: `name`, `sources` and `use_next` are required; proxy_next_upstream, auth_type and " +
      `path left out return to their defaults ([error, timeout], "none", ""). ${ORIGIN_GROUP_RULES}`,
    metadata: write,
  }, {
    example: {
      pathParams: { origin_group_id: newGroup.id },
      body: { name: newGroup.name, use_next: false, sources: [{ source: "assets-2.acme.example" }] },
      response: {
        ...newGroup,
        use_next: false,
        proxy_next_upstream: ["error", "timeout"],
        sources: [{ backup: false, enabled: true, source: "assets-2.acme.example", host_header_override: null }],
      },
    },
    case: {
      // The group made by the create case, so that the demo groups keep their sources for other checks.
      path: (w, made) => `/cdn/origin_groups/${made?.id ?? missingId(w.account)}`,
      ownsObjects: true,
      makes: "cdn.createOriginGroup",
      body: () => ({ name: uniqueName("route-case-replaced"), use_next: false, sources: [{ source: "replaced.cdn-cases.example" }] }),
    },
  }),
  deleteOriginGroup: route({
    method: "DELETE",
    path: "/cdn/origin_groups/:origin_group_id",
    pathParams: originGroupIdParams,
    responses: { 204: c.noBody(), ...errorResponses([409]) },
    summary: "Delete an origin group",
    description:
      "Deletes the origin group and its sources. 409 while a CDN resource of the account uses it (move the resources to " +
      "another group, or delete them, first); nothing is changed then. Answers 204 with no body.",
    metadata: write,
  }, {
    example: {
      pathParams: { origin_group_id: 5 },
      // A 204 has no body; the example type asks for one.
    },
    case: {
      path: (w, made) => `/cdn/origin_groups/${made?.id ?? missingId(w.account)}`,
      ownsObjects: true,
      makes: "cdn.createOriginGroup",
    },
  }),
} as const;
