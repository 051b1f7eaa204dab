/**
 * Streaming streams: the paged stream listing (with X-Total-Count and optional broadcasts), one
 * stream, its creation, changes and deletion, the clearing of its DVR window, and the clips cut from a
 * live stream's DVR window.
 */
import {
  CLIPS_LIST_MAX,
  DVR_DURATION_DEFAULT,
  STREAMS_PAGE_SIZE,
  streamingStreamsRoutes,
  type ClipRecording,
  type CreateStreamBody,
  type Overlay,
  type Stream,
} from "@cloudplane/contract";
import { alias, and, asc, count, desc, eq, gt, inArray, ne, notExists, schema, sql, type Database } from "@cloudplane/db";
import { columnPlaceholder, inTransaction, preparedOnce } from "../prepared.js";
import { tsr } from "@ts-rest/serverless/fetch";
import { addFieldError, ApiError, fieldErrors, notFound, problemCount, validationFailed } from "../errors.js";
import { isoTime } from "../format.js";
import { served } from "../served.js";
import type { RequestExtension, RouteDeps } from "../types.js";
import { overlaysOf, overlaysOfStream } from "./overlays.js";
import { randomHex } from "../random.js";

const { streams, broadcasts, broadcastStreams, clips, users, cdnResources } = schema;

type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];
/** The fields of a create or of a change (`stream` of the PATCH body): every one optional here. */
type StreamSettings = Partial<CreateStreamBody>;

/** A clip must end at least this long before it expires, and expire at most this long after it ends. */
const MIN_EXPIRY_S = 60;
const MAX_EXPIRY_S = 4 * 3600;
const DEFAULT_EXPIRY_S = 3600;
/** How far ahead of now a clip may start (it is then recorded as the stream goes on). */
const MAX_START_AHEAD_S = 3600;

type StreamRow = typeof streams.$inferSelect;

/** Where new streams' ingest and playback live; the demo data's streams keep the hosts they were given. */
const INGEST_HOST = "vp-push.cloudplane.example";
const BACKUP_INGEST_HOST = "vp-push-backup.cloudplane.example";
const WHIP_ORIGIN = "https://whip.cloudplane.example";
const PLAYBACK_ORIGIN = "https://video.cloudplane.example";

/** The columns a new stream's URLs are written to (the insert writes them with id 0; the update of the same transaction, with its id). */
const URL_COLUMNS = [
  "pushUrl",
  "backupPushUrl",
  "pushUrlSrt",
  "backupPushUrlSrt",
  "pushUrlWhip",
  "iframeUrl",
  "dashUrl",
  "hlsCmafUrl",
  "hlsMpegtsUrl",
  "screenshot",
] as const satisfies (keyof typeof streams.$inferInsert)[];

/** The URLs of a new stream, in the demo data's form: ingest by id and stream key, playback by account and id. */
function streamUrls(accountId: number, id: number): Record<(typeof URL_COLUMNS)[number], string> {
  const key = randomHex(12);
  const playback = `${PLAYBACK_ORIGIN}/accounts/${accountId}/streams/${id}`;
  return {
    pushUrl: `rtmp://${INGEST_HOST}/in/${id}?${key}`,
    backupPushUrl: `rtmp://${BACKUP_INGEST_HOST}/in/${id}?${key}`,
    pushUrlSrt: `srt://${INGEST_HOST}:5001?streamid=${id}#${key}`,
    backupPushUrlSrt: `srt://${BACKUP_INGEST_HOST}:5001?streamid=${id}#${key}`,
    pushUrlWhip: `${WHIP_ORIGIN}/whip/${id}/${key}`,
    iframeUrl: `${playback}/player.html`,
    dashUrl: `${playback}/index.mpd`,
    hlsCmafUrl: `${playback}/index.m3u8`,
    hlsMpegtsUrl: `${playback}/index-ts.m3u8`,
    screenshot: `${playback}/screenshot.jpg`,
  };
}

