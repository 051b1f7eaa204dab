/**
 * Edge KV stores: the account's key-value stores its apps read (an app names each in its `stores`), kept
 * by the platform or, with BYOD settings, in a database of the account's own; their schemas and routes
 * (at /edge/v1/kv, and at the platform's /fastedge/v1/kv as aliases: index.ts).
 */
import type { ClientMetadata } from "../client-names.js";
import { initContract } from "@ts-rest/core";
import { z } from "zod";
import { errorResponses, idParam, integer, integerParam, isoTimestamp, strictObject, withBody } from "../common.js";
import { route } from "../route.js";
import { missingId, uniqueName, type CaseWorld } from "../route-case.js";
import { paging } from "./shared.js";

const c = initContract();

const STORE_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9_-]{0,126}[A-Za-z0-9])?$/;

const storeName = z
  .string()
  .regex(STORE_NAME, "1 to 128 letters, digits, _ and -, starting and ending with a letter or digit.")
  .describe("1 to 128 letters, digits, _ and -, starting and ending with a letter or digit; unique in the account (409).");

const byodSchema = z
  .object({
    prefix: z.string().describe("The prefix of the keys in the external store, which keeps this store's data apart."),
    url: z.string().describe("The URL of the external store (Redis, PostgreSQL, …)."),
  })
  .strict()
  .describe("BYOD (bring your own data): the store's data lies in a database of the account's own.");

/** A store's URL as written: a URL with a scheme and a host, and no password in it. */
const byodUrl = z
  .string()
  .max(2048, "At most 2048 characters.")
  .superRefine((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: "Must be a URL such as redis://cache.example.com:6379/0." });
      return;
    }
    if (!url.hostname) ctx.addIssue({ code: z.ZodIssueCode.custom, message: "Must name a host, as in redis://cache.example.com:6379/0." });
    else if (url.password)
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        message: "Must carry no password: the store's settings are shown to every reader of the account, so credentials have no place in them.",
      });
  });

const byodWrite = strictObject({
  prefix: z.string().min(1, "Must not be empty.").max(256, "At most 256 characters.").describe("The prefix of this store's keys in the external store, 1 to 256 characters."),
  url: byodUrl.describe(
    "The external store's URL, e.g. redis://cache.example.com:6379/0. A URL with a password is refused (400): the settings are shown to every reader of the account.",
  ),
}).describe("BYOD settings: the store's data lies in a database of the account's own, under the prefix.");

const kvStoreFields = {
  name: storeName,
  comment: z.string().describe("The store's description; empty when none was given."),
  app_count: integer().describe("The number of the account's apps that use the store."),
  size: integer().describe("The bytes the store holds; 0 for a BYOD store, whose data lies elsewhere."),
};

const kvStoreSchema = z
  .object({
    ...kvStoreFields,
    byod: byodSchema.nullable().describe("The BYOD settings; null for a store the platform keeps."),
    revision: integer().nullable().describe("The store's revision: 1 when made, one more at each replace; null for a BYOD store."),
    updated_at: isoTimestamp.nullable().describe("When the store's last revision was made; null for a BYOD store."),
  })
  .strict()
  .describe("An edge KV store: the data the account's apps read by key.");
export interface KvStoreSchema extends KvStoreSchemaType {}
type KvStoreSchemaType = typeof kvStoreSchema;
export const kvStore: KvStoreSchema = kvStoreSchema;

export type KvStore = z.infer<typeof kvStore>;

const createdKvStoreSchema = z
  .object({ id: integer().describe("The new store's id."), ...kvStoreSchema.shape })
  .strict()
  .describe("The store made, with its id.");
export interface CreatedKvStoreSchema extends CreatedKvStoreSchemaType {}
type CreatedKvStoreSchemaType = typeof createdKvStoreSchema;
export const createdKvStore: CreatedKvStoreSchema = createdKvStoreSchema;

const kvStoreShortSchema = z
  .object({ id: integer(), ...kvStoreFields })
  .strict()
  .describe("An edge KV store as the list shows it.");
export interface KvStoreShortSchema extends KvStoreShortSchemaType {}
type KvStoreShortSchemaType = typeof kvStoreShortSchema;
export const kvStoreShort: KvStoreShortSchema = kvStoreShortSchema;

export type KvStoreShort = z.infer<typeof kvStoreShort>;

const kvStoreListSchema = z
  .object({
    stores: z.array(kvStoreShort).describe("The stores of this page."),
    count: integer().describe("The number of stores that match, before limit and offset."),
  })
  .strict()
  .describe("A page of KV stores, and the number of all that match.");
export interface KvStoreListSchema extends KvStoreListSchemaType {}
type KvStoreListSchemaType = typeof kvStoreListSchema;
export const kvStoreList: KvStoreListSchema = kvStoreListSchema;

const writeKvStoreBodySchema = strictObject(
  {
    name: storeName,
    comment: z.string().max(1024, "At most 1024 characters.").optional().describe("The store's description, at most 1024 characters. Default: empty."),
    byod: byodWrite.optional(),
  },
  { readOnly: ["id", "app_count", "size", "revision", "updated_at"] },
).describe("The store's settings: its name, and optionally a comment and BYOD settings.");
export interface WriteKvStoreBodySchema extends WriteKvStoreBodySchemaType {}
type WriteKvStoreBodySchemaType = typeof writeKvStoreBodySchema;
export const writeKvStoreBody: WriteKvStoreBodySchema = writeKvStoreBodySchema;

export type WriteKvStoreBody = z.input<typeof writeKvStoreBody>;

