/**
 * Edge KV stores: their lifecycle, the apps that use each (`app_count`), and the 409 of a delete of a
 * store an app reads.
 */
import { edgeKvStoresRoutes, type KvStore, type KvStoreShort, type WriteKvStoreBody } from "@cloudplane/contract";
import { and, asc, count, type Database, eq, exists, schema, sql } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { conflict, listed, notFound } from "../errors.js";
import { isoTime } from "../format.js";
import type { RequestExtension, RouteDeps } from "../types.js";
import { nameTaken } from "./shared.js";
import { served } from "../served.js";

const { edgeAppStores, edgeKvStores } = schema;

/**
 * The number of distinct apps that use a store, as `app_count` shows it, through the (account_id, store_id)
 * index. Written out: drizzle leaves a column of the query's only table unqualified, which inside the
 * subquery would name the link's (its account_id compared with itself, so no index served it).
 */
const storeAppCount = sql<number>`(select count(distinct l.app_id)::int from edge_app_stores l where l.account_id = edge_kv_stores.account_id and l.store_id = edge_kv_stores.id)`;

type StoreRow = typeof edgeKvStores.$inferSelect & { appCount: number };

/** A store's row with its app count, from a select of `storeSelection`. */
const storeSelection = { store: edgeKvStores, appCount: storeAppCount };
const flat = ({ store, appCount }: { store: typeof edgeKvStores.$inferSelect; appCount: number }): StoreRow => ({ ...store, appCount });

function toKvStore(row: StoreRow): KvStore {
  const byod = row.byodPrefix !== null && row.byodUrl !== null ? { prefix: row.byodPrefix, url: row.byodUrl } : null;
  return {
    name: row.name,
    comment: row.comment,
    app_count: row.appCount,
    size: row.size,
    byod,
    revision: byod ? null : row.revision,
    updated_at: byod ? null : isoTime(row.updated),
  };
}

function toKvStoreShort(row: StoreRow): KvStoreShort {
  return { id: row.id, name: row.name, comment: row.comment, app_count: row.appCount, size: row.size };
}

const ownStore = (accountId: number, id: number) => and(eq(edgeKvStores.accountId, accountId), eq(edgeKvStores.id, id));

async function storeRow(db: Pick<Database, "select">, accountId: number, id: number): Promise<StoreRow | undefined> {
  const [row] = await db.select(storeSelection).from(edgeKvStores).where(ownStore(accountId, id));
  return row && flat(row);
}

/** The stores' routes; exported as `edgeKvStores`, the name this file gives the stores' table. */
function edgeKvStoresRouter({ db }: RouteDeps) {
  return tsr.routerWithMiddleware(served("edge", edgeKvStoresRoutes))<RequestExtension>({
    listKvStores: async ({ query }, { request: { caller } }) => {
      const conditions = [eq(edgeKvStores.accountId, caller.accountId)];
      if (query.app_id !== undefined)
        conditions.push(
          exists(
            db
              .select({ one: sql`1` })
              .from(edgeAppStores)
              .where(and(eq(edgeAppStores.accountId, caller.accountId), eq(edgeAppStores.appId, query.app_id), eq(edgeAppStores.storeId, edgeKvStores.id))),
          ),
        );
      const where = and(...conditions);
      const [rows, [total]] = await Promise.all([
        db
          .select(storeSelection)
          .from(edgeKvStores)
          .where(where)
          .orderBy(asc(edgeKvStores.id))
          .limit(query.limit)
          .offset(query.offset),
        db.select({ total: count() }).from(edgeKvStores).where(where),
      ]);
      return { status: 200, body: { stores: rows.map((row) => toKvStoreShort(flat(row))), count: total?.total ?? 0 } };
    },

    createKvStore: async ({ body }, { request: { caller } }) => {
      const { accountId } = caller;
      const row = await db
        .transaction(async (tx) => {
          const [created] = await tx
            .insert(edgeKvStores)
            .values({
              accountId,
              name: body.name,
              comment: body.comment ?? "",
              byodPrefix: body.byod?.prefix ?? null,
              byodUrl: body.byod?.url ?? null,
            })
            .returning({ id: edgeKvStores.id });
          return (await storeRow(tx, accountId, created!.id))!;
        })
        .catch(nameTaken("a KV store", body.name));
      return { status: 200, body: { id: row.id, ...toKvStore(row) } };
    },

    getKvStore: async ({ params }, { request: { caller } }) => {
      const row = await storeRow(db, caller.accountId, params.id);
      if (!row) throw notFound(`KV store ${params.id}`);
      return { status: 200, body: toKvStore(row) };
    },

    replaceKvStore: async ({ params, body }, { request: { caller } }) => {
      const { accountId } = caller;
      const row = await db
        .transaction(async (tx) => {
          const [current] = await tx.select().from(edgeKvStores).where(ownStore(accountId, params.id)).for("update");
          if (!current) throw notFound(`KV store ${params.id}`);
          assertSameKind(current, body);
          await tx
            .update(edgeKvStores)
            .set({
              name: body.name,
              comment: body.comment ?? "",
              byodPrefix: body.byod?.prefix ?? null,
              byodUrl: body.byod?.url ?? null,
              revision: sql`${edgeKvStores.revision} + 1`,
              updated: new Date(),
            })
            .where(ownStore(accountId, current.id));
          return (await storeRow(tx, accountId, current.id))!;
        })
        .catch(nameTaken("a KV store", body.name));
      return { status: 200, body: toKvStore(row) };
    },

    deleteKvStore: async ({ params }, { request: { caller } }) => {
      const { accountId } = caller;
      await db.transaction(async (tx) => {
        // Locked for update: an app write that names the store takes a share lock on it, so the two are one order or the other.
        const [current] = await tx.select({ id: edgeKvStores.id }).from(edgeKvStores).where(ownStore(accountId, params.id)).for("update");
        if (!current) throw notFound(`KV store ${params.id}`);
        const users = await tx
          .selectDistinct({ appId: edgeAppStores.appId })
          .from(edgeAppStores)
          .where(and(eq(edgeAppStores.accountId, accountId), eq(edgeAppStores.storeId, current.id)))
          .orderBy(asc(edgeAppStores.appId));
        if (users.length)
          throw conflict(`KV store ${current.id} is used by app(s) ${listed(users.map((user) => user.appId))}; take it out of their stores first.`);
        await tx.delete(edgeKvStores).where(ownStore(accountId, current.id));
      });
      return { status: 204, body: undefined };
    },
  });
}

/** A replace keeps the store's kind: BYOD settings for a BYOD store, none for one the platform keeps (409 otherwise). */
function assertSameKind(current: typeof edgeKvStores.$inferSelect, body: WriteKvStoreBody): void {
  const isByod = current.byodUrl !== null;
  if (isByod && !body.byod) throw conflict(`KV store ${current.id} keeps its data in the account's own database: give its byod settings.`);
  if (!isByod && body.byod) throw conflict(`KV store ${current.id} is kept by the platform; a store's kind is set when it is made.`);
}

export { edgeKvStoresRouter as edgeKvStores };
