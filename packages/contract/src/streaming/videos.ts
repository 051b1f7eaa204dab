/**
 * Streaming videos (video on demand): creation from a URL or for a direct upload, one at a time or in a
 * batch, the paged listing, one video, its names, changes, deletion, and the parameters of a direct upload.
 */
import { initContract } from "@ts-rest/core";
import { z } from "zod";
import { idListQuery } from "../cdn/logs-uploader/shared.js";
import type { ClientMetadata } from "../client-names.js";
import { errorResponses, idParam, integer, integerParam, isoTimestamp, listOf, strictObject, stringEnum, withBody } from "../common.js";
import { read, write } from "../roles.js";
import { route } from "../route.js";
import { missingId, uniqueName, type CaseWorld } from "../route-case.js";
import { STREAM_PROJECTIONS, STREAM_RECORD_TYPES } from "./streams.js";

const c = initContract();

/** Videos on one page of the listing by default, and at most. */
export const VIDEOS_PAGE_SIZE = 25;
export const VIDEOS_PER_PAGE_MAX = 100;
/** The most videos one batch creates. */
export const VIDEO_BATCH_MAX = 50;
/** The most ids the names route takes. */
export const VIDEO_NAMES_MAX = 100;

/**
 * A video's life: `empty` (made, no source yet: waiting for its upload), `pending` (the source arrived and is
 * being transcoded), `viewable` (the first renditions play), `ready` (every rendition is made), `error`.
 */
export const VIDEO_STATUSES = ["empty", "pending", "viewable", "ready", "error"] as const;
export type VideoStatus = (typeof VIDEO_STATUSES)[number];
/** Seconds after its source arrives that a video turns `viewable`, and `ready`. */
export const VIDEO_VIEWABLE_AFTER_S = 10;
export const VIDEO_READY_AFTER_S = 30;
/** A rendition's own state while it is made. */
export const CONVERTED_VIDEO_STATUSES = ["processing", "complete", "error"] as const;
/** The schemes a source URL may use. */
const ORIGIN_SCHEMES = ["http:", "https:", "sftp:"];
/** Screenshots taken of every video once it is viewable. */
export const VIDEO_SCREENSHOTS = 5;
/** A language for subtitles: an ISO 639-2 three-letter code (`eng`, `deu`). */
export const LANGUAGE_CODE = /^[a-z]{3}$/;

const TRANSITIONS =
  `A video made with \`origin_url\` has its source at once and is \`pending\`; one made without waits \`empty\` for its ` +
  `upload (see the upload route) or for a change that gives it an \`origin_url\`. Transcoding is the platform's: ` +
  `${VIDEO_VIEWABLE_AFTER_S} seconds after the source arrives the video is \`viewable\`, after ${VIDEO_READY_AFTER_S} it is \`ready\` ` +
  "(read from the time, on every read; `converted_videos` shows each rendition's progress).";

const convertedVideo = z
  .object({
    id: integer().describe("The rendition's id (the quality's id in the quality set)."),
    name: z.string().describe('The quality, e.g. "vod_720p".'),
    width: integer().describe("Pixels."),
    height: integer().describe("Pixels."),
    mp4_url: z.string().nullable().describe("The rendition as an MP4 file; null until it is complete."),
    progress: integer({ min: 0, max: 100 }).describe("Percent made."),
    size: integer({ column: "bigint" }).describe("Bytes made so far."),
    status: stringEnum(CONVERTED_VIDEO_STATUSES).describe("`processing`, `complete` or `error`."),
    error: z.string().nullable().describe("Why the rendition failed; null when it has not."),
  })
  .strict()
  .describe("One rendition of a video, as transcoding makes it.");

