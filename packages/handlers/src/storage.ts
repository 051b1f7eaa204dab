/**
 * Object storage routes: the account's storages (listing, details, creation, change, deletion), the S3
 * buckets of a storage (listing, creation, deletion) and each bucket's CORS origins, lifecycle and policy.
 */
import { contract, primaryRoutes, storageExpiry, type Storage } from "@cloudplane/contract";
import { and, asc, count, desc, eq, schema, type Database, type SQL } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { isForeignKeyViolation, sqlState } from "./database-errors.js";
import { ApiError, conflict, invalid, notFound } from "./errors.js";
import { isoTime } from "./format.js";
import type { RequestExtension, RouteDeps } from "./types.js";

const { storages, buckets } = schema;

type StorageRow = typeof storages.$inferSelect;
type BucketRow = typeof buckets.$inferSelect;

/** The host clients reach a storage's region at. */
function storageAddress(location: string): string {
  return `${location}.storage.cloudplane.example`;
}

function toStorage(row: StorageRow): Storage {
  return {
    id: row.id,
    name: row.name,
    type: row.type as Storage["type"],
    location: row.location as Storage["location"],
    address: storageAddress(row.location),
    client_id: row.accountId,
    created_at: isoTime(row.created),
    // Deletes are immediate and nothing here suspends or provisions slowly: every storage shown is active.
    provisioning_status: "active",
    can_restore: false,
    deleted_at: null,
    expires: row.expires ? isoTime(row.expires) : null,
    server_alias: row.serverAlias,
    disable_http: false,
    custom_config_file: false,
    rewrite_rules: null,
    reseller_id: null,
  };
}

/** A bucket as the listing shows it. */
function toBucket(row: Pick<BucketRow, "name" | "lifecycleDays">) {
  return { name: row.name, lifecycle: row.lifecycleDays };
}

const STORAGE_ORDER_COLUMNS = {
  id: storages.id,
  name: storages.name,
  location: storages.location,
  type: storages.type,
  created_at: storages.created,
} as const;

/** The account's storage `id`, or 404. */
async function storageOf(db: Pick<Database, "select">, accountId: number, id: number): Promise<StorageRow> {
  const [row] = await db
    .select()
    .from(storages)
    .where(and(eq(storages.accountId, accountId), eq(storages.id, id)));
  if (!row) throw notFound(`Storage ${id}`);
  return row;
}

export function storageRoutes({ db }: RouteDeps) {
  /** The bucket `name` of the account's storage `storageId`: the bucket's account_id is its storage's (a composite foreign key), so one condition scopes both. */
  const bucketCondition = (accountId: number, storageId: number, name: string) =>
    and(eq(buckets.accountId, accountId), eq(buckets.storageId, storageId), eq(buckets.name, name));

  return tsr.routerWithMiddleware(primaryRoutes(contract.storage))<RequestExtension>({
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

    listStorages: async ({ query }, { request: { caller } }) => {
      const conditions: SQL[] = [eq(storages.accountId, caller.accountId)];
      if (query.id !== undefined) conditions.push(eq(storages.id, query.id));
      if (query.name !== undefined) conditions.push(eq(storages.name, query.name));
      if (query.location !== undefined) conditions.push(eq(storages.location, query.location));
      if (query.type !== undefined) conditions.push(eq(storages.type, query.type));
      const where = and(...conditions);
      // Every storage here is active: another status matches none.
      if (query.status !== undefined && query.status !== "active") return { status: 200, body: { count: 0, results: [] } };
      const direction = query.order_direction === "desc" ? desc : asc;
      const order = query.order_by === "id" ? [direction(storages.id)] : [direction(STORAGE_ORDER_COLUMNS[query.order_by]), asc(storages.id)];
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(storages)
          .where(where)
          .orderBy(...order)
          .limit(query.limit)
          .offset(query.offset),
        db.select({ total: count() }).from(storages).where(where),
      ]);
      return { status: 200, body: { count: total?.total ?? 0, results: rows.map(toStorage) } };
    },

    getStorage: async ({ params }, { request: { caller } }) => {
      return { status: 200, body: toStorage(await storageOf(db, caller.accountId, params.id)) };
    },

    updateStorage: async ({ params, body }, { request: { caller } }) => {
      const changes: Partial<Pick<StorageRow, "expires" | "serverAlias">> = {};
      if (body.expires !== undefined) {
        if (body.expires === null || body.expires === "") changes.expires = null;
        else {
          // The body's schema checked the value against the time it was read; this counts from now.
          const expiry = storageExpiry(body.expires, new Date());
          if ("error" in expiry) throw invalid("expires", expiry.error);
          changes.expires = expiry;
        }
      }
      if (body.server_alias !== undefined) changes.serverAlias = body.server_alias === null || body.server_alias === "" ? null : body.server_alias.toLowerCase();
      const mine = and(eq(storages.accountId, caller.accountId), eq(storages.id, params.id));
      try {
        const row = await db.transaction(async (tx) => {
          const [current] = await tx.select().from(storages).where(mine).for("update");
          if (!current) throw notFound(`Storage ${params.id}`);
          if (current.type !== "sftp") {
            const given = [changes.expires && "expires", changes.serverAlias && "server_alias"].filter(Boolean);
            if (given.length > 0)
              throw new ApiError("unprocessable", `Storage ${current.id} is an S3 storage; only SFTP storages take ${given.join(" and ")}.`);
            return current;
          }
          if (Object.keys(changes).length === 0) return current;
          const [updated] = await tx.update(storages).set(changes).where(mine).returning();
          return updated!;
        });
        return { status: 200, body: toStorage(row) };
      } catch (error) {
        if (sqlState(error) === "23505") throw conflict(`The server alias ${changes.serverAlias} is used by another storage.`);
        throw error;
      }
    },

    createStorage: async ({ body }, { request: { caller } }) => {
      try {
        const [row] = await db.insert(storages).values({ accountId: caller.accountId, name: body.name, type: body.type, location: body.location }).returning();
        return { status: 201, body: toStorage(row!) };
      } catch (error) {
        if (sqlState(error) === "23505") throw conflict(`The account already has a storage named ${body.name}.`);
        throw error;
      }
    },

    deleteStorage: async ({ params }, { request: { caller } }) => {
      // Its buckets go with it (a foreign key that cascades), in this one statement.
      const [deleted] = await db
        .delete(storages)
        .where(and(eq(storages.accountId, caller.accountId), eq(storages.id, params.id)))
        .returning({ id: storages.id });
      if (!deleted) throw notFound(`Storage ${params.id}`);
      return { status: 204, body: undefined };
    },
  });
}
