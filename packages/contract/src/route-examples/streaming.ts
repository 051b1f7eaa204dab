/**
 * Example calls of the Streaming area's routes, keyed by route id (see ../route-examples.ts).
 */
import * as examples from "../examples.js";
import type { Stream } from "../streaming.js";
import type { AreaRouteExamples } from "./example.js";

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

export const streamingRouteExamples = {
  "streaming.listStreams": {
    query: { page: 1 },
    response: [examples.streamExample],
    responseHeaders: {
      "X-Total-Count": { description: "The total number of the account's streams, on every page.", example: 1, type: "integer" },
    },
  },
  "streaming.getStream": {
    pathParams: { stream_id: examples.streamExample.id },
    response: examples.streamExample,
  },
  "streaming.createStream": {
    body: { name: "Acme town hall", dvr_enabled: true, dvr_duration: 1800, client_entity_data: '{"event":"town-hall-2026"}' },
    response: createdStream,
  },
  "streaming.updateStream": {
    pathParams: { stream_id: examples.streamExample.id },
    body: { stream: { name: "Acme lobby cam 1 (main entrance)", record_type: "transcoded" } },
    response: { ...examples.streamExample, name: "Acme lobby cam 1 (main entrance)", record_type: "transcoded" },
  },
  "streaming.deleteStream": {
    pathParams: { stream_id: 71 },
    // A 204 has no body; the example type asks for one (reported to the lead).
  },
  "streaming.listClipRecordings": {
    pathParams: { stream_id: examples.streamExample.id },
    response: [examples.clipRecordingExample],
  },
  "streaming.createClipRecording": {
    pathParams: { stream_id: examples.streamExample.id },
    body: examples.createClipRecordingExample,
    response: examples.clipRecordingExample,
  },
} satisfies AreaRouteExamples<"streaming">;
