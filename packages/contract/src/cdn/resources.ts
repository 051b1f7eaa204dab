/**
 * CDN resources: a delivery host name with its origin group and options. The resource, its create,
 * PATCH and PUT bodies, the filtered listing, the origin shielding of a resource, and their routes.
 */
import { initContract } from "@ts-rest/core";
import { z } from "zod";
import {
  booleanQuery,
  cdnTimestamp,
  errorResponses,
  hostname,
  idParam,
  INT32_MAX,
  integer,
  integerParam,
  listOf,
  pageOf,
  paging,
  stringEnum,
  strictObject,
  withBody,
} from "../common.js";
import * as examples from "../examples.js";
import { route } from "../route.js";
import { missingId, uniqueName, type CaseWorld } from "../route-case.js";
import { cdnResourceOptions, cdnResourceOptionsWrite, completeCdnResourceOptions } from "./options.js";
import { CDN_PLAN_LIMITS } from "./limits.js";
import { CDN_PAGE_MAX, originGroupOf, originSource, read, write } from "./shared.js";

const c = initContract();

// ---------------------------------------------------------------------------------------------
// CDN resource
// ---------------------------------------------------------------------------------------------

const originProtocol = stringEnum(["HTTP", "HTTPS", "MATCH"]).describe(
  "Protocol to the origin: HTTP, HTTPS, or MATCH (the protocol the client used).",
);

const cdnResourceSchema = z
  .object({
    id: integer(),
    cname: z.string().describe("The delivery host name of the resource, through which content is served."),
    active: z.boolean().describe("Whether the resource serves traffic. Writable."),
    enabled: z.boolean().describe("Whether the resource is enabled by the service (false while suspended)."),
    status: z.string().describe('Service status of the resource; "active" for resources that serve.'),
    deleted: z.boolean().describe("Whether the resource was deleted."),
    client: integer().describe("The account id."),
    name: z.string().describe("Writable."),
    description: z.string().describe("Writable."),
    created: cdnTimestamp,
    updated: cdnTimestamp,
    originGroup: integer().describe("The origin group id. Writable."),
    originGroup_name: z.string().describe("The origin group's name."),
    originProtocol,
    secondaryHostnames: z.array(z.string()).describe("Further delivery host names. Writable."),
    shielded: z.boolean().describe("Whether origin shielding is on (see the shielding_v2 route)."),
    shield_dc: z.string().nullable().describe("The data center of the shielding POP, or null without shielding."),
    shield_enabled: z.boolean().describe("Whether origin shielding is on."),
    shield_routing_map: integer().nullable().describe("Routing map of the shielding; null unless set by the service."),
    sslEnabled: z.boolean().describe("Whether HTTPS is served with the certificate `sslData`."),
    sslData: integer().nullable().describe("The id of one of the account's certificates."),
    proxy_ssl_enabled: z.boolean().describe("Whether the origin's certificate is verified."),
    proxy_ssl_ca: integer().nullable().describe("The id of the account's CA certificate that verifies the origin."),
    proxy_ssl_data: integer().nullable().describe("The id of the account's client certificate shown to the origin."),
    preset_applied: z
      .boolean()
      .describe("Set by the service; read-only. Whether a preset is applied to the resource; the options a preset sets cannot be edited while it is applied."),
    vp_enabled: z.boolean().describe("Set by the service; read-only. Whether the resource is set up for the streaming platform, whose delivery changes to its settings can affect."),
    full_custom_enabled: z.boolean().describe("Set by the service; read-only. Whether the resource has a custom configuration, set up by support: only its SSL certificate is then meant to be changed by the account."),
    can_purge_by_urls: z
      .boolean()
      .describe("Set by the service; read-only. Whether the resource's cache can be purged by URL (purging is not part of this API)."),
    suspend_date: cdnTimestamp.nullable().describe("When the resource was or will be suspended; null if not."),
    suspended: z.boolean().describe("Whether the resource is suspended (see suspend_date)."),
    primary_resource: integer().nullable().describe("The id of the primary resource of a shared-cache resource."),
    is_primary: z
      .boolean()
      .nullable()
      .describe("Whether the resource is the primary one of a cache shared with other resources; null when it shares none."),
    waap_domain_id: integer().nullable().describe("The id of the resource's domain in WAAP (not part of this API), or null."),
    rules: z
      .array(z.record(z.unknown()))
      .describe("The resource's rules, as the rule operations return them, in the order they are matched (by weight, then id); empty when it has none."),
    options: cdnResourceOptions,
    waap_api_domain_enabled: z.boolean().describe("Whether WAAP API domain protection is on. Written by PUT only."),
  })
  .strict()
  .describe("A CDN resource: a delivery host name with its origin group and options.");
