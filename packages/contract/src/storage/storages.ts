/**
 * Object storage storages: the account's storages (listing, details, creation, change, deletion) and
 * their expiry; their schemas and their routes.
 */
import { initContract } from "@ts-rest/core";
import { z } from "zod";
import { booleanQuery, errorResponses, idParam, integer, integerParam, isHostname, isoTimestamp, strictObject, stringEnum, withBody } from "../common.js";
import { route } from "../route.js";
import { missingId, uniqueName } from "../route-case.js";
import { read, s3StorageOf, storagePathParams, write } from "./shared.js";

const c = initContract();

/** The kinds of storage: S3-compatible object storage, or an SFTP file store (which has no buckets). */
export const STORAGE_TYPES = ["s3", "sftp"] as const;
/** The regions a storage may be made in. */
export const STORAGE_LOCATIONS = ["s-ed1", "s-drc2", "s-sgc1", "s-nhn2", "s-darz", "s-ws1", "s-ams1", "ams", "sin", "fra", "mia"] as const;
/** The states of a storage the listing filters by; a storage of this API is `active`, or `deleted` within its grace period. */
export const STORAGE_STATUSES = ["active", "suspended", "deleted", "pending"] as const;
/** The fields the storage listing sorts by. */
export const STORAGE_ORDERS = ["id", "name", "location", "type", "created_at"] as const;

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

const storageName = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,255}$/, "Must be 1 to 255 letters, digits, hyphens and underscores.");

const storageSchema = z
  .object({
    id: integer(),
    name: z.string().describe("The storage name, unique in the account."),
    type: stringEnum(STORAGE_TYPES).describe("`s3`: S3-compatible object storage with buckets; `sftp`: an SFTP file store."),
    location: stringEnum(STORAGE_LOCATIONS).describe("The region the storage lives in."),
    address: z.string().describe("The host name clients connect to: the S3 endpoint or the SFTP server of the region."),
    client_id: integer().describe("The account the storage belongs to."),
    created_at: isoTimestamp,
    provisioning_status: stringEnum(STORAGE_STATUSES).describe(
      "The storage's state: `active`, or `deleted` for an object storage deleted at the current path and still within its grace period (shown with `show_deleted=true`).",
    ),
    can_restore: z.boolean().describe("Whether the storage is deleted and can still be restored (`POST /storage/v4/object_storages/{object_storage_id}/restore`)."),
    deleted_at: isoTimestamp.nullable().describe("When the storage was deleted; null: it is not."),
    expires: isoTimestamp
      .nullable()
      .describe("When an SFTP storage expires (UTC, as the storage change set it); null: never. This API records the time and does not delete the storage when it passes."),
    server_alias: z.string().nullable().describe("A custom host name of an SFTP storage, lower case, unique on the platform; null: none."),
    disable_http: z.boolean().describe("Whether plain HTTP access is off (an SFTP storage's `is_http_disabled` at the current path)."),
    custom_config_file: z.boolean().describe("Whether the storage has a custom server configuration (an SFTP storage's `has_custom_config_file` at the current path)."),
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

const listStoragesQuerySchema = z.object({
  limit: integerParam({ min: 1, max: 1000, description: "Page size, 1 to 1000. Default 100." }).default(100),
  offset: integerParam({ min: 0, description: "Number of matching storages skipped. Default 0." }).default(0),
  id: idParam("Only the storage with this id.").optional(),
  name: storageName.optional().describe("Only the storage with exactly this name."),
  location: stringEnum(STORAGE_LOCATIONS).optional().describe("Only storages in this region."),
  type: stringEnum(STORAGE_TYPES).optional().describe("Only storages of this type."),
  status: stringEnum(STORAGE_STATUSES).optional().describe("Only storages in this state: `active`, or `deleted` (with `show_deleted=true`); the others match none."),
  show_deleted: booleanQuery("Include deleted storages still within their grace period (deleted at the current path; they can be restored).").optional(),
  order_by: stringEnum(STORAGE_ORDERS).default("id").describe(`Sort field: ${STORAGE_ORDERS.join(", ")}. Default id; ties go by id.`),
  order_direction: stringEnum(["asc", "desc"]).default("asc").describe("asc or desc. Default asc."),
});

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

/**
 * The S3 storage the createStorage example makes: an S3 one, so that on a newly provisioned account, which
 * has no storage of its own, the bucket examples have a storage with buckets to work in.
 */
const acmeMedia: Storage = {
  ...luxStorage,
  // The sixth storage: the demo data has three, and the current API's create examples (an object storage and an
  // SFTP storage, documented earlier in the reference) make the fourth and fifth.
  id: 6,
  name: "acme-media",
  type: "s3",
  location: "s-ams1",
  address: "s-ams1.storage.cloudplane.example",
  created_at: "2026-11-23T19:30:00.000Z",
};

/**
 * The older storage routes keep the client's names they had before the current API came
 * (`client.storage.storages.*`); the current routes are `client.storage.objectStorages.*` and `client.storage.sftpStorages.*`.
 */
const olderStorageRead = { ...read, client: { resource: "storages" } };
const olderStorageWrite = { ...write, client: { resource: "storages" } };

export const storageStoragesRoutes = {
  listStorages: route({
    method: "GET",
    path: "/storage/provisioning/v3/storage",
    query: listStoragesQuerySchema,
    responses: { 200: storageList, ...errorResponses() },
    summary: "List storages",
    description:
      "The account's storages that match every filter given, a page of `limit` (default 100, at most 1000) from `offset`, " +
      "sorted by `order_by` and `order_direction` (default id ascending; ties by id ascending). `count` is the number of " +
      "matches before paging. Names are compared exactly. The platform's older path: the current API lists object storages at " +
      "`GET /storage/v4/object_storages` and SFTP storages at `GET /storage/v4/sftp_storages`.",
    metadata: olderStorageRead,
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
    description:
      "One storage of the account; never its credentials. A deleted storage is 404. The platform's older path: the current API is " +
      "`GET /storage/v4/object_storages/{object_storage_id}` and `GET /storage/v4/sftp_storages/{sftp_storage_id}`.",
    metadata: olderStorageRead,
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
      "the storage's credentials here; this API never returns secrets here, so the answer is the storage without them. The " +
      "platform's older path: the current API (`POST /storage/v4/object_storages`, `POST /storage/v4/sftp_storages`) shows the " +
      "new credentials once.",
    metadata: olderStorageWrite,
  }, {
    example: {
      body: { name: acmeMedia.name, type: acmeMedia.type, location: acmeMedia.location },
      response: acmeMedia,
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
    metadata: olderStorageWrite,
  }, {
    example: {
      // The S3 storage createStorage's example makes: removing the expiry and the alias is what every storage
      // takes (an S3 storage has neither; an SFTP one takes values too, as the description says).
      pathParams: { id: acmeMedia.id },
      body: { expires: null, server_alias: null },
      response: acmeMedia,
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
      "deletes a storage's data. Answers 204 with no body. The platform's older path, which deletes at once and for good; " +
      "`DELETE /storage/v4/object_storages/{object_storage_id}` keeps an object storage restorable for 14 days.",
    metadata: olderStorageWrite,
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
} as const;