const videoSchema = z
  .object({
    id: integer(),
    name: z.string(),
    description: z.string(),
    client_id: integer().describe("The account."),
    client_user_id: integer().describe("The account's user the video belongs to."),
    directory_id: integer().nullable().describe("The directory the video is filed in; null for the root."),
    status: stringEnum(VIDEO_STATUSES).describe(TRANSITIONS),
    error: z.string().nullable().describe("Why transcoding failed; null when it has not."),
    origin_url: z.string().nullable().describe("Where the source was copied from; null for an upload."),
    origin_size: integer({ column: "bigint" }).nullable().describe("Bytes of the source; null until it has arrived."),
    origin_video_duration: integer().nullable().describe("Length of the source in milliseconds; null until it has arrived."),
    duration: integer().nullable().describe("Length of the transcoded video in milliseconds (the clip's, when one is cut); null until it has arrived."),
    converted_videos: z.array(convertedVideo).describe("The renditions of the video's quality set; empty while it has no source."),
    hls_url: z.string().nullable().describe("HLS manifest (MPEG-TS); null until the video is viewable."),
    hls_cmaf_url: z.string().nullable().describe("HLS manifest (CMAF); null until the video is viewable."),
    dash_url: z.string().nullable().describe("MPEG-DASH manifest; null until the video is viewable."),
    iframe_url: z.string().describe("The platform's embeddable player page."),
    custom_iframe_url: z.string().nullable().describe("The client's own player page, if set."),
    share_url: z.string().nullable().describe("The client's own page to share the video, if set."),
    poster: z.string().nullable().describe("The poster image; null when none is set."),
    poster_thumb: z.string().nullable().describe("A small poster image; null when none is set."),
    screenshot: z.string().nullable().describe("The screenshot chosen by `screenshot_id`; null until the video is viewable."),
    screenshot_id: integer().describe("Which of `screenshots` is the video's screenshot, from 0."),
    screenshots: z.array(z.string()).describe("Screenshots taken while transcoding; empty until the video is viewable."),
    sprite: z.string().nullable().describe("Thumbnails of the timeline in one image; null until the video is ready."),
    sprite_vtt: z.string().nullable().describe("The WebVTT map of `sprite`; null until the video is ready."),
    priority: integer().describe("Local priority in the account's transcoding queue, 0 (default) to 10."),
    projection: stringEnum(STREAM_PROJECTIONS).describe("How the platform's web player renders the video."),
    quality_set_id: integer().nullable().describe("The VOD quality set the video is transcoded with; null for the account's default."),
    record_type: stringEnum(STREAM_RECORD_TYPES).describe("For a recording: what it took, the source or the transcoded output."),
    stream_id: integer().nullable().describe("The stream the video was recorded from; null for uploaded videos."),
    recording_started_at: isoTimestamp.nullable().describe("When the recording began; null for uploaded videos."),
    ad_id: integer().nullable().describe("The advertisement shown with the video; advertisements are not part of this API, so always null."),
    clip_start_seconds: integer().nullable().describe("Where the clip cut from the source starts, in seconds; null when the whole source is used."),
    clip_duration_seconds: integer().nullable().describe("The length of the clip cut from the source, in seconds; null when the whole source is used."),
    auto_transcribe_audio_language: z.string().describe("Subtitles by speech recognition: `disable`, `auto` or the audio's language code."),
    auto_translate_subtitles_language: z.string().describe("Translations of the recognised subtitles: `disable`, `default` or language codes."),
    source_bitrate_limit: z.boolean().describe("Whether renditions are kept under the source's bitrate."),
    slug: z.string().describe("The video's short code in its URLs."),
    views: integer().describe("Views counted by the platform's player."),
    cdn_views: integer().describe("Views counted at the CDN."),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
  })
  .strict()
  .describe("A video (video on demand).");
export interface VideoSchema extends VideoSchemaType {}
type VideoSchemaType = typeof videoSchema;
export const video: VideoSchema = videoSchema;
export type Video = z.infer<typeof video>;

const url = (description: string) =>
  z
    .string()
    .max(2048, "At most 2048 characters.")
    .refine((value) => URL.canParse(value) && ["http:", "https:"].includes(new URL(value).protocol), "Must be an http or https URL.")
    .describe(description);

