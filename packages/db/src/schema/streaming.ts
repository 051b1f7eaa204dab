/**
 * Streaming area: live streams, their broadcasts, the clips recorded from their DVR window, and what the
 * statistics are answered from (the player's events, the CDN's viewing, the live ingest's minutes, VOD usage);
 * videos on demand: quality sets, directories, videos and their subtitles, players, playlists, AI tasks.
 */
import { BROADCAST_STATUSES, PLAYER_EVENTS, STREAM_PROJECTIONS, STREAM_RECORD_TYPES, STREAM_SOURCE_TYPES, STREAMING_ENTITY_TYPES } from "@cloudplane/contract";
import { relations, sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  doublePrecision,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  unique,
  uuid,
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
    /** When the recording under way started (start_recording); null while the stream is not being recorded. */
    recordingStartedAt: timestamptz("recording_started_at"),
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

/** A broadcast: how streams are shown to viewers in the platform's player. Its streams are `broadcast_streams`. */
export const broadcasts = pgTable(
  "broadcasts",
  {
    id: identityId(),
    accountId: accountId(),
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
    unique("broadcasts_account_id_id_unique").on(t.accountId, t.id),
    check("broadcasts_status_check", sql`${t.status} in (${sql.raw(sqlList(BROADCAST_STATUSES))})`),
    check("broadcasts_spectators_check", sql`${t.spectators} >= 0 and (${t.status} = 'live' or ${t.spectators} = 0)`),
  ],
);

/**
 * The streams a broadcast shows, in the order given (at least one: a deleted stream leaves its broadcasts,
 * and a broadcast left with none is deleted with it, by the stream's delete).
 */
export const broadcastStreams = pgTable(
  "broadcast_streams",
  {
    accountId: accountId(),
    broadcastId: integer("broadcast_id").notNull(),
    position: integer("position").notNull(),
    streamId: integer("stream_id").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.broadcastId, t.position] }),
    unique("broadcast_streams_broadcast_id_stream_id_unique").on(t.broadcastId, t.streamId),
    // A stream's broadcast_ids.
    index("broadcast_streams_account_id_stream_id_idx").on(t.accountId, t.streamId, t.broadcastId),
    foreignKey({ name: "broadcast_streams_broadcast_fk", columns: [t.accountId, t.broadcastId], foreignColumns: [broadcasts.accountId, broadcasts.id] }).onDelete("cascade"),
    foreignKey({ name: "broadcast_streams_stream_fk", columns: [t.accountId, t.streamId], foreignColumns: [streams.accountId, streams.id] }).onDelete("cascade"),
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
  broadcasts: many(broadcastStreams),
  clips: many(clips),
  overlays: many(streamOverlays),
  restreams: many(restreams),
}));

export const broadcastsRelations = relations(broadcasts, ({ many }) => ({
  streams: many(broadcastStreams),
}));

export const broadcastStreamsRelations = relations(broadcastStreams, ({ one }) => ({
  broadcast: one(broadcasts, { fields: [broadcastStreams.broadcastId], references: [broadcasts.id] }),
  stream: one(streams, { fields: [broadcastStreams.streamId], references: [streams.id] }),
}));

export const clipsRelations = relations(clips, ({ one }) => ({
  stream: one(streams, { fields: [clips.streamId], references: [streams.id] }),
}));

/**
 * What the streaming statistics are answered from. No foreign key to streams: a deleted stream's history
 * stays its account's. Videos (VOD) and playlists are named by a plain integer id (`entity_id`, `video_id`)
 * with no table behind it here.
 */

/**
 * One event of the platform's built-in web player: `init` (the player loaded), `start` (playback began:
 * a view), `watch` (a progress report while playing). `entity_id` is a stream's id for `live`, a video's
 * for `vod`, a playlist's for `playlist`; `position_seconds` is where in the video the player was (0 for live).
 */
