/**
 * Object storages at the platform's current paths (`/storage/v4/object_storages`): the account's S3
 * storages (listing, details, creation with its first access key, deletion and restore within the grace
 * period); their schemas and routes. The same storages as the older `/storage/provisioning` routes show.
 */
import { initContract } from "@ts-rest/core";
import { z } from "zod";
import { booleanQuery, emptyInput, errorResponses, idParam, integer, integerParam, isoTimestamp, pageOf, strictObject, stringEnum, withBody } from "../common.js";
import { route } from "../route.js";
import { missingId, uniqueName, type CaseWorld } from "../route-case.js";
import { locationAddress, OBJECT_STORAGE_LOCATIONS } from "./locations.js";
import { read, write } from "./shared.js";

const c = initContract();

/** How long a deleted storage can be restored, in days. */
export const STORAGE_RESTORE_DAYS = 14;

/** The states of a storage in the current API; this API's storages are `active`, or `deleted` within their grace period. */
export const PROVISIONING_STATUSES = ["creating", "active", "updating", "deleting", "deleted"] as const;

/** The orders the current storage listings take: a field, ascending, or with `-` before it, descending. */
export const STORAGE_V4_ORDERS = ["id", "-id", "name", "-name", "created_at", "-created_at", "location_name", "-location_name"] as const;

/** A storage name of the current API: 1 to 255 letters, digits, hyphens and underscores (as the older routes take). */
export const storageV4Name = z.string().regex(/^[A-Za-z0-9_-]{1,255}$/, "Must be 1 to 255 letters, digits, hyphens and underscores.");

export const objectStorageIdParams = z.object({ object_storage_id: idParam("The storage id; it must belong to the account.") });

/** The query of the current storage listings, object and SFTP alike. */
export function storageV4ListQuery(noun: string) {
  return z.object({
    limit: integerParam({ min: 1, max: 1000, description: "Page size, 1 to 1000. Default 100." }).default(100),
    offset: integerParam({ min: 0, description: `Number of matching ${noun} skipped. Default 0.` }).default(0),
    id: idParam("Only the storage with this id.").optional(),
    name: storageV4Name.optional().describe("Only the storage with exactly this name."),
    location_name: z.string().max(64, "At most 64 characters.").optional().describe("Only storages in this location (its code, such as `s-ed1`)."),
    provisioning_status: stringEnum(PROVISIONING_STATUSES)
      .optional()
      .describe("Only storages in this state: `active`, or `deleted` (with `show_deleted=true`); the others match none here."),
    show_deleted: booleanQuery(`Include deleted storages still within their ${STORAGE_RESTORE_DAYS}-day grace period (they can be restored). Default false.`).default(false),
    order_by: stringEnum(STORAGE_V4_ORDERS)
      .default("id")
      .describe("Sort by `id`, `name`, `created_at` or `location_name`, ascending; with `-` before it (`-created_at`), descending. Default id; ties by id."),
  });
}

/** The fields every storage of the current API shows. */
export const storageV4Fields = {
  id: integer().describe("The storage id."),
  name: z.string().describe("The storage name, unique among the account's storages that are not deleted."),
  full_name: z.string().describe("The account id and the name, `{client_id}-{name}`: the storage's name on the platform (an SFTP storage's login)."),
  location_name: z.string().describe("The location (region) the storage lives in, its code."),
  address: z.string().describe("The host name clients connect to: the S3 endpoint or the SFTP server of the location."),
  created_at: isoTimestamp,
  provisioning_status: stringEnum(PROVISIONING_STATUSES).describe(
    `\`active\`; \`deleted\` for a deleted storage still within its ${STORAGE_RESTORE_DAYS}-day grace period (shown with \`show_deleted=true\`).`,
  ),
};

const s3StorageSchema = z.object(storageV4Fields).strict().describe("An S3-compatible object storage. Its access keys' secrets are never part of an answer.");
export interface S3StorageSchema extends S3StorageSchemaType {}
type S3StorageSchemaType = typeof s3StorageSchema;
export const s3Storage: S3StorageSchema = s3StorageSchema;

export type S3Storage = z.infer<typeof s3Storage>;

