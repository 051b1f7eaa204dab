/**
 * Object storage access keys: the S3 key pairs of an object storage (creation with the secret shown once,
 * listing, details, deletion); their schemas and routes.
 */
import { initContract } from "@ts-rest/core";
import { z } from "zod";
import { emptyInput, errorResponses, idParam, integerParam, isoTimestamp, pageOf, stringEnum, withBody } from "../common.js";
import { route } from "../route.js";
import { objectStoragePath, STORAGE_RESTORE_DAYS } from "./object-storages.js";
import { read, write } from "./shared.js";
import type { CaseWorld } from "../route-case.js";

const c = initContract();

/** The most access keys an object storage has (the platform allows 2; see createAccessKey). */
export const ACCESS_KEYS_MAX = 100;

/** An access key id: 20 upper-case letters and digits. */
export const accessKeyId = z.string().regex(/^[A-Z0-9]{16,32}$/, "Must be an access key id: 16 to 32 upper-case letters and digits.");

const accessKeySchema = z
  .object({
    access_key: z.string().describe("The access key id: the S3 client's `AWS_ACCESS_KEY_ID`."),
    created_at: isoTimestamp,
  })
  .strict()
  .describe("An access key of an object storage; its secret is shown only when the key is made.");
export interface AccessKeySchema extends AccessKeySchemaType {}
type AccessKeySchemaType = typeof accessKeySchema;
export const accessKey: AccessKeySchema = accessKeySchema;

export type AccessKey = z.infer<typeof accessKey>;

const accessKeyCreatedSchema = z
  .object({
    access_key: z.string().describe("The access key id: the S3 client's `AWS_ACCESS_KEY_ID`."),
    secret_key: z.string().describe("The secret key: the S3 client's `AWS_SECRET_ACCESS_KEY`. Shown this once; it cannot be read again."),
    created_at: isoTimestamp,
  })
  .strict()
  .describe("A new access key, with its secret shown this once.");
export interface AccessKeyCreatedSchema extends AccessKeyCreatedSchemaType {}
type AccessKeyCreatedSchemaType = typeof accessKeyCreatedSchema;
export const accessKeyCreated: AccessKeyCreatedSchema = accessKeyCreatedSchema;

const accessKeyListSchema = pageOf(accessKey, "access keys");
export interface AccessKeyListSchema extends AccessKeyListSchemaType {}
type AccessKeyListSchemaType = typeof accessKeyListSchema;
export const accessKeyList: AccessKeyListSchema = accessKeyListSchema;

const accessKeyParams = z.object({
  object_storage_id: idParam("The object storage id; it must belong to the account."),
  access_key: accessKeyId.describe("The access key id."),
});

/** The demo data's access key of storage 1 (account 1). */
export const DEMO_ACCESS_KEY = "CPDEMOACME0000000001";

const keyPath = (w: CaseWorld) => {
  const storage = objectStoragePath(w);
  const [first] = w.list("storage.listAccessKeys", { params: { object_storage_id: Number(storage.split("/").at(-1)) } });
  return `${storage}/access_keys/${first ? String(first.access_key) : "CPNOSUCHKEY000000000"}`;
};

