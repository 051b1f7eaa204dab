/**
 * Streaming recordings: a live stream's recording started (the stream notes when) and stopped (the time
 * since is kept as a new video, transcoded from then on as an upload is), under a lock of the stream's
 * row so that two stops make one video.
 */
import { STORAGE_WARNING_SHARE, STREAMING_STORAGE_LIMIT_MB, streamingRecordingsRoutes, type RecordingStart } from "@cloudplane/contract";
import { and, eq, schema, sql } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { ApiError, notFound } from "../errors.js";
import { served } from "../served.js";
import type { RequestExtension, RouteDeps } from "../types.js";
import { randomHex } from "../random.js";
import { shownVideos } from "./videos.js";

const { streams, videos } = schema;

/** Bytes a millisecond of a recording takes: 2 Mbit/s. */
const BYTES_PER_MS = 250;
const MB = 1024 * 1024;

/** `2026-11-26 18:30:00 UTC`: how a recording's name gives the time it ended. */
const endTime = (date: Date) => `${date.toISOString().slice(0, 19).replace("T", " ")} UTC`;

export function streamingRecordings({ db }: RouteDeps) {
  return tsr.routerWithMiddleware(served("streaming", streamingRecordingsRoutes))<RequestExtension>({
    startStreamRecording: async ({ params }, { request: { caller } }) => {
      const { accountId } = caller;
      const usedBytes = await db.transaction(async (tx) => {
        const mine = and(eq(streams.accountId, accountId), eq(streams.id, params.stream_id));
        const [stream] = await tx.select({ live: streams.live, startedAt: streams.recordingStartedAt }).from(streams).where(mine).for("update");
        if (!stream) throw notFound(`Stream ${params.stream_id}`);
        if (!stream.live) throw new ApiError("unprocessable", "The stream is not live; a recording takes a live stream.");
        if (!stream.startedAt) await tx.update(streams).set({ recordingStartedAt: sql`now()` }).where(mine);
        const [used] = await tx
          .select({ bytes: sql<string>`coalesce(sum(${videos.originSize}), 0)` })
          .from(videos)
          .where(eq(videos.accountId, accountId));
        return Number(used!.bytes);
      });
      const storage = { storage_limit_mb: STREAMING_STORAGE_LIMIT_MB, storage_usage_mb: Math.round((usedBytes / MB) * 100) / 100 };
      const body: RecordingStart = {
        data: { stream: { id: params.stream_id, client: { id: accountId, ...storage } } },
        errors: [],
        warnings:
          storage.storage_usage_mb > STREAMING_STORAGE_LIMIT_MB * STORAGE_WARNING_SHARE
            ? [{ key: "client_storage_almost_exceeded", meta: storage, source_object: { id: accountId, type: "client" } }]
            : [],
      };
      return { status: 200, body };
    },

    stopStreamRecording: async ({ params }, { request: { caller } }) => {
      const { accountId } = caller;
      const id = await db.transaction(async (tx) => {
        const mine = and(eq(streams.accountId, accountId), eq(streams.id, params.stream_id));
        const [stream] = await tx
          .select({
            name: streams.name,
            userId: streams.clientUserId,
            recordType: streams.recordType,
            startedAt: streams.recordingStartedAt,
            // The length by the database's clock, the one the start was noted by: at least a second.
            ms: sql<number>`greatest(1000, floor(extract(epoch from now() - ${streams.recordingStartedAt}) * 1000))::int`,
            now: sql<Date>`now()`.mapWith((value: string | Date) => new Date(value)),
          })
          .from(streams)
          .where(mine)
          .for("update");
        if (!stream) throw notFound(`Stream ${params.stream_id}`);
        if (!stream.startedAt) throw new ApiError("unprocessable", "The stream is not being recorded; start a recording with PUT …/start_recording first.");
        const ms = Number(stream.ms);
        const [video] = await tx
          .insert(videos)
          .values({
            accountId,
            clientUserId: stream.userId,
            name: `Stream Record: ${stream.name}, ${endTime(stream.now)}`,
            slug: randomHex(12),
            streamId: params.stream_id,
            recordingStartedAt: stream.startedAt,
            recordType: stream.recordType,
            originVideoDuration: ms,
            originSize: ms * BYTES_PER_MS,
            sourceAt: sql`now()`,
          })
          .returning({ id: videos.id });
        await tx.update(streams).set({ recordingStartedAt: null }).where(mine);
        return video!.id;
      });
      const [shown] = await shownVideos(db, accountId, [id]);
      return { status: 200, body: shown! };
    },
  });
}