/** The fields a client sets on a video, on creation and in changes. */
export const videoSettings = {
  name: z.string().min(1, "Must not be empty.").max(255, "At most 255 characters.").describe("The video's name, 1 to 255 characters."),
  description: z.string().max(4096, "At most 4096 characters.").describe("Free text, at most 4096 characters. Default empty."),
  directory_id: integer({ min: 1 }).nullable().describe("A directory of the account to file the video in (400 otherwise); null for the root. Default null."),
  origin_url: z
    .string()
    .max(2048, "At most 2048 characters.")
    .refine(
      (value) => URL.canParse(value) && ORIGIN_SCHEMES.includes(new URL(value).protocol) && new URL(value).hostname !== "",
      "Must be an http, https or sftp URL.",
    )
    .describe(
      "Where the platform copies the source from (http, https or sftp). Given, the video's source arrives at once and transcoding starts; " +
        "a change may give it only to a video that has no source yet (409 otherwise).",
    ),
  origin_http_headers: z
    .string()
    .max(4096, "At most 4096 characters.")
    .describe("Headers sent with the request for `origin_url`, one `Name: value` a line, at most 4096 characters. Kept, never shown again: they may carry credentials."),
  client_user_id: integer({ min: 1 }).describe("The account's user the video belongs to: a user of the account (400 otherwise). Default: the user of the calling token."),
  custom_iframe_url: url("The client's own player page."),
  share_url: url("The client's own page to share the video."),
  poster: url("The poster image, an http or https URL."),
  remote_poster_url: url("A poster image to copy: becomes `poster`. Not with `poster` or `remove_poster`."),
  remove_poster: z.boolean().describe("true removes the poster. Not with `poster` or `remote_poster_url`."),
  priority: integer({ min: 0, max: 10 }).describe("Local priority in the account's transcoding queue, 0 (default) to 10."),
  projection: stringEnum(STREAM_PROJECTIONS).describe("How the platform's web player renders the video. Default `regular`."),
  quality_set_id: integer({ min: 1 })
    .nullable()
    .describe("A VOD quality set of the platform (see the quality sets route; 400 otherwise); null for the account's default. Default null."),
  screenshot_id: integer({ min: 0, max: VIDEO_SCREENSHOTS - 1 }).describe(`Which of the ${VIDEO_SCREENSHOTS} screenshots is the video's, from 0. Default 0.`),
  clip_start_seconds: integer({ min: 0 }).describe("Cut a clip of the source from this second. Needs `clip_duration_seconds`."),
  clip_duration_seconds: integer({ min: 1 }).describe("The clip's length in seconds; `duration` becomes it (or what is left of the source)."),
  auto_transcribe_audio_language: z
    .string()
    .refine((value) => value === "disable" || value === "auto" || LANGUAGE_CODE.test(value), "Must be disable, auto or a three-letter language code.")
    .describe("Subtitles by speech recognition once the video is transcoded: `disable` (default), `auto`, or the audio's language (ISO 639-2, `eng`)."),
  auto_translate_subtitles_language: z
    .string()
    .refine(
      (value) => value === "disable" || value === "default" || value.split(",").every((code) => LANGUAGE_CODE.test(code)),
      "Must be disable, default or comma-separated three-letter language codes.",
    )
    .describe("Translations of the recognised subtitles: `disable` (default), `default`, or comma-separated language codes."),
  source_bitrate_limit: z.boolean().describe("Whether renditions are kept under the source's bitrate. Default true."),
};

/** Fields of a video that only the service sets: sent in a body, each is rejected by name. */
const VIDEO_READ_ONLY = [
  "id",
  "client_id",
  "status",
  "error",
  "origin_size",
  "origin_video_duration",
  "duration",
  "converted_videos",
  "hls_url",
  "hls_cmaf_url",
  "dash_url",
  "iframe_url",
  "poster_thumb",
  "screenshot",
  "screenshots",
  "sprite",
  "sprite_vtt",
  "record_type",
  "stream_id",
  "recording_started_at",
  "ad_id",
  "slug",
  "views",
  "cdn_views",
  "created_at",
  "updated_at",
];

function optional<S extends Record<string, z.ZodTypeAny>>(shape: S) {
  return Object.fromEntries(Object.entries(shape).map(([key, schema]) => [key, schema.optional()])) as { [K in keyof S]: z.ZodOptional<S[K]> };
}
const { name: _name, ...otherSettings } = videoSettings;
const newVideoShape = { name: videoSettings.name, ...optional(otherSettings) };