export const storageAccessKeysRoutes = {
  createAccessKey: route(
    {
      method: "POST",
      path: "/storage/v4/object_storages/:object_storage_id/access_keys",
      pathParams: z.object({ object_storage_id: idParam("The object storage id; it must belong to the account.") }),
      body: emptyInput("the key is generated"),
      responses: { 201: accessKeyCreated, ...errorResponses([409, ...withBody]) },
      summary: "Create an access key",
      description:
        "A new S3 key pair for the object storage. The answer shows the secret key this once: it is kept encrypted, never " +
        `shown again and never logged. A storage has at most ${ACCESS_KEYS_MAX} keys (409 beyond); the platform allows two, ` +
        "which is enough to replace a key without a moment without one (make the new one, move the clients, delete the old one), " +
        "and this API allows more so that tools which make keys for a while before they delete them are not refused.",
      metadata: write,
    },
    {
      example: {
        pathParams: { object_storage_id: 1 },
        body: {},
        response: { access_key: "CPAK9B3D7F1H5K2M8P4Q", secret_key: "Zr4Wm8Kq1Tv6Xn3Bc9Hs2Lf7Pd5Gj0Ya", created_at: "2026-11-26T20:00:00.000Z" },
      },
      case: { path: (w) => `${objectStoragePath(w)}/access_keys`, ownsObjects: true, body: () => ({}) },
    },
  ),
  listAccessKeys: route(
    {
      method: "GET",
      path: "/storage/v4/object_storages/:object_storage_id/access_keys",
      pathParams: z.object({ object_storage_id: idParam("The object storage id; it must belong to the account.") }),
      query: z.object({
        limit: integerParam({ min: 1, max: 1000, description: "Page size, 1 to 1000. Default 100." }).default(100),
        offset: integerParam({ min: 0, description: "Number of keys skipped. Default 0." }).default(0),
        order_by: stringEnum(["created_at", "-created_at", "access_key", "-access_key"])
          .default("created_at")
          .describe("Sort by `created_at` or `access_key`, ascending; with `-` before it, descending. Default created_at; ties by key."),
      }),
      responses: { 200: accessKeyList, ...errorResponses() },
      summary: "List the access keys of an object storage",
      description: `The storage's access keys (never their secrets), a page of \`limit\` from \`offset\`. 404 for an SFTP storage, a deleted one (restore it within ${STORAGE_RESTORE_DAYS} days to see its keys again) and another account's.`,
      metadata: read,
    },
    {
      example: {
        pathParams: { object_storage_id: 1 },
        query: { limit: 100, offset: 0 },
        response: { count: 1, results: [{ access_key: DEMO_ACCESS_KEY, created_at: "2026-01-21T09:00:00.000Z" }] },
      },
      case: { path: (w) => `${objectStoragePath(w)}/access_keys`, ownsObjects: true },
    },
  ),
  getAccessKey: route(
    {
      method: "GET",
      path: "/storage/v4/object_storages/:object_storage_id/access_keys/:access_key",
      pathParams: accessKeyParams,
      responses: { 200: accessKey, ...errorResponses() },
      summary: "Get an access key",
      description:
        "One access key of the object storage, never its secret. A key of another storage, or another account's, is 404. (The " +
        "example names the demo data's key; on a new account it answers 404.)",
      metadata: read,
    },
    {
      example: {
        pathParams: { object_storage_id: 1, access_key: DEMO_ACCESS_KEY },
        response: { access_key: DEMO_ACCESS_KEY, created_at: "2026-01-21T09:00:00.000Z" },
      newAccount: {
        status: 404,
        because: "The example names the demo data's access key; a new account's keys have ids generated when they are made, which no example can name.",
      },
      },
      case: { path: keyPath, ownsObjects: true },
    },
  ),
  deleteAccessKey: route(
    {
      method: "DELETE",
      path: "/storage/v4/object_storages/:object_storage_id/access_keys/:access_key",
      pathParams: accessKeyParams,
      responses: { 204: c.noBody(), ...errorResponses() },
      summary: "Delete an access key",
      description:
        "Deletes the access key for good: S3 clients that use it are refused from now on. A storage may be left with no key " +
        "(make one to reach it again). Answers 204 with no body. (The example names the demo data's key; on a new account it answers 404.)",
      metadata: write,
    },
    {
      example: {
        pathParams: { object_storage_id: 1, access_key: DEMO_ACCESS_KEY },
      newAccount: {
        status: 404,
        because: "The example names the demo data's access key; a new account's keys have ids generated when they are made, which no example can name.",
      },
      },
      case: {
        path: (w, made) => `/storage/v4/object_storages/${objectStoragePath(w).split("/").at(-1)}/access_keys/${typeof made?.access_key === "string" ? made.access_key : "CPNOSUCHKEY000000000"}`,
        ownsObjects: true,
        makes: "storage.createAccessKey",
      },
    },
  ),
} as const;
