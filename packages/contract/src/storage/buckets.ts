/**
 * Object storage buckets: the S3 buckets of a storage (listing, creation, deletion) and each bucket's CORS
 * origins, lifecycle and public-read policy; their schemas and their routes.
 */
import { initContract } from "@ts-rest/core";
import { z } from "zod";
import { emptyInput, errorResponses, idParam, integer, integerParam, listOf, pageOf, strictObject, withBody } from "../common.js";
import * as examples from "../examples.js";
import { route } from "../route.js";
import { missingId, type CaseObject, type CaseWorld } from "../route-case.js";
import { objectStoragePath } from "./object-storages.js";
import { read, s3StorageOf, storagePathParams, write } from "./shared.js";

const c = initContract();

/** The most origins a bucket's CORS takes. */
export const BUCKET_CORS_ORIGINS_MAX = 100;

/** The longest lifecycle a bucket takes, in days (100 years). */
export const BUCKET_LIFECYCLE_DAYS_MAX = 36_500;

export const bucketName = z
  .string()
  .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, "Must be a bucket name: 3 to 63 lower-case letters, digits, dots and hyphens.");

const bucketCorsSchema = z
  .object({
    data: z
      .object({ allowedOrigins: z.array(z.string()).describe("Origins allowed to call the bucket from browsers; `*` for any.") })
      .strict()
      .describe("The bucket's CORS settings."),
  })
  .strict()
  .describe("The CORS settings of a bucket.");
export interface BucketCorsSchema extends BucketCorsSchemaType {}
type BucketCorsSchemaType = typeof bucketCorsSchema;
export const bucketCors: BucketCorsSchema = bucketCorsSchema;

export type BucketCors = z.infer<typeof bucketCors>;