export interface CdnResourceSchema extends CdnResourceSchemaType {}
type CdnResourceSchemaType = typeof cdnResourceSchema;
export const cdnResource: CdnResourceSchema = cdnResourceSchema;

export type CdnResource = z.infer<typeof cdnResource>;

const CDN_RESOURCE_READ_ONLY = Object.keys(cdnResource.shape).filter(
  (key) =>
    ![
      "active",
      "name",
      "description",
      "secondaryHostnames",
      "originGroup",
      "originProtocol",
      "sslEnabled",
      "sslData",
      "proxy_ssl_enabled",
      "proxy_ssl_ca",
      "proxy_ssl_data",
      "options",
      "waap_api_domain_enabled",
    ].includes(key),
);

const cdnResourceWritable = {
  active: z.boolean().describe("Whether the resource serves traffic."),
  name: z.string().min(1).max(255).describe("Name of the resource, 1 to 255 characters."),
  description: z.string().max(1024).describe("At most 1024 characters."),
  secondaryHostnames: listOf(hostname, {
    max: 10,
    noun: "secondary host names",
    description: "Host names, each unused by the account's other resources (409 otherwise).",
  }).refine((names) => new Set(names.map((name) => name.toLowerCase())).size === names.length, "Host names must be unique."),
  originGroup: integer({ min: 1 }).describe("An origin group of the account (400 `errors.originGroup` otherwise)."),
  originProtocol,
  sslEnabled: z.boolean().describe("Serve HTTPS; needs `sslData` (given or already set)."),
  sslData: integer({ min: 1 }).nullable().describe("A certificate of the account (400 `errors.sslData` otherwise)."),
  proxy_ssl_enabled: z.boolean().describe("Verify the origin's certificate."),
  proxy_ssl_ca: integer({ min: 1 }).nullable().describe("A CA certificate of the account, or null."),
  proxy_ssl_data: integer({ min: 1 }).nullable().describe("A client certificate of the account, or null."),
  options: cdnResourceOptionsWrite,
};

const updateCdnResourceBodySchema = strictObject(
  Object.fromEntries(Object.entries(cdnResourceWritable).map(([key, schema]) => [key, schema.optional()])) as {
    [K in keyof typeof cdnResourceWritable]: z.ZodOptional<(typeof cdnResourceWritable)[K]>;
  },
  {
    readOnly: CDN_RESOURCE_READ_ONLY,
    rejected: { waap_api_domain_enabled: "Only the full-replace operation (PUT) takes this field." },
  },
).describe("The fields to change; fields not given keep their value.");
export interface UpdateCdnResourceBodySchema extends UpdateCdnResourceBodySchemaType {}
type UpdateCdnResourceBodySchemaType = typeof updateCdnResourceBodySchema;
export const updateCdnResourceBody: UpdateCdnResourceBodySchema = updateCdnResourceBodySchema;

const replaceCdnResourceBodySchema = strictObject(
  {
    ...(Object.fromEntries(Object.entries(cdnResourceWritable).map(([key, schema]) => [key, schema.optional()])) as {
      [K in keyof typeof cdnResourceWritable]: z.ZodOptional<(typeof cdnResourceWritable)[K]>;
    }),
    originGroup: cdnResourceWritable.originGroup,
    waap_api_domain_enabled: z.boolean().optional().describe("Turn WAAP API domain protection on. Default false."),
  },
  { readOnly: CDN_RESOURCE_READ_ONLY },
).describe(
  "Every writable field. `originGroup` is required; any other writable field left out returns to the default " +
    'of a new resource: options {}, secondaryHostnames [], description "", active true, the SSL booleans false, ' +
    "sslData, proxy_ssl_ca and proxy_ssl_data null, originProtocol HTTP, waap_api_domain_enabled false; the name is kept.",
);
export interface ReplaceCdnResourceBodySchema extends ReplaceCdnResourceBodySchemaType {}
type ReplaceCdnResourceBodySchemaType = typeof replaceCdnResourceBodySchema;
export const replaceCdnResourceBody: ReplaceCdnResourceBodySchema = replaceCdnResourceBodySchema;

