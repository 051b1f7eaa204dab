/**
 * The Streaming area's demo objects as the API shows them, derived from the fixture's rows: one place
 * for what a stream, an overlay, a broadcast and a restream answer, for every streaming test.
 */
import type { BroadcastDetail, Restream } from "@cloudplane/contract";
import { demoFixture, type DemoRow } from "@cloudplane/db";

const { broadcasts, broadcastStreams, streams } = demoFixture;

/** The streams a fixture broadcast shows, in their order. */
export const streamsOfBroadcast = (broadcast: DemoRow<"broadcasts">) =>
  broadcastStreams
    .filter((shown) => shown.broadcastId === broadcast.id)
    .sort((a, b) => a.position - b.position)
    .map((shown) => shown.streamId);

/** An overlay, and a stream, of the fixture as the API shows them. */
export { shownDemoOverlay as shownOverlay, shownDemoStream as shownStream } from "@cloudplane/db/testing";

/** The broadcasts of a fixture stream, by id. */
export const broadcastsOfStream = (stream: DemoRow<"streams">) =>
  broadcasts
    .filter((broadcast) => broadcast.accountId === stream.accountId && streamsOfBroadcast(broadcast).includes(stream.id))
    .sort((a, b) => a.id - b.id);

/** A broadcast of the fixture as the API shows it. */
export function shownBroadcast(row: DemoRow<"broadcasts">): BroadcastDetail {
  return {
    id: row.id,
    name: row.name,
    status: row.status as BroadcastDetail["status"],
    stream_ids: streamsOfBroadcast(row),
    ad_id: row.adId,
    custom_iframe_url: row.customIframeUrl,
    pending_message: row.pendingMessage,
    player_id: row.playerId,
    poster: row.poster,
    share_url: row.shareUrl,
    show_dvr_after_finish: row.showDvrAfterFinish,
  };
}

/** A restream of the fixture as the API shows it: live while active and its stream is live. */
export function shownRestream(row: DemoRow<"restreams">): Restream {
  const stream = streams.find((candidate) => candidate.id === row.streamId)!;
  return {
    id: row.id,
    name: row.name,
    stream_id: row.streamId,
    uri: row.uri,
    active: row.active,
    live: row.active && (stream.live || stream.backupLive),
    client_user_id: row.clientUserId,
  };
}
