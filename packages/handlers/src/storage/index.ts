/**
 * Object storage routes: the account's storages and the S3 buckets of a storage with each bucket's CORS
 * origins, lifecycle and policy, one module per resource.
 */
import type { Contract, PrimaryRoutes } from "@cloudplane/contract";
import type { RouteDeps } from "../types.js";
import { storageBuckets } from "./buckets.js";
import { storageStorages } from "./storages.js";

export function storageRoutes(deps: RouteDeps) {
  return { ...storageBuckets(deps), ...storageStorages(deps) } satisfies Record<keyof PrimaryRoutes<Contract["storage"]>, unknown>;
}
