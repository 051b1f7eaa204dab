/**
 * Object storage buckets: the S3 buckets of a storage (listing, creation, deletion) and each bucket's
 * CORS origins, lifecycle and policy.
 */
import { storageBucketsRoutes } from "@cloudplane/contract";
import { and, asc, count, eq, inArray, schema } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { isForeignKeyViolation, sqlState } from "../database-errors.js";
import { ApiError, conflict, notFound } from "../errors.js";
import type { RequestExtension, RouteDeps } from "../types.js";
import { liveStorages, storageOf } from "./shared.js";
import { served } from "../served.js";

const { buckets, storages } = schema;

type BucketRow = typeof buckets.$inferSelect;

/** A bucket as the listing shows it. */
function toBucket(row: Pick<BucketRow, "name" | "lifecycleDays">) {
  return { name: row.name, lifecycle: row.lifecycleDays };
}

export function storageBuckets({ db }: RouteDeps) {
  /** The bucket `name` of the account's storage `storageId`: the bucket's account_id is its storage's (a composite foreign key), so one condition scopes both. */
  const bucketCondition = (accountId: number, storageId: number, name: string) =>
    and(
      eq(buckets.accountId, accountId),
      eq(buckets.storageId, storageId),
      eq(buckets.name, name),
      // The buckets of a deleted storage (restorable for a while) are kept, out of reach until it is restored.
      inArray(buckets.storageId, db.select({ id: storages.id }).from(storages).where(and(liveStorages(accountId), eq(storages.id, storageId)))),
    );

  return tsr.routerWithMiddleware(served("storage", storageBucketsRoutes))<RequestExtension>({
    getBucketCors: async ({ params }, { request: { caller } }) => {
      const [bucket] = await db
        .select({ allowedOrigins: buckets.allowedOrigins })
        .from(buckets)
        .where(bucketCondition(caller.accountId, params.id, params.name))
        .limit(1);
      if (!bucket) throw notFound(`Bucket ${params.name} of storage ${params.id}`);
      return { status: 200, body: { data: { allowedOrigins: bucket.allowedOrigins } } };
    },

    setBucketCors: async ({ params, body }, { request: { caller } }) => {
      const allowedOrigins = [...new Set(body.allowedOrigins)];
      const [bucket] = await db
        .update(buckets)
        .set({ allowedOrigins })
        .where(bucketCondition(caller.accountId, params.id, params.name))
        .returning({ allowedOrigins: buckets.allowedOrigins });
      if (!bucket) throw notFound(`Bucket ${params.name} of storage ${params.id}`);
      return { status: 200, body: { data: { allowedOrigins: bucket.allowedOrigins } } };
    },

    setBucketLifecycle: async ({ params, body }, { request: { caller } }) => {
      const [bucket] = await db
        .update(buckets)
        .set({ lifecycleDays: body.expiration_days })
        .where(bucketCondition(caller.accountId, params.id, params.name))
        .returning({ name: buckets.name, lifecycleDays: buckets.lifecycleDays });
      if (!bucket) throw notFound(`Bucket ${params.name} of storage ${params.id}`);
      return { status: 200, body: toBucket(bucket) };
    },

    deleteBucketLifecycle: async ({ params }, { request: { caller } }) => {
      const [bucket] = await db
        .update(buckets)
        .set({ lifecycleDays: null })
        .where(bucketCondition(caller.accountId, params.id, params.name))
        .returning({ id: buckets.id });
      if (!bucket) throw notFound(`Bucket ${params.name} of storage ${params.id}`);
      return { status: 204, body: undefined };
    },

    getBucketPolicy: async ({ params }, { request: { caller } }) => {
      const [bucket] = await db
        .select({ public: buckets.public })
        .from(buckets)
        .where(bucketCondition(caller.accountId, params.id, params.name))
        .limit(1);
      if (!bucket) throw notFound(`Bucket ${params.name} of storage ${params.id}`);
      return { status: 200, body: bucket.public };
    },

    setBucketPolicy: async ({ params }, { request: { caller } }) => {
      const [bucket] = await db
        .update(buckets)
        .set({ public: true })
        .where(bucketCondition(caller.accountId, params.id, params.name))
        .returning({ public: buckets.public });
      if (!bucket) throw notFound(`Bucket ${params.name} of storage ${params.id}`);
      return { status: 200, body: bucket.public };
    },

    deleteBucketPolicy: async ({ params }, { request: { caller } }) => {
      const [bucket] = await db
        .update(buckets)
        .set({ public: false })
        .where(bucketCondition(caller.accountId, params.id, params.name))
        .returning({ id: buckets.id });
      if (!bucket) throw notFound(`Bucket ${params.name} of storage ${params.id}`);
      return { status: 204, body: undefined };
    },

    createBucket: async ({ params }, { request: { caller } }) => {
      const { accountId } = caller;
      const storage = await storageOf(db, accountId, params.id);
      if (storage.type !== "s3") throw new ApiError("unprocessable", `Storage ${storage.id} is an SFTP storage; only S3 storages have buckets.`);
      try {
        const [bucket] = await db
          .insert(buckets)
          .values({ accountId, storageId: storage.id, name: params.name })
          .returning({ name: buckets.name, lifecycleDays: buckets.lifecycleDays });
        return { status: 201, body: toBucket(bucket!) };
      } catch (error) {
        // The storage may also have been deleted since it was read: its foreign key fails (23503), which is its 404.
        if (sqlState(error) === "23505") throw conflict(`Storage ${storage.id} already has a bucket named ${params.name}.`);
        if (isForeignKeyViolation(error)) throw notFound(`Storage ${params.id}`);
        throw error;
      }
    },

    listBuckets: async ({ params, query }, { request: { caller } }) => {
      const storage = await storageOf(db, caller.accountId, params.id);
      const mine = and(eq(buckets.accountId, caller.accountId), eq(buckets.storageId, storage.id));
      const [rows, [total]] = await Promise.all([
        db
          .select({ name: buckets.name, lifecycleDays: buckets.lifecycleDays })
          .from(buckets)
          .where(mine)
          .orderBy(asc(buckets.name))
          .limit(query.limit)
          .offset(query.offset),
        db.select({ total: count() }).from(buckets).where(mine),
      ]);
      return { status: 200, body: { count: total?.total ?? 0, results: rows.map(toBucket) } };
    },

    deleteBucket: async ({ params }, { request: { caller } }) => {
      const [deleted] = await db
        .delete(buckets)
        .where(bucketCondition(caller.accountId, params.id, params.name))
        .returning({ id: buckets.id });
      if (!deleted) throw notFound(`Bucket ${params.name} of storage ${params.id}`);
      return { status: 204, body: undefined };
    },
  });
}