const newVideoSchema = strictObject(newVideoShape, { readOnly: VIDEO_READ_ONLY }).describe("The new video: `name` is required, every other field has its default.");
export interface NewVideoSchema extends NewVideoSchemaType {}
type NewVideoSchemaType = typeof newVideoSchema;
export const newVideo: NewVideoSchema = newVideoSchema;
export type NewVideo = z.input<typeof newVideo>;

const createVideoBodySchema = strictObject({ video: newVideo }).describe("The new video, wrapped in `video` as the platform takes it.");
export interface CreateVideoBodySchema extends CreateVideoBodySchemaType {}
type CreateVideoBodySchemaType = typeof createVideoBodySchema;
export const createVideoBody: CreateVideoBodySchema = createVideoBodySchema;
export type CreateVideoBody = z.input<typeof createVideoBody>;

const updateVideoBodySchema = strictObject({ name: videoSettings.name.optional(), ...optional(otherSettings) }, { readOnly: VIDEO_READ_ONLY }).describe(
  "The fields to change; fields left out keep their values. `name` may be left out (the platform's SDKs always send it).",
);
export interface UpdateVideoBodySchema extends UpdateVideoBodySchemaType {}
type UpdateVideoBodySchemaType = typeof updateVideoBodySchema;
export const updateVideoBody: UpdateVideoBodySchema = updateVideoBodySchema;
export type UpdateVideoBody = z.input<typeof updateVideoBody>;

/** A subtitle given with a video of a batch. */
export const subtitleSettings = {
  name: z.string().min(1, "Must not be empty.").max(255, "At most 255 characters.").describe("The track's name as players show it, 1 to 255 characters."),
  language: z.string().regex(LANGUAGE_CODE, "Must be a three-letter language code (ISO 639-2), such as eng.").describe("ISO 639-2 language code, e.g. `eng`."),
  vtt: z
    .string()
    .max(512_000, "At most 512000 characters.")
    .refine((value) => /^(\uFEFF)?WEBVTT(\s|$)/.test(value), "Must be WebVTT text: it starts with WEBVTT.")
    .describe("The subtitles, WebVTT text (it starts with `WEBVTT`), at most 512000 characters."),
};

const batchVideoSchema = strictObject(
  {
    ...newVideoShape,
    subtitles: listOf(strictObject(subtitleSettings, { readOnly: ["id"] }), { max: 20, noun: "subtitles", description: "Subtitle tracks of the video, at most 20." }).optional(),
  },
  { readOnly: VIDEO_READ_ONLY },
);

const createVideoBatchBodySchema = strictObject({
  videos: listOf(batchVideoSchema, {
    min: 1,
    max: VIDEO_BATCH_MAX,
    noun: "videos",
    description: `The videos, 1 to ${VIDEO_BATCH_MAX}, each as a single create takes it, with its \`subtitles\`.`,
  }),
}).describe("The videos to make.");
export interface CreateVideoBatchBodySchema extends CreateVideoBatchBodySchemaType {}
type CreateVideoBatchBodySchemaType = typeof createVideoBatchBodySchema;
export const createVideoBatchBody: CreateVideoBatchBodySchema = createVideoBatchBodySchema;
export type CreateVideoBatchBody = z.input<typeof createVideoBatchBody>;

const videoName = z.object({ id: integer(), name: z.string() }).strict().describe("A video's id and name.");

const directUploadSchema = z
  .object({
    token: z.string().describe("The upload's token: send it in the TUS upload's metadata. Made for each call; valid for 24 hours."),
    servers: z
      .array(z.object({ id: integer(), hostname: z.string().describe("The upload server's host name.") }).strict())
      .describe("The upload servers; send the file (TUS protocol) to `https://<hostname>/upload/`."),
    video: video.describe("The video the upload is for."),
  })
  .strict()
  .describe("What a direct upload of a video's source needs.");
export interface DirectUploadSchema extends DirectUploadSchemaType {}
type DirectUploadSchemaType = typeof directUploadSchema;
export const directUpload: DirectUploadSchema = directUploadSchema;
export type DirectUpload = z.infer<typeof directUpload>;

