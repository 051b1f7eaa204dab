/**
 * Route cases of the Object storage area: one valid request per route on the demo data (see ../route-cases.ts).
 */
import type { DemoFixture, DemoAccountId } from "../demo-fixture.js";
import { type AreaRouteCases, first, type MadeObject, uniqueName } from "./case.js";

/**
 * A bucket name no earlier run used, of digits after its prefix: the suites compare the 404 of another
 * account's bucket with that of a bucket that does not exist with every number written N.
 */
function uniqueBucketName(): string {
  return `route-case-${Date.now()}${String(Math.floor(Math.random() * 1e6)).padStart(6, "0")}`;
}

export function storageRouteCases(fixture: DemoFixture) {
  const bucket = (account: DemoAccountId) => first(fixture.buckets, `bucket of account ${account}`, (candidate) => candidate.accountId === account);
  const s3Storage = (account: DemoAccountId) =>
    first(fixture.storages, `S3 storage of account ${account}`, (candidate) => candidate.accountId === account && candidate.type === "s3");
  const bucketPath = (account: DemoAccountId) => `/storage/provisioning/v1/storage/${bucket(account).storageId}/s3/bucket/${encodeURIComponent(bucket(account).name)}`;
  const corsPath = (account: DemoAccountId) => `${bucketPath(account)}/cors`;
  /** The bucket made by createBucket in the account's first S3 storage; without one, a name no bucket has. */
  const madeBucketPath = (account: DemoAccountId, made?: MadeObject) =>
    `/storage/provisioning/v1/storage/${s3Storage(account).id}/s3/bucket/${typeof made?.name === "string" ? made.name : `route-case-${2_147_483_000 + account}`}`;
  return {
    "storage.getBucketCors": { path: corsPath, ownsObjects: true },
    "storage.setBucketCors": {
      path: corsPath,
      ownsObjects: true,
      // The bucket's own origins: the case may run any number of times without changing the demo data.
      body: (account) => ({ allowedOrigins: bucket(account).allowedOrigins }),
    },
    // Setting a lifecycle or a policy works on a fresh bucket, so that the demo buckets keep theirs; removing them
    // from a demo bucket (which has none) changes nothing.
    "storage.setBucketLifecycle": {
      path: (account, made) => `${madeBucketPath(account, made)}/lifecycle`,
      ownsObjects: true,
      makes: "storage.createBucket",
      body: () => ({ expiration_days: 30 }),
    },
    "storage.deleteBucketLifecycle": { path: (account) => `${bucketPath(account)}/lifecycle`, ownsObjects: true },
    "storage.getBucketPolicy": { path: (account) => `${bucketPath(account)}/policy`, ownsObjects: true },
    "storage.setBucketPolicy": {
      path: (account, made) => `${madeBucketPath(account, made)}/policy`,
      ownsObjects: true,
      makes: "storage.createBucket",
      body: () => ({}),
    },
    "storage.deleteBucketPolicy": { path: (account) => `${bucketPath(account)}/policy`, ownsObjects: true },
    "storage.createBucket": {
      path: (account) => `/storage/provisioning/v1/storage/${s3Storage(account).id}/s3/bucket/${uniqueBucketName()}`,
      ownsObjects: true,
      body: () => ({}),
    },
    "storage.listBuckets": { path: (account) => `/storage/provisioning/v2/storage/${s3Storage(account).id}/s3/buckets`, ownsObjects: true },
    "storage.deleteBucket": {
      path: madeBucketPath,
      ownsObjects: true,
      makes: "storage.createBucket",
    },
    "storage.listStorages": { path: () => "/storage/provisioning/v3/storage", ownsObjects: false },
    "storage.getStorage": { path: (account) => `/storage/provisioning/v1/storage/${s3Storage(account).id}`, ownsObjects: true },
    "storage.updateStorage": {
      // The demo storages are S3 ones, which take removing the expiry and alias (changing nothing).
      path: (account) => `/storage/provisioning/v2/storage/${s3Storage(account).id}`,
      ownsObjects: true,
      body: () => ({ expires: null, server_alias: "" }),
    },
    "storage.createStorage": {
      path: () => "/storage/provisioning/v2/storage",
      ownsObjects: false,
      body: () => ({ name: uniqueName("route-case-storage"), type: "s3", location: "s-ed1" }),
    },
    "storage.deleteStorage": {
      path: (account, made) => `/storage/provisioning/v1/storage/${made?.id ?? 2_147_483_000 + account}`,
      ownsObjects: true,
      makes: "storage.createStorage",
    },
  } satisfies AreaRouteCases<"storage">;
}