export type UpdateCdnResourceBody = z.input<typeof updateCdnResourceBody>;
export type ReplaceCdnResourceBody = z.input<typeof replaceCdnResourceBody>;
const createCdnResourceBodySchema = strictObject(
  {
    cname: hostname
      .describe(
        "The delivery host name, unique on the platform (409 when any resource already uses it, in any case); " +
          "stored and returned in lower case.",
      ),
    origin: originSource
      .optional()
      .describe(
        "An origin host (and port): a new origin group is made for it, named after the cname, with this one enabled " +
          "source. Exactly one of `origin` and `originGroup` is given.",
      ),
    originGroup: cdnResourceWritable.originGroup.optional().describe(
      "An origin group of the account (400 `errors.originGroup` otherwise). Exactly one of `origin` and `originGroup` is given.",
    ),
    name: cdnResourceWritable.name.nullable().optional().describe("Name of the resource, 1 to 255 characters; the cname when absent or null."),
    active: cdnResourceWritable.active.optional().describe("Whether the resource serves traffic. Default true."),
    description: cdnResourceWritable.description.optional().describe('At most 1024 characters. Default "".'),
    secondaryHostnames: cdnResourceWritable.secondaryHostnames.optional(),
    originProtocol: originProtocol.optional().describe("Protocol to the origin: HTTP (the default), HTTPS, or MATCH (the protocol the client used)."),
    sslEnabled: cdnResourceWritable.sslEnabled.optional().describe("Serve HTTPS; needs `sslData`. Default false."),
    sslData: cdnResourceWritable.sslData.optional(),
    proxy_ssl_enabled: cdnResourceWritable.proxy_ssl_enabled.optional().describe("Verify the origin's certificate. Default false."),
    proxy_ssl_ca: cdnResourceWritable.proxy_ssl_ca.optional(),
    proxy_ssl_data: cdnResourceWritable.proxy_ssl_data.optional(),
    options: cdnResourceWritable.options.optional(),
    waap_api_domain_enabled: z.boolean().optional().describe("Turn WAAP API domain protection on. Default false."),
  },
  {
    readOnly: CDN_RESOURCE_READ_ONLY.filter((key) => key !== "cname"),
    rejected: { primary_resource: "Reserve resources that share a primary resource's cache are not part of this API." },
  },
)
  .superRefine((body, ctx) => {
    if ((body.origin === undefined) === (body.originGroup === undefined))
      for (const path of ["origin", "originGroup"])
        ctx.addIssue({ code: z.ZodIssueCode.custom, path: [path], message: "Exactly one of origin and originGroup is required." });
  })
  .describe(
    "A new CDN resource: `cname` and exactly one of `origin` and `originGroup` are required; every other writable field " +
      "takes the default of a new resource when left out. Inside `options`, a key set to null adds no option.",
  );
export interface CreateCdnResourceBodySchema extends CreateCdnResourceBodySchemaType {}
type CreateCdnResourceBodySchemaType = typeof createCdnResourceBodySchema;
export const createCdnResourceBody: CreateCdnResourceBodySchema = createCdnResourceBodySchema;

export type CreateCdnResourceBody = z.input<typeof createCdnResourceBody>;

// ---------------------------------------------------------------------------------------------
// Lists
// ---------------------------------------------------------------------------------------------

/** Statuses the listing filters by, as the platform names them. */
export const CDN_RESOURCE_STATUSES = ["active", "processed", "suspended", "deleted"] as const;

const certificateIdList = z
  .string()
  .regex(/^[1-9]\d{0,9}(,[1-9]\d{0,9}){0,99}$/, "Must be 1 to 100 certificate ids separated by commas, such as 12,15.")
  .transform((text) => text.split(",").map(Number))
  .refine((ids) => ids.every((id) => id <= INT32_MAX), `Each id must be at most ${INT32_MAX}.`);

const createdBound = z
  .string()
  .datetime({ offset: true, message: "Must be an ISO 8601 date and time, e.g. 2026-03-01T00:00:00Z." });