const videoIdParams = z.object({ video_id: idParam("The video id.") });

// The examples' objects: the demo data's, of account 1.
const PLAYBACK = "https://video.cloudplane.example/videos";
export const videoExample: Video = {
  id: 1,
  name: "Product launch keynote",
  description: "The autumn launch, full length.",
  client_id: 1,
  client_user_id: 1,
  directory_id: 1,
  status: "ready",
  error: null,
  origin_url: "https://media.acme.example/keynote-2026.mp4",
  origin_size: 678_000_000,
  origin_video_duration: 2_712_000,
  duration: 2_712_000,
  converted_videos: [
    { id: 1, name: "vod_1080p", width: 1920, height: 1080, mp4_url: `${PLAYBACK}/1_3a1b40a7769b/qid1.mp4`, progress: 100, size: 339_000_000, status: "complete", error: null },
    { id: 2, name: "vod_720p", width: 1280, height: 720, mp4_url: `${PLAYBACK}/1_3a1b40a7769b/qid2.mp4`, progress: 100, size: 226_000_000, status: "complete", error: null },
  ],
  hls_url: `${PLAYBACK}/1_3a1b40a7769b/master.m3u8`,
  hls_cmaf_url: `${PLAYBACK}/1_3a1b40a7769b/master-cmaf.m3u8`,
  dash_url: `${PLAYBACK}/1_3a1b40a7769b/master.mpd`,
  iframe_url: `${PLAYBACK}/1_3a1b40a7769b/player.html`,
  custom_iframe_url: null,
  share_url: null,
  poster: "https://media.acme.example/keynote-poster.jpg",
  poster_thumb: "https://media.acme.example/keynote-poster.jpg",
  screenshot: `${PLAYBACK}/1_3a1b40a7769b/screenshots/0.jpg`,
  screenshot_id: 0,
  screenshots: [0, 1, 2, 3, 4].map((n) => `${PLAYBACK}/1_3a1b40a7769b/screenshots/${n}.jpg`),
  sprite: `${PLAYBACK}/1_3a1b40a7769b/sprite.jpg`,
  sprite_vtt: `${PLAYBACK}/1_3a1b40a7769b/sprite.vtt`,
  priority: 0,
  projection: "regular",
  quality_set_id: null,
  record_type: "origin",
  stream_id: null,
  recording_started_at: null,
  ad_id: null,
  clip_start_seconds: null,
  clip_duration_seconds: null,
  auto_transcribe_audio_language: "disable",
  auto_translate_subtitles_language: "disable",
  source_bitrate_limit: true,
  slug: "3a1b40a7769b",
  views: 1840,
  cdn_views: 2210,
  created_at: "2026-10-16T09:00:00.000Z",
  updated_at: "2026-10-16T09:00:00.000Z",
};
/** A video as it is made from a URL: pending, nothing transcoded yet. */
export const createdVideoExample: Video = {
  ...videoExample,
  id: 41,
  name: "Onboarding, part 1",
  description: "",
  directory_id: null,
  status: "pending",
  origin_url: "https://media.acme.example/onboarding-1.mp4",
  origin_size: 120_586_240,
  origin_video_duration: 604_000,
  duration: 604_000,
  converted_videos: [
    { id: 1, name: "vod_1080p", width: 1920, height: 1080, mp4_url: null, progress: 0, size: 0, status: "processing", error: null },
    { id: 2, name: "vod_720p", width: 1280, height: 720, mp4_url: null, progress: 0, size: 0, status: "processing", error: null },
  ],
  hls_url: null,
  hls_cmaf_url: null,
  dash_url: null,
  iframe_url: `${PLAYBACK}/41_0f1e2d3c4b5a/player.html`,
  poster: null,
  poster_thumb: null,
  screenshot: null,
  screenshots: [],
  sprite: null,
  sprite_vtt: null,
  slug: "0f1e2d3c4b5a",
  views: 0,
  cdn_views: 0,
  created_at: "2026-11-23T19:30:00.000Z",
  updated_at: "2026-11-23T19:30:00.000Z",
};
/** A video made for a direct upload: empty, waiting for its source. */
const emptyVideoExample: Video = {
  ...createdVideoExample,
  id: 43,
  name: "Onboarding, part 2",
  directory_id: null,
  status: "empty",
  origin_url: null,
  origin_size: null,
  origin_video_duration: null,
  duration: null,
  converted_videos: [],
  iframe_url: `${PLAYBACK}/43_9e8d7c6b5a4f/player.html`,
  slug: "9e8d7c6b5a4f",
};

