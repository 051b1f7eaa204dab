/**
 * Broadcasts: the paged listing (with X-Total-Count), one broadcast, its viewers now, its creation,
 * changes (status moves included) and deletion.
 */
import { BROADCASTS_PAGE_SIZE, streamingBroadcastsRoutes, type BroadcastDetail, type UpdateBroadcastBody } from "@cloudplane/contract";
import { and, count, desc, eq, schema, sql, type Database } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { invalid, notFound } from "../errors.js";
import { preparedOnce } from "../prepared.js";
import { served } from "../served.js";
import type { RequestExtension, RouteDeps } from "../types.js";

const { streams, broadcasts } = schema;

type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];
type BroadcastRow = typeof broadcasts.$inferSelect;
type BroadcastSettings = UpdateBroadcastBody["broadcast"];

function toBroadcast(row: BroadcastRow): BroadcastDetail {
  return {
    id: row.id,
    name: row.name,
    status: row.status as BroadcastDetail["status"],
    stream_ids: [row.streamId],
    ad_id: row.adId,
    custom_iframe_url: row.customIframeUrl,
    pending_message: row.pendingMessage,
    player_id: row.playerId,
    poster: row.poster,
    share_url: row.shareUrl,
    show_dvr_after_finish: row.showDvrAfterFinish,
  };
}

/**
 * The columns a create or change sets from `settings`, after checking that the stream named is the
 * account's (locked until the write commits, so that a delete of it waits and then takes the broadcast along).
 */
async function columnsOf(tx: Transaction, accountId: number, settings: BroadcastSettings): Promise<Partial<typeof broadcasts.$inferInsert>> {
  const columns: Partial<typeof broadcasts.$inferInsert> = {};
  const streamId = settings.stream_ids?.[0];
  if (streamId !== undefined) {
    const [stream] = await tx
      .select({ id: streams.id })
      .from(streams)
      .where(and(eq(streams.accountId, accountId), eq(streams.id, streamId)))
      .for("key share");
    if (!stream) throw invalid("broadcast.stream_ids.0", "Must be a stream of the account.");
    columns.streamId = streamId;
  }
  if (settings.name !== undefined) columns.name = settings.name;
  if (settings.status !== undefined) {
    columns.status = settings.status;
    // Viewers are counted only while live.
    if (settings.status !== "live") columns.spectators = 0;
  }
  if (settings.ad_id !== undefined) columns.adId = settings.ad_id;
  if (settings.custom_iframe_url !== undefined) columns.customIframeUrl = settings.custom_iframe_url;
  if (settings.pending_message !== undefined) columns.pendingMessage = settings.pending_message;
  if (settings.player_id !== undefined) columns.playerId = settings.player_id;
  if (settings.poster !== undefined) columns.poster = settings.poster;
  if (settings.share_url !== undefined) columns.shareUrl = settings.share_url;
  if (settings.show_dvr_after_finish !== undefined) columns.showDvrAfterFinish = settings.show_dvr_after_finish;
  return columns;
}

export function streamingBroadcasts({ db }: RouteDeps) {
  const broadcastById = preparedOnce(() =>
    db
      .select()
      .from(broadcasts)
      .where(and(eq(broadcasts.accountId, sql.placeholder("accountId")), eq(broadcasts.id, sql.placeholder("id"))))
      .limit(1)
      .prepare("broadcast_by_id"),
  );

  return tsr.routerWithMiddleware(served("streaming", streamingBroadcastsRoutes))<RequestExtension>({
    listBroadcasts: async ({ query }, { request: { caller }, responseHeaders }) => {
      const mine = eq(broadcasts.accountId, caller.accountId);
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(broadcasts)
          .where(mine)
          .orderBy(desc(broadcasts.id))
          .limit(BROADCASTS_PAGE_SIZE)
          .offset((query.page - 1) * BROADCASTS_PAGE_SIZE),
        db.select({ total: count() }).from(broadcasts).where(mine),
      ]);
      responseHeaders.set("x-total-count", String(total?.total ?? 0));
      return { status: 200, body: rows.map(toBroadcast) };
    },

    getBroadcast: async ({ params }, { request: { caller } }) => {
      const [row] = await broadcastById().execute({ accountId: caller.accountId, id: params.broadcast_id });
      if (!row) throw notFound(`Broadcast ${params.broadcast_id}`);
      return { status: 200, body: toBroadcast(row) };
    },

    getBroadcastSpectators: async ({ params }, { request: { caller } }) => {
      const [row] = await broadcastById().execute({ accountId: caller.accountId, id: params.broadcast_id });
      if (!row) throw notFound(`Broadcast ${params.broadcast_id}`);
      return { status: 200, body: { spectators_count: row.status === "live" ? row.spectators : 0 } };
    },

    createBroadcast: async ({ body }, { request: { caller } }) => {
      const { accountId } = caller;
      const row = await db.transaction(async (tx) => {
        const columns = await columnsOf(tx, accountId, body.broadcast);
        const [inserted] = await tx
          .insert(broadcasts)
          .values({ ...columns, accountId, name: body.broadcast.name, streamId: columns.streamId!, spectators: 0 })
          .returning();
        return inserted!;
      });
      return { status: 201, body: toBroadcast(row) };
    },

    updateBroadcast: async ({ params, body }, { request: { caller } }) => {
      const { accountId } = caller;
      const row = await db.transaction(async (tx) => {
        const mine = and(eq(broadcasts.accountId, accountId), eq(broadcasts.id, params.broadcast_id));
        const [current] = await tx.select({ id: broadcasts.id }).from(broadcasts).where(mine).for("update");
        if (!current) throw notFound(`Broadcast ${params.broadcast_id}`);
        const columns = await columnsOf(tx, accountId, body.broadcast);
        if (Object.keys(columns).length === 0) return (await tx.select().from(broadcasts).where(mine))[0]!;
        const [updated] = await tx.update(broadcasts).set(columns).where(mine).returning();
        return updated!;
      });
      return { status: 200, body: toBroadcast(row) };
    },

    deleteBroadcast: async ({ params }, { request: { caller } }) => {
      const [deleted] = await db
        .delete(broadcasts)
        .where(and(eq(broadcasts.accountId, caller.accountId), eq(broadcasts.id, params.broadcast_id)))
        .returning({ id: broadcasts.id });
      if (!deleted) throw notFound(`Broadcast ${params.broadcast_id}`);
      return { status: 204, body: undefined };
    },
  });
}
