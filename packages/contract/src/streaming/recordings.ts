/**
 * Streaming recordings: a live stream's recording started and stopped on request, each stopped
 * recording kept as a video (VOD) that is then transcoded as an upload is; their schemas and routes.
 */
import { z } from "zod";
import { emptyInput, errorResponses, integer, withBody } from "../common.js";
import { streamExample } from "../examples.js";
import { write } from "../roles.js";
import { route } from "../route.js";
import { missingId, type CaseWorld } from "../route-case.js";
import { streamIdParams } from "./streams.js";
import { createdVideoExample, video, type Video } from "./videos.js";

/** The streaming storage an account may fill, in megabytes (MiB); a recording's start warns past `STORAGE_WARNING_SHARE` of it. */
export const STREAMING_STORAGE_LIMIT_MB = 1_048_576;
export const STORAGE_WARNING_SHARE = 0.9;

const STORAGE_RULE =
  `An account's videos may fill ${STREAMING_STORAGE_LIMIT_MB} MB (1 TiB); \`storage_usage_mb\` is the size of the sources of its ` +
  "videos, recordings included.";

const storageState = {
  storage_limit_mb: integer().describe(`The streaming storage the account may fill, in megabytes: ${STREAMING_STORAGE_LIMIT_MB}.`),
  storage_usage_mb: z.number().describe("The streaming storage the account's videos fill, in megabytes."),
};

const recordingStartSchema = z
  .object({
    data: z
      .object({
        stream: z
          .object({
            id: integer(),
            client: z
              .object({ id: integer().describe("The account id."), ...storageState })
              .strict()
              .describe("The account the recording is kept for, with its streaming storage."),
          })
          .strict()
          .describe("The stream being recorded."),
      })
      .strict()
      .describe("What is recorded, and where it is kept."),
    errors: z
      .array(z.object({}).strict())
      .max(0)
      .describe("Always empty: a recording that cannot start answers an error status (404 or 422) instead."),
    warnings: z
      .array(
        z
          .object({
            key: z.literal("client_storage_almost_exceeded").describe("What the warning is about."),
            meta: z.object(storageState).strict().describe("The account's streaming storage."),
            source_object: z
              .object({ id: integer().describe("The account id."), type: z.literal("client").describe("What the warning is of: the account.") })
              .strict()
              .describe("Whose storage it is."),
          })
          .strict(),
      )
      .describe(`\`client_storage_almost_exceeded\` when the account's videos fill more than ${STORAGE_WARNING_SHARE * 100}% of its storage; else empty.`),
  })
  .strict()
  .describe("A recording under way: the stream, the account's storage, and any warning about it.");
export interface RecordingStartSchema extends RecordingStartSchemaType {}
type RecordingStartSchemaType = typeof recordingStartSchema;
export const recordingStart: RecordingStartSchema = recordingStartSchema;
export type RecordingStart = z.infer<typeof recordingStart>;


/** A live stream of the account: the demo data has one in each account. */
const liveStreamOf = (w: CaseWorld) => w.first("streaming.listStreams", { where: (stream) => stream.live === true });

const startedExample: RecordingStart = {
  data: { stream: { id: streamExample.id, client: { id: 1, storage_limit_mb: STREAMING_STORAGE_LIMIT_MB, storage_usage_mb: 1843.2 } } },
  errors: [],
  warnings: [],
};

const recordedExample: Video = {
  ...createdVideoExample,
  id: 42,
  name: `Stream Record: ${streamExample.name}, 2026-11-26 18:30:00 UTC`,
  origin_url: null,
  origin_size: 450_000_000,
  origin_video_duration: 1_800_000,
  duration: 1_800_000,
  iframe_url: createdVideoExample.iframe_url.replace(`41_${createdVideoExample.slug}`, "42_5c0e2d9f81a4"),
  slug: "5c0e2d9f81a4",
  stream_id: streamExample.id,
  recording_started_at: "2026-11-26T18:00:00.000Z",
  created_at: "2026-11-26T18:30:00.000Z",
  updated_at: "2026-11-26T18:30:00.000Z",
};

export const streamingRecordingsRoutes = {
  startStreamRecording: route({
    method: "PUT",
    path: "/streaming/streams/:stream_id/start_recording",
    pathParams: streamIdParams,
    body: emptyInput("the path names the stream"),
    responses: { 200: recordingStart, ...errorResponses([422, ...withBody]) },
    summary: "Start recording a stream",
    description:
      "Starts recording the live stream into a new video: the stream's `recording_duration` counts the seconds from now on, until " +
      "a stop (PUT …/stop_recording) keeps them as a video. The stream must be live, otherwise 422: a stream is live only while a " +
      "broadcast arrives at its ingest (no request of this API makes one live; in tests, the test kit's `setStreamLive` does), so " +
      "on a newly provisioned account this answers 422 until one is; the demo data's stream 1 is live. Starting a stream that is being recorded goes on with the same " +
      `recording and answers the same. What is recorded is the stream's \`record_type\` (its source, or its transcoded output with overlays). ${STORAGE_RULE}`,
    metadata: write,
  }, {
    example: {
      pathParams: { stream_id: streamExample.id },
      body: {},
      response: startedExample,
      newAccount: { status: 422, because: "A recording takes a live stream, and only a broadcast at its ingest makes a stream live." },
    },
    case: { path: (w) => `/streaming/streams/${liveStreamOf(w).id}/start_recording`, ownsObjects: true, body: () => ({}) },
  }),
  stopStreamRecording: route({
    method: "PUT",
    path: "/streaming/streams/:stream_id/stop_recording",
    pathParams: streamIdParams,
    body: emptyInput("the path names the stream"),
    responses: { 200: video, ...errorResponses([422, ...withBody]) },
    summary: "Stop recording a stream",
    description:
      'Stops the stream\'s recording and keeps it as a video, which it answers: named "Stream Record: <stream name>, ' +
      '<end time, YYYY-MM-DD HH:MM:SS UTC>", of the stream\'s user, with `stream_id`, `recording_started_at` and the stream\'s ' +
      "`record_type`, as long as the recording ran (at least one second), at 2 Mbit/s. The video is then transcoded as an " +
      "upload is (`pending`, `viewable`, `ready`). The stream's `recording_duration` is 0 again, and a later start records " +
      "into another video. A stream that is not being recorded answers 422, and nothing is made.",
    metadata: write,
  }, {
    example: {
      pathParams: { stream_id: streamExample.id },
      body: {},
      response: recordedExample,
      newAccount: { status: 422, because: "Only a recording that was started can be stopped, and a recording takes a live stream." },
    },
    case: {
      // The start that made the recording records the account's live stream.
      path: (w, made) => `/streaming/streams/${made ? liveStreamOf(w).id : missingId(w.account)}/stop_recording`,
      ownsObjects: true,
      body: () => ({}),
      makes: "streaming.startStreamRecording",
    },
  }),
};