/** The columns a create may set from its body (`settingsOf`), and what each takes when the body leaves it out. */
const SETTINGS_COLUMNS = [
  "pull",
  "uri",
  "name",
  "active",
  "autoRecord",
  "htmlOverlay",
  "dvrDuration",
  "projection",
  "recordType",
  "qualitySetId",
  "cdnId",
  "clientEntityData",
  "hlsMpegtsEndlistTag",
  "clientUserId",
  "srtPassphrase",
] as const satisfies (keyof typeof streams.$inferInsert)[];
type SettingsColumn = (typeof SETTINGS_COLUMNS)[number];

/**
 * What a column takes when a create's body leaves it out: its default, or null. A create writes every
 * column of `SETTINGS_COLUMNS`, so that one prepared insert serves every body; these are the table's
 * own defaults (the schema's), which are all plain values.
 */
const SETTINGS_DEFAULTS = Object.fromEntries(
  SETTINGS_COLUMNS.map((name) => {
    const column = streams[name];
    if (column.hasDefault && (typeof column.default === "object" || column.default === undefined))
      throw new Error(`streams.${name} has a default that is not a plain value: the prepared create cannot write it.`);
    return [name, column.hasDefault ? column.default : null];
  }),
) as Record<SettingsColumn, unknown>;

/** A clip id in the form the demo data uses, `clip_` and 16 hex digits (64 random bits). */
function clipId(): string {
  return `clip_${randomHex(16)}`;
}

/** The stream key: what follows the `?` of the RTMP push URL, as every push URL carries it (see streamUrls). */
function streamToken(row: StreamRow): string {
  return row.pushUrl.slice(row.pushUrl.lastIndexOf("?") + 1);
}

function toStream(row: StreamRow, broadcastIds: number[], overlays: Overlay[]): Stream {
  return {
    id: row.id,
    name: row.name,
    pull: row.pull,
    active: row.active,
    auto_record: row.autoRecord,
    html_overlay: row.htmlOverlay,
    live: row.live,
    backup_live: row.backupLive,
    client_user_id: row.clientUserId,
    uri: row.uri,
    push_url: row.pushUrl,
    backup_push_url: row.backupPushUrl,
    push_url_srt: row.pushUrlSrt,
    backup_push_url_srt: row.backupPushUrlSrt,
    push_url_whip: row.pushUrlWhip,
    created_at: isoTime(row.createdAt),
    started_at_primary: row.startedAtPrimary ? isoTime(row.startedAtPrimary) : null,
    finished_at_primary: row.finishedAtPrimary ? isoTime(row.finishedAtPrimary) : null,
    started_at_backup: row.startedAtBackup ? isoTime(row.startedAtBackup) : null,
    dvr_duration: row.dvrDuration,
    recording_duration: row.recordingStartedAt ? Math.max(0, Math.floor((Date.now() - row.recordingStartedAt.getTime()) / 1000)) : 0,
    iframe_url: row.iframeUrl,
    dash_url: row.dashUrl,
    hls_cmaf_url: row.hlsCmafUrl,
    hls_mpegts_url: row.hlsMpegtsUrl,
    screenshot: row.screenshot,
    transcoded_qualities: row.transcodedQualities,
    transcoding_speed: row.transcodingSpeed,
    frame_rate: row.frameRate,
    video_height: row.videoHeight,
    video_width: row.videoWidth,
    dvr_enabled: row.dvrDuration > 0,
    broadcast_ids: broadcastIds,
    cdn_id: row.cdnId,
    client_entity_data: row.clientEntityData,
    hls_mpegts_endlist_tag: row.hlsMpegtsEndlistTag,
    projection: row.projection as Stream["projection"],
    quality_set_id: row.qualitySetId,
    record_type: row.recordType as Stream["record_type"],
    stream_source_type: row.streamSourceType as Stream["stream_source_type"],
    token: streamToken(row),
    srt_passphrase: row.srtPassphrase,
    active_ingest_region_primary: row.ingestRegionPrimary,
    active_ingest_region_backup: row.ingestRegionBackup,
    html_overlays: overlays,
  };
}