export const streamingPlayerEvents = pgTable(
  "streaming_player_events",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    accountId: accountId(),
    time: timestamptz("time").notNull(),
    type: text("type").notNull(),
    entityId: integer("entity_id").notNull(),
    event: text("event").notNull(),
    /** The host name of the page the player was embedded in, and the page's URL. */
    host: text("host").notNull(),
    embedUrl: text("embed_url").notNull(),
    os: text("os").notNull(),
    browser: text("browser").notNull(),
    /** desktop, mobile, tablet or tv. */
    platform: text("platform").notNull(),
    ip: text("ip").notNull(),
    /** ISO 3166 alpha-2 code, and the ISO 3166-2 code and English name of the region in it. */
    country: text("country").notNull(),
    region: text("region").notNull(),
    regionName: text("region_name").notNull(),
    positionSeconds: integer("position_seconds").notNull().default(0),
  },
  (t) => [
    // Every statistics query reads one account's time range.
    index("streaming_player_events_account_id_time_idx").on(t.accountId, t.time),
    check("streaming_player_events_type_check", sql`${t.type} in (${sql.raw(sqlList(STREAMING_ENTITY_TYPES))})`),
    check("streaming_player_events_event_check", sql`${t.event} in (${sql.raw(sqlList(PLAYER_EVENTS))})`),
  ],
);

/**
 * One viewer's watching of a stream, video or playlist through the CDN in one 5-minute bucket, whatever
 * player was used: `viewer` stands for the viewer's IP address and user agent (a hash of both),
 * `watched_seconds` the seconds of video delivered to them in the bucket. `client_user_id` is the account's
 * user the stream or video belongs to; `slug` the video's slug, as its URLs carry it (null for live).
 */
export const streamingCdnViews = pgTable(
  "streaming_cdn_views",
  {
    accountId: accountId(),
    bucket: timestamptz("bucket").notNull(),
    type: text("type").notNull(),
    entityId: integer("entity_id").notNull(),
    clientUserId: integer("client_user_id").notNull(),
    slug: text("slug"),
    viewer: text("viewer").notNull(),
    watchedSeconds: integer("watched_seconds").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.bucket, t.type, t.entityId, t.viewer] }),
    check("streaming_cdn_views_type_check", sql`${t.type} in (${sql.raw(sqlList(STREAMING_ENTITY_TYPES))})`),
    check("streaming_cdn_views_watched_seconds_check", sql`${t.watchedSeconds} between 0 and 300`),
  ],
);

/**
 * What the ingest of a live stream measured in one minute while it was on the air (the stream's ffprobe):
 * its bitrate, frame rate, height, keyframe interval and frames. A minute with a row is a minute the
 * stream was transcoded.
 */
export const streamingLiveMinutes = pgTable(
  "streaming_live_minutes",
  {
    accountId: accountId(),
    minute: timestamptz("minute").notNull(),
    streamId: integer("stream_id").notNull(),
    /** Bits a second. */
    bitrate: bigint("bitrate", { mode: "number" }).notNull(),
    fps: doublePrecision("fps").notNull(),
    height: integer("height").notNull(),
    /** Frames between keyframes. */
    keyframeInterval: integer("keyframe_interval").notNull(),
    frames: integer("frames").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.minute, t.streamId] }),
    index("streaming_live_minutes_account_id_stream_id_minute_idx").on(t.accountId, t.streamId, t.minute),
  ],
);

/**
 * The account's videos (VOD) as measured every 8 hours: the bytes and the minutes of video stored (every
 * processed video not deleted), and the minutes of video transcoded since the previous measure.
 */
export const streamingVodUsage = pgTable(
  "streaming_vod_usage",
  {
    accountId: accountId(),
    time: timestamptz("time").notNull(),
    storageBytes: bigint("storage_bytes", { mode: "number" }).notNull(),
    storageMinutes: bigint("storage_minutes", { mode: "number" }).notNull(),
    transcodingMinutes: bigint("transcoding_minutes", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.time] })],
);
export const streamOverlaysRelations = relations(streamOverlays, ({ one }) => ({
  stream: one(streams, { fields: [streamOverlays.streamId], references: [streams.id] }),
}));

export const restreamsRelations = relations(restreams, ({ one }) => ({
  stream: one(streams, { fields: [restreams.streamId], references: [streams.id] }),
}));

// ---------------------------------------------------------------------------------------------
// Video on demand: quality sets, directories, videos and their subtitles, players, playlists, AI tasks.

/** The platform's quality sets (catalog, no account): what live streams and videos are transcoded into. */
export const streamingQualitySets = pgTable(
  "streaming_quality_sets",
  {
    id: identityId(),
    /** `live` or `vod`. */
    kind: text("kind").notNull(),
    name: text("name").notNull(),
    /** The renditions, best first: `{id, name}` with the height in the name (`vod_720p`). */
    qualities: jsonb("qualities").$type<{ id: number; name: string }[]>().notNull(),
    /** The set an account uses until it picks its own default. */
    platformDefault: boolean("platform_default").notNull().default(false),
  },
  (t) => [check("streaming_quality_sets_kind_check", sql`${t.kind} in ('live', 'vod')`)],
);

