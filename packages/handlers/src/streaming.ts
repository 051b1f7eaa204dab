/**
 * Streaming routes: the paged stream listing (with X-Total-Count and optional broadcasts), one
 * stream, and clips cut from a live stream's DVR window.
 */
import { contract, STREAMS_PAGE_SIZE, type ClipRecording, type Stream } from "@cloudplane/contract";
import { and, asc, count, desc, eq, inArray, schema, sql } from "@cloudplane/db";
import { preparedOnce } from "./prepared.js";
import { tsr } from "@ts-rest/serverless/fetch";
import { ApiError, notFound, validationFailed } from "./errors.js";
import { isoTime } from "./format.js";
import type { RequestExtension, RouteDeps } from "./types.js";

const { streams, broadcasts, clips } = schema;

/** A clip must end at least this long before it expires, and expire at most this long after it ends. */
const MIN_EXPIRY_S = 60;
const MAX_EXPIRY_S = 4 * 3600;
const DEFAULT_EXPIRY_S = 3600;
/** How far ahead of now a clip may start (it is then recorded as the stream goes on). */
const MAX_START_AHEAD_S = 3600;

type StreamRow = typeof streams.$inferSelect;

/** A clip id in the form the demo data uses, `clip_` and 16 hex digits (64 random bits). */
function clipId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return `clip_${Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("")}`;
}

function toStream(row: StreamRow): Stream {
  return {
    id: row.id,
    name: row.name,
    pull: row.pull,
    active: row.active,
    auto_record: row.autoRecord,
    html_overlay: row.htmlOverlay,
    live: row.live,
    backup_live: row.backupLive,
    client_user_id: row.clientUserId,
    uri: row.uri,
    push_url: row.pushUrl,
    backup_push_url: row.backupPushUrl,
    push_url_srt: row.pushUrlSrt,
    backup_push_url_srt: row.backupPushUrlSrt,
    push_url_whip: row.pushUrlWhip,
    created_at: isoTime(row.createdAt),
    started_at_primary: row.startedAtPrimary ? isoTime(row.startedAtPrimary) : null,
    finished_at_primary: row.finishedAtPrimary ? isoTime(row.finishedAtPrimary) : null,
    started_at_backup: row.startedAtBackup ? isoTime(row.startedAtBackup) : null,
    dvr_duration: row.dvrDuration,
    recording_duration: row.recordingDuration,
    iframe_url: row.iframeUrl,
    dash_url: row.dashUrl,
    hls_cmaf_url: row.hlsCmafUrl,
    hls_mpegts_url: row.hlsMpegtsUrl,
    screenshot: row.screenshot,
    transcoded_qualities: row.transcodedQualities,
    transcoding_speed: row.transcodingSpeed,
    frame_rate: row.frameRate,
    video_height: row.videoHeight,
    video_width: row.videoWidth,
  };
}

function toClip(row: typeof clips.$inferSelect): ClipRecording {
  return {
    id: row.id,
    created_at: isoTime(row.createdAt),
    vod_required: row.vodRequired,
    video_id: row.videoId,
    renditions: row.renditions,
    hls_master: row.hlsMaster,
    mp4_master: row.mp4Master,
    start: row.start,
    duration: row.duration,
    expiration: row.expiration,
  };
}

export function streamingRoutes({ db }: RouteDeps) {
  const streamById = preparedOnce(() =>
    db
      .select()
      .from(streams)
      .where(and(eq(streams.accountId, sql.placeholder("accountId")), eq(streams.id, sql.placeholder("id"))))
      .limit(1)
      .prepare("stream_by_id"),
  );

  return tsr.routerWithMiddleware(contract.streaming)<RequestExtension>({
    listStreams: async ({ query }, { request: { caller }, responseHeaders }) => {
      const mine = eq(streams.accountId, caller.accountId);
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(streams)
          .where(mine)
          .orderBy(desc(streams.id))
          .limit(STREAMS_PAGE_SIZE)
          .offset((query.page - 1) * STREAMS_PAGE_SIZE),
        db.select({ total: count() }).from(streams).where(mine),
      ]);
      responseHeaders.set("x-total-count", String(total?.total ?? 0));
      const body = rows.map(toStream);
      if (query.with_broadcasts === 1 && rows.length > 0) {
        const list = await db
          .select({ id: broadcasts.id, name: broadcasts.name, status: broadcasts.status, streamId: broadcasts.streamId })
          .from(broadcasts)
          .where(and(eq(broadcasts.accountId, caller.accountId), inArray(broadcasts.streamId, rows.map((row) => row.id))))
          .orderBy(asc(broadcasts.id));
        for (const stream of body)
          stream.broadcasts = list.filter((item) => item.streamId === stream.id).map(({ id, name, status }) => ({ id, name, status }));
      }
      return { status: 200, body };
    },

    getStream: async ({ params }, { request: { caller } }) => {
      const [row] = await streamById().execute({ accountId: caller.accountId, id: params.stream_id });
      if (!row) throw notFound(`Stream ${params.stream_id}`);
      return { status: 200, body: toStream(row) };
    },

    createClipRecording: async ({ params, body }, { request: { caller } }) => {
      const [stream] = await streamById().execute({ accountId: caller.accountId, id: params.stream_id });
      if (!stream) throw notFound(`Stream ${params.stream_id}`);
      if (!stream.live || stream.dvrDuration <= 0)
        throw new ApiError(
          "unprocessable",
          stream.live
            ? "The stream has DVR off (dvr_duration 0), so there is nothing to cut a clip from."
            : "The stream is not live; clips are cut from a live stream's DVR window.",
        );
      const now = Math.floor(Date.now() / 1000);
      const start = body.start ?? now;
      const end = start + body.duration;
      const expiration = body.expiration ?? end + DEFAULT_EXPIRY_S;
      // Every field's problem at once, so a caller fixes the request in one go.
      const errors: Record<string, string[]> = {};
      if (start < now - stream.dvrDuration || start > now + MAX_START_AHEAD_S)
        errors.start = [
          `Must lie in the stream's DVR window: from ${now - stream.dvrDuration} (now − dvr_duration) to ${now + MAX_START_AHEAD_S} (now + 1 hour).`,
        ];
      if (body.duration > stream.dvrDuration) errors.duration = [`Must be at most the stream's dvr_duration, ${stream.dvrDuration} seconds.`];
      if (expiration < end + MIN_EXPIRY_S || expiration > end + MAX_EXPIRY_S)
        errors.expiration = [`Must be between 1 minute and 4 hours after the clip ends: ${end + MIN_EXPIRY_S} to ${end + MAX_EXPIRY_S}.`];
      if (Object.keys(errors).length > 0) throw validationFailed(errors);
      const id = clipId();
      // Clip files live on the stream owner's video host, as the demo data's clips do.
      const base = `${new URL(stream.hlsMpegtsUrl).origin}/clips/${id}`;
      const [row] = await db
        .insert(clips)
        .values({
          id,
          accountId: caller.accountId,
          streamId: stream.id,
          renditions: stream.transcodedQualities,
          hlsMaster: `${base}/master.m3u8`,
          mp4Master: `${base}/master.mp4`,
          start,
          duration: body.duration,
          expiration,
        })
        .returning();
      return { status: 200, body: toClip(row!) };
    },
  });
}