/** `*`, or an origin as browsers send it: scheme, host and optional port, no path. */
const ORIGIN = /^https?:\/\/(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*(?::\d{1,5})?$/;

const setBucketCorsBodySchema = strictObject({
  allowedOrigins: listOf(
    z
      .string()
      .max(300, "At most 300 characters.")
      .refine((value) => value === "*" || ORIGIN.test(value), { message: "Must be * or an origin such as https://www.example.com (scheme, host and optional port)." }),
    {
      max: BUCKET_CORS_ORIGINS_MAX,
      noun: "origins",
      description: "The origins allowed to call the bucket from browsers: `*` for any, or origins such as `https://www.example.com`; an empty list allows none.",
    },
  ),
}).describe("The bucket's new CORS origins; they replace the ones it had.");
export interface SetBucketCorsBodySchema extends SetBucketCorsBodySchemaType {}
type SetBucketCorsBodySchemaType = typeof setBucketCorsBodySchema;
export const setBucketCorsBody: SetBucketCorsBodySchema = setBucketCorsBodySchema;

export type SetBucketCorsBody = z.input<typeof setBucketCorsBody>;

const bucketSchema = z
  .object({
    name: z.string().describe("The bucket name."),
    lifecycle: integer()
      .nullable()
      .describe("Days after which the bucket's objects expire; null: no lifecycle policy (see the bucket's lifecycle routes)."),
  })
  .strict()
  .describe("An S3 bucket of a storage.");
export interface BucketSchema extends BucketSchemaType {}
type BucketSchemaType = typeof bucketSchema;
export const bucket: BucketSchema = bucketSchema;

export type Bucket = z.infer<typeof bucket>;

const bucketListSchema = z
  .object({
    count: integer().describe("The storage's buckets in all, on every page."),
    results: z.array(bucket).describe("This page of buckets, by name."),
  })
  .strict()
  .describe("One page of a storage's buckets.");
export interface BucketListSchema extends BucketListSchemaType {}
type BucketListSchemaType = typeof bucketListSchema;
export const bucketList: BucketListSchema = bucketListSchema;

export type BucketList = z.infer<typeof bucketList>;

const setBucketLifecycleBodySchema = strictObject({
  expiration_days: integer({ min: 1, max: BUCKET_LIFECYCLE_DAYS_MAX }).describe(
    `Days after which each object of the bucket expires and is deleted, counted from the object's upload: 1 to ${BUCKET_LIFECYCLE_DAYS_MAX}.`,
  ),
}).describe("The bucket's lifecycle; it replaces the one it had.");
export interface SetBucketLifecycleBodySchema extends SetBucketLifecycleBodySchemaType {}
type SetBucketLifecycleBodySchemaType = typeof setBucketLifecycleBodySchema;
export const setBucketLifecycleBody: SetBucketLifecycleBodySchema = setBucketLifecycleBodySchema;

export type SetBucketLifecycleBody = z.input<typeof setBucketLifecycleBody>;

const bucketPolicySchema = z
  .boolean()
  .describe("Whether the bucket is public: true when anyone may read its objects over HTTP without credentials, false when only callers with the storage's keys may.");
export interface BucketPolicySchema extends BucketPolicySchemaType {}
type BucketPolicySchemaType = typeof bucketPolicySchema;
export const bucketPolicy: BucketPolicySchema = bucketPolicySchema;

export type BucketPolicy = z.infer<typeof bucketPolicy>;

const bucketPathParams = z.object({
  id: idParam("The storage id; it must belong to the account."),
  name: bucketName.describe("The bucket name."),
});

/**
 * A bucket name no earlier run used, of digits after its prefix: the suites compare the 404 of another
 * account's bucket with that of a bucket that does not exist with every number written N.
 */
function uniqueBucketName(): string {
  return `route-case-${Date.now()}${String(Math.floor(Math.random() * 1e6)).padStart(6, "0")}`;
}

// The cases' objects: the first bucket in the account's first S3 storage.
const bucketParams = (w: CaseWorld) => {
  const storage = s3StorageOf(w);
  return { params: { id: storage.id, name: String(w.first("storage.listBuckets", { params: { id: storage.id } }).name) } };
};
const bucketPath = (w: CaseWorld) => {
  const { id, name } = bucketParams(w).params;
  return `/storage/provisioning/v1/storage/${id}/s3/bucket/${encodeURIComponent(name)}`;
};
const corsPath = (w: CaseWorld) => `${bucketPath(w)}/cors`;
/** The bucket made by createBucket in the account's first S3 storage; without one, a name no bucket has. */
const madeBucketPath = (w: CaseWorld, made?: CaseObject) =>
  `/storage/provisioning/v1/storage/${s3StorageOf(w).id}/s3/bucket/${typeof made?.name === "string" ? made.name : `route-case-${missingId(w.account)}`}`;

/**
 * The older bucket routes keep the client's names they had before the current API came
 * (`client.storage.s3.buckets.*`); the current routes are `client.storage.buckets.*`.
 */
const olderBucketRead = { ...read, client: { resource: "s3.buckets" } };
const olderBucketWrite = { ...write, client: { resource: "s3.buckets" } };

export const storageBucketsRoutes = {
  getBucketCors: route({
    method: "GET",
    path: "/storage/provisioning/v1/storage/:id/s3/bucket/:name/cors",
    pathParams: bucketPathParams,
    responses: { 200: bucketCors, ...errorResponses() },
    summary: "Get the CORS settings of a bucket",
    description:
      "The origins allowed to call the bucket from browsers. A body sent with this GET is ignored (fetch cannot send one). " +
      "404 when the storage is not the account's or has no such bucket.",
    metadata: olderBucketRead,
  }, {
    example: {
      // Storage 1 of the demo data and its bucket media-assets, whose CORS origins bucketCorsExample shows.
      pathParams: { id: 1, name: "media-assets" },
      response: examples.bucketCorsExample,
    },
    case: { path: corsPath, ownsObjects: true },
  }),
  setBucketCors: route({
    method: "POST",
    path: "/storage/provisioning/v1/storage/:id/s3/bucket/:name/cors",
    pathParams: bucketPathParams,
    body: setBucketCorsBody,
    responses: { 200: bucketCors, ...errorResponses(withBody) },
    summary: "Set the CORS settings of a bucket",
    description:
      "Replaces the bucket's CORS origins with `allowedOrigins` (an empty list allows no origin) and answers the settings " +
      "as the GET shows them (the platform answers with no body). Repeated origins are kept once, in the order first given. " +
      "404 when the storage is not the account's or has no such bucket.",
    metadata: olderBucketWrite,
  }, {
    example: {
      pathParams: { id: 1, name: "backups" },
      body: { allowedOrigins: ["https://admin.acme.example"] },
      response: { data: { allowedOrigins: ["https://admin.acme.example"] } },
    },
    case: {
      path: corsPath,
      ownsObjects: true,
      // The bucket's own origins: the case may run any number of times without changing the demo data.
      body: (w) => ({ allowedOrigins: (w.get("storage.getBucketCors", bucketParams(w)) as BucketCors).data.allowedOrigins }),
    },
  }),
  setBucketLifecycle: route({
    method: "POST",
    path: "/storage/provisioning/v1/storage/:id/s3/bucket/:name/lifecycle",
    pathParams: bucketPathParams,
    body: setBucketLifecycleBody,
    responses: { 200: bucket, ...errorResponses(withBody) },
    summary: "Set the lifecycle of a bucket",
    description:
      "Makes every object of the bucket, present and future, expire `expiration_days` days after its upload; it replaces " +
      "the lifecycle the bucket had. Answers the bucket as the bucket listing shows it, its `lifecycle` the days (the " +
      "platform answers with no body). 404 when the storage is not the account's or has no such bucket.",
    metadata: olderBucketWrite,
  }, {
    example: {
      pathParams: { id: 1, name: "backups" },
      body: { expiration_days: 30 },
      response: { name: "backups", lifecycle: 30 },
    },
    // Setting a lifecycle or a policy works on a fresh bucket, so that the demo buckets keep theirs; removing them
    // from a demo bucket (which has none) changes nothing.
    case: {
      path: (w, made) => `${madeBucketPath(w, made)}/lifecycle`,
      ownsObjects: true,
      makes: "storage.createBucket",
      body: () => ({ expiration_days: 30 }),
    },
  }),
  deleteBucketLifecycle: route({
    method: "DELETE",
    path: "/storage/provisioning/v1/storage/:id/s3/bucket/:name/lifecycle",
    pathParams: bucketPathParams,
    responses: { 204: c.noBody(), ...errorResponses() },
    summary: "Remove the lifecycle of a bucket",
    description:
      "Removes the bucket's lifecycle: its objects no longer expire, and its `lifecycle` is null. A bucket without one " +
      "answers the same 204, with no body. 404 when the storage is not the account's or has no such bucket.",
    metadata: olderBucketWrite,
  }, {
    example: {
      // The lifecycle setBucketLifecycle's example sets.
      pathParams: { id: 1, name: "backups" },
    },
    case: { path: (w) => `${bucketPath(w)}/lifecycle`, ownsObjects: true },
  }),
  getBucketPolicy: route({
    method: "GET",
    path: "/storage/provisioning/v1/storage/:id/s3/bucket/:name/policy",
    pathParams: bucketPathParams,
    responses: { 200: bucketPolicy, ...errorResponses() },
    summary: "Get the policy of a bucket",
    description:
      "Whether the bucket is public, as a bare JSON `true` or `false` as the platform answers it. A new bucket is not. " +
      "404 when the storage is not the account's or has no such bucket.",
    metadata: olderBucketRead,
  }, {
    example: {
      pathParams: { id: 1, name: "media-assets" },
      response: false,
    },
    case: { path: (w) => `${bucketPath(w)}/policy`, ownsObjects: true },
  }),
  setBucketPolicy: route({
    method: "POST",
    path: "/storage/provisioning/v1/storage/:id/s3/bucket/:name/policy",
    pathParams: bucketPathParams,
    body: emptyInput(),
    responses: { 200: bucketPolicy, ...errorResponses(withBody) },
    summary: "Make a bucket public",
    description:
      "Gives the bucket the public-read policy: anyone may read (download) its objects over HTTP without credentials; " +
      "writing still needs the storage's keys. A public bucket stays public. Answers the policy as the GET shows it, " +
      "`true` (the platform answers with no body). 404 when the storage is not the account's or has no such bucket.",
    metadata: olderBucketWrite,
  }, {
    example: {
      pathParams: { id: 1, name: "media-assets" },
      body: {},
      response: true,
    },
    case: {
      path: (w, made) => `${madeBucketPath(w, made)}/policy`,
      ownsObjects: true,
      makes: "storage.createBucket",
      body: () => ({}),
    },
  }),
  deleteBucketPolicy: route({
    method: "DELETE",
    path: "/storage/provisioning/v1/storage/:id/s3/bucket/:name/policy",
    pathParams: bucketPathParams,
    responses: { 204: c.noBody(), ...errorResponses() },
    summary: "Make a bucket private",
    description:
      "Removes the bucket's public-read policy: reading its objects needs the storage's keys again. A private bucket " +
      "answers the same 204, with no body. 404 when the storage is not the account's or has no such bucket.",
    metadata: olderBucketWrite,
  }, {
    example: {
      pathParams: { id: 1, name: "media-assets" },
    },
    case: { path: (w) => `${bucketPath(w)}/policy`, ownsObjects: true },
  }),
  createBucket: route({
    method: "POST",
    path: "/storage/provisioning/v1/storage/:id/s3/bucket/:name",
    pathParams: bucketPathParams,
    body: strictObject({})
      .optional()
      .describe("No fields: the path names the bucket. The body may be left out, or be an empty JSON object."),
    responses: { 201: bucket, ...errorResponses([409, 422, ...withBody]) },
    summary: "Create a bucket",
    description:
      "Makes an empty bucket named by the path in one of the account's S3 storages; the body, if any, is an empty object. Answers 201 with the " +
      "bucket (the platform answers with no body). A name the storage already has is 409; an SFTP storage has no buckets (422).",
    metadata: olderBucketWrite,
  }, {
    example: {
      pathParams: { id: 1, name: "press-kit" },
      body: {},
      response: { name: "press-kit", lifecycle: null },
    },
    case: {
      path: (w) => `/storage/provisioning/v1/storage/${s3StorageOf(w).id}/s3/bucket/${uniqueBucketName()}`,
      ownsObjects: true,
      body: () => ({}),
    },
  }),
  listBuckets: route({
    method: "GET",
    path: "/storage/provisioning/v2/storage/:id/s3/buckets",
    pathParams: storagePathParams,
    query: z.object({
      limit: integerParam({ min: 1, max: 1000, description: "Page size, 1 to 1000. Default 100." }).default(100),
      offset: integerParam({ min: 0, description: "Number of buckets skipped. Default 0." }).default(0),
    }),
    responses: { 200: bucketList, ...errorResponses() },
    summary: "List the buckets of a storage",
    description:
      "A page of the storage's buckets by name (ascending), `limit` (default 100, at most 1000) from `offset`; `count` is the " +
      "total. An SFTP storage has none. 404 when the storage is not the account's.",
    metadata: olderBucketRead,
  }, {
    example: {
      pathParams: { id: 1 },
      query: { limit: 100, offset: 0 },
      response: {
        count: 2,
        results: [
          { name: "backups", lifecycle: null },
          { name: "media-assets", lifecycle: null },
        ],
      },
    },
    case: { path: (w) => `/storage/provisioning/v2/storage/${s3StorageOf(w).id}/s3/buckets`, ownsObjects: true },
  }),
  deleteBucket: route({
    method: "DELETE",
    path: "/storage/provisioning/v1/storage/:id/s3/bucket/:name",
    pathParams: bucketPathParams,
    responses: { 204: c.noBody(), ...errorResponses() },
    summary: "Delete a bucket",
    description:
      "Deletes the bucket with everything in it (its objects, CORS settings, lifecycle and policy), as the platform does. " +
      "Answers 204 with no body.",
    metadata: olderBucketWrite,
  }, {
    example: {
      // The bucket createBucket's example makes.
      pathParams: { id: 1, name: "press-kit" },
      // A 204 has no body; the example type asks for one (reported to the lead).
    },
    case: {
      path: madeBucketPath,
      ownsObjects: true,
      makes: "storage.createBucket",
    },
  }),
} as const;

// ---------------------------------------------------------------------------------------------
// The current API: /storage/v4/object_storages/{object_storage_id}/buckets
// ---------------------------------------------------------------------------------------------

const originList = () =>
  listOf(
    z
      .string()
      .max(300, "At most 300 characters.")
      .refine((value) => value === "*" || ORIGIN.test(value), { message: "Must be * or an origin such as https://www.example.com (scheme, host and optional port)." }),
    {
      max: BUCKET_CORS_ORIGINS_MAX,
      noun: "origins",
      description: "The origins allowed to call the bucket from browsers: `*` for any, or origins such as `https://www.example.com`; an empty list allows none.",
    },
  );

const bucketV4Schema = z
  .object({
    name: z.string().describe("The bucket name, unique in its storage."),
    storage_id: integer().describe("The object storage the bucket belongs to."),
    cors: z
      .object({ allowed_origins: z.array(z.string()).describe("Origins allowed to call the bucket from browsers; `*` for any; empty: none.") })
      .strict()
      .describe("The bucket's CORS settings."),
    lifecycle: z
      .object({ expiration_days: integer().describe("Days after its upload each object expires and is deleted; 0: never (no lifecycle).") })
      .strict()
      .describe("The bucket's lifecycle."),
    policy: z
      .object({ is_public: z.boolean().describe("Whether anyone may read (download) the bucket's objects over HTTP without credentials.") })
      .strict()
      .describe("The bucket's access policy."),
  })
  .strict()
  .describe("An S3 bucket of an object storage, with its CORS settings, lifecycle and policy.");
export interface BucketV4Schema extends BucketV4SchemaType {}
type BucketV4SchemaType = typeof bucketV4Schema;
export const bucketV4: BucketV4Schema = bucketV4Schema;

export type BucketV4 = z.infer<typeof bucketV4>;

const bucketV4ListSchema = pageOf(bucketV4, "buckets");
export interface BucketV4ListSchema extends BucketV4ListSchemaType {}
type BucketV4ListSchemaType = typeof bucketV4ListSchema;
export const bucketV4List: BucketV4ListSchema = bucketV4ListSchema;

const createBucketV4BodySchema = strictObject(
  { name: bucketName.describe("The bucket name: 3 to 63 lower-case letters, digits, dots and hyphens, unique in the storage (409 otherwise).") },
  { readOnly: ["storage_id", "cors", "lifecycle", "policy"] },
).describe("The new bucket.");
export interface CreateBucketV4BodySchema extends CreateBucketV4BodySchemaType {}
type CreateBucketV4BodySchemaType = typeof createBucketV4BodySchema;
export const createBucketV4Body: CreateBucketV4BodySchema = createBucketV4BodySchema;

const updateBucketV4BodySchema = strictObject(
  {
    cors: strictObject({ allowed_origins: originList() })
      .optional()
      .describe("New CORS origins; they replace the ones the bucket had (an empty list removes them). Left out: unchanged."),
    lifecycle: strictObject({
      expiration_days: integer({ min: 0, max: BUCKET_LIFECYCLE_DAYS_MAX })
        .nullable()
        .describe(`Days after its upload each object expires, 1 to ${BUCKET_LIFECYCLE_DAYS_MAX}; 0 or null removes the lifecycle.`),
    })
      .optional()
      .describe("A new lifecycle; it replaces the one the bucket had. Left out: unchanged."),
    policy: strictObject({ is_public: z.boolean().describe("true: anyone may read the objects; false: only callers with the storage's keys.") })
      .optional()
      .describe("A new policy. Left out: unchanged."),
  },
  { readOnly: ["name", "storage_id"] },
).describe("The bucket's settings to change; settings left out keep their values.");
export interface UpdateBucketV4BodySchema extends UpdateBucketV4BodySchemaType {}
type UpdateBucketV4BodySchemaType = typeof updateBucketV4BodySchema;
export const updateBucketV4Body: UpdateBucketV4BodySchema = updateBucketV4BodySchema;

const bucketV4Params = z.object({
  object_storage_id: idParam("The object storage id; it must belong to the account."),
  name: bucketName.describe("The bucket name."),
});

const mediaAssets: BucketV4 = {
  name: "media-assets",
  storage_id: 1,
  cors: { allowed_origins: ["https://www.acme.example", "https://admin.acme.example"] },
  lifecycle: { expiration_days: 0 },
  policy: { is_public: false },
};

const firstBucketV4Path = (w: CaseWorld) => {
  const storage = objectStoragePath(w);
  const first = w.first("storage.listObjectStorageBuckets", { params: { object_storage_id: Number(storage.split("/").at(-1)) } });
  return `${storage}/buckets/${encodeURIComponent(String(first.name))}`;
};

const V4_PRIMARY = "The platform's current path; the older `/storage/provisioning` bucket routes serve the same buckets.";

export const storageBucketsV4Routes = {
  listObjectStorageBuckets: route(
    {
      method: "GET",
      path: "/storage/v4/object_storages/:object_storage_id/buckets",
      pathParams: z.object({ object_storage_id: idParam("The object storage id; it must belong to the account.") }),
      query: z.object({
        limit: integerParam({ min: 1, max: 1000, description: "Page size, 1 to 1000. Default 100." }).default(100),
        offset: integerParam({ min: 0, description: "Number of buckets skipped. Default 0." }).default(0),
      }),
      responses: { 200: bucketV4List, ...errorResponses() },
      summary: "List the buckets of an object storage",
      description: `A page of the storage's buckets by name (ascending), each with its CORS settings, lifecycle and policy. 404 for an SFTP storage, a deleted one and another account's. ${V4_PRIMARY}`,
      metadata: read,
    },
    {
      example: {
        pathParams: { object_storage_id: 1 },
        query: { limit: 100, offset: 0 },
        response: {
          count: 2,
          results: [{ name: "backups", storage_id: 1, cors: { allowed_origins: [] }, lifecycle: { expiration_days: 0 }, policy: { is_public: false } }, mediaAssets],
        },
      },
      case: { path: (w) => `${objectStoragePath(w)}/buckets`, ownsObjects: true },
    },
  ),
  createObjectStorageBucket: route(
    {
      method: "POST",
      path: "/storage/v4/object_storages/:object_storage_id/buckets",
      pathParams: z.object({ object_storage_id: idParam("The object storage id; it must belong to the account.") }),
      body: createBucketV4Body,
      responses: { 201: bucketV4, ...errorResponses([409, ...withBody]) },
      summary: "Create a bucket",
      description: `Makes an empty, private bucket in the object storage, without CORS origins or lifecycle. A name the storage has is 409. ${V4_PRIMARY}`,
      metadata: write,
    },
    {
      example: {
        pathParams: { object_storage_id: 1 },
        body: { name: "brand-kit" },
        response: { name: "brand-kit", storage_id: 1, cors: { allowed_origins: [] }, lifecycle: { expiration_days: 0 }, policy: { is_public: false } },
      },
      case: { path: (w) => `${objectStoragePath(w)}/buckets`, ownsObjects: true, body: () => ({ name: uniqueBucketName() }) },
    },
  ),
  getObjectStorageBucket: route(
    {
      method: "GET",
      path: "/storage/v4/object_storages/:object_storage_id/buckets/:name",
      pathParams: bucketV4Params,
      responses: { 200: bucketV4, ...errorResponses() },
      summary: "Get a bucket",
      description: `One bucket of the object storage with its CORS settings, lifecycle and policy. ${V4_PRIMARY}`,
      metadata: read,
    },
    {
      example: { pathParams: { object_storage_id: 1, name: "media-assets" }, response: mediaAssets },
      case: { path: firstBucketV4Path, ownsObjects: true },
    },
  ),
  updateObjectStorageBucket: route(
    {
      method: "PATCH",
      path: "/storage/v4/object_storages/:object_storage_id/buckets/:name",
      pathParams: bucketV4Params,
      body: updateBucketV4Body,
      responses: { 200: bucketV4, ...errorResponses(withBody) },
      summary: "Change a bucket",
      description:
        "Changes the settings given, in one write: `cors` replaces the CORS origins (repeated ones kept once, in the order first " +
        "given), `lifecycle` sets the days after which objects expire (0 or null removes it), `policy` makes the bucket public or " +
        `private; settings left out keep their values. Answers the bucket as the GET shows it (the platform answers with no body). ${V4_PRIMARY}`,
      metadata: write,
    },
    {
      example: {
        pathParams: { object_storage_id: 1, name: "backups" },
        body: { cors: { allowed_origins: ["https://admin.acme.example"] }, lifecycle: { expiration_days: 30 }, policy: { is_public: false } },
        response: { name: "backups", storage_id: 1, cors: { allowed_origins: ["https://admin.acme.example"] }, lifecycle: { expiration_days: 30 }, policy: { is_public: false } },
      },
      // The bucket's own settings: the case may run any number of times without changing the demo data.
      case: {
        path: firstBucketV4Path,
        ownsObjects: true,
        body: (w) => {
          const storageId = Number(objectStoragePath(w).split("/").at(-1));
          const first = w.first("storage.listObjectStorageBuckets", { params: { object_storage_id: storageId } }) as unknown as BucketV4;
          return { cors: first.cors, lifecycle: first.lifecycle, policy: first.policy };
        },
      },
    },
  ),
  deleteObjectStorageBucket: route(
    {
      method: "DELETE",
      path: "/storage/v4/object_storages/:object_storage_id/buckets/:name",
      pathParams: bucketV4Params,
      responses: { 204: c.noBody(), ...errorResponses() },
      summary: "Delete a bucket",
      description: `Deletes the bucket with everything in it (its objects, CORS settings, lifecycle and policy), for good. Answers 204 with no body. ${V4_PRIMARY}`,
      metadata: write,
    },
    {
      example: { pathParams: { object_storage_id: 1, name: "brand-kit" } },
      case: {
        path: (w, made) => `${objectStoragePath(w)}/buckets/${typeof made?.name === "string" ? made.name : `route-case-${missingId(w.account)}`}`,
        ownsObjects: true,
        makes: "storage.createObjectStorageBucket",
      },
    },
  ),
} as const;
