/**
 * Streaming streams (paged listing, details, creation, changes, deletion) and clips recorded
 * from a live stream's DVR.
 */
import { initContract } from "@ts-rest/core";
import { z } from "zod";
import { emptyInput, errorResponses, idParam, integer, integerParam, isoTimestamp, strictObject, stringEnum, withBody } from "../common.js";
import type { ClientMetadata } from "../client-names.js";
import * as examples from "../examples.js";
import { read, write } from "../roles.js";
import { route } from "../route.js";
import { missingId, uniqueName, type CaseWorld } from "../route-case.js";
import { overlay } from "./overlays.js";

const c = initContract();

/** Streams on one page of the listing. */
export const STREAMS_PAGE_SIZE = 25;

/** How the platform's web player renders a stream: flat, or one of the 360°/180° modes. */
export const STREAM_PROJECTIONS = ["regular", "vr360", "vr180", "vr360tb"] as const;
/** What a recording of the stream takes: the source as sent, or the transcoded output (with overlays). */
export const STREAM_RECORD_TYPES = ["origin", "transcoded"] as const;
/** The protocols a live ingest arrives over. */
export const STREAM_SOURCE_TYPES = ["rtmp", "srt", "webrtc", "https"] as const;

/** The DVR window a stream may be given, in seconds (30 s to 4 hours), and the one it gets when DVR is switched on without one. */
export const DVR_DURATION_MIN = 30;
export const DVR_DURATION_MAX = 14_400;
export const DVR_DURATION_DEFAULT = 3600;

/** The most clips the clip listing shows. */
export const CLIPS_LIST_MAX = 1000;

/** The schemes a pull stream's `uri` may use, and how many addresses it may list. */
const PULL_SCHEMES = ["rtmp:", "rtmps:", "srt:", "http:", "https:"];
const PULL_ADDRESSES_MAX = 10;

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
    html_overlay: z.boolean().describe("Whether real-time HTML overlay widgets may be shown over the video."),
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
    recording_duration: integer().describe("Seconds the recording under way has run (see start_recording); 0 while the stream is not being recorded."),
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
    dvr_enabled: z.boolean().describe("Whether the stream keeps a DVR window (`dvr_duration` > 0); clips are cut from it."),
    broadcast_ids: z.array(integer()).describe("The ids of the broadcasts that include the stream, ascending."),
    cdn_id: integer()
      .nullable()
      .describe(
        "The account's CDN resource that delivers the stream; null for the platform's own delivery. The resource cannot be deleted while a stream names it (409).",
      ),
    client_entity_data: z.string().nullable().describe("The client's own data about the stream, kept as sent and never read; null when none was set."),
    hls_mpegts_endlist_tag: z
      .boolean()
      .describe("Whether `#EXT-X-ENDLIST` is added to the HLS MPEG-TS playlist after the last segment when a broadcast ends."),
    projection: stringEnum(STREAM_PROJECTIONS).describe(
      "How the platform's web player renders the stream: `regular` (flat), `vr360`, `vr180` or `vr360tb` (3D 360°, top-bottom).",
    ),
    quality_set_id: integer()
      .nullable()
      .describe("The custom quality set the stream is transcoded with; null for the account's default set."),
    record_type: stringEnum(STREAM_RECORD_TYPES).describe(
      "What a recording takes: `origin`, the source as sent, or `transcoded`, the output with its overlays.",
    ),
    stream_source_type: stringEnum(STREAM_SOURCE_TYPES)
      .nullable()
      .describe("Set by the service: the protocol the live ingest arrives over (`rtmp`, `srt`, `webrtc`, `https`); null while the stream is not live."),
    token: z
      .string()
      .describe("The stream key: the part of every push URL (RTMP, SRT, WHIP) that lets a sender in. Made with the stream and never changed."),
    srt_passphrase: z
      .string()
      .nullable()
      .describe("The passphrase an SRT sender must encrypt with (to `push_url_srt` or `backup_push_url_srt`); null when SRT ingest is not encrypted."),
    active_ingest_region_primary: z
      .string()
      .nullable()
      .describe("Set by the service: the ingest region receiving the primary ingest; null while it is not live."),
    active_ingest_region_backup: z
      .string()
      .nullable()
      .describe("Set by the service: the ingest region receiving the backup ingest; null while it is not live."),
    html_overlays: z
      .array(overlay)
      .describe("The stream's HTML overlay widgets by id ascending (see the overlay routes); drawn while `html_overlay` is on."),
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
        "Unix time in seconds where the clip starts, inside the DVR window: from now − dvr_duration (or the window's last clearing, " +
          "when that is later) up to one hour " +
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