/** The broadcasts of the account's streams `streamIds`, by id ascending. */
function broadcastsOf(db: Database | Transaction, accountId: number, streamIds: number[]) {
  if (streamIds.length === 0) return Promise.resolve([]);
  return db
    .select({ id: broadcasts.id, name: broadcasts.name, status: broadcasts.status, streamId: broadcastStreams.streamId })
    .from(broadcastStreams)
    .innerJoin(broadcasts, and(eq(broadcasts.accountId, broadcastStreams.accountId), eq(broadcasts.id, broadcastStreams.broadcastId)))
    .where(and(eq(broadcastStreams.accountId, accountId), inArray(broadcastStreams.streamId, streamIds)))
    .orderBy(asc(broadcasts.id));
}

/** One stream as the API shows it, read in `db` (a transaction's writes included). */
async function shownStream(db: Database | Transaction, row: StreamRow): Promise<Stream> {
  const [list, overlays] = await Promise.all([broadcastsOf(db, row.accountId, [row.id]), overlaysOf(db, row.accountId, [row.id])]);
  return toStream(
    row,
    list.map((item) => item.id),
    overlays,
  );
}

/**
 * The columns a create or change sets from `body`, given the stream as it was (`current`, none for a
 * new one), after the checks no schema can make alone: pull and uri together, DVR, and that the user
 * and the CDN resource named are the account's. Every problem is reported at once.
 */
async function settingsOf(
  tx: Transaction,
  accountId: number,
  body: StreamSettings,
  current: Pick<StreamRow, "pull" | "uri" | "dvrDuration" | "srtPassphrase"> | undefined,
  /** Where the fields sit in the body, for the error paths: "" for a create, "stream." for a change. */
  at: "" | "stream.",
): Promise<Partial<Pick<typeof streams.$inferInsert, SettingsColumn>>> {
  const errors = fieldErrors();
  const pull = body.pull ?? current?.pull ?? false;
  // Switching pull off drops the source; otherwise a uri not given stays as it was.
  const uri = body.uri !== undefined ? body.uri : pull ? (current?.uri ?? null) : null;
  if (pull && uri === null)
    addFieldError(errors, `${at}uri`, body.uri === null ? "Must not be null for a pull stream (pull true)." : "Required for a pull stream (pull true).");
  if (!pull && body.uri != null) addFieldError(errors, `${at}uri`, "Only a pull stream (pull true) takes a uri.");
  // SRT encryption is for pushed ingest: a pull stream keeps none (switching pull on clears it).
  if (pull && body.srt_passphrase != null) addFieldError(errors, `${at}srt_passphrase`, "Only a push stream (pull false) takes an SRT passphrase.");

  let dvrDuration: number | undefined;
  if (body.dvr_enabled === false) {
    if (body.dvr_duration !== undefined) addFieldError(errors, `${at}dvr_duration`, "Must not be given with dvr_enabled false.");
    dvrDuration = 0;
  } else if (body.dvr_duration !== undefined) dvrDuration = body.dvr_duration;
  else if (body.dvr_enabled === true) dvrDuration = current && current.dvrDuration > 0 ? current.dvrDuration : DVR_DURATION_DEFAULT;

  const [user] =
    body.client_user_id === undefined
      ? [undefined]
      : await tx
          .select({ id: users.id })
          .from(users)
          .where(and(eq(users.accountId, accountId), eq(users.id, body.client_user_id), eq(users.deleted, false)));
  if (body.client_user_id !== undefined && !user) addFieldError(errors, `${at}client_user_id`, "Must be a user of the account.");
  const [resource] =
    body.cdn_id === undefined || body.cdn_id === null
      ? [undefined]
      : await tx
          .select({ id: cdnResources.id })
          .from(cdnResources)
          .where(and(eq(cdnResources.accountId, accountId), eq(cdnResources.id, body.cdn_id), eq(cdnResources.deleted, false)))
          // Until the write commits: a delete of the resource (which locks it for update) waits, then sees the stream.
          .for("key share");
  if (body.cdn_id != null && !resource) addFieldError(errors, `${at}cdn_id`, "Must be a CDN resource of the account.");
  if (problemCount(errors) > 0) throw validationFailed(errors);

  // Typed by SETTINGS_COLUMNS: a column set here but left out of the list (and of the prepared create) fails to compile.
  const settings: Partial<Pick<typeof streams.$inferInsert, SettingsColumn>> = { pull, uri };
  if (pull && current?.srtPassphrase != null) settings.srtPassphrase = null;
  if (body.srt_passphrase !== undefined) settings.srtPassphrase = body.srt_passphrase;
  if (dvrDuration !== undefined) settings.dvrDuration = dvrDuration;
  if (body.name !== undefined) settings.name = body.name;
  if (body.active !== undefined) settings.active = body.active;
  if (body.auto_record !== undefined) settings.autoRecord = body.auto_record;
  if (body.client_entity_data !== undefined) settings.clientEntityData = body.client_entity_data;
  if (body.client_user_id !== undefined) settings.clientUserId = body.client_user_id;
  if (body.cdn_id !== undefined) settings.cdnId = body.cdn_id;
  if (body.hls_mpegts_endlist_tag !== undefined) settings.hlsMpegtsEndlistTag = body.hls_mpegts_endlist_tag;
  if (body.html_overlay !== undefined) settings.htmlOverlay = body.html_overlay;
  if (body.projection !== undefined) settings.projection = body.projection;
  if (body.quality_set_id !== undefined) settings.qualitySetId = body.quality_set_id;
  if (body.record_type !== undefined) settings.recordType = body.record_type;
  return settings;
}