const createdAccessKeySchema = z
  .object({
    access_key: z.string().describe("The access key id: the S3 client's `AWS_ACCESS_KEY_ID`."),
    secret_key: z.string().describe("The secret key: the S3 client's `AWS_SECRET_ACCESS_KEY`. Shown this once; it cannot be read again."),
  })
  .strict()
  .describe("A new access key pair.");

const s3StorageCreatedSchema = z
  .object({ ...storageV4Fields, access_keys: z.array(createdAccessKeySchema).describe("The storage's first access key, with its secret shown this once.") })
  .strict()
  .describe("A new object storage, with the secret of its first access key, shown this once.");
export interface S3StorageCreatedSchema extends S3StorageCreatedSchemaType {}
type S3StorageCreatedSchemaType = typeof s3StorageCreatedSchema;
export const s3StorageCreated: S3StorageCreatedSchema = s3StorageCreatedSchema;

export type S3StorageCreated = z.infer<typeof s3StorageCreated>;

const s3StorageListSchema = pageOf(s3Storage, "object storages");
export interface S3StorageListSchema extends S3StorageListSchemaType {}
type S3StorageListSchemaType = typeof s3StorageListSchema;
export const s3StorageList: S3StorageListSchema = s3StorageListSchema;

const createObjectStorageBodySchema = strictObject(
  {
    name: storageV4Name.describe("The storage name: 1 to 255 letters, digits, hyphens and underscores, unique among the account's storages (409 otherwise)."),
    location_name: stringEnum(OBJECT_STORAGE_LOCATIONS).describe(
      "The location to make the storage in: one whose type is `s3_compatible` (see the locations).",
    ),
  },
  { readOnly: ["id", "full_name", "address", "created_at", "provisioning_status", "access_keys"] },
).describe("The new object storage.");
export interface CreateObjectStorageBodySchema extends CreateObjectStorageBodySchemaType {}
type CreateObjectStorageBodySchemaType = typeof createObjectStorageBodySchema;
export const createObjectStorageBody: CreateObjectStorageBodySchema = createObjectStorageBodySchema;

// The examples' objects: the demo data's, of account 1.
/** Storage 1 of the demo data, as the current API shows it. */
export const luxS3Storage: S3Storage = {
  id: 1,
  name: "acme-s3-lux",
  full_name: "1-acme-s3-lux",
  location_name: "s-ed1",
  address: locationAddress("s-ed1"),
  created_at: "2026-01-21T09:00:00.000Z",
  provisioning_status: "active",
};

/** The object storage createObjectStorage's example makes. */
const acmeAssets: S3Storage = {
  ...luxS3Storage,
  // The demo data has storages 1 to 3; this is the reference's first create of a storage.
  id: 4,
  name: "acme-assets",
  full_name: "1-acme-assets",
  location_name: "s-ams1",
  address: locationAddress("s-ams1"),
  created_at: "2026-11-26T20:00:00.000Z",
};

/** The path of the account's first object storage. */
export const objectStoragePath = (w: CaseWorld) =>
  `/storage/v4/object_storages/${w.first("storage.listObjectStorages").id}`;

const PRIMARY = "The platform's current path; the older `/storage/provisioning` routes serve the same storages in their own shape.";