/** A pull stream's source: one to PULL_ADDRESSES_MAX URLs, separated by single spaces, tried in turn. */
const pullUri = z
  .string()
  .max(2048, "At most 2048 characters.")
  .refine(
    (value) => {
      const addresses = value.split(" ");
      return (
        addresses.length <= PULL_ADDRESSES_MAX &&
        addresses.every((address) => {
          if (!URL.canParse(address)) return false;
          const url = new URL(address);
          return PULL_SCHEMES.includes(url.protocol) && url.hostname !== "";
        })
      );
    },
    { message: `Must be 1 to ${PULL_ADDRESSES_MAX} URLs (rtmp, rtmps, srt, http or https) separated by single spaces.` },
  );

/** The fields a client sets on a stream, on creation and in changes. */
const streamSettings = {
  name: z.string().min(1, "Must not be empty.").max(255, "At most 255 characters.").describe("The stream's name, 1 to 255 characters; names need not be unique."),
  active: z.boolean().describe("The stream's on/off switch (not whether it is live): an inactive stream takes no ingest. Default true."),
  auto_record: z.boolean().describe("Whether every live session is recorded. Default false."),
  client_entity_data: z
    .string()
    .max(4096, "At most 4096 characters.")
    .nullable()
    .describe("The client's own data about the stream, at most 4096 characters, kept as sent; null clears it. Default null."),
  client_user_id: integer({ min: 1 }).describe(
    "The account's user the stream belongs to: a user of the account (400 otherwise). Default: the user of the calling token.",
  ),
  cdn_id: integer({ min: 1 })
    .nullable()
    .describe(
      "A CDN resource of the account that delivers the stream (400 otherwise); null for the platform's own delivery. Default null. " +
        "While the stream names it, a delete of the resource answers 409.",
    ),
  dvr_enabled: z
    .boolean()
    .describe(
      `Switches DVR on or off. On without \`dvr_duration\` keeps the stream's window, or gives it ${DVR_DURATION_DEFAULT} seconds when it had none; ` +
        "off sets `dvr_duration` to 0 and may not come with a `dvr_duration`. Default off.",
    ),
  dvr_duration: integer({ min: DVR_DURATION_MIN, max: DVR_DURATION_MAX }).describe(
    `The DVR window in seconds, ${DVR_DURATION_MIN} to ${DVR_DURATION_MAX} (4 hours); setting it switches DVR on.`,
  ),
  hls_mpegts_endlist_tag: z.boolean().describe("Whether `#EXT-X-ENDLIST` ends the HLS MPEG-TS playlist when a broadcast ends. Default false."),
  html_overlay: z.boolean().describe("Whether real-time HTML overlay widgets may be shown over the video. Default false."),
  projection: stringEnum(STREAM_PROJECTIONS).describe("How the platform's web player renders the stream. Default `regular`."),
  pull: z
    .boolean()
    .describe("true: the service pulls the stream from `uri` (which is then required); false: the stream is pushed to `push_url`. Default false."),
  quality_set_id: integer({ min: 1 })
    .nullable()
    .describe("A custom quality set to transcode with; null for the account's default. Quality sets are not part of this API, so the id is not checked. Default null."),
  record_type: stringEnum(STREAM_RECORD_TYPES).describe("What a recording takes: `origin` or `transcoded`. Default `origin`."),
  srt_passphrase: z
    .string()
    .regex(/^[!-~]{10,80}$/, "Must be 10 to 80 printable ASCII characters (letters, digits, punctuation), without spaces.")
    .nullable()
    .describe(
      "Encrypts SRT ingest: the sender must use the same passphrase. 10 to 80 printable ASCII characters without spaces; null switches encryption off. Default null.",
    ),
  uri: pullUri
    .nullable()
    .describe(
      `For a pull stream only (400 with \`pull\` false): 1 to ${PULL_ADDRESSES_MAX} source URLs (rtmp, rtmps, srt, http, https) separated by ` +
        "single spaces, at most 2048 characters, tried in turn.",
    ),
};

