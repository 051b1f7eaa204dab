/**
 * Streaming area: live streams, their broadcasts, and the clips recorded from their DVR window.
 */
import { BROADCAST_STATUSES, STREAM_PROJECTIONS, STREAM_RECORD_TYPES, STREAM_SOURCE_TYPES } from "@cloudplane/contract";
import { relations, sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  doublePrecision,
  foreignKey,
  index,
  integer,
  pgTable,
  text,
  unique,
} from "drizzle-orm/pg-core";
import { identityId, sqlList, timestamptz } from "./columns.js";
import { accountId, accounts, users } from "./iam/account.js";

export const streams = pgTable(
  "streams",
  {
    id: identityId(),
    accountId: accountId(),
    /** The account's user the stream belongs to (the API's client_user_id). */
    clientUserId: integer("client_user_id").notNull(),
    name: text("name").notNull(),
    pull: boolean("pull").notNull().default(false),
    active: boolean("active").notNull().default(true),
    autoRecord: boolean("auto_record").notNull().default(false),
    htmlOverlay: boolean("html_overlay").notNull().default(false),
    live: boolean("live").notNull().default(false),
    backupLive: boolean("backup_live").notNull().default(false),
    uri: text("uri"),
    pushUrl: text("push_url").notNull(),
    backupPushUrl: text("backup_push_url").notNull(),
    pushUrlSrt: text("push_url_srt").notNull(),
    backupPushUrlSrt: text("backup_push_url_srt").notNull(),
    pushUrlWhip: text("push_url_whip").notNull(),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    startedAtPrimary: timestamptz("started_at_primary"),
    finishedAtPrimary: timestamptz("finished_at_primary"),
    startedAtBackup: timestamptz("started_at_backup"),
    /** Seconds of DVR window; 0: DVR is off (no clips can be cut). */
    dvrDuration: integer("dvr_duration").notNull().default(0),
    recordingDuration: integer("recording_duration").notNull().default(0),
    iframeUrl: text("iframe_url").notNull(),
    dashUrl: text("dash_url").notNull(),
    hlsCmafUrl: text("hls_cmaf_url").notNull(),
    hlsMpegtsUrl: text("hls_mpegts_url").notNull(),
    screenshot: text("screenshot").notNull(),
    transcodedQualities: text("transcoded_qualities").array().notNull().default(sql`'{}'::text[]`),
    transcodingSpeed: doublePrecision("transcoding_speed").notNull().default(0),
    frameRate: doublePrecision("frame_rate").notNull().default(0),
    videoHeight: integer("video_height").notNull().default(0),
    videoWidth: integer("video_width").notNull().default(0),
    /** How the platform's web player renders the stream (the contract's STREAM_PROJECTIONS). */
    projection: text("projection").notNull().default("regular"),
    /** What a recording takes: the source as sent (`origin`) or the transcoded output (the contract's STREAM_RECORD_TYPES). */
    recordType: text("record_type").notNull().default("origin"),
    qualitySetId: integer("quality_set_id"),
    /** A CDN resource of the account that delivers the stream; checked when written. */
    cdnId: integer("cdn_id"),
    /** The client's own data about the stream, kept as text and never read. */
    clientEntityData: text("client_entity_data"),
    hlsMpegtsEndlistTag: boolean("hls_mpegts_endlist_tag").notNull().default(false),
    /** The protocol the live ingest arrives over; null while the stream is not live. Set by the service. */
    streamSourceType: text("stream_source_type"),
    /** The passphrase an SRT sender encrypts with; null: SRT ingest is not encrypted. */
    srtPassphrase: text("srt_passphrase"),
    /** The ingest regions receiving the primary and the backup ingest; null while that ingest is not live. Set by the service. */
    ingestRegionPrimary: text("ingest_region_primary"),
    ingestRegionBackup: text("ingest_region_backup"),
    /** When the DVR window was last cleared: no clip starts before it. Null: never. */
    dvrClearedAt: timestamptz("dvr_cleared_at"),
  },
  (t) => [
    // Also serves the listing: the account's streams by id descending.
    unique("streams_account_id_id_unique").on(t.accountId, t.id),
    foreignKey({
      name: "streams_client_user_fk",
      columns: [t.accountId, t.clientUserId],
      foreignColumns: [users.accountId, users.id],
    }),
    check("streams_dvr_duration_check", sql`${t.dvrDuration} >= 0`),
    check("streams_projection_check", sql`${t.projection} in (${sql.raw(sqlList(STREAM_PROJECTIONS))})`),
    check("streams_record_type_check", sql`${t.recordType} in (${sql.raw(sqlList(STREAM_RECORD_TYPES))})`),
    check("streams_stream_source_type_check", sql`${t.streamSourceType} in (${sql.raw(sqlList(STREAM_SOURCE_TYPES))})`),
  ],
);