// The cases' objects: the account's first video, and its first video still waiting for its source.
const videoOf = (w: CaseWorld) => w.first("streaming.listVideos");

export const streamingVideosRoutes = {
  listVideos: route({
    method: "GET",
    path: "/streaming/videos",
    query: z.object({
      page: integerParam({ min: 1, description: "The page, from 1. Default 1." }).default(1),
      per_page: integerParam({ min: 1, max: VIDEOS_PER_PAGE_MAX, description: `Videos a page, 1 to ${VIDEOS_PER_PAGE_MAX}. Default ${VIDEOS_PAGE_SIZE}.` }).default(
        VIDEOS_PAGE_SIZE,
      ),
      search: z.string().max(255, "At most 255 characters.").optional().describe("Only videos whose name contains this text, in any case."),
      status: stringEnum(VIDEO_STATUSES).optional().describe("Only videos in this status (as it is at the time of the request)."),
      stream_id: integerParam({ min: 1, description: "Only the recordings of this stream." }).optional(),
      client_user_id: integerParam({ min: 1, description: "Only the videos of this user of the account." }).optional(),
      id: idListQuery("Only these videos: ids repeated (`id=1&id=3`) or comma-separated, at most 100.").optional(),
    }),
    responses: { 200: z.array(video), ...errorResponses() },
    summary: "List videos",
    description:
      "The account's videos that match the filters, newest first (id descending), a page at a time. The body is a bare array; " +
      "the `X-Total-Count` response header carries the number of matching videos. A page past the end is an empty array.",
    metadata: { ...read, client: { pageSize: VIDEOS_PAGE_SIZE } } satisfies ClientMetadata,
  }, {
    example: {
      query: { page: 1, search: "keynote" },
      response: [videoExample],
      responseHeaders: { "X-Total-Count": { description: "The number of the account's videos that match, on every page.", example: 1, type: "integer" } },
    },
    case: { path: () => "/streaming/videos", ownsObjects: false },
  }),
  listVideoNames: route({
    method: "GET",
    path: "/streaming/videos/names",
    query: z.object({ ids: idListQuery(`The videos: ids repeated (\`ids=1&ids=3\`) or comma-separated, 1 to ${VIDEO_NAMES_MAX}.`) }),
    responses: { 200: z.array(videoName), ...errorResponses() },
    summary: "Get the names of videos",
    description: "The id and name of each video named in `ids` that the account has, by id ascending; ids of no video of the account are left out.",
    metadata: { ...read, client: { resource: "videos", method: "listNames" } } satisfies ClientMetadata,
  }, {
    example: { query: { ids: "1,3" }, response: [{ id: 1, name: "Product launch keynote" }, { id: 3, name: "Support webinar: billing" }] },
    // Any ids may be asked for (another account's are left out), so both accounts ask for the same.
    case: { path: () => "/streaming/videos/names?ids=1,2", ownsObjects: false },
  }),
  getVideo: route({
    method: "GET",
    path: "/streaming/videos/:video_id",
    pathParams: videoIdParams,
    responses: { 200: video, ...errorResponses() },
    summary: "Get a video",
    description: `One video of the account, with its status as it is now. ${TRANSITIONS}`,
    metadata: read,
  }, {
    example: { pathParams: { video_id: videoExample.id }, response: videoExample },
    case: { path: (w) => `/streaming/videos/${videoOf(w).id}`, ownsObjects: true },
  }),
  createVideo: route({
    method: "POST",
    path: "/streaming/videos",
    body: createVideoBody,
    responses: { 201: z.array(video), ...errorResponses(withBody) },
    summary: "Create a video",
    description:
      "A new video of the account. With `origin_url` the platform copies the source from it and transcodes it; without, the video waits " +
      `for a direct upload. ${TRANSITIONS} The answer is a list holding the new video, as the platform answers.`,
    metadata: write,
  }, {
    example: {
      body: { video: { name: "Onboarding, part 1", origin_url: "https://media.acme.example/onboarding-1.mp4" } },
      response: [createdVideoExample],
    },
    case: { path: () => "/streaming/videos", ownsObjects: false, body: () => ({ video: { name: uniqueName("route-case-video") } }) },
  }),
  createVideoBatch: route({
    method: "POST",
    path: "/streaming/videos/batch",
    body: createVideoBatchBody,
    responses: { 201: z.array(video), ...errorResponses(withBody) },
    summary: "Create videos in a batch",
    description:
      `Makes 1 to ${VIDEO_BATCH_MAX} videos at once, each as the single create makes it, with its subtitles: all of them or, when ` +
      "any is refused, none (400 names each problem by its place, `videos.2.name`). The answer lists the new videos in the order given.",
    metadata: { ...write, client: { resource: "videos", method: "createMultiple" } } satisfies ClientMetadata,
  }, {
    example: {
      body: { videos: [{ name: "Onboarding, part 2" }] },
      response: [emptyVideoExample],
    },
    case: { path: () => "/streaming/videos/batch", ownsObjects: false, body: () => ({ videos: [{ name: uniqueName("route-case-video") }] }) },
  }),
  updateVideo: route({
    method: "PATCH",
    path: "/streaming/videos/:video_id",
    pathParams: videoIdParams,
    body: updateVideoBody,
    responses: { 200: video, ...errorResponses([409, ...withBody]) },
    summary: "Change a video",
    description:
      "Changes the fields given; the others keep their values. An `origin_url` may be given only to a video still `empty` (409 otherwise): " +
      "its source then arrives and transcoding starts.",
    metadata: write,
  }, {
    example: {
      pathParams: { video_id: videoExample.id },
      body: { name: "Product launch keynote (2026)", description: "The autumn launch, full length, with captions." },
      response: { ...videoExample, name: "Product launch keynote (2026)", description: "The autumn launch, full length, with captions." },
    },
    case: { path: (w) => `/streaming/videos/${videoOf(w).id}`, ownsObjects: true, body: () => ({ description: uniqueName("route-case") }) },
  }),
  deleteVideo: route({
    method: "DELETE",
    path: "/streaming/videos/:video_id",
    pathParams: videoIdParams,
    responses: { 204: c.noBody(), ...errorResponses() },
    summary: "Delete a video",
    description: "Deletes the video for good, with its renditions and subtitles; playlists that listed it no longer do. Answers 204 with no body.",
    metadata: write,
  }, {
    example: { pathParams: { video_id: 5 } },
    case: {
      // The create answers a list holding the new video.
      path: (w, made) => `/streaming/videos/${(Array.isArray(made) ? (made[0] as { id?: number } | undefined)?.id : made?.id) ?? missingId(w.account)}`,
      ownsObjects: true,
      makes: "streaming.createVideo",
    },
  }),
  getVideoUpload: route({
    method: "GET",
    path: "/streaming/videos/:video_id/upload",
    pathParams: videoIdParams,
    responses: { 200: directUpload, ...errorResponses() },
    summary: "Get the parameters of a video's direct upload",
    description:
      "What a client needs to upload the video's source from a device with the TUS protocol: a fresh token, the servers, and the video. " +
      "Asked again, it answers a new token.",
    metadata: { ...read, client: { resource: "videos", method: "getParametersForDirectUpload" } } satisfies ClientMetadata,
  }, {
    example: {
      pathParams: { video_id: videoExample.id },
      response: { token: "tus_7d3f0c9a2b5e4f1a8c6d0e2b4a6f8c1d", servers: [{ id: 1, hostname: "upload-1.video.cloudplane.example" }], video: videoExample },
    },
    case: { path: (w) => `/streaming/videos/${videoOf(w).id}/upload`, ownsObjects: true },
  }),
};