/** An account's own default quality set of a kind; none: the platform's default. */
export const streamingDefaultQualitySets = pgTable(
  "streaming_default_quality_sets",
  {
    accountId: accountId(),
    kind: text("kind").notNull(),
    qualitySetId: integer("quality_set_id")
      .notNull()
      .references(() => streamingQualitySets.id),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.kind] })],
);

/** The folders an account files its videos in; a directory may sit in another (`parent_id`). */
export const videoDirectories = pgTable(
  "video_directories",
  {
    id: identityId(),
    accountId: accountId(),
    name: text("name").notNull(),
    parentId: integer("parent_id"),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    updatedAt: timestamptz("updated_at").notNull().defaultNow(),
  },
  (t) => [
    unique("video_directories_account_id_id_unique").on(t.accountId, t.id),
    index("video_directories_parent_idx").on(t.accountId, t.parentId),
    foreignKey({ name: "video_directories_parent_fk", columns: [t.accountId, t.parentId], foreignColumns: [t.accountId, t.id] }),
  ],
);

/**
 * A video of the account. Its status is not stored: it follows from `source_at` (when its source arrived,
 * null while it has none) and `error`, read against the database's clock (see the handlers' videos module).
 */
export const videos = pgTable(
  "videos",
  {
    id: identityId(),
    accountId: accountId(),
    clientUserId: integer("client_user_id").notNull(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    directoryId: integer("directory_id"),
    originUrl: text("origin_url"),
    /** Headers sent to fetch `origin_url` (they may carry credentials): stored, never returned. */
    originHttpHeaders: text("origin_http_headers"),
    /** Bytes of the source, and its length in milliseconds; null until the source has arrived. */
    originSize: bigint("origin_size", { mode: "number" }),
    originVideoDuration: integer("origin_video_duration"),
    /** When the source arrived and transcoding began; null: the video waits for its source (`empty`). */
    sourceAt: timestamptz("source_at"),
    /** Why transcoding failed; null while it has not. */
    error: text("error"),
    customIframeUrl: text("custom_iframe_url"),
    poster: text("poster"),
    priority: integer("priority").notNull().default(0),
    projection: text("projection").notNull().default("regular"),
    qualitySetId: integer("quality_set_id").references(() => streamingQualitySets.id),
    recordType: text("record_type").notNull().default("origin"),
    /** The stream a recording came from, and when it began; null for uploaded videos. */
    streamId: integer("stream_id"),
    recordingStartedAt: timestamptz("recording_started_at"),
    screenshotId: integer("screenshot_id").notNull().default(0),
    shareUrl: text("share_url"),
    clipStartSeconds: integer("clip_start_seconds"),
    clipDurationSeconds: integer("clip_duration_seconds"),
    autoTranscribeAudioLanguage: text("auto_transcribe_audio_language").notNull().default("disable"),
    autoTranslateSubtitlesLanguage: text("auto_translate_subtitles_language").notNull().default("disable"),
    sourceBitrateLimit: boolean("source_bitrate_limit").notNull().default(true),
    views: integer("views").notNull().default(0),
    cdnViews: integer("cdn_views").notNull().default(0),
    slug: text("slug").notNull(),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    updatedAt: timestamptz("updated_at").notNull().defaultNow(),
  },
  (t) => [
    unique("videos_account_id_id_unique").on(t.accountId, t.id),
    index("videos_account_directory_idx").on(t.accountId, t.directoryId),
    foreignKey({ name: "videos_client_user_fk", columns: [t.accountId, t.clientUserId], foreignColumns: [users.accountId, users.id] }),
    foreignKey({ name: "videos_directory_fk", columns: [t.accountId, t.directoryId], foreignColumns: [videoDirectories.accountId, videoDirectories.id] }),
    check("videos_projection_check", sql`${t.projection} in (${sql.raw(sqlList(STREAM_PROJECTIONS))})`),
    check("videos_record_type_check", sql`${t.recordType} in (${sql.raw(sqlList(STREAM_RECORD_TYPES))})`),
  ],
);

/** A subtitle track of a video, WebVTT text; it goes with its video. */
export const videoSubtitles = pgTable(
  "video_subtitles",
  {
    id: identityId(),
    accountId: accountId(),
    videoId: integer("video_id").notNull(),
    name: text("name").notNull(),
    language: text("language").notNull(),
    vtt: text("vtt").notNull(),
  },
  (t) => [
    index("video_subtitles_video_idx").on(t.accountId, t.videoId, t.id),
    foreignKey({ name: "video_subtitles_video_fk", columns: [t.accountId, t.videoId], foreignColumns: [videos.accountId, videos.id] }).onDelete("cascade"),
  ],
);

/** A web player design of the account. */
export const videoPlayers = pgTable(
  "video_players",
  {
    id: identityId(),
    accountId: accountId(),
    name: text("name").notNull(),
    design: text("design").notNull(),
    framework: text("framework").notNull(),
    autoplay: boolean("autoplay").notNull(),
    mute: boolean("mute").notNull(),
    disableSkin: boolean("disable_skin").notNull(),
    saveOptionsToCookies: boolean("save_options_to_cookies").notNull(),
    showSharing: boolean("show_sharing").notNull(),
    speedControl: boolean("speed_control").notNull(),
    bgColor: text("bg_color").notNull(),
    fgColor: text("fg_color").notNull(),
    hoverColor: text("hover_color").notNull(),
    textColor: text("text_color").notNull(),
    logo: text("logo"),
    logoPosition: text("logo_position").notNull(),
    customCss: text("custom_css").notNull(),
    jsUrl: text("js_url"),
    skinIsUrl: text("skin_is_url"),
  },
  (t) => [unique("video_players_account_id_id_unique").on(t.accountId, t.id)],
);

/** A playlist of the account: its videos, in order, are `playlist_videos`. */
export const videoPlaylists = pgTable(
  "video_playlists",
  {
    id: identityId(),
    accountId: accountId(),
    clientUserId: integer("client_user_id").notNull(),
    name: text("name").notNull(),
    active: boolean("active").notNull().default(true),
    playlistType: text("playlist_type").notNull().default("vod"),
    startTime: timestamptz("start_time"),
    loop: boolean("loop").notNull().default(false),
    countdown: boolean("countdown").notNull().default(false),
    playerId: integer("player_id"),
  },
  (t) => [
    unique("video_playlists_account_id_id_unique").on(t.accountId, t.id),
    foreignKey({ name: "video_playlists_client_user_fk", columns: [t.accountId, t.clientUserId], foreignColumns: [users.accountId, users.id] }),
    // A player a playlist uses cannot be deleted (409).
    foreignKey({ name: "video_playlists_player_fk", columns: [t.accountId, t.playerId], foreignColumns: [videoPlayers.accountId, videoPlayers.id] }),
    check("video_playlists_type_check", sql`${t.playlistType} in ('live', 'vod')`),
  ],
);

/** The videos of a playlist, in the order they play; a deleted video leaves its playlists. */
export const playlistVideos = pgTable(
  "playlist_videos",
  {
    accountId: accountId(),
    playlistId: integer("playlist_id").notNull(),
    position: integer("position").notNull(),
    videoId: integer("video_id").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.playlistId, t.position] }),
    index("playlist_videos_video_idx").on(t.accountId, t.videoId),
    foreignKey({ name: "playlist_videos_playlist_fk", columns: [t.accountId, t.playlistId], foreignColumns: [videoPlaylists.accountId, videoPlaylists.id] }).onDelete("cascade"),
    foreignKey({ name: "playlist_videos_video_fk", columns: [t.accountId, t.videoId], foreignColumns: [videos.accountId, videos.id] }).onDelete("cascade"),
  ],
);

/**
 * An AI task (speech recognition or content moderation) of the account. Its status is not stored: it
 * follows from `created_at` and `cancelled_at`, read against the database's clock.
 */
export const aiTasks = pgTable(
  "ai_tasks",
  {
    id: uuid("id").primaryKey(),
    accountId: accountId(),
    taskName: text("task_name").notNull(),
    url: text("url").notNull(),
    category: text("category"),
    stopObjects: text("stop_objects"),
    audioLanguage: text("audio_language"),
    subtitlesLanguage: text("subtitles_language"),
    clientEntityData: text("client_entity_data"),
    clientUserId: text("client_user_id"),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    cancelledAt: timestamptz("cancelled_at"),
  },
  (t) => [
    index("ai_tasks_account_created_idx").on(t.accountId, t.createdAt),
    check("ai_tasks_task_name_check", sql`${t.taskName} in ('transcription', 'content-moderation')`),
  ],
);
