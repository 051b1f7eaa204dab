/**
 * Video streaming area: streams (paged listing, details) and clip recording from a live stream's DVR.
 */
import { initContract } from "@ts-rest/core";
import { z } from "zod";
import { errorResponses, idParam, integer, integerParam, isoTimestamp, strictObject, withBody } from "./common.js";
import type { RouteMetadata } from "./roles.js";

const c = initContract();

/** Streams on one page of the listing. */
export const STREAMS_PAGE_SIZE = 25;

const url = z.string().describe("A URL.");

export const broadcast = z
  .object({
    id: integer(),
    name: z.string(),
    status: z.string().describe('The broadcast\'s state, e.g. "pending", "live" or "finished".'),
  })
  .strict()
  .describe("A broadcast of a stream.");

const streamSchema = z
  .object({
    id: integer(),
    name: z.string(),
    pull: z.boolean().describe("true: the service pulls the stream from `uri`; false: the stream is pushed to `push_url`."),
    active: z.boolean().describe("Whether the stream accepts and delivers video."),
    auto_record: z.boolean().describe("Whether every live session is recorded."),
    html_overlay: z
      .boolean()
      .describe(
        "Set by the service (no operation of this API changes it): whether HTML overlays are shown over the video.",
      ),
    live: z.boolean().describe("Whether the primary ingest is live now."),
    backup_live: z.boolean().describe("Whether the backup ingest is live now."),
    client_user_id: integer().describe("The account's user the stream belongs to."),
    uri: z.string().nullable().describe("The pull source URL; null for push streams."),
    push_url: url.describe("RTMP ingest URL."),
    backup_push_url: url.describe("Backup RTMP ingest URL."),
    push_url_srt: url.describe("SRT ingest URL."),
    backup_push_url_srt: url.describe("Backup SRT ingest URL."),
    push_url_whip: url.describe("WebRTC (WHIP) ingest URL."),
    created_at: isoTimestamp,
    started_at_primary: isoTimestamp.nullable().describe("When the primary ingest last went live; null if never."),
    finished_at_primary: isoTimestamp.nullable().describe("When the primary ingest last stopped; null if never or live now."),
    started_at_backup: isoTimestamp.nullable().describe("When the backup ingest last went live; null if never."),
    dvr_duration: integer().describe("Seconds of the live stream kept for rewinding (DVR); 0 when DVR is off."),
    recording_duration: integer().describe("Seconds recorded so far."),
    iframe_url: url.describe("Embeddable player page."),
    dash_url: url.describe("MPEG-DASH manifest."),
    hls_cmaf_url: url.describe("HLS manifest with CMAF segments."),
    hls_mpegts_url: url.describe("HLS manifest with MPEG-TS segments."),
    screenshot: url.describe("The latest screenshot."),
    transcoded_qualities: z.array(z.string()).describe('Renditions produced, e.g. "1080p", "720p".'),
    transcoding_speed: z.number().describe("Transcoding speed relative to real time (1 is real time)."),
    frame_rate: z.number().describe("Frames a second of the incoming video."),
    video_height: integer().describe("Pixels."),
    video_width: integer().describe("Pixels."),
    broadcasts: z
      .array(broadcast)
      .optional()
      .describe("The stream's broadcasts; only in the listing, and only with `with_broadcasts=1`."),
  })
  .strict()
  .describe("A live stream.");
export interface StreamSchema extends StreamSchemaType {}
type StreamSchemaType = typeof streamSchema;
export const stream: StreamSchema = streamSchema;

export type Stream = z.infer<typeof stream>;

