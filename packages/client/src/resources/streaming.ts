/**
 * Video streaming: streams (a paged listing, details, creation, changes, deletion) and the clips
 * recorded from a live stream's DVR (`client.streaming.streams`).
 */
import type {
  ClipRecording,
  Contract,
  CreateClipRecordingBody,
  CreateStreamBody,
  STREAMS_PAGE_SIZE,
  Stream,
  UpdateStreamBody,
} from "@cloudplane/contract";
import type { APIPromise } from "../core/api-promise.js";
import type { ClientOptions, RequestOptions } from "../core/options.js";
import { pageNumberPaging, type PagePromise } from "../core/pagination.js";
import { APIResource } from "../core/resource.js";
import type { Query } from "../core/routes.js";
import { streamingRoutes } from "../core/routes.generated.js";
import { Transport } from "../core/transport.js";

export type ListStreamsQuery = Query<Contract["streaming"]["listStreams"]>;

// Typed by the contract's constant, so a change of page size there fails to compile here; importing
// the value itself would bundle the whole contract and zod.
const pageSize: typeof STREAMS_PAGE_SIZE = 25;
const streamsPaging = /* @__PURE__ */ pageNumberPaging<Stream, ListStreamsQuery>(pageSize);

export class Streams extends APIResource {
  /**
   * `GET /streaming/streams`: one page (`page`, from 1) of 25 streams, newest first; `total` comes from
   * the `X-Total-Count` header. `for await` over the result goes through every stream of every page.
   */
  list(query?: ListStreamsQuery, options?: RequestOptions): PagePromise<Stream, Stream[]> {
    return this.transport.list(streamingRoutes.listStreams, { query }, options, streamsPaging);
  }

  /** `GET /streaming/streams/{stream_id}`: one stream. */
  get(streamId: number, options?: RequestOptions): APIPromise<Stream> {
    return this.transport.request(streamingRoutes.getStream, { params: { stream_id: streamId } }, options);
  }

  /**
   * `POST /streaming/streams`: a new stream (only `name` is required), not live yet, with fresh ingest
   * and playback URLs. A pull stream needs `uri`.
   */
  create(body: CreateStreamBody, options?: RequestOptions): APIPromise<Stream> {
    return this.transport.request(streamingRoutes.createStream, { body }, options);
  }

  /** `PATCH /streaming/streams/{stream_id}`: changes the fields given in `body.stream`; the others stay. */
  update(streamId: number, body: UpdateStreamBody, options?: RequestOptions): APIPromise<Stream> {
    return this.transport.request(streamingRoutes.updateStream, { params: { stream_id: streamId }, body }, options);
  }

  /** `DELETE /streaming/streams/{stream_id}`: deletes the stream with its clips and broadcasts; resolves with no value. */
  delete(streamId: number, options?: RequestOptions): APIPromise<void> {
    return this.transport.request(streamingRoutes.deleteStream, { params: { stream_id: streamId } }, options);
  }

  /** `GET /streaming/streams/{stream_id}/clip_recording`: the stream's clips that have not expired, newest first. */
  listClips(streamId: number, options?: RequestOptions): APIPromise<ClipRecording[]> {
    return this.transport.request(streamingRoutes.listClipRecordings, { params: { stream_id: streamId } }, options);
  }

  /**
   * `PUT /streaming/streams/{stream_id}/clip_recording`: cuts a clip out of a live stream's DVR window
   * (times are Unix seconds). A stream that is not live with DVR on is UnprocessableEntityError.
   */
  createClip(streamId: number, body: CreateClipRecordingBody, options?: RequestOptions): APIPromise<ClipRecording> {
    return this.transport.request(streamingRoutes.createClipRecording, { params: { stream_id: streamId }, body }, options);
  }
}

/** The Video streaming area. */
export class Streaming {
  readonly streams: Streams;

  constructor(transport: Transport) {
    this.streams = new Streams(transport);
  }
}

/** A client of the Video streaming area alone, for bundles that need nothing else. */
export function createStreamingClient(options?: ClientOptions): Streaming {
  return new Streaming(new Transport(options));
}
