/**
 * Object storages at the current paths: the account's S3 storages (listing, details, creation with its first
 * access key, deletion into the grace period, restore), their access keys and their buckets.
 */
import {
  ACCESS_KEYS_MAX,
  type PROVISIONING_STATUSES,
  storageAccessKeysRoutes,
  storageBucketsV4Routes,
  storageObjectStoragesRoutes,
  type BucketV4,
  type S3Storage,
} from "@cloudplane/contract";
import { and, asc, count, desc, encryptSecret, eq, gte, inArray, isNull, or, schema, type SQL } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { isForeignKeyViolation, sqlState } from "../database-errors.js";
import { conflict, notFound } from "../errors.js";
import { isoTime } from "../format.js";
import { served } from "../served.js";
import type { RequestExtension, RouteDeps } from "../types.js";
import {
  graceStart,
  liveStorages,
  newAccessKeyPair,
  purgeExpiredStorages,
  restorableStorages,
  storageOf,
  type StorageListing,
  storagePages,
  storageV4Fields,
  type StorageRow,
} from "./shared.js";

const { storages, storageAccessKeys, buckets } = schema;

type BucketRow = typeof buckets.$inferSelect;

function toS3Storage(row: StorageRow): S3Storage {
  return storageV4Fields(row);
}

function toBucketV4(row: Pick<BucketRow, "name" | "storageId" | "allowedOrigins" | "lifecycleDays" | "public">): BucketV4 {
  return {
    name: row.name,
    storage_id: row.storageId,
    cors: { allowed_origins: row.allowedOrigins },
    lifecycle: { expiration_days: row.lifecycleDays ?? 0 },
    policy: { is_public: row.public },
  };
}

/** The columns the current listings sort by, by the name `order_by` gives. */
const ORDER_COLUMNS = { id: storages.id, name: storages.name, created_at: storages.created, location_name: storages.location } as const;

/**
 * A current storage listing of `type` (object or SFTP storages): its conditions and order, one filter for both.
 * Undefined when a filter matches nothing (a status this API never has).
 */
export function storageListFilter(
  accountId: number,
  type: "s3" | "sftp",
  query: {
    id?: number;
    name?: string;
    location_name?: string;
    provisioning_status?: (typeof PROVISIONING_STATUSES)[number];
    show_deleted: boolean;
    order_by: string;
  },
): StorageListing | undefined {
  const conditions: SQL[] = [eq(storages.type, type), query.show_deleted ? or(liveStorages(accountId), restorableStorages(accountId))! : liveStorages(accountId)];
  if (query.id !== undefined) conditions.push(eq(storages.id, query.id));
  if (query.name !== undefined) conditions.push(eq(storages.name, query.name));
  if (query.location_name !== undefined) conditions.push(eq(storages.location, query.location_name));
  if (query.provisioning_status === "active") conditions.push(isNull(storages.deleted));
  else if (query.provisioning_status === "deleted") conditions.push(restorableStorages(accountId));
  else if (query.provisioning_status !== undefined) return undefined;
  const filtered =
    query.id !== undefined || query.name !== undefined || query.location_name !== undefined || query.show_deleted || query.provisioning_status === "deleted";
  return {
    accountId,
    where: and(...conditions)!,
    order: { column: ORDER_COLUMNS[query.order_by.replace(/^-/, "") as keyof typeof ORDER_COLUMNS], descending: query.order_by.startsWith("-") },
    ...(filtered ? {} : { everyLive: [type] }),
  };
}

