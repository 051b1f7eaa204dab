/**
 * The Streaming area's demo objects as the API shows them, derived from the fixture's rows: one place
 * for what a stream, an overlay, a broadcast and a restream answer, for every streaming test.
 */
import type { BroadcastDetail, Overlay, Restream, Stream } from "@cloudplane/contract";
import { byColumnName, demoFixture, type DemoRow } from "@cloudplane/db";

const { broadcasts, streamOverlays, streams } = demoFixture;

/** An overlay of the fixture as the API shows it. */
export function shownOverlay(row: DemoRow<"streamOverlays">): Overlay {
  const { account_id: _account, ...fields } = byColumnName("streamOverlays", row);
  return fields as Overlay;
}

/** The broadcasts of a fixture stream, by id. */
export const broadcastsOfStream = (stream: DemoRow<"streams">) =>
  broadcasts.filter((broadcast) => broadcast.accountId === stream.accountId && broadcast.streamId === stream.id).sort((a, b) => a.id - b.id);

/** The stream as the API shows it: the fixture's fields but the account's and the service's own, and what the API derives from them. */
export function shownStream(stream: DemoRow<"streams">): Stream {
  const {
    account_id: _account,
    ingest_region_primary: regionPrimary,
    ingest_region_backup: regionBackup,
    dvr_cleared_at: _cleared,
    recording_started_at: _recording,
    ...fields
  } = byColumnName("streams", stream);
  return {
    ...fields,
    // The demo data records nothing.
    recording_duration: 0,
    dvr_enabled: stream.dvrDuration > 0,
    broadcast_ids: broadcastsOfStream(stream).map((broadcast) => broadcast.id),
    token: stream.pushUrl.split("?")[1]!,
    active_ingest_region_primary: regionPrimary,
    active_ingest_region_backup: regionBackup,
    html_overlays: streamOverlays
      .filter((overlay) => overlay.accountId === stream.accountId && overlay.streamId === stream.id)
      .sort((a, b) => a.id - b.id)
      .map(shownOverlay),
  } as Stream;
}

/** A broadcast of the fixture as the API shows it. */
export function shownBroadcast(row: DemoRow<"broadcasts">): BroadcastDetail {
  return {
    id: row.id,
    name: row.name,
    status: row.status as BroadcastDetail["status"],
    stream_ids: [row.streamId],
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