const listCdnResourcesQuerySchema = z.object({
  cname: z.string().max(253).optional().describe("Resources with this delivery host name, compared case-insensitively."),
  name: z.string().max(255).optional().describe("Resources whose name contains this text, case-insensitively."),
  status: stringEnum(CDN_RESOURCE_STATUSES).optional().describe("Resources with this status."),
  deleted: booleanQuery("Resources that are (true) or are not (false) marked deleted by the service.").optional(),
  enabled: booleanQuery("Resources that the service has (true) or has not (false) enabled.").optional(),
  active: booleanQuery("Resources that serve traffic (true) or are deactivated (false).").optional(),
  originGroup: integerParam({ min: 1, description: "Resources that pull from this origin group." }).optional(),
  sslEnabled: booleanQuery("Resources that serve HTTPS (true) or not (false).").optional(),
  sslData: integerParam({ min: 1, description: "Resources that serve HTTPS with this certificate." }).optional(),
  sslData_in: certificateIdList.optional().describe("Resources that serve HTTPS with one of these certificates: ids separated by commas, at most 100."),
  shielded: booleanQuery("Resources with (true) or without (false) origin shielding.").optional(),
  shield_dc: z.string().max(64).optional().describe("Resources shielded through the POP of this data center, e.g. fra-2."),
  vp_enabled: booleanQuery("Resources that are (true) or are not (false) set up for the streaming platform.").optional(),
  secondaryHostnames: z
    .string()
    .max(253)
    .optional()
    .describe("Resources that have this secondary host name, compared case-insensitively."),
  min_created: createdBound.optional().describe("Resources created at or after this time (ISO 8601)."),
  max_created: createdBound.optional().describe("Resources created at or before this time (ISO 8601)."),
  ...paging("resources", 25),
});
export interface ListCdnResourcesQuerySchema extends ListCdnResourcesQuerySchemaType {}
type ListCdnResourcesQuerySchemaType = typeof listCdnResourcesQuerySchema;
export const listCdnResourcesQuery: ListCdnResourcesQuerySchema = listCdnResourcesQuerySchema;

export type ListCdnResourcesQuery = z.input<typeof listCdnResourcesQuery>;

const cdnResourceListSchema = pageOf(cdnResource, "resources");
export interface CdnResourceListSchema extends CdnResourceListSchemaType {}
type CdnResourceListSchemaType = typeof cdnResourceListSchema;
export const cdnResourceList: CdnResourceListSchema = cdnResourceListSchema;

export type CdnResourceList = z.infer<typeof cdnResourceList>;

// ---------------------------------------------------------------------------------------------
// Shielding
// ---------------------------------------------------------------------------------------------

export const shieldingSetting = z
  .object({
    shielding_pop: integer({ min: 1 })
      .nullable()
      .describe("The id of one of the platform's shielding POPs, or null: shielding is off."),
  })
  .strict()
  .describe("The origin shielding of a CDN resource.");

export type ShieldingSetting = z.infer<typeof shieldingSetting>;

export const shieldingSettingWrite = strictObject(shieldingSetting.shape).describe(
  "Set `shielding_pop` to a POP id to shield the origin through it (the resource's shielded, shield_enabled and " +
    "shield_dc follow), or to null to switch shielding off. An unknown POP id is 400 `errors.shielding_pop`.",
);

// ---------------------------------------------------------------------------------------------
// Routes
// ---------------------------------------------------------------------------------------------

const resourceIdParams = z.object({ resource_id: idParam("The CDN resource id.") });

// The examples' objects: the demo data's, of account 1.
const resource = examples.cdnResourceExample;

/**
 * A resource as it is right after its creation: no shielding, no host names, the options given, and made
 * inactive (it serves nothing until it is switched on), so that the delete's example can delete it on an
 * account that has no other resource.
 */
const createdResource = {
  ...resource,
  id: 8,
  active: false,
  cname: "assets.acme.example",
  name: "Acme assets",
  description: "",
  created: "2026-05-04 10:00:00.000000+00:00",
  updated: "2026-05-04 10:00:00.000000+00:00",
  secondaryHostnames: [],
  shielded: false,
  shield_dc: null,
  shield_enabled: false,
  sslEnabled: false,
  sslData: null,
  proxy_ssl_enabled: false,
  proxy_ssl_ca: null,
  proxy_ssl_data: null,
  options: completeCdnResourceOptions({ gzipOn: { enabled: true, value: true } }),
  waap_api_domain_enabled: false,
};

/** Resource 1 as the replace example leaves it: switched off, and what the replace left out back to a new resource's default. */
const replacedResource = {
  ...resource,
  active: false,
  description: "",
  sslEnabled: false,
  sslData: null,
  options: completeCdnResourceOptions({ gzipOn: { enabled: true, value: true } }),
};