export function storageObjectStorages({ db, secretsKey }: RouteDeps) {
  const storagePage = storagePages(db);
  /** The bucket `name` of the account's object storage `storageId`, which is not deleted. */
  const bucketCondition = (accountId: number, storageId: number, name: string) =>
    and(
      eq(buckets.accountId, accountId),
      eq(buckets.storageId, storageId),
      eq(buckets.name, name),
      inArray(buckets.storageId, db.select({ id: storages.id }).from(storages).where(and(liveStorages(accountId), eq(storages.id, storageId), eq(storages.type, "s3")))),
    );
  const bucketColumns = { name: buckets.name, storageId: buckets.storageId, allowedOrigins: buckets.allowedOrigins, lifecycleDays: buckets.lifecycleDays, public: buckets.public };

  const storagesRouter = tsr.routerWithMiddleware(served("storage", storageObjectStoragesRoutes))<RequestExtension>({
    listObjectStorages: async ({ query }, { request: { caller } }) => {
      const filter = storageListFilter(caller.accountId, "s3", query);
      if (!filter) return { status: 200, body: { count: 0, results: [] } };
      const { rows, total } = await storagePage(filter, query);
      return { status: 200, body: { count: total, results: rows.map(toS3Storage) } };
    },

    createObjectStorage: async ({ body }, { request: { caller } }) => {
      // The secret is encrypted before the transaction opens, so it holds its locks only for the writes.
      const pair = newAccessKeyPair();
      const secretKeyEncrypted = await encryptSecret(secretsKey, pair.secretKey);
      try {
        const row = await db.transaction(async (tx) => {
          const [row] = await tx.insert(storages).values({ accountId: caller.accountId, name: body.name, type: "s3", location: body.location_name }).returning();
          await tx.insert(storageAccessKeys).values({ accountId: caller.accountId, storageId: row!.id, accessKey: pair.accessKey, secretKeyEncrypted });
          return row!;
        });
        return { status: 201, body: { ...toS3Storage(row), access_keys: [{ access_key: pair.accessKey, secret_key: pair.secretKey }] } };
      } catch (error) {
        if (sqlState(error) === "23505") throw conflict(`The account already has a storage named ${body.name}.`);
        throw error;
      }
    },

    getObjectStorage: async ({ params }, { request: { caller } }) => {
      return { status: 200, body: toS3Storage(await storageOf(db, caller.accountId, params.object_storage_id, "s3")) };
    },

    deleteObjectStorage: async ({ params }, { request: { caller } }) => {
      await db.transaction(async (tx) => {
        const [deleted] = await tx
          .update(storages)
          .set({ deleted: new Date() })
          .where(and(liveStorages(caller.accountId), eq(storages.id, params.object_storage_id), eq(storages.type, "s3")))
          .returning({ id: storages.id });
        if (!deleted) throw notFound(`Object storage ${params.object_storage_id}`);
        await purgeExpiredStorages(tx, caller.accountId);
      });
      return { status: 204, body: undefined };
    },

    restoreObjectStorage: async ({ params }, { request: { caller } }) => {
      const mine = and(eq(storages.accountId, caller.accountId), eq(storages.id, params.object_storage_id), eq(storages.type, "s3"));
      try {
        await db.transaction(async (tx) => {
          const [current] = await tx
            .select({ deleted: storages.deleted, name: storages.name })
            .from(storages)
            .where(and(mine, or(isNull(storages.deleted), gte(storages.deleted, graceStart()))))
            .for("update");
          if (!current) throw notFound(`Object storage ${params.object_storage_id}`);
          if (current.deleted === null) return;
          await tx.update(storages).set({ deleted: null }).where(mine);
        });
      } catch (error) {
        if (sqlState(error) === "23505") throw conflict(`The account has another storage with this storage's name since it was deleted; it cannot be restored under that name.`);
        throw error;
      }
      return { status: 204, body: undefined };
    },
  });

  const keysRouter = tsr.routerWithMiddleware(served("storage", storageAccessKeysRoutes))<RequestExtension>({
    createAccessKey: async ({ params }, { request: { caller } }) => {
      const pair = newAccessKeyPair();
      const secretKeyEncrypted = await encryptSecret(secretsKey, pair.secretKey);
      const created = await db.transaction(async (tx) => {
        // The storage is locked so that the count holds until the insert, and a delete waits for it.
        const [storage] = await tx
          .select({ id: storages.id })
          .from(storages)
          .where(and(liveStorages(caller.accountId), eq(storages.id, params.object_storage_id), eq(storages.type, "s3")))
          .for("update");
        if (!storage) throw notFound(`Object storage ${params.object_storage_id}`);
        const [held] = await tx.select({ total: count() }).from(storageAccessKeys).where(eq(storageAccessKeys.storageId, storage.id));
        if ((held?.total ?? 0) >= ACCESS_KEYS_MAX) throw conflict(`Object storage ${storage.id} has ${ACCESS_KEYS_MAX} access keys, the most it may have; delete one first.`);
        const [key] = await tx
          .insert(storageAccessKeys)
          .values({ accountId: caller.accountId, storageId: storage.id, accessKey: pair.accessKey, secretKeyEncrypted })
          .returning({ created: storageAccessKeys.created });
        return key!.created;
      });
      return { status: 201, body: { access_key: pair.accessKey, secret_key: pair.secretKey, created_at: isoTime(created) } };
    },

    listAccessKeys: async ({ params, query }, { request: { caller } }) => {
      const storage = await storageOf(db, caller.accountId, params.object_storage_id, "s3");
      const mine = and(eq(storageAccessKeys.accountId, caller.accountId), eq(storageAccessKeys.storageId, storage.id));
      const direction = query.order_by.startsWith("-") ? desc : asc;
      const column = query.order_by.endsWith("access_key") ? storageAccessKeys.accessKey : storageAccessKeys.created;
      const [rows, [total]] = await Promise.all([
        db
          .select({ accessKey: storageAccessKeys.accessKey, created: storageAccessKeys.created })
          .from(storageAccessKeys)
          .where(mine)
          .orderBy(direction(column), asc(storageAccessKeys.accessKey))
          .limit(query.limit)
          .offset(query.offset),
        db.select({ total: count() }).from(storageAccessKeys).where(mine),
      ]);
      return { status: 200, body: { count: total?.total ?? 0, results: rows.map((row) => ({ access_key: row.accessKey, created_at: isoTime(row.created) })) } };
    },

    getAccessKey: async ({ params }, { request: { caller } }) => {
      const storage = await storageOf(db, caller.accountId, params.object_storage_id, "s3");
      const [row] = await db
        .select({ accessKey: storageAccessKeys.accessKey, created: storageAccessKeys.created })
        .from(storageAccessKeys)
        .where(and(eq(storageAccessKeys.accountId, caller.accountId), eq(storageAccessKeys.storageId, storage.id), eq(storageAccessKeys.accessKey, params.access_key)));
      if (!row) throw notFound(`The access key of object storage ${storage.id}`);
      return { status: 200, body: { access_key: row.accessKey, created_at: isoTime(row.created) } };
    },

    deleteAccessKey: async ({ params }, { request: { caller } }) => {
      const [deleted] = await db
        .delete(storageAccessKeys)
        .where(
          and(
            eq(storageAccessKeys.accountId, caller.accountId),
            eq(storageAccessKeys.storageId, params.object_storage_id),
            eq(storageAccessKeys.accessKey, params.access_key),
            inArray(
              storageAccessKeys.storageId,
              db.select({ id: storages.id }).from(storages).where(and(liveStorages(caller.accountId), eq(storages.id, params.object_storage_id), eq(storages.type, "s3"))),
            ),
          ),
        )
        .returning({ id: storageAccessKeys.id });
      if (!deleted) throw notFound(`The access key of object storage ${params.object_storage_id}`);
      return { status: 204, body: undefined };
    },
  });

  const bucketsRouter = tsr.routerWithMiddleware(served("storage", storageBucketsV4Routes))<RequestExtension>({
    listObjectStorageBuckets: async ({ params, query }, { request: { caller } }) => {
      const storage = await storageOf(db, caller.accountId, params.object_storage_id, "s3");
      const mine = and(eq(buckets.accountId, caller.accountId), eq(buckets.storageId, storage.id));
      const [rows, [total]] = await Promise.all([
        db.select(bucketColumns).from(buckets).where(mine).orderBy(asc(buckets.name)).limit(query.limit).offset(query.offset),
        db.select({ total: count() }).from(buckets).where(mine),
      ]);
      return { status: 200, body: { count: total?.total ?? 0, results: rows.map(toBucketV4) } };
    },

    createObjectStorageBucket: async ({ params, body }, { request: { caller } }) => {
      try {
        const row = await db.transaction(async (tx) => {
          // Shared: buckets may be made side by side, while a delete of the storage waits for them (and they for it).
          const [storage] = await tx
            .select({ id: storages.id })
            .from(storages)
            .where(and(liveStorages(caller.accountId), eq(storages.id, params.object_storage_id), eq(storages.type, "s3")))
            .for("share");
          if (!storage) throw notFound(`Object storage ${params.object_storage_id}`);
          const [made] = await tx.insert(buckets).values({ accountId: caller.accountId, storageId: storage.id, name: body.name }).returning(bucketColumns);
          return made!;
        });
        return { status: 201, body: toBucketV4(row) };
      } catch (error) {
        if (sqlState(error) === "23505") throw conflict(`Object storage ${params.object_storage_id} already has a bucket named ${body.name}.`);
        if (isForeignKeyViolation(error)) throw notFound(`Object storage ${params.object_storage_id}`);
        throw error;
      }
    },

    getObjectStorageBucket: async ({ params }, { request: { caller } }) => {
      const [row] = await db.select(bucketColumns).from(buckets).where(bucketCondition(caller.accountId, params.object_storage_id, params.name)).limit(1);
      if (!row) throw notFound(`Bucket ${params.name} of object storage ${params.object_storage_id}`);
      return { status: 200, body: toBucketV4(row) };
    },

    updateObjectStorageBucket: async ({ params, body }, { request: { caller } }) => {
      const changes: Partial<Pick<BucketRow, "allowedOrigins" | "lifecycleDays" | "public">> = {};
      if (body.cors) changes.allowedOrigins = [...new Set(body.cors.allowed_origins)];
      if (body.lifecycle) changes.lifecycleDays = body.lifecycle.expiration_days ? body.lifecycle.expiration_days : null;
      if (body.policy) changes.public = body.policy.is_public;
      const where = bucketCondition(caller.accountId, params.object_storage_id, params.name);
      const row = await db.transaction(async (tx) => {
        const [current] = await tx.select(bucketColumns).from(buckets).where(where).for("update");
        if (!current) throw notFound(`Bucket ${params.name} of object storage ${params.object_storage_id}`);
        if (Object.keys(changes).length === 0) return current;
        const [updated] = await tx.update(buckets).set(changes).where(where).returning(bucketColumns);
        return updated!;
      });
      return { status: 200, body: toBucketV4(row) };
    },

    deleteObjectStorageBucket: async ({ params }, { request: { caller } }) => {
      const [deleted] = await db.delete(buckets).where(bucketCondition(caller.accountId, params.object_storage_id, params.name)).returning({ id: buckets.id });
      if (!deleted) throw notFound(`Bucket ${params.name} of object storage ${params.object_storage_id}`);
      return { status: 204, body: undefined };
    },
  });

  return { ...storagesRouter, ...keysRouter, ...bucketsRouter };
}
