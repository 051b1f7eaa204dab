/**
 * Object storage area: the account's storages (listing, details, creation, change, deletion), their S3
 * buckets (listing, creation, deletion) and each bucket's CORS origins, lifecycle and public-read policy.
 */
import { initContract } from "@ts-rest/core";
import { z } from "zod";
import {
  booleanQuery,
  errorResponses,
  idParam,
  integer,
  integerParam,
  isHostname,
  isoTimestamp,
  listOf,
  strictObject,
  stringEnum,
  withBody,
} from "./common.js";
import * as examples from "./examples.js";
import type { RouteMetadata } from "./roles.js";
import { route } from "./route.js";
import { missingId, uniqueName, type CaseObject, type CaseWorld } from "./route-case.js";

const c = initContract();

/** The kinds of storage: S3-compatible object storage, or an SFTP file store (which has no buckets). */
export const STORAGE_TYPES = ["s3", "sftp"] as const;
/** The regions a storage may be made in. */
export const STORAGE_LOCATIONS = ["s-ed1", "s-drc2", "s-sgc1", "s-nhn2", "s-darz", "s-ws1", "s-ams1", "ams", "sin", "fra", "mia"] as const;
/** The states of a storage the listing filters by; a storage of this API is always `active` (deletes are immediate). */
export const STORAGE_STATUSES = ["active", "suspended", "deleted", "pending"] as const;
/** The fields the storage listing sorts by. */
export const STORAGE_ORDERS = ["id", "name", "location", "type", "created_at"] as const;

/** The most origins a bucket's CORS takes. */
export const BUCKET_CORS_ORIGINS_MAX = 100;

/** The longest lifecycle a bucket takes, in days (100 years). */
export const BUCKET_LIFECYCLE_DAYS_MAX = 36_500;

/** How far ahead a storage's expiry may be set, in years. */
export const STORAGE_EXPIRY_MAX_YEARS = 100;

/** The units of an expiry duration, by their singular name, with what each adds. */
const EXPIRY_UNITS = {
  year: { months: 12 },
  month: { months: 1 },
  week: { ms: 7 * 86_400_000 },
  day: { ms: 86_400_000 },
  hour: { ms: 3_600_000 },
  minute: { ms: 60_000 },
  second: { ms: 1_000 },
} as const satisfies Record<string, { months: number } | { ms: number }>;

const EXPIRY_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?(?:Z|[+-]\d{2}:\d{2})$/;

const EXPIRY_FORMAT =
  "Must be a duration from now such as `30 days` or `1 year 6 months` (numbers with years, months, weeks, days, hours, " +
  "minutes or seconds, each unit once), or a time with its offset such as 2027-01-01T00:00:00Z; empty or null removes the expiry.";

/** `date` moved by whole calendar months, on the same day of the month or the month's last day if it has fewer. */
function addMonths(date: Date, months: number): Date {
  const moved = new Date(date.getTime());
  const day = moved.getUTCDate();
  moved.setUTCDate(1);
  moved.setUTCMonth(moved.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(moved.getUTCFullYear(), moved.getUTCMonth() + 1, 0)).getUTCDate();
  moved.setUTCDate(Math.min(day, lastDay));
  return moved;
}

/**
 * The time a storage's `expires` value (not empty) names, from `now`: a duration (`1 year 6 months 2 weeks`)
 * counts from `now`, years and months by the calendar in UTC; a time is taken as it is. An error message
 * instead when the value is neither, or the time is not after `now` or is more than 100 years ahead.
 */