/** Fields of a stream that only the service sets: sent in a body, each is rejected by name. */
const STREAM_READ_ONLY = [
  "id",
  "live",
  "backup_live",
  "push_url",
  "backup_push_url",
  "push_url_srt",
  "backup_push_url_srt",
  "push_url_whip",
  "created_at",
  "started_at_primary",
  "finished_at_primary",
  "started_at_backup",
  "recording_duration",
  "iframe_url",
  "dash_url",
  "hls_cmaf_url",
  "hls_mpegts_url",
  "screenshot",
  "transcoded_qualities",
  "transcoding_speed",
  "frame_rate",
  "video_height",
  "video_width",
  "stream_source_type",
  "broadcasts",
  "token",
  "active_ingest_region_primary",
  "active_ingest_region_backup",
  "html_overlays",
];
const STREAM_REJECTED = { broadcast_ids: "Broadcasts name the stream they include; this API does not change them, so broadcast_ids cannot be written." };

const createStreamBodySchema = strictObject(
  { name: streamSettings.name, ...optionalSettings() },
  { readOnly: STREAM_READ_ONLY, rejected: STREAM_REJECTED },
).describe("The new stream: `name` is required, every other field has its default.");
export interface CreateStreamBodySchema extends CreateStreamBodySchemaType {}
type CreateStreamBodySchemaType = typeof createStreamBodySchema;
export const createStreamBody: CreateStreamBodySchema = createStreamBodySchema;

export type CreateStreamBody = z.input<typeof createStreamBody>;

const updateStreamBodySchema = strictObject({
  stream: strictObject({ name: streamSettings.name.optional(), ...optionalSettings() }, { readOnly: STREAM_READ_ONLY, rejected: STREAM_REJECTED }).describe(
    "The fields to change; fields left out keep their values.",
  ),
}).describe("The changes, wrapped in `stream` as the platform takes them.");
export interface UpdateStreamBodySchema extends UpdateStreamBodySchemaType {}
type UpdateStreamBodySchemaType = typeof updateStreamBodySchema;
export const updateStreamBody: UpdateStreamBodySchema = updateStreamBodySchema;

export type UpdateStreamBody = z.input<typeof updateStreamBody>;

/** Every setting but the name, each optional. */
function optionalSettings() {
  const { name: _name, ...rest } = streamSettings;
  return Object.fromEntries(Object.entries(rest).map(([key, schema]) => [key, schema.optional()])) as {
    [Key in keyof typeof rest]: z.ZodOptional<(typeof rest)[Key]>;
  };
}

export const streamIdParams = z.object({ stream_id: idParam("The stream id.") });

// The examples' objects: the demo data's, of account 1.
/** A push stream as it is made: not live, DVR on with a 30-minute window, ingest and playback URLs from its id and a fresh key. */
const createdStream: Stream = {
  ...examples.streamExample,
  id: 72,
  name: "Acme town hall",
  live: false,
  backup_live: false,
  push_url: "rtmp://vp-push.cloudplane.example/in/72?3f9a1c07d2e8",
  backup_push_url: "rtmp://vp-push-backup.cloudplane.example/in/72?3f9a1c07d2e8",
  push_url_srt: "srt://vp-push.cloudplane.example:5001?streamid=72#3f9a1c07d2e8",
  backup_push_url_srt: "srt://vp-push-backup.cloudplane.example:5001?streamid=72#3f9a1c07d2e8",
  push_url_whip: "https://whip.cloudplane.example/whip/72/3f9a1c07d2e8",
  token: "3f9a1c07d2e8",
  active_ingest_region_primary: null,
  active_ingest_region_backup: null,
  created_at: "2026-11-23T19:30:00.000Z",
  started_at_primary: null,
  started_at_backup: null,
  dvr_duration: 1800,
  iframe_url: "https://video.cloudplane.example/accounts/1/streams/72/player.html",
  dash_url: "https://video.cloudplane.example/accounts/1/streams/72/index.mpd",
  hls_cmaf_url: "https://video.cloudplane.example/accounts/1/streams/72/index.m3u8",
  hls_mpegts_url: "https://video.cloudplane.example/accounts/1/streams/72/index-ts.m3u8",
  screenshot: "https://video.cloudplane.example/accounts/1/streams/72/screenshot.jpg",
  transcoded_qualities: [],
  transcoding_speed: 0,
  frame_rate: 0,
  video_height: 0,
  video_width: 0,
  broadcast_ids: [],
  client_entity_data: '{"event":"town-hall-2026"}',
  stream_source_type: null,
};