const listKvStoresQuerySchema = z.object({
  app_id: integerParam({ min: 1, description: "Only the stores this app of the account uses (none for an app of another account, as for one that does not exist)." }).optional(),
  ...paging("stores", 25),
});
export interface ListKvStoresQuerySchema extends ListKvStoresQuerySchemaType {}
type ListKvStoresQuerySchemaType = typeof listKvStoresQuerySchema;
export const listKvStoresQuery: ListKvStoresQuerySchema = listKvStoresQuerySchema;

const storeId = z.object({ id: idParam("The KV store id; another account's is 404.") });

// The examples' object: the demo data's store of account 1 that the app feature-flags reads.
const exampleStore: KvStore & { id: number } = {
  id: 3,
  name: "feature-flags",
  comment: "",
  app_count: 1,
  size: 2048,
  byod: null,
  revision: 3,
  updated_at: "2026-09-12T09:00:00.000Z",
};

// The cases' object: the first store of the account.
const storeOf = (w: CaseWorld) => w.first("edge.listKvStores");

export const edgeKvStoresRoutes = {
  listKvStores: route({
    method: "GET",
    path: "/edge/v1/kv",
    query: listKvStoresQuery,
    responses: { 200: kvStoreList, ...errorResponses() },
    summary: "List KV stores",
    description:
      "The account's KV stores by id, those one app uses with `app_id`, paged by `limit` (default 25, at most 1000) and " +
      "`offset`; `count` is the number of all that match.",
    metadata: { access: "read", client: { resource: "kvStores" } } satisfies ClientMetadata,
  }, {
    example: {
      query: { limit: 25, offset: 0 },
      response: {
        stores: [
          { id: 1, name: "product-catalog", comment: "Prices and stock, refreshed hourly.", app_count: 2, size: 524288 },
          { id: 3, name: exampleStore.name, comment: "", app_count: 1, size: 2048 },
          { id: 5, name: "sessions", comment: "In Acme's own Redis.", app_count: 1, size: 0 },
        ],
        count: 3,
      },
    },
    case: { path: () => "/edge/v1/kv?limit=10", ownsObjects: false },
  }),
  createKvStore: route({
    method: "POST",
    path: "/edge/v1/kv",
    body: writeKvStoreBody,
    responses: { 200: createdKvStore, ...errorResponses([409, ...withBody]) },
    summary: "Create a KV store",
    description:
      "Makes a store, empty (size 0) at revision 1, kept by the platform; with `byod`, its data lies in the account's own " +
      "database under the prefix (its revision and updated_at are then null). A name the account already has is 409. " +
      "Answers 200 with the store, as the platform does.",
    metadata: { access: "write", client: { resource: "kvStores" } } satisfies ClientMetadata,
  }, {
    example: {
      body: { name: "geo-rules", comment: "Country rules for the redirects." },
      response: { id: 6, name: "geo-rules", comment: "Country rules for the redirects.", app_count: 0, size: 0, byod: null, revision: 1, updated_at: "2026-11-20T10:00:00.000Z" },
    },
    case: { path: () => "/edge/v1/kv", ownsObjects: false, body: () => ({ name: uniqueName("route-case") }) },
  }),
  getKvStore: route({
    method: "GET",
    path: "/edge/v1/kv/:id",
    pathParams: storeId,
    responses: { 200: kvStore, ...errorResponses() },
    summary: "Get a KV store",
    description: "One store of the account with its settings, size, revision and the number of apps that use it.",
    metadata: { access: "read", client: { resource: "kvStores" } } satisfies ClientMetadata,
  }, {
    example: { pathParams: { id: exampleStore.id }, response: (({ id: _id, ...store }) => store)(exampleStore) },
    case: { path: (w) => `/edge/v1/kv/${storeOf(w).id}`, ownsObjects: true },
  }),
  replaceKvStore: route({
    method: "PUT",
    path: "/edge/v1/kv/:id",
    pathParams: storeId,
    body: writeKvStoreBody,
    responses: { 200: kvStore, ...errorResponses([409, ...withBody]) },
    summary: "Replace a KV store",
    description:
      "Sets the store's name, comment (empty when left out) and BYOD settings (none when left out), and makes its next " +
      "revision. A store's kind stays as it was made: BYOD settings on a store the platform keeps, or none on a BYOD " +
      "store, are 409. A name another store of the account has is 409. The apps that use it keep using it.",
    metadata: { access: "write", client: { resource: "kvStores" } } satisfies ClientMetadata,
  }, {
    example: {
      pathParams: { id: exampleStore.id },
      body: { name: "feature-flags", comment: "Flags of the web shop." },
      response: { ...(({ id: _id, ...store }) => store)(exampleStore), comment: "Flags of the web shop.", revision: 4, updated_at: "2026-11-20T10:00:00.000Z" },
    },
    case: { path: (w) => `/edge/v1/kv/${storeOf(w).id}`, ownsObjects: true, body: (w) => ({ name: storeOf(w).name, comment: uniqueName("Changed by the route cases") }) },
  }),
  deleteKvStore: route({
    method: "DELETE",
    path: "/edge/v1/kv/:id",
    pathParams: storeId,
    responses: { 204: c.noBody(), ...errorResponses([409]) },
    summary: "Delete a KV store",
    description:
      "Deletes the store and its data. A store an app uses is not deleted: 409 naming the apps; take it out of their " +
      "`stores` first (an app that reads a store would otherwise fail at its next call). Answers 204 with no body.",
    metadata: { access: "write", client: { resource: "kvStores" } } satisfies ClientMetadata,
  }, {
    example: { pathParams: { id: 6 } },
    case: {
      path: (w, made) => `/edge/v1/kv/${made?.id ?? missingId(w.account)}`,
      ownsObjects: true,
      makes: "edge.createKvStore",
    },
  }),
} as const;
