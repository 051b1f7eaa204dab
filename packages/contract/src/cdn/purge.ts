/**
 * Purge, prefetch and the Let's Encrypt pre-validation of a CDN resource, and the account's purge history
 * (`/cdn/purge_statuses`): the bodies, the purge status, and their routes. Each purge and prefetch is kept as
 * a request whose status follows from its age.
 */
import { initContract } from "@ts-rest/core";
import { z } from "zod";
import type { ClientMetadata } from "../client-names.js";
import { emptyInput, errorResponses, idParam, integer, isoTimestamp, listOf, pageOf, paging, strictObject, withBody } from "../common.js";
import { route } from "../route.js";
import type { CaseWorld } from "../route-case.js";
import { purge, read, write } from "./shared.js";

/** The platform's limits on one request: URLs of a purge by URL, patterns of a purge by pattern, paths of a prefetch. */
export const PURGE_LIMITS = { urls: 100, patterns: 10, prefetchPaths: 100 } as const;

export const PURGE_TYPES = ["purge_by_url", "purge_by_pattern", "purge_all"] as const;
export type PurgeType = (typeof PURGE_TYPES)[number];

/** How long each kind of request is in progress, in seconds, before it is done. */
export const CACHE_REQUEST_SECONDS = { purge_by_url: 10, purge_by_pattern: 30, purge_all: 60, prefetch: 120 } as const;

export const PURGE_STATUSES = ["In progress", "Successful", "Failed", "Status report disabled"] as const;

const c = initContract();

const MAX_PATH_LENGTH = 2048;

const cachePath = (what: string) =>
  z
    .string()
    .min(1)
    .max(MAX_PATH_LENGTH)
    .regex(/^\/[^\s#]*$/, "Must start with / and name no domain, without spaces or a fragment.")
    .describe(`${what}, starting with / (no domain); at most ${MAX_PATH_LENGTH} characters.`);

const purgeBodySchema = strictObject({
  urls: listOf(cachePath("A file's URL path with its query string"), {
    min: 1,
    max: PURGE_LIMITS.urls,
    noun: "URLs",
    description: `Purge by URL: the files' paths, with their query strings, 1 to ${PURGE_LIMITS.urls}.`,
  }).optional(),
  paths: listOf(
    cachePath("A path pattern").refine((path) => !path.slice(0, -1).includes("*"), "A wildcard (*) may only end the pattern."),
    {
      max: PURGE_LIMITS.patterns,
      noun: "patterns",
      description: `Purge by pattern: up to ${PURGE_LIMITS.patterns} path patterns, each recursive (\`/images\` and \`/images*\` purge all under /images; * only at the end). An empty list purges all the resource's cache.`,
    },
  ).optional(),
})
  .superRefine((body, ctx) => {
    if (body.urls !== undefined && body.paths !== undefined)
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["paths"], message: "Give either urls (purge by URL) or paths (by pattern, or [] for all), not both." });
    else if (body.urls === undefined && body.paths === undefined)
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["urls"], message: "Required: urls (purge by URL) or paths (by pattern, or [] to purge all)." });
  })
  .describe("What to purge: `urls` (purge by URL), or `paths` (purge by pattern; an empty list purges all).");
export interface PurgeBodySchema extends PurgeBodySchemaType {}
type PurgeBodySchemaType = typeof purgeBodySchema;
export const purgeBody: PurgeBodySchema = purgeBodySchema;

export type PurgeBody = z.input<typeof purgeBody>;

const prefetchBodySchema = strictObject({
  paths: listOf(
    cachePath("A file's path").refine((path) => !path.includes("*"), "Must name a file: no wildcard."),
    { min: 1, max: PURGE_LIMITS.prefetchPaths, noun: "paths", description: `The files to load into the cache, 1 to ${PURGE_LIMITS.prefetchPaths} paths.` },
  ),
}).describe("The files to prefetch.");
export interface PrefetchBodySchema extends PrefetchBodySchemaType {}
type PrefetchBodySchemaType = typeof prefetchBodySchema;
export const prefetchBody: PrefetchBodySchema = prefetchBodySchema;

export type PrefetchBody = z.input<typeof prefetchBody>;

const requestResource = z
  .object({ id: integer().describe("The CDN resource's id."), cname: z.string().describe("Its CNAME when the request was made.") })
  .strict()
  .describe("The CDN resource the request is for.");