export function storageExpiry(value: string, now: Date): Date | { error: string } {
  let expiry: Date;
  if (EXPIRY_TIME.test(value)) {
    const [year, month, day] = value.slice(0, 10).split("-").map(Number) as [number, number, number];
    const time = Date.parse(value);
    // Date.parse rolls days over (February 30th is March 2nd): the date must be a real one.
    const calendar = new Date(Date.UTC(year, month - 1, day));
    if (Number.isNaN(time) || calendar.getUTCMonth() !== month - 1 || calendar.getUTCDate() !== day) return { error: EXPIRY_FORMAT };
    expiry = new Date(time);
  } else {
    const words = value.trim().split(/\s+/);
    if (words.length % 2 !== 0) return { error: EXPIRY_FORMAT };
    const seen = new Set<string>();
    let months = 0;
    let ms = 0;
    for (let index = 0; index < words.length; index += 2) {
      const count = words[index]!;
      const unit = words[index + 1]!.toLowerCase().replace(/s$/, "");
      if (!/^\d{1,7}$/.test(count) || !Object.hasOwn(EXPIRY_UNITS, unit) || seen.has(unit)) return { error: EXPIRY_FORMAT };
      seen.add(unit);
      const adds = EXPIRY_UNITS[unit as keyof typeof EXPIRY_UNITS];
      if ("months" in adds) months += Number(count) * adds.months;
      else ms += Number(count) * adds.ms;
    }
    // Past 100 years either way: stop before the calendar arithmetic leaves the dates JavaScript holds.
    if (months > STORAGE_EXPIRY_MAX_YEARS * 12 || ms > STORAGE_EXPIRY_MAX_YEARS * 366 * 86_400_000)
      return { error: `Must be at most ${STORAGE_EXPIRY_MAX_YEARS} years ahead.` };
    expiry = new Date(addMonths(now, months).getTime() + ms);
  }
  if (expiry.getTime() <= now.getTime()) return { error: "Must be after the current time: a storage cannot expire in the past." };
  if (expiry.getTime() > addMonths(now, STORAGE_EXPIRY_MAX_YEARS * 12).getTime()) return { error: `Must be at most ${STORAGE_EXPIRY_MAX_YEARS} years ahead.` };
  return expiry;
}

export const bucketName = z
  .string()
  .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, "Must be a bucket name: 3 to 63 lower-case letters, digits, dots and hyphens.");

const storageName = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,255}$/, "Must be 1 to 255 letters, digits, hyphens and underscores.");

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

const storageSchema = z
  .object({
    id: integer(),
    name: z.string().describe("The storage name, unique in the account."),
    type: stringEnum(STORAGE_TYPES).describe("`s3`: S3-compatible object storage with buckets; `sftp`: an SFTP file store."),
    location: stringEnum(STORAGE_LOCATIONS).describe("The region the storage lives in."),
    address: z.string().describe("The host name clients connect to: the S3 endpoint or the SFTP server of the region."),
    client_id: integer().describe("The account the storage belongs to."),
    created_at: isoTimestamp,
    provisioning_status: stringEnum(STORAGE_STATUSES).describe("The storage's state; `active` for every storage this API shows."),
    can_restore: z.boolean().describe("Whether a deleted storage can be restored; always false (deletes are final, so there is no restore)."),
    deleted_at: isoTimestamp.nullable().describe("When the storage was deleted; null (a deleted storage is gone)."),
    expires: isoTimestamp
      .nullable()
      .describe("When an SFTP storage expires (UTC, as the storage change set it); null: never. This API records the time and does not delete the storage when it passes."),
    server_alias: z.string().nullable().describe("A custom host name of an SFTP storage, lower case, unique on the platform; null: none."),
    disable_http: z.boolean().describe("Whether plain HTTP access is off; false (this API does not change it)."),
    custom_config_file: z.boolean().describe("Whether the storage has a custom server configuration; false (this API sets none)."),
    rewrite_rules: z.record(z.string()).nullable().describe("URL rewrite rules of an SFTP storage; null: none (this API sets none)."),
    reseller_id: integer().nullable().describe("The reseller the account belongs to; null: none."),
  })
  .strict()
  .describe("A storage. Its credentials (S3 keys, SFTP password) are secrets and never part of an answer.");
export interface StorageSchema extends StorageSchemaType {}
type StorageSchemaType = typeof storageSchema;
export const storage: StorageSchema = storageSchema;

export type Storage = z.infer<typeof storage>;

const storageListSchema = z
  .object({
    count: integer().describe("The storages that match the filters, on every page."),
    results: z.array(storage).describe("This page of storages."),
  })
  .strict()
  .describe("One page of the account's storages.");
