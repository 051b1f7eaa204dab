/**
 * Broadcasts: the paged listing (with X-Total-Count), one broadcast, its viewers now, its creation,
 * changes (status moves included) and deletion.
 */
import { BROADCASTS_PAGE_SIZE, streamingBroadcastsRoutes, type BroadcastDetail, type UpdateBroadcastBody } from "@cloudplane/contract";
import { and, asc, count, desc, eq, inArray, schema, sql, type Database } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { notFound, validationFailed } from "../errors.js";
import { preparedOnce } from "../prepared.js";
import { served } from "../served.js";
import type { RequestExtension, RouteDeps } from "../types.js";

const { streams, broadcasts, broadcastStreams } = schema;

type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];
type BroadcastRow = typeof broadcasts.$inferSelect;
type BroadcastSettings = UpdateBroadcastBody["broadcast"];

function toBroadcast(row: BroadcastRow, streamIds: number[]): BroadcastDetail {
  return {
    id: row.id,
    name: row.name,
    status: row.status as BroadcastDetail["status"],
    stream_ids: streamIds,
    ad_id: row.adId,
    custom_iframe_url: row.customIframeUrl,
    pending_message: row.pendingMessage,
    player_id: row.playerId,
    poster: row.poster,
    share_url: row.shareUrl,
    show_dvr_after_finish: row.showDvrAfterFinish,
  };
}

/** Broadcasts as the API shows them, each with its streams in their order. */
async function shownBroadcasts(db: Database | Transaction, accountId: number, rows: BroadcastRow[]): Promise<BroadcastDetail[]> {
  const byBroadcast = new Map<number, number[]>(rows.map((row) => [row.id, []]));
  if (rows.length) {
    const listed = await db
      .select({ broadcastId: broadcastStreams.broadcastId, streamId: broadcastStreams.streamId })
      .from(broadcastStreams)
      .where(and(eq(broadcastStreams.accountId, accountId), inArray(broadcastStreams.broadcastId, [...byBroadcast.keys()])))
      .orderBy(asc(broadcastStreams.broadcastId), asc(broadcastStreams.position));
    for (const item of listed) byBroadcast.get(item.broadcastId)?.push(item.streamId);
  }
  return rows.map((row) => toBroadcast(row, byBroadcast.get(row.id) ?? []));
}

/**
 * Makes `streamIds` the broadcast's streams, in that order, after checking that each is the account's
 * (locked until the write commits, so that a delete of one waits and then finds the broadcast's new streams).
 */
async function setStreams(tx: Transaction, accountId: number, broadcastId: number, streamIds: number[]): Promise<void> {
  const found = await tx
    .select({ id: streams.id })
    .from(streams)
    .where(and(eq(streams.accountId, accountId), inArray(streams.id, streamIds)))
    .for("key share");
  const mine = new Set(found.map((row) => row.id));
  const errors: Record<string, string[]> = {};
  streamIds.forEach((id, index) => {
    if (!mine.has(id)) errors[`broadcast.stream_ids.${index}`] = ["Must be a stream of the account."];
  });
  if (Object.keys(errors).length) throw validationFailed(errors);
  await tx.delete(broadcastStreams).where(and(eq(broadcastStreams.accountId, accountId), eq(broadcastStreams.broadcastId, broadcastId)));
  await tx.insert(broadcastStreams).values(streamIds.map((streamId, position) => ({ accountId, broadcastId, position, streamId })));
}

/** The columns a create or change sets from `settings`; its streams are written by setStreams. */
function columnsOf(settings: BroadcastSettings): Partial<typeof broadcasts.$inferInsert> {
  const columns: Partial<typeof broadcasts.$inferInsert> = {};
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
      return { status: 200, body: await shownBroadcasts(db, caller.accountId, rows) };
    },

    getBroadcast: async ({ params }, { request: { caller } }) => {
      const [row] = await broadcastById().execute({ accountId: caller.accountId, id: params.broadcast_id });
      if (!row) throw notFound(`Broadcast ${params.broadcast_id}`);
      return { status: 200, body: (await shownBroadcasts(db, caller.accountId, [row]))[0]! };
    },

    getBroadcastSpectators: async ({ params }, { request: { caller } }) => {
      const [row] = await broadcastById().execute({ accountId: caller.accountId, id: params.broadcast_id });
      if (!row) throw notFound(`Broadcast ${params.broadcast_id}`);
      return { status: 200, body: { spectators_count: row.status === "live" ? row.spectators : 0 } };
    },

    createBroadcast: async ({ body }, { request: { caller } }) => {
      const { accountId } = caller;
      const shown = await db.transaction(async (tx) => {
        const [inserted] = await tx
          .insert(broadcasts)
          .values({ ...columnsOf(body.broadcast), accountId, name: body.broadcast.name, spectators: 0 })
          .returning();
        await setStreams(tx, accountId, inserted!.id, body.broadcast.stream_ids);
        return (await shownBroadcasts(tx, accountId, [inserted!]))[0]!;
      });
      return { status: 201, body: shown };
    },

    updateBroadcast: async ({ params, body }, { request: { caller } }) => {
      const { accountId } = caller;
      const shown = await db.transaction(async (tx) => {
        const mine = and(eq(broadcasts.accountId, accountId), eq(broadcasts.id, params.broadcast_id));
        const [current] = await tx.select({ id: broadcasts.id }).from(broadcasts).where(mine).for("update");
        if (!current) throw notFound(`Broadcast ${params.broadcast_id}`);
        if (body.broadcast.stream_ids !== undefined) await setStreams(tx, accountId, current.id, body.broadcast.stream_ids);
        const columns = columnsOf(body.broadcast);
        const [row] = Object.keys(columns).length ? await tx.update(broadcasts).set(columns).where(mine).returning() : await tx.select().from(broadcasts).where(mine);
        return (await shownBroadcasts(tx, accountId, [row!]))[0]!;
      });
      return { status: 200, body: shown };
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