function toClip(row: typeof clips.$inferSelect): ClipRecording {
  return {
    id: row.id,
    created_at: isoTime(row.createdAt),
    vod_required: row.vodRequired,
    video_id: row.videoId,
    renditions: row.renditions,
    hls_master: row.hlsMaster,
    mp4_master: row.mp4Master,
    start: row.start,
    duration: row.duration,
    expiration: row.expiration,
  };
}

export function streamingStreams({ db }: RouteDeps) {
  const streamById = preparedOnce(() =>
    db
      .select()
      .from(streams)
      .where(and(eq(streams.accountId, sql.placeholder("accountId")), eq(streams.id, sql.placeholder("id"))))
      .limit(1)
      .prepare("stream_by_id"),
  );
  const overlaysOfOne = overlaysOfStream(db);
  /** A stream with its broadcasts' ids (ascending), in one statement: the most frequent read of the area. */
  const shownStreamById = preparedOnce(() =>
    db
      .select({
        stream: streams,
        // Written out: drizzle leaves a column of the query's only table unqualified, which inside the subquery would name the
        // broadcast's. As JSON, which every driver reads as a list (an int array comes as text where the driver looks up no types, on Workers).
        broadcastIds: sql<number[]>`coalesce((select json_agg(b.broadcast_id order by b.broadcast_id) from broadcast_streams b where b.account_id = streams.account_id and b.stream_id = streams.id), '[]'::json)`.mapWith(
          (value: unknown) => (typeof value === "string" ? JSON.parse(value) : value) as number[],
        ),
      })
      .from(streams)
      .where(and(eq(streams.accountId, sql.placeholder("accountId")), eq(streams.id, sql.placeholder("id"))))
      .limit(1)
      .prepare("shown_stream_by_id"),
  );

  /**
   * A delete's two statements. A broadcast shows at least one stream: those the stream is the last stream
   * of go first, read through the stream's own links (an index), not a walk of every broadcast of the
   * account. Then the stream: its clips go with it, and it leaves its other broadcasts (foreign keys that cascade).
   */
  const deleteStatements = preparedOnce(() => {
    const accountId = sql.placeholder("accountId");
    const id = sql.placeholder("id");
    const others = alias(broadcastStreams, "others");
    return {
      lastBroadcasts: db
        .delete(broadcasts)
        .where(
          and(
            eq(broadcasts.accountId, accountId),
            inArray(
              broadcasts.id,
              db
                .select({ id: broadcastStreams.broadcastId })
                .from(broadcastStreams)
                .where(and(eq(broadcastStreams.accountId, accountId), eq(broadcastStreams.streamId, id))),
            ),
            notExists(db.select({ one: sql`1` }).from(others).where(and(eq(others.broadcastId, broadcasts.id), ne(others.streamId, id)))),
          ),
        )
        .prepare("delete_last_broadcasts_of_stream"),
      stream: db
        .delete(streams)
        .where(and(eq(streams.accountId, accountId), eq(streams.id, id)))
        .returning({ id: streams.id })
        .prepare("delete_stream"),
    };
  });

  /**
   * A create's two writes, prepared: the insert of every column a create writes (the URLs with id 0), and
   * the update that writes the URLs made from the id the insert gave.
   */
  const createStatements = preparedOnce(() => {
    const inserted = ["accountId", ...SETTINGS_COLUMNS, ...URL_COLUMNS] as const;
    return {
      insert: db
        .insert(streams)
        .values(Object.fromEntries(inserted.map((name) => [name, sql.placeholder(name)])) as unknown as typeof streams.$inferInsert)
        .returning({ id: streams.id })
        .prepare("insert_stream"),
      urls: db
        .update(streams)
        .set(Object.fromEntries(URL_COLUMNS.map((name) => [name, columnPlaceholder(name, streams[name])])))
        .where(and(eq(streams.accountId, sql.placeholder("accountId")), eq(streams.id, sql.placeholder("id"))))
        .returning()
        .prepare("set_stream_urls"),
    };
  });

  return tsr.routerWithMiddleware(served("streaming", streamingStreamsRoutes))<RequestExtension>({
    listStreams: async ({ query }, { request: { caller }, responseHeaders }) => {
      const mine = eq(streams.accountId, caller.accountId);
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(streams)
          .where(mine)
          .orderBy(desc(streams.id))
          .limit(STREAMS_PAGE_SIZE)
          .offset((query.page - 1) * STREAMS_PAGE_SIZE),
        db.select({ total: count() }).from(streams).where(mine),
      ]);
      responseHeaders.set("x-total-count", String(total?.total ?? 0));
      const ids = rows.map((row) => row.id);
      const [list, overlays] = await Promise.all([broadcastsOf(db, caller.accountId, ids), overlaysOf(db, caller.accountId, ids)]);
      const body = rows.map((row) => {
        const own = list.filter((item) => item.streamId === row.id);
        const stream = toStream(
          row,
          own.map((item) => item.id),
          overlays.filter((item) => item.stream_id === row.id),
        );
        if (query.with_broadcasts === 1) stream.broadcasts = own.map(({ id, name, status }) => ({ id, name, status }));
        return stream;
      });
      return { status: 200, body };
    },

    getStream: async ({ params }, { request: { caller } }) => {
      const [[row], overlays] = await Promise.all([
        shownStreamById().execute({ accountId: caller.accountId, id: params.stream_id }),
        overlaysOfOne(caller.accountId, params.stream_id),
      ]);
      if (!row) throw notFound(`Stream ${params.stream_id}`);
      return { status: 200, body: toStream(row.stream, row.broadcastIds, overlays) };
    },

    createStream: async ({ body }, { request: { caller } }) => {
      const { accountId } = caller;
      const created = await db.transaction(async (tx) => {
        const settings = await settingsOf(tx, accountId, body, undefined, "");
        const values = { ...SETTINGS_DEFAULTS, ...settings, accountId, name: body.name, clientUserId: body.client_user_id ?? caller.userId };
        // The URLs are made from the id, which the insert gives: written in a second statement of the same transaction.
        const statements = createStatements();
        const [inserted] = await inTransaction(statements.insert, tx).execute({ ...values, ...streamUrls(accountId, 0) });
        const [row] = await inTransaction(statements.urls, tx).execute({ ...streamUrls(accountId, inserted!.id), accountId, id: inserted!.id });
        return row!;
      });
      return { status: 201, body: toStream(created, [], []) };
    },

    updateStream: async ({ params, body }, { request: { caller } }) => {
      const { accountId } = caller;
      const stream = await db.transaction(async (tx) => {
        const mine = and(eq(streams.accountId, accountId), eq(streams.id, params.stream_id));
        const [current] = await tx.select().from(streams).where(mine).for("update");
        if (!current) throw notFound(`Stream ${params.stream_id}`);
        const settings = await settingsOf(tx, accountId, body.stream, current, "stream.");
        const [row] = await tx.update(streams).set(settings).where(mine).returning();
        return shownStream(tx, row!);
      });
      return { status: 200, body: stream };
    },

    deleteStream: async ({ params }, { request: { caller } }) => {
      const { accountId } = caller;
      await db.transaction(async (tx) => {
        const statements = deleteStatements();
        const values = { accountId, id: params.stream_id };
        await inTransaction(statements.lastBroadcasts, tx).execute(values);
        const [deleted] = await inTransaction(statements.stream, tx).execute(values);
        if (!deleted) throw notFound(`Stream ${params.stream_id}`);
      });
      return { status: 204, body: undefined };
    },

    listClipRecordings: async ({ params }, { request: { caller } }) => {
      const [stream] = await streamById().execute({ accountId: caller.accountId, id: params.stream_id });
      if (!stream) throw notFound(`Stream ${params.stream_id}`);
      const rows = await db
        .select()
        .from(clips)
        .where(and(eq(clips.accountId, caller.accountId), eq(clips.streamId, stream.id), gt(clips.expiration, Math.floor(Date.now() / 1000))))
        .orderBy(desc(clips.createdAt), desc(clips.id))
        .limit(CLIPS_LIST_MAX);
      return { status: 200, body: rows.map(toClip) };
    },

    clearStreamDvr: async ({ params }, { request: { caller } }) => {
      const { accountId } = caller;
      await db.transaction(async (tx) => {
        const mine = and(eq(streams.accountId, accountId), eq(streams.id, params.stream_id));
        const [current] = await tx.select({ dvrDuration: streams.dvrDuration }).from(streams).where(mine).for("update");
        if (!current) throw notFound(`Stream ${params.stream_id}`);
        if (current.dvrDuration <= 0) throw new ApiError("unprocessable", "The stream has DVR off (dvr_duration 0), so it has no DVR window to clear.");
        await tx.update(streams).set({ dvrClearedAt: sql`now()` }).where(mine);
      });
      return { status: 204, body: undefined };
    },

    createClipRecording: async ({ params, body }, { request: { caller } }) => {
      const [stream] = await streamById().execute({ accountId: caller.accountId, id: params.stream_id });
      if (!stream) throw notFound(`Stream ${params.stream_id}`);
      if (!stream.live || stream.dvrDuration <= 0)
        throw new ApiError(
          "unprocessable",
          stream.live
            ? "The stream has DVR off (dvr_duration 0), so there is nothing to cut a clip from."
            : "The stream is not live; clips are cut from a live stream's DVR window.",
        );
      const now = Math.floor(Date.now() / 1000);
      const start = body.start ?? now;
      const end = start + body.duration;
      const expiration = body.expiration ?? end + DEFAULT_EXPIRY_S;
      // Every field's problem at once, so a caller fixes the request in one go.
      const errors: Record<string, string[]> = {};
      // The window starts dvr_duration ago, or when it was last cleared if that is later (from the second of the clearing on).
      const cleared = stream.dvrClearedAt ? Math.floor(stream.dvrClearedAt.getTime() / 1000) : 0;
      const windowStart = Math.max(now - stream.dvrDuration, cleared);
      if (start < windowStart || start > now + MAX_START_AHEAD_S)
        errors.start = [
          `Must lie in the stream's DVR window: from ${windowStart} (now − dvr_duration, or when the window was last cleared) to ${now + MAX_START_AHEAD_S} (now + 1 hour).`,
        ];
      if (body.duration > stream.dvrDuration) errors.duration = [`Must be at most the stream's dvr_duration, ${stream.dvrDuration} seconds.`];
      if (expiration < end + MIN_EXPIRY_S || expiration > end + MAX_EXPIRY_S)
        errors.expiration = [`Must be between 1 minute and 4 hours after the clip ends: ${end + MIN_EXPIRY_S} to ${end + MAX_EXPIRY_S}.`];
      if (Object.keys(errors).length > 0) throw validationFailed(errors);
      const id = clipId();
      // Clip files live on the stream owner's video host, as the demo data's clips do.
      const base = `${new URL(stream.hlsMpegtsUrl).origin}/clips/${id}`;
      const [row] = await db
        .insert(clips)
        .values({
          id,
          accountId: caller.accountId,
          streamId: stream.id,
          renditions: stream.transcodedQualities,
          hlsMaster: `${base}/master.m3u8`,
          mp4Master: `${base}/master.mp4`,
          start,
          duration: body.duration,
          expiration,
        })
        .returning();
      return { status: 200, body: toClip(row!) };
    },
  });
}