// The cases' objects: the account's first stream, and its first live stream with DVR on.
const streamOf = (w: CaseWorld) => w.first("streaming.listStreams");
const dvrStreamOf = (w: CaseWorld) => w.first("streaming.listStreams", { where: (stream) => stream.live === true && (stream.dvr_duration as number) > 0 });

export const streamingStreamsRoutes = {
  listStreams: route({
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
    metadata: { ...read, client: { pageSize: STREAMS_PAGE_SIZE } } satisfies ClientMetadata,
  }, {
    example: {
      query: { page: 1 },
      response: [examples.streamExample],
      responseHeaders: {
        "X-Total-Count": { description: "The total number of the account's streams, on every page.", example: 1, type: "integer" },
      },
    },
    case: { path: () => "/streaming/streams", ownsObjects: false },
  }),
  getStream: route({
    method: "GET",
    path: "/streaming/streams/:stream_id",
    pathParams: streamIdParams,
    responses: { 200: stream, ...errorResponses() },
    summary: "Get a stream",
    description: "One stream of the account.",
    metadata: read,
  }, {
    example: {
      pathParams: { stream_id: examples.streamExample.id },
      response: examples.streamExample,
    },
    case: { path: (w) => `/streaming/streams/${streamOf(w).id}`, ownsObjects: true },
  }),
  createStream: route({
    method: "POST",
    path: "/streaming/streams",
    body: createStreamBody,
    responses: { 201: stream, ...errorResponses(withBody) },
    summary: "Create a stream",
    description:
      "A new stream of the account, not live yet: its ingest URLs (RTMP, SRT, WHIP, each with a fresh stream key) and " +
      "playback URLs are made from its id. The body is the stream's fields as they are (the platform wraps only changes in " +
      "`stream`). A pull stream needs `uri`; a push stream may not have one.",
    metadata: write,
  }, {
    example: {
      body: { name: "Acme town hall", dvr_enabled: true, dvr_duration: 1800, client_entity_data: '{"event":"town-hall-2026"}' },
      response: createdStream,
    },
    case: {
      path: () => "/streaming/streams",
      ownsObjects: false,
      body: () => ({ name: uniqueName("route-case-stream"), dvr_enabled: true }),
    },
  }),
  updateStream: route({
    method: "PATCH",
    path: "/streaming/streams/:stream_id",
    pathParams: streamIdParams,
    body: updateStreamBody,
    responses: { 200: stream, ...errorResponses(withBody) },
    summary: "Change a stream",
    description:
      "Changes the fields given in `stream`; the others keep their values (the platform's SDKs always send `name`, which " +
      "may be left out here). Switching `pull` off clears `uri`; switching it on needs a `uri`, given or already set. " +
      "Changes apply to the next live session.",
    metadata: write,
  }, {
    example: {
      pathParams: { stream_id: examples.streamExample.id },
      body: { stream: { name: "Acme lobby cam 1 (main entrance)", record_type: "transcoded" } },
      response: { ...examples.streamExample, name: "Acme lobby cam 1 (main entrance)", record_type: "transcoded" },
    },
    case: {
      path: (w) => `/streaming/streams/${streamOf(w).id}`,
      ownsObjects: true,
      body: () => ({ stream: { auto_record: true } }),
    },
  }),
  deleteStream: route({
    method: "DELETE",
    path: "/streaming/streams/:stream_id",
    pathParams: streamIdParams,
    responses: { 204: c.noBody(), ...errorResponses() },
    summary: "Delete a stream",
    description:
      "Deletes the stream for good, with its clips; it leaves the broadcasts that show it, and a broadcast it was the last stream of is deleted with it. " +
      "A live stream may be deleted too: its ingest stops. Answers 204 with no body.",
    metadata: write,
  }, {
    example: {
      pathParams: { stream_id: 71 },
      // A 204 has no body; the example type asks for one (reported to the lead).
    },
    case: {
      path: (w, made) => `/streaming/streams/${made?.id ?? missingId(w.account)}`,
      ownsObjects: true,
      makes: "streaming.createStream",
    },
  }),
  listClipRecordings: route({
    method: "GET",
    path: "/streaming/streams/:stream_id/clip_recording",
    pathParams: streamIdParams,
    responses: { 200: z.array(clipRecording), ...errorResponses() },
    summary: "List a stream's clips",
    description:
      `The stream's clips that have not expired (\`expiration\` after now), newest first (by creation, then id), at most ${CLIPS_LIST_MAX}. ` +
      "The body is a bare array, as the platform answers; a stream without clips answers an empty one.",
    metadata: read,
  }, {
    example: {
      pathParams: { stream_id: examples.streamExample.id },
      response: [examples.clipRecordingExample],
    },
    case: { path: (w) => `/streaming/streams/${dvrStreamOf(w).id}/clip_recording`, ownsObjects: true },
  }),
  clearStreamDvr: route({
    method: "PUT",
    path: "/streaming/streams/:stream_id/dvr_cleanup",
    pathParams: streamIdParams,
    body: emptyInput("the path names the stream"),
    responses: { 204: c.noBody(), ...errorResponses([422, ...withBody]) },
    summary: "Clear a stream's DVR window",
    description:
      "Empties the stream's DVR window now: viewers can no longer rewind to before this moment, and no clip may start before it " +
      "(400 `errors.start`). The window fills again as the stream goes on. The stream must have DVR on (`dvr_duration` > 0), otherwise 422. " +
      "Answers 204 with no body.",
    metadata: write,
  }, {
    example: { pathParams: { stream_id: examples.streamExample.id }, body: {} },
    case: { path: (w) => `/streaming/streams/${dvrStreamOf(w).id}/dvr_cleanup`, ownsObjects: true, body: () => ({}) },
  }),
  createClipRecording: route({
    method: "PUT",
    path: "/streaming/streams/:stream_id/clip_recording",
    pathParams: streamIdParams,
    body: createClipRecordingBody,
    responses: { 200: clipRecording, ...errorResponses([422, ...withBody]) },
    summary: "Record a clip from a live stream",
    description:
      "Cuts a clip out of the stream's DVR window. All times are Unix times in seconds and durations are seconds. " +
      "The stream must be live with DVR on (`dvr_duration` > 0), otherwise 422. `duration` is at most the stream's " +
      "`dvr_duration`; `expiration` must fall between 1 minute and 4 hours after the clip ends. A stream is live only " +
      "while a broadcast arrives at its ingest (no request of this API makes one live): on a newly provisioned account, " +
      "whose streams have never been on the air, this answers 422 until one is. The example's stream, the demo data's " +
      "stream 1, is live.",
    metadata: write,
  }, {
    example: {
      pathParams: { stream_id: examples.streamExample.id },
      body: examples.createClipRecordingExample,
      response: examples.clipRecordingExample,
      newAccount: { status: 422, because: "A clip is cut from a live stream, and only a broadcast at its ingest makes a stream live." },
    },
    case: {
      path: (w) => `/streaming/streams/${dvrStreamOf(w).id}/clip_recording`,
      ownsObjects: true,
      body: (w) => ({ duration: Math.min(30, (dvrStreamOf(w).dvr_duration as number)) }),
    },
  }),
};
