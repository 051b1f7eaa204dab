/**
 * Object storage area: the account's storages at the platform's current paths (`/storage/v4`: object
 * storages with their access keys and buckets, SFTP storages, SSH keys, locations) and its statistics
 * (`/storage/stats`), the primary routes; and the older `/storage/provisioning` routes, which serve the
 * same storages and buckets in their own shapes. One module per resource; the area's router.
 */
import { initContract } from "@ts-rest/core";
import { storageAccessKeysRoutes } from "./access-keys.js";
import { storageBucketsRoutes, storageBucketsV4Routes } from "./buckets.js";
import { storageLocationsRoutes } from "./locations.js";
import { storageObjectStoragesRoutes } from "./object-storages.js";
import { storageSftpStoragesRoutes } from "./sftp-storages.js";
import { storageSshKeysRoutes } from "./ssh-keys.js";
import { storageStatisticsRoutes } from "./statistics.js";
import { storageStoragesRoutes } from "./storages.js";

export * from "./storages.js";
export * from "./buckets.js";
export * from "./locations.js";
export * from "./object-storages.js";
export * from "./access-keys.js";
export * from "./sftp-storages.js";
export * from "./ssh-keys.js";
export * from "./statistics.js";

const c = initContract();

export const storageContract = c.router({
  ...storageObjectStoragesRoutes,
  ...storageAccessKeysRoutes,
  ...storageBucketsV4Routes,
  ...storageSftpStoragesRoutes,
  ...storageSshKeysRoutes,
  ...storageLocationsRoutes,
  ...storageStatisticsRoutes,
  ...storageBucketsRoutes,
  ...storageStoragesRoutes,
});