export const storageObjectStoragesRoutes = {
  listObjectStorages: route(
    {
      method: "GET",
      path: "/storage/v4/object_storages",
      query: storageV4ListQuery("object storages"),
      responses: { 200: s3StorageList, ...errorResponses() },
      summary: "List object storages",
      description:
        "The account's S3-compatible storages that match every filter given, a page of `limit` (default 100) from `offset`, sorted " +
        `by \`order_by\` (default id). Deleted storages are left out unless \`show_deleted=true\`, which adds those within their ` +
        `${STORAGE_RESTORE_DAYS}-day grace period (\`provisioning_status\` \`deleted\`). \`count\` is the number of matches before paging. ${PRIMARY}`,
      metadata: read,
    },
    {
      example: {
        query: { limit: 100, offset: 0, order_by: "name" },
        response: {
          count: 2,
          results: [
            { ...luxS3Storage, id: 3, name: "acme-s3-ams", full_name: "1-acme-s3-ams", location_name: "s-ams1", address: locationAddress("s-ams1"), created_at: "2026-01-22T09:00:00.000Z" },
            luxS3Storage,
          ],
        },
      },
      case: { path: () => "/storage/v4/object_storages", ownsObjects: false },
    },
  ),
  createObjectStorage: route(
    {
      method: "POST",
      path: "/storage/v4/object_storages",
      body: createObjectStorageBody,
      responses: { 201: s3StorageCreated, ...errorResponses([409, ...withBody]) },
      summary: "Create an object storage",
      description:
        "A new, empty S3-compatible storage of the account in an `s3_compatible` location, `active` at once, with its first access " +
        "key: the answer shows the key's secret this once (it is kept encrypted and never shown again; make another key if it is " +
        `lost). A name one of the account's storages has (deleted ones within their grace period too) is 409. ${PRIMARY}`,
      metadata: write,
    },
    {
      example: {
        body: { name: acmeAssets.name, location_name: "s-ams1" },
        response: { ...acmeAssets, access_keys: [{ access_key: "CPAK5Q7Z2M4N8R1T6W3Y", secret_key: "k7Vq2Xr9Lm4Tz8Wc1Np6Bs3Hd5Jf0Gy" }] },
      },
      case: {
        path: () => "/storage/v4/object_storages",
        ownsObjects: false,
        body: () => ({ name: uniqueName("route-case-s3"), location_name: "s-ed1" }),
      },
    },
  ),
  getObjectStorage: route(
    {
      method: "GET",
      path: "/storage/v4/object_storages/:object_storage_id",
      pathParams: objectStorageIdParams,
      responses: { 200: s3Storage, ...errorResponses() },
      summary: "Get an object storage",
      description: `One S3-compatible storage of the account, never its keys' secrets. An SFTP storage, a deleted one and another account's are 404. ${PRIMARY}`,
      metadata: read,
    },
    {
      example: { pathParams: { object_storage_id: 1 }, response: luxS3Storage },
      case: { path: objectStoragePath, ownsObjects: true },
    },
  ),
  deleteObjectStorage: route(
    {
      method: "DELETE",
      path: "/storage/v4/object_storages/:object_storage_id",
      pathParams: objectStorageIdParams,
      responses: { 204: c.noBody(), ...errorResponses() },
      summary: "Delete an object storage",
      description:
        `Deletes the storage: it is gone from the listings and every route at once, but it is kept, with its buckets, keys and usage, ` +
        `for ${STORAGE_RESTORE_DAYS} days, during which the restore brings it back; after that it is deleted for good. Answers 204 with ` +
        "no body; a deleted storage is 404. (The older `DELETE /storage/provisioning/v1/storage/{id}` deletes at once and for good.)",
      metadata: write,
    },
    {
      example: { pathParams: { object_storage_id: acmeAssets.id } },
      case: {
        path: (w, made) => `/storage/v4/object_storages/${made?.id ?? missingId(w.account)}`,
        ownsObjects: true,
        makes: "storage.createObjectStorage",
      },
    },
  ),
  restoreObjectStorage: route(
    {
      method: "POST",
      path: "/storage/v4/object_storages/:object_storage_id/restore",
      pathParams: objectStorageIdParams,
      body: emptyInput("the path names the storage"),
      responses: { 204: c.noBody(), ...errorResponses([409, ...withBody]) },
      summary: "Restore a deleted object storage",
      description:
        `Brings back a storage deleted less than ${STORAGE_RESTORE_DAYS} days ago, as it was, with its buckets, keys and usage; ` +
        "answers 204 with no body. A storage that is not deleted answers the same 204 and is left as it is. A storage deleted " +
        `longer ago is gone for good (404), as is another account's. When another storage of the account has taken its name ` +
        "since, it cannot come back under that name: 409.",
      metadata: write,
    },
    {
      example: { pathParams: { object_storage_id: 1 }, body: {} },
      case: { path: (w) => `${objectStoragePath(w)}/restore`, ownsObjects: true, body: () => ({}) },
    },
  ),
} as const;