export const broadcasts = pgTable(
  "broadcasts",
  {
    id: identityId(),
    accountId: accountId(),
    streamId: integer("stream_id").notNull(),
    name: text("name").notNull(),
    status: text("status").notNull().default("pending"),
    created: timestamptz("created").notNull().defaultNow(),
    adId: integer("ad_id"),
    customIframeUrl: text("custom_iframe_url"),
    pendingMessage: text("pending_message"),
    playerId: integer("player_id"),
    poster: text("poster"),
    shareUrl: text("share_url"),
    showDvrAfterFinish: boolean("show_dvr_after_finish").notNull().default(false),
    /** Viewers watching now, as the player reports them; 0 whenever the broadcast is not live. */
    spectators: integer("spectators").notNull().default(0),
  },
  (t) => [
    index("broadcasts_account_id_stream_id_idx").on(t.accountId, t.streamId, t.id),
    check("broadcasts_status_check", sql`${t.status} in (${sql.raw(sqlList(BROADCAST_STATUSES))})`),
    check("broadcasts_spectators_check", sql`${t.spectators} >= 0 and (${t.status} = 'live' or ${t.spectators} = 0)`),
    foreignKey({
      name: "broadcasts_stream_fk",
      columns: [t.accountId, t.streamId],
      foreignColumns: [streams.accountId, streams.id],
    }).onDelete("cascade"),
  ],
);

/** A clip cut from a stream's DVR window. Times are Unix seconds, as the API shows them. */
export const clips = pgTable(
  "clips",
  {
    id: text("id").primaryKey(),
    accountId: accountId(),
    streamId: integer("stream_id").notNull(),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    vodRequired: boolean("vod_required").notNull().default(false),
    videoId: integer("video_id"),
    renditions: text("renditions").array().notNull().default(sql`'{}'::text[]`),
    hlsMaster: text("hls_master").notNull(),
    mp4Master: text("mp4_master").notNull(),
    start: bigint("start", { mode: "number" }).notNull(),
    duration: integer("duration").notNull(),
    expiration: bigint("expiration", { mode: "number" }).notNull(),
  },
  (t) => [
    index("clips_account_id_stream_id_idx").on(t.accountId, t.streamId, t.createdAt),
    foreignKey({
      name: "clips_stream_fk",
      columns: [t.accountId, t.streamId],
      foreignColumns: [streams.accountId, streams.id],
    }).onDelete("cascade"),
    check("clips_duration_check", sql`${t.duration} > 0`),
  ],
);

/** An HTML overlay widget shown over a stream: placed by its box (width, height, x, y) or stretched over the frame. */
export const streamOverlays = pgTable(
  "stream_overlays",
  {
    id: identityId(),
    accountId: accountId(),
    streamId: integer("stream_id").notNull(),
    url: text("url").notNull(),
    width: integer("width"),
    height: integer("height"),
    x: integer("x"),
    y: integer("y"),
    stretch: boolean("stretch").notNull().default(false),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    updatedAt: timestamptz("updated_at").notNull().defaultNow(),
  },
  (t) => [
    index("stream_overlays_account_id_stream_id_idx").on(t.accountId, t.streamId, t.id),
    foreignKey({
      name: "stream_overlays_stream_fk",
      columns: [t.accountId, t.streamId],
      foreignColumns: [streams.accountId, streams.id],
    }).onDelete("cascade"),
  ],
);

/** A restream: the stream's output pushed on to another platform's ingest (`uri`). */
export const restreams = pgTable(
  "restreams",
  {
    id: identityId(),
    accountId: accountId(),
    streamId: integer("stream_id").notNull(),
    clientUserId: integer("client_user_id").notNull(),
    name: text("name").notNull(),
    uri: text("uri").notNull(),
    active: boolean("active").notNull().default(true),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
  },
  (t) => [
    index("restreams_account_id_id_idx").on(t.accountId, t.id),
    index("restreams_account_id_stream_id_idx").on(t.accountId, t.streamId),
    foreignKey({
      name: "restreams_stream_fk",
      columns: [t.accountId, t.streamId],
      foreignColumns: [streams.accountId, streams.id],
    }).onDelete("cascade"),
    foreignKey({
      name: "restreams_client_user_fk",
      columns: [t.accountId, t.clientUserId],
      foreignColumns: [users.accountId, users.id],
    }),
  ],
);

export const streamsRelations = relations(streams, ({ one, many }) => ({
  account: one(accounts, { fields: [streams.accountId], references: [accounts.id] }),
  clientUser: one(users, { fields: [streams.clientUserId], references: [users.id] }),
  broadcasts: many(broadcasts),
  clips: many(clips),
  overlays: many(streamOverlays),
  restreams: many(restreams),
}));

export const broadcastsRelations = relations(broadcasts, ({ one }) => ({
  stream: one(streams, { fields: [broadcasts.streamId], references: [streams.id] }),
}));

export const clipsRelations = relations(clips, ({ one }) => ({
  stream: one(streams, { fields: [clips.streamId], references: [streams.id] }),
}));

export const streamOverlaysRelations = relations(streamOverlays, ({ one }) => ({
  stream: one(streams, { fields: [streamOverlays.streamId], references: [streams.id] }),
}));

export const restreamsRelations = relations(restreams, ({ one }) => ({
  stream: one(streams, { fields: [restreams.streamId], references: [streams.id] }),
}));
