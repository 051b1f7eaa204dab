/**
 * Streaming video subtitles: the WebVTT tracks of one of the account's videos.
 */
import { SUBTITLES_PER_VIDEO_MAX, streamingSubtitlesRoutes, type Subtitle } from "@cloudplane/contract";
import { and, asc, count, eq, schema } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { conflict, notFound } from "../errors.js";
import { served } from "../served.js";
import type { RequestExtension, RouteDeps } from "../types.js";

const { videos, videoSubtitles } = schema;

const toSubtitle = (row: typeof videoSubtitles.$inferSelect): Subtitle => ({ id: row.id, name: row.name, language: row.language, vtt: row.vtt });

export function streamingSubtitles({ db }: RouteDeps) {
  /** Whether the account has the video; 404 otherwise. */
  async function videoOf(reader: Pick<typeof db, "select">, accountId: number, videoId: number, lock = false) {
    const query = reader
      .select({ id: videos.id })
      .from(videos)
      .where(and(eq(videos.accountId, accountId), eq(videos.id, videoId)));
    const [found] = lock ? await query.for("update") : await query;
    if (!found) throw notFound(`Video ${videoId}`);
  }
  const mine = (accountId: number, videoId: number, id: number) =>
    and(eq(videoSubtitles.accountId, accountId), eq(videoSubtitles.videoId, videoId), eq(videoSubtitles.id, id));

  return tsr.routerWithMiddleware(served("streaming", streamingSubtitlesRoutes))<RequestExtension>({
    listSubtitles: async ({ params }, { request: { caller } }) => {
      await videoOf(db, caller.accountId, params.video_id);
      const rows = await db
        .select()
        .from(videoSubtitles)
        .where(and(eq(videoSubtitles.accountId, caller.accountId), eq(videoSubtitles.videoId, params.video_id)))
        .orderBy(asc(videoSubtitles.id));
      return { status: 200, body: rows.map(toSubtitle) };
    },

    getSubtitle: async ({ params }, { request: { caller } }) => {
      await videoOf(db, caller.accountId, params.video_id);
      const [row] = await db.select().from(videoSubtitles).where(mine(caller.accountId, params.video_id, params.id));
      if (!row) throw notFound(`Subtitle ${params.id} of video ${params.video_id}`);
      return { status: 200, body: toSubtitle(row) };
    },

    createSubtitle: async ({ params, body }, { request: { caller } }) => {
      const row = await db.transaction(async (tx) => {
        // The video's lock makes two adds count one after the other.
        await videoOf(tx, caller.accountId, params.video_id, true);
        const [held] = await tx
          .select({ total: count() })
          .from(videoSubtitles)
          .where(and(eq(videoSubtitles.accountId, caller.accountId), eq(videoSubtitles.videoId, params.video_id)));
        if ((held?.total ?? 0) >= SUBTITLES_PER_VIDEO_MAX)
          throw conflict(`Video ${params.video_id} has ${SUBTITLES_PER_VIDEO_MAX} subtitles, the most a video may have; delete one first.`);
        const [inserted] = await tx
          .insert(videoSubtitles)
          .values({ accountId: caller.accountId, videoId: params.video_id, name: body.name, language: body.language, vtt: body.vtt })
          .returning();
        return inserted!;
      });
      return { status: 201, body: toSubtitle(row) };
    },

    updateSubtitle: async ({ params, body }, { request: { caller } }) => {
      await videoOf(db, caller.accountId, params.video_id);
      const where = mine(caller.accountId, params.video_id, params.id);
      // A body with no field changes nothing: the track as it is.
      const [row] = Object.keys(body).length === 0 ? await db.select().from(videoSubtitles).where(where) : await db.update(videoSubtitles).set(body).where(where).returning();
      if (!row) throw notFound(`Subtitle ${params.id} of video ${params.video_id}`);
      return { status: 200, body: { name: row.name, language: row.language, vtt: row.vtt } };
    },

    deleteSubtitle: async ({ params }, { request: { caller } }) => {
      await videoOf(db, caller.accountId, params.video_id);
      const [deleted] = await db.delete(videoSubtitles).where(mine(caller.accountId, params.video_id, params.id)).returning({ id: videoSubtitles.id });
      if (!deleted) throw notFound(`Subtitle ${params.id} of video ${params.video_id}`);
      return { status: 204, body: undefined };
    },
  });
}
