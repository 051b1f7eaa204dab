/**
 * Object storage area: the account's storages (listing, details, creation, change, deletion), their S3
 * buckets (listing, creation, deletion) and each bucket's CORS origins, lifecycle and public-read policy,
 * one module per resource; the area's router.
 */
import { initContract } from "@ts-rest/core";
import { storageBucketsRoutes } from "./buckets.js";
import { storageStoragesRoutes } from "./storages.js";

export * from "./storages.js";
export * from "./buckets.js";

const c = initContract();

export const storageContract = c.router({
  ...storageBucketsRoutes,
  ...storageStoragesRoutes,
});
