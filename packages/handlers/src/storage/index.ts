/**
 * Object storage routes: the account's storages at the current paths (object storages with their access
 * keys and buckets, SFTP storages, SSH keys, locations, statistics) and the older `/storage/provisioning`
 * routes over the same storages and buckets, one module per resource.
 */
import type { Contract, PrimaryRoutes } from "@cloudplane/contract";
import type { RouteDeps } from "../types.js";
import { storageBuckets } from "./buckets.js";
import { storageObjectStorages } from "./object-storages.js";
import { storageSftpStorages } from "./sftp-storages.js";
import { storageStatistics } from "./statistics.js";
import { storageStorages } from "./storages.js";

export function storageRoutes(deps: RouteDeps) {
  return {
    ...storageObjectStorages(deps),
    ...storageSftpStorages(deps),
    ...storageStatistics(deps),
    ...storageBuckets(deps),
    ...storageStorages(deps),
  } satisfies Record<keyof PrimaryRoutes<Contract["storage"]>, unknown>;
}
