/**
 * Streaming playlists: the account's playlists, a page at a time, one playlist and its videos in order,
 * creation, changes (a new `video_ids` replaces the list) and deletion.
 */
import { PLAYLISTS_PAGE_SIZE, streamingPlaylistsRoutes, type Playlist, type UpdatePlaylistBody } from "@cloudplane/contract";
import { and, asc, count, eq, inArray, schema, type Database } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { addFieldError, fieldErrors, listed, notFound, problemCount, validationFailed } from "../errors.js";
import { isoTime } from "../format.js";
import { served } from "../served.js";
import type { RequestExtension, RouteDeps } from "../types.js";
import { shownVideos } from "./videos.js";

const { videoPlaylists, playlistVideos, videoPlayers, videos, users } = schema;

type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];
type Reader = Database | Transaction;
type PlaylistRow = typeof videoPlaylists.$inferSelect;

const PLAYBACK_ORIGIN = "https://video.cloudplane.example";

function toPlaylist(row: PlaylistRow, videoIds: number[]): Playlist {
  const base = `${PLAYBACK_ORIGIN}/playlists/${row.id}`;
  return {
    id: row.id,
    name: row.name,
    client_id: row.accountId,
    client_user_id: row.clientUserId,
    active: row.active,
    playlist_type: row.playlistType as Playlist["playlist_type"],
    start_time: row.startTime ? isoTime(row.startTime) : null,
    loop: row.loop,
    countdown: row.countdown,
    player_id: row.playerId,
    video_ids: videoIds,
    ad_id: null,
    hls_url: `${base}/master.m3u8`,
    hls_cmaf_url: `${base}/master-cmaf.m3u8`,
    iframe_url: `${base}/player.html`,
  };
}

/** The video ids of the account's playlists `ids`, each list in playing order. */
async function videoIdsOf(db: Reader, accountId: number, ids: number[]): Promise<Map<number, number[]>> {
  const lists = new Map<number, number[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return lists;
  const rows = await db
    .select({ playlistId: playlistVideos.playlistId, videoId: playlistVideos.videoId })
    .from(playlistVideos)
    .where(and(eq(playlistVideos.accountId, accountId), inArray(playlistVideos.playlistId, ids)))
    .orderBy(asc(playlistVideos.playlistId), asc(playlistVideos.position));
  for (const row of rows) lists.get(row.playlistId)?.push(row.videoId);
  return lists;
}

type Settings = UpdatePlaylistBody;

/**
 * The columns a create or change sets from `body`, given the playlist as it was (none for a new one),
 * after the checks across fields and objects: a live playlist has a start, the user, the player and the
 * videos are the account's, no video twice. Every problem is reported at once.
 */
async function settingsOf(tx: Transaction, accountId: number, body: Settings, current: PlaylistRow | undefined) {
  const errors = fieldErrors();
  const type = body.playlist_type ?? current?.playlistType ?? "vod";
  // Switching to vod drops the start; otherwise a start not given stays as it was.
  const start = body.start_time !== undefined ? body.start_time : type === "vod" ? null : (current?.startTime?.toISOString() ?? null);
  if (type === "live" && start === null) addFieldError(errors, "start_time", "Required for a live playlist.");
  if (type === "vod" && body.start_time != null) addFieldError(errors, "start_time", "Only a live playlist takes a start_time.");
  if (body.client_user_id !== undefined) {
    const [user] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.accountId, accountId), eq(users.id, body.client_user_id), eq(users.deleted, false)));
    if (!user) addFieldError(errors, "client_user_id", "Must be a user of the account.");
  }
  if (body.player_id != null) {
    const [player] = await tx
      .select({ id: videoPlayers.id })
      .from(videoPlayers)
      .where(and(eq(videoPlayers.accountId, accountId), eq(videoPlayers.id, body.player_id)))
      // Until the write commits: a delete of the player waits, then sees the playlist.
      .for("key share");
    if (!player) addFieldError(errors, "player_id", "Must be a player of the account.");
  }
  if (body.video_ids !== undefined && body.video_ids.length > 0) {
    if (new Set(body.video_ids).size !== body.video_ids.length) addFieldError(errors, "video_ids", "Must name each video once.");
    const found = await tx
      .select({ id: videos.id })
      .from(videos)
      .where(and(eq(videos.accountId, accountId), inArray(videos.id, body.video_ids)))
      .for("key share");
    const have = new Set(found.map((row) => row.id));
    const missing = [...new Set(body.video_ids)].filter((id) => !have.has(id));
    if (missing.length > 0) addFieldError(errors, "video_ids", `Must be videos of the account; ${listed(missing)} ${missing.length === 1 ? "is" : "are"} not.`);
  }
  if (problemCount(errors) > 0) throw validationFailed(errors);

  const columns: Partial<typeof videoPlaylists.$inferInsert> = { playlistType: type, startTime: start === null ? null : new Date(start) };
  if (body.name !== undefined) columns.name = body.name;
  if (body.client_user_id !== undefined) columns.clientUserId = body.client_user_id;
  if (body.active !== undefined) columns.active = body.active;
  if (body.loop !== undefined) columns.loop = body.loop;
  if (body.countdown !== undefined) columns.countdown = body.countdown;
  if (body.player_id !== undefined) columns.playerId = body.player_id;
  return columns;
}