export interface StorageListSchema extends StorageListSchemaType {}
type StorageListSchemaType = typeof storageListSchema;
export const storageList: StorageListSchema = storageListSchema;

export type StorageList = z.infer<typeof storageList>;

const NO_SECRETS = "This API never holds or returns storage secrets, so SFTP passwords cannot be set or generated here.";

const createStorageBodySchema = strictObject(
  {
    name: storageName.describe("The storage name: 1 to 255 letters, digits, hyphens and underscores, unique in the account (409 otherwise)."),
    type: stringEnum(STORAGE_TYPES).describe("`s3` or `sftp`."),
    location: stringEnum(STORAGE_LOCATIONS).describe("The region to make the storage in."),
  },
  {
    readOnly: ["id", "address", "client_id", "created_at", "provisioning_status", "can_restore", "deleted_at", "credentials"],
    rejected: { sftp_password: NO_SECRETS, generate_sftp_password: NO_SECRETS },
  },
).describe("The new storage.");
export interface CreateStorageBodySchema extends CreateStorageBodySchemaType {}
type CreateStorageBodySchemaType = typeof createStorageBodySchema;
export const createStorageBody: CreateStorageBodySchema = createStorageBodySchema;

export type CreateStorageBody = z.input<typeof createStorageBody>;

const FIXED_AT_CREATION = "Set when the storage is made; it cannot be changed.";

const updateStorageBodySchema = strictObject(
  {
    expires: z
      .string()
      .max(200, "At most 200 characters.")
      .superRefine((value, ctx) => {
        if (value === "") return;
        const expiry = storageExpiry(value, new Date());
        if ("error" in expiry) ctx.addIssue({ code: z.ZodIssueCode.custom, message: expiry.error });
      })
      .nullable()
      .optional()
      .describe(
        "When the SFTP storage expires: a duration from now such as `30 days` or `1 year 6 months 2 weeks` (years, months, " +
          "weeks, days, hours, minutes, seconds; years and months by the calendar, in UTC), or a time with its offset such as " +
          "`2027-01-01T00:00:00Z`. It must be after now and at most 100 years ahead. An empty string or null removes the expiry.",
      ),
    server_alias: z
      .string()
      .max(253, "At most 253 characters.")
      .refine((value) => value === "" || isHostname(value), { message: "Must be a host name such as files.example.com; empty or null removes the alias." })
      .nullable()
      .optional()
      .describe(
        "A custom host name clients may reach the SFTP storage at, such as `files.example.com`; stored in lower case, and " +
          "unique on the platform (409 when any storage uses it already). An empty string or null removes the alias.",
      ),
  },
  {
    readOnly: [
      "id",
      "address",
      "client_id",
      "created_at",
      "provisioning_status",
      "can_restore",
      "deleted_at",
      "credentials",
      "disable_http",
      "custom_config_file",
      "rewrite_rules",
      "reseller_id",
    ],
    rejected: { name: FIXED_AT_CREATION, type: FIXED_AT_CREATION, location: FIXED_AT_CREATION, sftp_password: NO_SECRETS, generate_sftp_password: NO_SECRETS },
  },
).describe("The storage's fields to change; fields left out keep their values.");
export interface UpdateStorageBodySchema extends UpdateStorageBodySchemaType {}
type UpdateStorageBodySchemaType = typeof updateStorageBodySchema;
export const updateStorageBody: UpdateStorageBodySchema = updateStorageBodySchema;

export type UpdateStorageBody = z.input<typeof updateStorageBody>;

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

/** No fields: the path says it all. The body may be left out, or be an empty JSON object. */
const emptyBody = () =>
  strictObject({})
    .optional()
    .describe("No fields: the path says it all. The body may be left out, or be an empty JSON object.");

