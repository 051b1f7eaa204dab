/**
 * What the resources of the Object storage area share: their routes' access, the path parameters that
 * name a storage, and the storage the cases of both find.
 */
import { z } from "zod";
import { idParam } from "../common.js";
import type { CaseWorld } from "../route-case.js";
export { read, write } from "../roles.js";

export const storagePathParams = z.object({ id: idParam("The storage id; it must belong to the account.") });

// The cases' objects: the account's first S3 storage (the buckets' cases use the first bucket in it).
export const s3StorageOf = (w: CaseWorld) => w.first("storage.listStorages", { where: (storage) => storage.type === "s3" });