const purgeStatusSchema = z
  .object({
    purge_id: integer().describe("The purge's id."),
    purge_type: z.enum(PURGE_TYPES).describe("purge_by_url, purge_by_pattern or purge_all (a purge by pattern of no pattern)."),
    payload: z
      .union([
        z.object({ urls: z.array(z.string()).describe("The files' URL paths purged.") }).strict(),
        z.object({ paths: z.array(z.string()).describe("The patterns purged; empty for purge_all.") }).strict(),
      ])
      .describe("What was purged: `urls`, or `paths` (the patterns; empty for purge_all)."),
    resource: requestResource,
    created: isoTimestamp.describe("When the purge was asked for."),
    status: z
      .enum(["In progress", "Successful"])
      .describe(
        `In progress for ${CACHE_REQUEST_SECONDS.purge_by_url} s (by URL), ${CACHE_REQUEST_SECONDS.purge_by_pattern} s (by pattern) or ` +
          `${CACHE_REQUEST_SECONDS.purge_all} s (all) after it was asked for, Successful after.`,
      ),
  })
  .strict()
  .describe("A purge of a CDN resource's cache, with its status.");
export interface PurgeStatusSchema extends PurgeStatusSchemaType {}
type PurgeStatusSchemaType = typeof purgeStatusSchema;
export const purgeStatus: PurgeStatusSchema = purgeStatusSchema;

export type PurgeStatus = z.infer<typeof purgeStatus>;

const prefetchStatusSchema = z
  .object({
    prefetch_id: integer().describe("The prefetch's id."),
    payload: z.object({ paths: z.array(z.string()).describe("The files' paths.") }).strict().describe("The files asked for."),
    resource: requestResource,
    created: isoTimestamp.describe("When the prefetch was asked for."),
    status: z.enum(["In progress", "Successful"]).describe(`In progress for ${CACHE_REQUEST_SECONDS.prefetch} s after it was asked for, Successful after.`),
  })
  .strict()
  .describe("A prefetch into a CDN resource's cache, with its status.");
export interface PrefetchStatusSchema extends PrefetchStatusSchemaType {}
type PrefetchStatusSchemaType = typeof prefetchStatusSchema;
export const prefetchStatus: PrefetchStatusSchema = prefetchStatusSchema;

export type PrefetchStatus = z.infer<typeof prefetchStatus>;

const listPurgeStatusesQuerySchema = z.object({
  cname: z.string().max(255).optional().describe("Purges of the resource with this CNAME (when purged), case-insensitively."),
  from_created: isoTimestamp.optional().describe("Purges asked for at or after this time (ISO 8601, UTC)."),
  to_created: isoTimestamp.optional().describe("Purges asked for at or before this time (ISO 8601, UTC)."),
  purge_type: z.enum(PURGE_TYPES).optional().describe("Purges of this type: purge_by_url, purge_by_pattern or purge_all."),
  status: z
    .enum(PURGE_STATUSES)
    .optional()
    .describe("Purges with this status: In progress or Successful (Failed and Status report disabled are taken and find none here)."),
  ...paging("purges", 1000),
});
export interface ListPurgeStatusesQuerySchema extends ListPurgeStatusesQuerySchemaType {}
type ListPurgeStatusesQuerySchemaType = typeof listPurgeStatusesQuerySchema;
export const listPurgeStatusesQuery: ListPurgeStatusesQuerySchema = listPurgeStatusesQuerySchema;

const purgeStatusListSchema = pageOf(purgeStatus, "purges");
export interface PurgeStatusListSchema extends PurgeStatusListSchemaType {}
type PurgeStatusListSchemaType = typeof purgeStatusListSchema;
export const purgeStatusList: PurgeStatusListSchema = purgeStatusListSchema;

export type PurgeStatusList = z.infer<typeof purgeStatusList>;

// ---------------------------------------------------------------------------------------------
// Routes
// ---------------------------------------------------------------------------------------------

const resourceParams = z.object({ resource_id: idParam("The CDN resource id.") });

/** The cases' resource: the account's first that serves (active, not suspended, not deleted). */
const servingResourceOf = (w: CaseWorld) =>
  w.first("cdn.listResources", { where: (resource) => resource.active === true && resource.suspended === false && resource.deleted === false });

const REQUEST_RATES =
  "The platform's per-minute rates for purges and prefetches (see the account's limits) are not enforced per resource here; the token's request rate applies.";

const examplePurge: PurgeStatus = {
  purge_id: 3,
  purge_type: "purge_by_url",
  payload: { urls: ["/static/app.js", "/index.html?lang=en"] },
  resource: { id: 1, cname: "cdn.acme.example" },
  created: "2026-01-20T09:00:00.000Z",
  status: "Successful",
};