const listStoragesQuerySchema = z.object({
  limit: integerParam({ min: 1, max: 1000, description: "Page size, 1 to 1000. Default 100." }).default(100),
  offset: integerParam({ min: 0, description: "Number of matching storages skipped. Default 0." }).default(0),
  id: idParam("Only the storage with this id.").optional(),
  name: storageName.optional().describe("Only the storage with exactly this name."),
  location: stringEnum(STORAGE_LOCATIONS).optional().describe("Only storages in this region."),
  type: stringEnum(STORAGE_TYPES).optional().describe("Only storages of this type."),
  status: stringEnum(STORAGE_STATUSES).optional().describe("Only storages in this state; every storage of this API is `active`."),
  show_deleted: booleanQuery("Include deleted storages; deletes are final here, so there are none to include.").optional(),
  order_by: stringEnum(STORAGE_ORDERS).default("id").describe(`Sort field: ${STORAGE_ORDERS.join(", ")}. Default id; ties go by id.`),
  order_direction: stringEnum(["asc", "desc"]).default("asc").describe("asc or desc. Default asc."),
});

const storagePathParams = z.object({ id: idParam("The storage id; it must belong to the account.") });
const bucketPathParams = z.object({
  id: idParam("The storage id; it must belong to the account."),
  name: bucketName.describe("The bucket name."),
});

const read: RouteMetadata = { access: "read" };
const write: RouteMetadata = { access: "write" };

// The examples' objects: the demo data's, of account 1.
/** Storage 1 of the demo data. */
const luxStorage: Storage = {
  id: 1,
  name: "acme-s3-lux",
  type: "s3",
  location: "s-ed1",
  address: "s-ed1.storage.cloudplane.example",
  client_id: 1,
  created_at: "2026-01-21T09:00:00.000Z",
  provisioning_status: "active",
  can_restore: false,
  deleted_at: null,
  expires: null,
  server_alias: null,
  disable_http: false,
  custom_config_file: false,
  rewrite_rules: null,
  reseller_id: null,
};

/** The SFTP storage the createStorage example makes. */
const acmeFiles: Storage = {
  ...luxStorage,
  id: 4,
  name: "acme-files",
  type: "sftp",
  location: "ams",
  address: "ams.storage.cloudplane.example",
  created_at: "2026-11-23T19:30:00.000Z",
};

/**
 * A bucket name no earlier run used, of digits after its prefix: the suites compare the 404 of another
 * account's bucket with that of a bucket that does not exist with every number written N.
 */
function uniqueBucketName(): string {
  return `route-case-${Date.now()}${String(Math.floor(Math.random() * 1e6)).padStart(6, "0")}`;
}

// The cases' objects: the account's first S3 storage and the first bucket in it.
const s3StorageOf = (w: CaseWorld) => w.first("storage.listStorages", { where: (storage) => storage.type === "s3" });
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