async function writeVideos(tx: Transaction, accountId: number, playlistId: number, videoIds: number[] | undefined): Promise<void> {
  if (videoIds === undefined) return;
  await tx.delete(playlistVideos).where(and(eq(playlistVideos.accountId, accountId), eq(playlistVideos.playlistId, playlistId)));
  if (videoIds.length > 0) await tx.insert(playlistVideos).values(videoIds.map((videoId, position) => ({ accountId, playlistId, position, videoId })));
}

export function streamingPlaylists({ db }: RouteDeps) {
  const mine = (accountId: number, id: number) => and(eq(videoPlaylists.accountId, accountId), eq(videoPlaylists.id, id));

  async function shown(reader: Reader, accountId: number, id: number): Promise<Playlist> {
    const [row] = await reader.select().from(videoPlaylists).where(mine(accountId, id));
    if (!row) throw notFound(`Playlist ${id}`);
    const lists = await videoIdsOf(reader, accountId, [row.id]);
    return toPlaylist(row, lists.get(row.id)!);
  }

  return tsr.routerWithMiddleware(served("streaming", streamingPlaylistsRoutes))<RequestExtension>({
    listPlaylists: async ({ query }, { request: { caller }, responseHeaders }) => {
      const where = eq(videoPlaylists.accountId, caller.accountId);
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(videoPlaylists)
          .where(where)
          .orderBy(asc(videoPlaylists.id))
          .limit(PLAYLISTS_PAGE_SIZE)
          .offset((query.page - 1) * PLAYLISTS_PAGE_SIZE),
        db.select({ total: count() }).from(videoPlaylists).where(where),
      ]);
      responseHeaders.set("x-total-count", String(total?.total ?? 0));
      const lists = await videoIdsOf(db, caller.accountId, rows.map((row) => row.id));
      return { status: 200, body: rows.map((row) => toPlaylist(row, lists.get(row.id)!)) };
    },

    getPlaylist: async ({ params }, { request: { caller } }) => ({ status: 200, body: await shown(db, caller.accountId, params.playlist_id) }),

    listPlaylistVideos: async ({ params }, { request: { caller } }) => {
      const playlist = await shown(db, caller.accountId, params.playlist_id);
      return { status: 200, body: await shownVideos(db, caller.accountId, playlist.video_ids) };
    },

    createPlaylist: async ({ body }, { request: { caller } }) => {
      const created = await db.transaction(async (tx) => {
        const columns = await settingsOf(tx, caller.accountId, body, undefined);
        const [row] = await tx
          .insert(videoPlaylists)
          .values({ clientUserId: caller.userId, ...columns, name: body.name, accountId: caller.accountId })
          .returning({ id: videoPlaylists.id });
        await writeVideos(tx, caller.accountId, row!.id, body.video_ids);
        return shown(tx, caller.accountId, row!.id);
      });
      return { status: 201, body: created };
    },

    updatePlaylist: async ({ params, body }, { request: { caller } }) => {
      const changed = await db.transaction(async (tx) => {
        const [current] = await tx.select().from(videoPlaylists).where(mine(caller.accountId, params.playlist_id)).for("update");
        if (!current) throw notFound(`Playlist ${params.playlist_id}`);
        const columns = await settingsOf(tx, caller.accountId, body, current);
        await tx.update(videoPlaylists).set(columns).where(mine(caller.accountId, current.id));
        await writeVideos(tx, caller.accountId, current.id, body.video_ids);
        return shown(tx, caller.accountId, current.id);
      });
      return { status: 200, body: changed };
    },

    deletePlaylist: async ({ params }, { request: { caller } }) => {
      // Its list of videos goes with it (a foreign key that cascades); the videos stay.
      const [deleted] = await db.delete(videoPlaylists).where(mine(caller.accountId, params.playlist_id)).returning({ id: videoPlaylists.id });
      if (!deleted) throw notFound(`Playlist ${params.playlist_id}`);
      return { status: 204, body: undefined };
    },
  });
}