/** The routes of purges, prefetches and the Let's Encrypt pre-validation. */
export const cdnPurgeRoutes = {
  purgeResource: route({
    method: "POST",
    path: "/cdn/resources/:resource_id/purge",
    pathParams: resourceParams,
    body: purgeBody,
    responses: { 201: purgeStatus, ...errorResponses(withBody) },
    summary: "Purge a CDN resource's cache",
    description:
      `Removes files from the resource's cache: by URL (\`urls\`, 1 to ${PURGE_LIMITS.urls} paths with their query strings), by ` +
      `pattern (\`paths\`, up to ${PURGE_LIMITS.patterns} recursive patterns, * only at the end), or all (\`paths: []\`). Each path ` +
      "starts with / and names no domain; more than the limit is 400. The purge is kept and listed by the purge statuses: in " +
      `progress for ${CACHE_REQUEST_SECONDS.purge_by_url}, ${CACHE_REQUEST_SECONDS.purge_by_pattern} or ${CACHE_REQUEST_SECONDS.purge_all} seconds ` +
      `(by URL, by pattern, all), then successful. ${REQUEST_RATES} Answers 201 with the purge.`,
    metadata: { ...purge, client: { resource: "resources", method: "purge" } } satisfies ClientMetadata,
  }, {
    example: {
      pathParams: { resource_id: 1 },
      body: { urls: ["/static/app.js", "/index.html?lang=en"] },
      response: { ...examplePurge, purge_id: 13, created: "2026-03-01T12:00:00.000Z", status: "In progress" },
    },
    case: { path: (w) => `/cdn/resources/${servingResourceOf(w).id}/purge`, ownsObjects: true, body: () => ({ paths: ["/images/*"] }) },
  }),
  prefetchResource: route({
    method: "POST",
    path: "/cdn/resources/:resource_id/prefetch",
    pathParams: resourceParams,
    body: prefetchBody,
    responses: { 201: prefetchStatus, ...errorResponses(withBody) },
    summary: "Prefetch files into a CDN resource's cache",
    description:
      `Loads files into the resource's cache before users ask for them: 1 to ${PURGE_LIMITS.prefetchPaths} paths, each starting with / ` +
      "(no domain, no wildcard). The platform recommends it for files of 200 MB to 5 GB; purge a changed file first. The prefetch " +
      `is kept, in progress for ${CACHE_REQUEST_SECONDS.prefetch} seconds, then successful. ${REQUEST_RATES} Answers 201 with the prefetch.`,
    metadata: { ...purge, client: { resource: "resources", method: "prefetch" } } satisfies ClientMetadata,
  }, {
    example: {
      pathParams: { resource_id: 1 },
      body: { paths: ["/videos/launch-4k.mp4"] },
      response: {
        prefetch_id: 14,
        payload: { paths: ["/videos/launch-4k.mp4"] },
        resource: { id: 1, cname: "cdn.acme.example" },
        created: "2026-03-01T12:00:00.000Z",
        status: "In progress",
      },
    },
    case: { path: (w) => `/cdn/resources/${servingResourceOf(w).id}/prefetch`, ownsObjects: true, body: () => ({ paths: ["/videos/intro.mp4"] }) },
  }),
  prevalidateResourceSslLeCertificate: route({
    method: "POST",
    path: "/cdn/resources/:resource_id/ssl/le/pre-validate",
    pathParams: resourceParams,
    body: emptyInput(),
    responses: { 204: c.noBody(), ...errorResponses([...withBody, 422]) },
    summary: "Check that a Let's Encrypt certificate can be issued",
    description:
      "Checks whether Let's Encrypt can issue a certificate for the resource: it must be active, not suspended and not deleted " +
      "(the CDN must answer Let's Encrypt's challenge on its host names); 422 `unprocessable` says which it is not. Answers 204 " +
      "with no body when it can.",
    metadata: { ...write, client: { resource: "resources", method: "prevalidateSslLeCertificate" } } satisfies ClientMetadata,
  }, {
    example: {
      // Resource 5, which the other examples leave serving.
      pathParams: { resource_id: 5 },
      body: {},
      newAccount: { status: 422, because: "A new account's CDN resource is created inactive, and Let's Encrypt's challenge needs one that serves." },
    },
    case: { path: (w) => `/cdn/resources/${servingResourceOf(w).id}/ssl/le/pre-validate`, ownsObjects: true },
  }),
  listPurgeStatuses: route({
    method: "GET",
    path: "/cdn/purge_statuses",
    query: listPurgeStatusesQuery,
    responses: { 200: purgeStatusList, ...errorResponses() },
    summary: "List the purge history",
    description:
      "The account's purges (of its resources, deleted ones too) that match every filter given: `cname`, `purge_type`, " +
      "`status`, and the time they were asked for (`from_created`, `to_created`, both inclusive). Newest first; paged by " +
      "`limit` (default and at most 1000) and `offset`; `count` is the number of all matches.",
    metadata: read,
  }, {
    example: { query: { cname: "cdn.acme.example", purge_type: "purge_by_url", limit: 10 }, response: { count: 1, results: [examplePurge] } },
    case: { path: () => "/cdn/purge_statuses?purge_type=purge_by_url", ownsObjects: false },
  }),
} as const;