// The cases' objects: the account's resources (its first origin group is in shared.ts), the first shielding POP.
const resourceOf = (w: CaseWorld, index: number) => {
  const found = w.list("cdn.listResources").filter((resource) => !resource.deleted)[index];
  if (!found) throw new Error(`The route cases need ${index + 1} CDN resources in account ${w.account}.`);
  return found;
};
const popOf = (w: CaseWorld) => w.first("cdn.listShieldingPops");

/** The routes of CDN resources and their shielding. */
export const cdnResourcesRoutes = {
  listResources: route({
    method: "GET",
    path: "/cdn/resources",
    query: listCdnResourcesQuery,
    responses: { 200: cdnResourceList, ...errorResponses() },
    summary: "List CDN resources",
    description:
      "The account's CDN resources that match every filter given. `name` matches a case-insensitive substring; `cname` and " +
      "`secondaryHostnames` match a whole host name, case-insensitively; the other filters match exactly. Paged by `limit` " +
      `(default 25, at most ${CDN_PAGE_MAX}) and \`offset\`; \`count\` is the number of all matches. Ordered by id ascending. ` +
      "Always answers the page envelope `{count, results}` (the platform answers a bare list when no limit is given). Deleted " +
      "resources are gone for good (see the delete operation), so `deleted=true` and `status=deleted` find only resources " +
      "the service itself marked deleted. The platform's `rules` and `suspend` filters are not taken here (unknown " +
      "parameters are ignored).",
    metadata: read,
  }, {
    example: {
      query: { status: "active", limit: 25, offset: 0 },
      response: { count: 1, results: [resource] },
    },
    case: {
      // The same query for both accounts: each sees its own resources with its own certificates.
      path: () => `/cdn/resources?sslEnabled=true&sslData_in=1,2&limit=10`,
      ownsObjects: false,
    },
  }),
  createResource: route({
    method: "POST",
    path: "/cdn/resources",
    body: createCdnResourceBody,
    responses: { 201: cdnResource, ...errorResponses([409, ...withBody]) },
    summary: "Create a CDN resource",
    description:
      "Creates a CDN resource for the delivery host name `cname`, pulling from `originGroup` (an origin group of the account) " +
      "or from `origin` (a host, for which a new origin group named after the cname is made in the same transaction: one " +
      "enabled source, use_next false). Exactly one of the two is given. The other writable fields follow the rules of the " +
      "change operations and take a new resource's defaults when left out (active true, originProtocol HTTP, options {}, " +
      "SSL off, name = cname). The cname is stored in lower case; 409 when any resource on the platform uses it already " +
      "(delivery host names are global), or when a secondary host name is used by another resource of the account. " +
      `An account has at most ${CDN_PLAN_LIMITS.resources} resources (\`resources_limit\` of its CDN limits): a create beyond answers 409. ` +
      "A new resource has status active, enabled true and no shielding. Answers 201 with the resource as the change " +
      "operations return it.",
    metadata: write,
  }, {
    example: {
      body: {
        cname: createdResource.cname,
        originGroup: createdResource.originGroup,
        name: createdResource.name,
        active: createdResource.active,
        originProtocol: createdResource.originProtocol,
        options: { gzipOn: { enabled: true, value: true } },
      },
      response: createdResource,
    },
    case: {
      path: () => "/cdn/resources",
      ownsObjects: false,
      // Inactive, so that the delete's case can delete what this one makes.
      body: (w) => ({
        cname: `${uniqueName("route-case")}.cdn-cases.example`,
        originGroup: originGroupOf(w).id,
        active: false,
        options: { gzipOn: { enabled: true, value: true } },
      }),
    },
  }),
  getResource: route({
    method: "GET",
    path: "/cdn/resources/:resource_id",
    pathParams: resourceIdParams,
    responses: { 200: cdnResource, ...errorResponses() },
    summary: "Get a CDN resource",
    description: "One CDN resource of the account, as the change operations return it.",
    metadata: read,
  }, {
    example: { pathParams: { resource_id: resource.id }, response: resource },
    case: { path: (w) => `/cdn/resources/${resourceOf(w, 0).id}`, ownsObjects: true },
  }),
  deleteResource: route({
    method: "DELETE",
    path: "/cdn/resources/:resource_id",
    pathParams: resourceIdParams,
    responses: { 204: c.noBody(), ...errorResponses([409]) },
    summary: "Delete a CDN resource",
    description:
      "Deletes the resource for good: it cannot be recovered, answers 404 afterwards, and its cname and secondary host " +
      "names are free again. As on the platform, the resource must be deactivated first (`active` false through a " +
      "change operation): deleting an active resource answers 409 and changes nothing. A resource that delivers streams " +
      "(their `cdn_id`) answers 409 naming them: give them another `cdn_id`, or null, or delete them first (a stream never " +
      "keeps a resource that is gone). Its origin group stays. Answers 204 with no body.",
    metadata: write,
  }, {
    example: {
      pathParams: { resource_id: 7 },
      // A 204 has no body; the example type asks for one.
    },
    case: {
      path: (w, made) => `/cdn/resources/${made?.id ?? missingId(w.account)}`,
      ownsObjects: true,
      makes: "cdn.createResource",
    },
  }),
  updateResource: route({
    method: "PATCH",
    path: "/cdn/resources/:resource_id",
    pathParams: resourceIdParams,
    body: updateCdnResourceBody,
    responses: { 200: cdnResource, ...errorResponses([409, ...withBody]) },
    summary: "Change a CDN resource",
    description:
      "Changes only the fields given. Inside `options`, each option key given replaces that option whole, " +
      "`\"<key>\": null` removes it, and keys not given stay as they are. `waap_api_domain_enabled` is only " +
      "taken by the full-replace operation. 409 when a secondary host name is used by another resource of the account. " +
      "A PATCH with no field changes nothing (`updated` included) and answers the resource as it is.",
    metadata: write,
  }, {
    example: {
      pathParams: { resource_id: examples.cdnResourceExample.id },
      body: examples.updateCdnResourceExample,
      response: examples.cdnResourceExample,
    },
    case: {
      path: (w) => `/cdn/resources/${resourceOf(w, 0).id}`,
      ownsObjects: true,
      body: () => ({ description: uniqueName("Changed by the route cases") }),
    },
  }),
  replaceResource: route({
    method: "PUT",
    path: "/cdn/resources/:resource_id",
    pathParams: resourceIdParams,
    body: replaceCdnResourceBody,
    responses: { 200: cdnResource, ...errorResponses([409, ...withBody]) },
    summary: "Replace a CDN resource",
    description:
      "Replaces every writable field. `originGroup` is required; every other writable field left out returns to " +
      "the default of a new resource (options {}, secondaryHostnames [], description \"\", active true, SSL " +
      "booleans false, certificate ids null). Also takes `waap_api_domain_enabled`.",
    metadata: write,
  }, {
    example: {
      pathParams: { resource_id: examples.cdnResourceExample.id },
      body: examples.replaceCdnResourceExample,
      response: replacedResource,
    },
    case: {
      // The second resource, so that the full replace leaves the first one's options for other checks.
      path: (w) => `/cdn/resources/${resourceOf(w, 1).id}`,
      ownsObjects: true,
      body: (w) => ({ originGroup: originGroupOf(w).id, name: "Replaced by the route cases" }),
    },
  }),
  getResourceShielding: route({
    method: "GET",
    path: "/cdn/resources/:resource_id/shielding_v2",
    pathParams: resourceIdParams,
    responses: { 200: shieldingSetting, ...errorResponses() },
    summary: "Get the origin shielding of a CDN resource",
    description: "The shielding POP the resource's requests to its origin go through (`shielding_pop`), or null when shielding is off.",
    metadata: read,
  }, {
    example: {
      pathParams: { resource_id: resource.id },
      response: examples.shieldingSettingExample,
    },
    case: { path: (w) => `/cdn/resources/${resourceOf(w, 0).id}/shielding_v2`, ownsObjects: true },
  }),
  updateResourceShielding: route({
    method: "PUT",
    path: "/cdn/resources/:resource_id/shielding_v2",
    pathParams: resourceIdParams,
    body: shieldingSettingWrite,
    responses: { 200: shieldingSetting, ...errorResponses(withBody) },
    summary: "Set the origin shielding of a CDN resource",
    description:
      "Routes the resource's requests to its origin through one shielding POP (`shielding_pop`), or switches " +
      "shielding off with null.",
    metadata: write,
  }, {
    example: {
      pathParams: { resource_id: examples.cdnResourceExample.id },
      body: examples.shieldingSettingExample,
      response: examples.shieldingSettingExample,
    },
    case: {
      path: (w) => `/cdn/resources/${resourceOf(w, 0).id}/shielding_v2`,
      ownsObjects: true,
      body: (w) => ({ shielding_pop: popOf(w).id }),
    },
  }),
} as const;