const clipRecordingSchema = z
  .object({
    id: z.string().describe("The clip id."),
    created_at: isoTimestamp,
    vod_required: z.boolean().describe("Whether a video (VOD) is made from the clip; false for clips made by this API."),
    video_id: integer().nullable().describe("The id of the video made from the clip; null when none is made."),
    renditions: z.array(z.string()).describe("The stream's transcoded qualities at the time the clip was cut."),
    hls_master: z.string().describe("HLS master playlist of the clip."),
    mp4_master: z.string().describe("MP4 file of the clip."),
    start: integer({ column: "bigint" }).describe("Unix time (seconds) where the clip starts."),
    duration: integer().describe("Length of the clip in seconds."),
    expiration: integer({ column: "bigint" }).describe("Unix time (seconds) after which the clip is deleted."),
  })
  .strict()
  .describe("A clip cut from a live stream's DVR window.");
export interface ClipRecordingSchema extends ClipRecordingSchemaType {}
type ClipRecordingSchemaType = typeof clipRecordingSchema;
export const clipRecording: ClipRecordingSchema = clipRecordingSchema;

export type ClipRecording = z.infer<typeof clipRecording>;

const createClipRecordingBodySchema = strictObject(
  {
    start: integer({ min: 0, column: "bigint" })
      .optional()
      .describe(
        "Unix time in seconds where the clip starts, inside the DVR window: from now − dvr_duration up to one hour " +
          "ahead (a clip that starts ahead is recorded as the stream goes on). Default: now.",
      ),
    duration: integer({ min: 1 })
      .describe("Length in seconds, 1 to the stream's `dvr_duration` (400 `errors.duration` when longer)."),
    expiration: integer({ min: 0, column: "bigint" })
      .optional()
      .describe(
        "Unix time in seconds when the clip is deleted: between 1 minute and 4 hours after the clip ends " +
          "(start + duration). Default: start + duration + 3600.",
      ),
  },
  { readOnly: ["id", "created_at", "vod_required", "video_id", "renditions", "hls_master", "mp4_master"] },
).describe("Where the clip starts, how long it is and when it expires.");
export interface CreateClipRecordingBodySchema extends CreateClipRecordingBodySchemaType {}
type CreateClipRecordingBodySchemaType = typeof createClipRecordingBodySchema;
export const createClipRecordingBody: CreateClipRecordingBodySchema = createClipRecordingBodySchema;

export type CreateClipRecordingBody = z.input<typeof createClipRecordingBody>;

const streamIdParams = z.object({ stream_id: idParam("The stream id.") });
const read: RouteMetadata = { access: "read" };

export const streamingContract = c.router({
  listStreams: {
    method: "GET",
    path: "/streaming/streams",
    query: z.object({
      page: integerParam({ min: 1, description: `The page, from 1. Default 1. A page holds ${STREAMS_PAGE_SIZE} streams.` }).default(1),
      with_broadcasts: integerParam({
        min: 0,
        max: 1,
        description: "1 adds each stream's broadcasts (`broadcasts`: id, name, status); 0 or absent leaves them out.",
      }).optional(),
    }),
    responses: { 200: z.array(stream), ...errorResponses() },
    summary: "List streams",
    description:
      `The account's streams, newest first (id descending), ${STREAMS_PAGE_SIZE} a page. The body is a bare array; ` +
      "the `X-Total-Count` response header carries the total number of streams. A page past the end is an empty array.",
    metadata: read,
  },
  getStream: {
    method: "GET",
    path: "/streaming/streams/:stream_id",
    pathParams: streamIdParams,
    responses: { 200: stream, ...errorResponses() },
    summary: "Get a stream",
    description: "One stream of the account.",
    metadata: read,
  },
  createClipRecording: {
    method: "PUT",
    path: "/streaming/streams/:stream_id/clip_recording",
    pathParams: streamIdParams,
    body: createClipRecordingBody,
    responses: { 200: clipRecording, ...errorResponses([422, ...withBody]) },
    summary: "Record a clip from a live stream",
    description:
      "Cuts a clip out of the stream's DVR window. All times are Unix times in seconds and durations are seconds. " +
      "The stream must be live with DVR on (`dvr_duration` > 0), otherwise 422. `duration` is at most the stream's " +
      "`dvr_duration`; `expiration` must fall between 1 minute and 4 hours after the clip ends.",
    metadata: { access: "write" },
  },
});
