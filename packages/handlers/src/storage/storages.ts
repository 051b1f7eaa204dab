/**
 * Object storage storages: the account's storages (listing, details, creation, change, deletion).
 */
import { STORAGE_TYPES, storageExpiry, storageStoragesRoutes, type Storage } from "@cloudplane/contract";
import { and, eq, isNull, or, schema, type SQL } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { sqlState } from "../database-errors.js";
import { ApiError, conflict, invalid, notFound } from "../errors.js";
import { isoTime } from "../format.js";
import type { RequestExtension, RouteDeps } from "../types.js";
import { liveStorages, restorableStorages, storageOf, storagePages, type StorageRow } from "./shared.js";
import { served } from "../served.js";

const { storages } = schema;

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
    // Nothing here suspends or provisions slowly: a storage is active, or deleted (and restorable) within its grace period.
    provisioning_status: row.deleted ? "deleted" : "active",
    can_restore: row.deleted !== null,
    deleted_at: row.deleted ? isoTime(row.deleted) : null,
    expires: row.expires ? isoTime(row.expires) : null,
    server_alias: row.serverAlias,
    disable_http: row.httpDisabled,
    custom_config_file: row.customConfigFile,
    rewrite_rules: null,
    reseller_id: null,
  };
}

const STORAGE_ORDER_COLUMNS = {
  id: storages.id,
  name: storages.name,
  location: storages.location,
  type: storages.type,
  created_at: storages.created,
} as const;

export function storageStorages({ db }: RouteDeps) {
  const storagePage = storagePages(db);
  return tsr.routerWithMiddleware(served("storage", storageStoragesRoutes))<RequestExtension>({
    listStorages: async ({ query }, { request: { caller } }) => {
      // Deleted storages (deleted at the current path, within their grace period) only with show_deleted.
      const conditions: SQL[] = [query.show_deleted ? or(liveStorages(caller.accountId), restorableStorages(caller.accountId))! : liveStorages(caller.accountId)];
      if (query.id !== undefined) conditions.push(eq(storages.id, query.id));
      if (query.name !== undefined) conditions.push(eq(storages.name, query.name));
      if (query.location !== undefined) conditions.push(eq(storages.location, query.location));
      if (query.type !== undefined) conditions.push(eq(storages.type, query.type));
      if (query.status === "active") conditions.push(isNull(storages.deleted));
      else if (query.status === "deleted") conditions.push(restorableStorages(caller.accountId));
      // Nothing here is suspended or pending: those statuses match none.
      else if (query.status !== undefined) return { status: 200, body: { count: 0, results: [] } };
      const filtered = query.id !== undefined || query.name !== undefined || query.location !== undefined || query.show_deleted || query.status === "deleted";
      const { rows, total } = await storagePage(
        {
          accountId: caller.accountId,
          where: and(...conditions)!,
          order: { column: STORAGE_ORDER_COLUMNS[query.order_by], descending: query.order_direction === "desc" },
          ...(filtered ? {} : { everyLive: query.type === undefined ? STORAGE_TYPES : [query.type] }),
        },
        query,
      );
      return { status: 200, body: { count: total, results: rows.map(toStorage) } };
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
      const mine = and(liveStorages(caller.accountId), eq(storages.id, params.id));
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
      // The older path deletes at once and for good (the current one keeps the storage restorable for a while). Its
      // buckets, keys, SSH key links and usage go with it (foreign keys that cascade), in this one statement.
      const [deleted] = await db
        .delete(storages)
        .where(and(liveStorages(caller.accountId), eq(storages.id, params.id)))
        .returning({ id: storages.id });
      if (!deleted) throw notFound(`Storage ${params.id}`);
      return { status: 204, body: undefined };
    },
  });
}