export const storageContract = c.router({
  getBucketCors: route({
    method: "GET",
    path: "/storage/provisioning/v1/storage/:id/s3/bucket/:name/cors",
    pathParams: bucketPathParams,
    responses: { 200: bucketCors, ...errorResponses() },
    summary: "Get the CORS settings of a bucket",
    description:
      "The origins allowed to call the bucket from browsers. A body sent with this GET is ignored (fetch cannot send one). " +
      "404 when the storage is not the account's or has no such bucket.",
    metadata: read,
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
    metadata: write,
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
    metadata: write,
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
    metadata: write,
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
    metadata: read,
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
    body: emptyBody(),
    responses: { 200: bucketPolicy, ...errorResponses(withBody) },
    summary: "Make a bucket public",
    description:
      "Gives the bucket the public-read policy: anyone may read (download) its objects over HTTP without credentials; " +
      "writing still needs the storage's keys. A public bucket stays public. Answers the policy as the GET shows it, " +
      "`true` (the platform answers with no body). 404 when the storage is not the account's or has no such bucket.",
    metadata: write,
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
    metadata: write,
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
    metadata: write,
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
    metadata: read,
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
    metadata: write,
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
  listStorages: route({
    method: "GET",
    path: "/storage/provisioning/v3/storage",
    query: listStoragesQuerySchema,
    responses: { 200: storageList, ...errorResponses() },
    summary: "List storages",
    description:
      "The account's storages that match every filter given, a page of `limit` (default 100, at most 1000) from `offset`, " +
      "sorted by `order_by` and `order_direction` (default id ascending; ties by id ascending). `count` is the number of " +
      "matches before paging. Names are compared exactly.",
    metadata: read,
  }, {
    example: {
      query: { limit: 100, offset: 0, type: "s3", order_by: "name" },
      response: {
        count: 2,
        results: [
          { ...luxStorage, id: 3, name: "acme-s3-ams", location: "s-ams1", address: "s-ams1.storage.cloudplane.example", created_at: "2026-01-22T09:00:00.000Z" },
          luxStorage,
        ],
      },
    },
    case: { path: () => "/storage/provisioning/v3/storage", ownsObjects: false },
  }),
  getStorage: route({
    method: "GET",
    path: "/storage/provisioning/v1/storage/:id",
    pathParams: storagePathParams,
    responses: { 200: storage, ...errorResponses() },
    summary: "Get a storage",
    description: "One storage of the account; never its credentials.",
    metadata: read,
  }, {
    example: {
      pathParams: { id: 1 },
      response: luxStorage,
    },
    case: { path: (w) => `/storage/provisioning/v1/storage/${s3StorageOf(w).id}`, ownsObjects: true },
  }),
  createStorage: route({
    method: "POST",
    path: "/storage/provisioning/v2/storage",
    body: createStorageBody,
    responses: { 201: storage, ...errorResponses([409, ...withBody]) },
    summary: "Create a storage",
    description:
      "A new, empty storage of the account, `active` at once. A name the account already uses is 409. The platform returns " +
      "the storage's credentials here; this API never returns secrets, so the answer is the storage without them.",
    metadata: write,
  }, {
    example: {
      body: { name: "acme-files", type: "sftp", location: "ams" },
      response: acmeFiles,
    },
    case: {
      path: () => "/storage/provisioning/v2/storage",
      ownsObjects: false,
      body: () => ({ name: uniqueName("route-case-storage"), type: "s3", location: "s-ed1" }),
    },
  }),
  updateStorage: route({
    method: "PATCH",
    path: "/storage/provisioning/v2/storage/:id",
    pathParams: storagePathParams,
    body: updateStorageBody,
    responses: { 200: storage, ...errorResponses([409, 422, ...withBody]) },
    summary: "Change a storage",
    description:
      "Changes the fields given of an SFTP storage, `expires` and `server_alias`; fields left out keep their values, and " +
      "an empty string or null removes the expiry or the alias. The name, type and location are fixed at creation. Answers " +
      "the storage as the GET shows it; a body with no field changes nothing. An S3 storage neither expires nor has an " +
      "alias: giving it either a value is 422, removing them is accepted and changes nothing. A server alias another " +
      "storage has, in any account, is 409.",
    metadata: write,
  }, {
    example: {
      // The SFTP storage createStorage's example makes.
      pathParams: { id: 4 },
      body: { expires: "1 year", server_alias: "files.acme.example" },
      response: { ...acmeFiles, expires: "2027-11-23T19:45:00.000Z", server_alias: "files.acme.example" },
    },
    case: {
      // The demo storages are S3 ones, which take removing the expiry and alias (changing nothing).
      path: (w) => `/storage/provisioning/v2/storage/${s3StorageOf(w).id}`,
      ownsObjects: true,
      body: () => ({ expires: null, server_alias: "" }),
    },
  }),
  deleteStorage: route({
    method: "DELETE",
    path: "/storage/provisioning/v1/storage/:id",
    pathParams: storagePathParams,
    responses: { 204: c.noBody(), ...errorResponses() },
    summary: "Delete a storage",
    description:
      "Deletes the storage for good with all its data: its buckets and their settings go with it, as the platform " +
      "deletes a storage's data. Answers 204 with no body. The platform can restore a deleted S3 storage for two weeks; " +
      "here a delete is final, so there is no restore.",
    metadata: write,
  }, {
    example: {
      pathParams: { id: 3 },
      // A 204 has no body; the example type asks for one (reported to the lead).
    },
    case: {
      path: (w, made) => `/storage/provisioning/v1/storage/${made?.id ?? missingId(w.account)}`,
      ownsObjects: true,
      makes: "storage.createStorage",
    },
  }),
});
