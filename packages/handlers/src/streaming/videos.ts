/**
 * Streaming videos: creation (one, or a batch with subtitles), the paged listing with its filters, one
 * video, names, changes, deletion and the parameters of a direct upload. A video's status and renditions
 * are read from the time its source arrived, against the database's clock (`videoColumns`), so every
 * engine and every instance sees one video in one state.
 */
import {
  VIDEO_READY_AFTER_S,
  VIDEO_SCREENSHOTS,
  VIDEO_VIEWABLE_AFTER_S,
  streamingVideosRoutes,
  type NewVideo,
  type Video,
  type VideoStatus,
} from "@cloudplane/contract";
import { and, asc, count, desc, eq, ilike, inArray, schema, sql, type Database, type SQL } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { addFieldError, conflict, fieldErrors, notFound, problemCount, validationFailed } from "../errors.js";
import { isoTime } from "../format.js";
import { randomHex } from "../random.js";
import { likePattern } from "../like.js";
import { served } from "../served.js";
import type { RequestExtension, RouteDeps } from "../types.js";

const { videos, videoDirectories, videoSubtitles, streamingQualitySets, streamingDefaultQualitySets, users } = schema;

type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];
type Reader = Database | Transaction;
type VideoRow = typeof videos.$inferSelect;

/** Where videos play from, and where direct uploads go. */
const PLAYBACK_ORIGIN = "https://video.cloudplane.example";
const UPLOAD_SERVERS = [{ id: 1, hostname: "upload-1.video.cloudplane.example" }];

/**
 * A video's status, computed by the database at read time from `source_at` (when its source arrived) and
 * `error`: the one definition the reads and the status filter share.
 */
const videoStatus = sql<VideoStatus>`case
  when ${videos.error} is not null then 'error'
  when ${videos.sourceAt} is null then 'empty'
  when now() < ${videos.sourceAt} + make_interval(secs => ${sql.raw(String(VIDEO_VIEWABLE_AFTER_S))}) then 'pending'
  when now() < ${videos.sourceAt} + make_interval(secs => ${sql.raw(String(VIDEO_READY_AFTER_S))}) then 'viewable'
  else 'ready' end`;
/** Seconds since the source arrived (null while it has none), by the same clock. */
const secondsTranscoding = sql<number | null>`extract(epoch from now() - ${videos.sourceAt})::float8`.mapWith((value: unknown) =>
  value === null ? null : Number(value),
);

/** What every read of a video selects: the row, its status and how long it has been transcoding. */
export const videoColumns = { row: videos, status: videoStatus, elapsed: secondsTranscoding };
export interface VideoRead {
  row: VideoRow;
  status: VideoStatus;
  elapsed: number | null;
}

/** The VOD quality sets' renditions by set, and the set the account's videos without one use. */
export interface VodLadders {
  bySet: Map<number, { id: number; name: string }[]>;
  defaultSet: number | undefined;
}

export async function vodLadders(db: Reader, accountId: number): Promise<VodLadders> {
  const [sets, chosen] = await Promise.all([
    db.select().from(streamingQualitySets).where(eq(streamingQualitySets.kind, "vod")),
    db
      .select({ id: streamingDefaultQualitySets.qualitySetId })
      .from(streamingDefaultQualitySets)
      .where(and(eq(streamingDefaultQualitySets.accountId, accountId), eq(streamingDefaultQualitySets.kind, "vod"))),
  ]);
  return {
    bySet: new Map(sets.map((set) => [set.id, set.qualities])),
    defaultSet: chosen[0]?.id ?? sets.find((set) => set.platformDefault)?.id,
  };
}

/** The height a rendition's name gives (`vod_720p` → 720). */
const heightOf = (name: string) => Number(/(\d+)p$/.exec(name)?.[1] ?? 0);
/** 16:9, rounded to an even number of pixels. */
const widthOf = (height: number) => Math.round((height * 16) / 9 / 2) * 2;

/**
 * The renditions of a video: the lowest is made when the video turns viewable, the best when it turns
 * ready, those between in turn; each one's progress grows with the time until it is made.
 */
function renditions(read: VideoRead, ladders: VodLadders, base: string): Video["converted_videos"] {
  const { row, elapsed } = read;
  if (elapsed === null) return [];
  const ladder = ladders.bySet.get(row.qualitySetId ?? ladders.defaultSet ?? -1) ?? [];
  const last = Math.max(ladder.length - 1, 1);
  return ladder.map(({ id, name }, index) => {
    const height = heightOf(name);
    const madeAt = VIDEO_VIEWABLE_AFTER_S + ((VIDEO_READY_AFTER_S - VIDEO_VIEWABLE_AFTER_S) * (ladder.length - 1 - index)) / last;
    const failed = row.error !== null;
    const progress = failed ? 0 : Math.min(100, Math.floor((Math.max(elapsed, 0) / madeAt) * 100));
    const complete = progress >= 100;
    // A rendition takes a share of the source's bytes by its height (1080p: half).
    const fullSize = Math.round(((row.originSize ?? 0) * height) / 2160);
    return {
      id,
      name,
      width: widthOf(height),
      height,
      mp4_url: complete ? `${base}/qid${id}.mp4` : null,
      progress,
      size: Math.round((fullSize * progress) / 100),
      status: failed ? "error" : complete ? "complete" : "processing",
      error: failed ? row.error : null,
    };
  });
}

/** A video as the API shows it. */
export function toVideo(read: VideoRead, ladders: VodLadders): Video {
  const { row, status } = read;
  const base = `${PLAYBACK_ORIGIN}/videos/${row.id}_${row.slug}`;
  const viewable = status === "viewable" || status === "ready";
  const screenshots = viewable ? Array.from({ length: VIDEO_SCREENSHOTS }, (_, n) => `${base}/screenshots/${n}.jpg`) : [];
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    client_id: row.accountId,
    client_user_id: row.clientUserId,
    directory_id: row.directoryId,
    status,
    error: row.error,
    origin_url: row.originUrl,
    origin_size: row.originSize,
    origin_video_duration: row.originVideoDuration,
    duration: durationOf(row),
    converted_videos: renditions(read, ladders, base),
    hls_url: viewable ? `${base}/master.m3u8` : null,
    hls_cmaf_url: viewable ? `${base}/master-cmaf.m3u8` : null,
    dash_url: viewable ? `${base}/master.mpd` : null,
    iframe_url: `${base}/player.html`,
    custom_iframe_url: row.customIframeUrl,
    share_url: row.shareUrl,
    poster: row.poster,
    poster_thumb: row.poster,
    screenshot: screenshots[row.screenshotId] ?? null,
    screenshot_id: row.screenshotId,
    screenshots,
    sprite: status === "ready" ? `${base}/sprite.jpg` : null,
    sprite_vtt: status === "ready" ? `${base}/sprite.vtt` : null,
    priority: row.priority,
    projection: row.projection as Video["projection"],
    quality_set_id: row.qualitySetId,
    record_type: row.recordType as Video["record_type"],
    stream_id: row.streamId,
    recording_started_at: row.recordingStartedAt ? isoTime(row.recordingStartedAt) : null,
    ad_id: null,
    clip_start_seconds: row.clipStartSeconds,
    clip_duration_seconds: row.clipDurationSeconds,
    auto_transcribe_audio_language: row.autoTranscribeAudioLanguage,
    auto_translate_subtitles_language: row.autoTranslateSubtitlesLanguage,
    source_bitrate_limit: row.sourceBitrateLimit,
    slug: row.slug,
    views: row.views,
    cdn_views: row.cdnViews,
    created_at: isoTime(row.createdAt),
    updated_at: isoTime(row.updatedAt),
  };
}

/** The transcoded length: the source's, or the clip's when one is cut (what is left of the source at most). */
function durationOf(row: VideoRow): number | null {
  if (row.originVideoDuration === null) return null;
  if (row.clipDurationSeconds === null) return row.originVideoDuration;
  const start = (row.clipStartSeconds ?? 0) * 1000;
  return Math.max(0, Math.min(row.clipDurationSeconds * 1000, row.originVideoDuration - start));
}

/**
 * What the platform learns of a source when it arrives from `origin_url`: its length and size. This API
 * fetches nothing, so they are derived from the URL (FNV-1a), the same for the same URL: 1 to 60 minutes at 2 Mbit/s.
 */
function sourceOf(originUrl: string): { originVideoDuration: number; originSize: number } {
  let hash = 0x811c9dc5;
  for (const char of originUrl) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0;
  const originVideoDuration = 60_000 + (hash % 3_540) * 1000;
  return { originVideoDuration, originSize: originVideoDuration * 250 };
}

type Settings = Partial<NewVideo>;
type VideoColumns = Partial<typeof videos.$inferInsert>;

/**
 * The columns a create or change sets from `body` (at `at` in the request, for the error paths), after the
 * checks no schema makes alone: the user, directory and quality set are the account's or the platform's,
 * the poster fields agree, a clip has its length. Problems are added to `errors`.
 */
async function settingsOf(tx: Transaction, accountId: number, body: Settings, at: string, errors: Record<string, string[]>): Promise<VideoColumns> {
  const [user, directory, qualitySet] = await Promise.all([
    body.client_user_id === undefined
      ? undefined
      : tx
          .select({ id: users.id })
          .from(users)
          .where(and(eq(users.accountId, accountId), eq(users.id, body.client_user_id), eq(users.deleted, false)))
          .then((rows) => rows[0]),
    body.directory_id == null
      ? undefined
      : tx
          .select({ id: videoDirectories.id })
          .from(videoDirectories)
          .where(and(eq(videoDirectories.accountId, accountId), eq(videoDirectories.id, body.directory_id)))
          // Until the write commits: a delete of the directory waits, then sees the video.
          .for("key share")
          .then((rows) => rows[0]),
    body.quality_set_id == null
      ? undefined
      : tx
          .select({ id: streamingQualitySets.id })
          .from(streamingQualitySets)
          .where(and(eq(streamingQualitySets.id, body.quality_set_id), eq(streamingQualitySets.kind, "vod")))
          .then((rows) => rows[0]),
  ]);
  if (body.client_user_id !== undefined && !user) addFieldError(errors, `${at}client_user_id`, "Must be a user of the account.");
  if (body.directory_id != null && !directory) addFieldError(errors, `${at}directory_id`, "Must be a directory of the account.");
  if (body.quality_set_id != null && !qualitySet) addFieldError(errors, `${at}quality_set_id`, "Must be a VOD quality set of the platform.");
  const posters = [body.poster !== undefined, body.remote_poster_url !== undefined, body.remove_poster !== undefined].filter(Boolean).length;
  if (posters > 1) addFieldError(errors, `${at}poster`, "Give one of poster, remote_poster_url and remove_poster.");
  if (body.clip_start_seconds !== undefined && body.clip_duration_seconds === undefined)
    addFieldError(errors, `${at}clip_duration_seconds`, "Required with clip_start_seconds.");

  const columns: VideoColumns = {};
  if (body.name !== undefined) columns.name = body.name;
  if (body.description !== undefined) columns.description = body.description;
  if (body.directory_id !== undefined) columns.directoryId = body.directory_id;
  if (body.origin_http_headers !== undefined) columns.originHttpHeaders = body.origin_http_headers;
  if (body.client_user_id !== undefined) columns.clientUserId = body.client_user_id;
  if (body.custom_iframe_url !== undefined) columns.customIframeUrl = body.custom_iframe_url;
  if (body.share_url !== undefined) columns.shareUrl = body.share_url;
  if (body.poster !== undefined) columns.poster = body.poster;
  if (body.remote_poster_url !== undefined) columns.poster = body.remote_poster_url;
  if (body.remove_poster === true) columns.poster = null;
  if (body.priority !== undefined) columns.priority = body.priority;
  if (body.projection !== undefined) columns.projection = body.projection;
  if (body.quality_set_id !== undefined) columns.qualitySetId = body.quality_set_id;
  if (body.screenshot_id !== undefined) columns.screenshotId = body.screenshot_id;
  if (body.clip_start_seconds !== undefined) columns.clipStartSeconds = body.clip_start_seconds;
  if (body.clip_duration_seconds !== undefined) {
    columns.clipDurationSeconds = body.clip_duration_seconds;
    columns.clipStartSeconds = body.clip_start_seconds ?? 0;
  }
  if (body.auto_transcribe_audio_language !== undefined) columns.autoTranscribeAudioLanguage = body.auto_transcribe_audio_language;
  if (body.auto_translate_subtitles_language !== undefined) columns.autoTranslateSubtitlesLanguage = body.auto_translate_subtitles_language;
  if (body.source_bitrate_limit !== undefined) columns.sourceBitrateLimit = body.source_bitrate_limit;
  if (body.origin_url !== undefined) Object.assign(columns, { originUrl: body.origin_url, sourceAt: sql`now()`, ...sourceOf(body.origin_url) });
  return columns;
}

/** Makes the videos of `bodies` in `tx`, checked all at once (`at(index)` is where each sits in the request); their ids in order. */
async function insertVideos(tx: Transaction, caller: { accountId: number; userId: number }, bodies: (Settings & { name: string })[], at: (index: number) => string) {
  const errors = fieldErrors();
  const rows = [];
  for (const [index, body] of bodies.entries()) rows.push(await settingsOf(tx, caller.accountId, body, at(index), errors));
  if (problemCount(errors) > 0) throw validationFailed(errors);
  const inserted = await tx
    .insert(videos)
    .values(rows.map((columns, index) => ({ clientUserId: caller.userId, ...columns, name: bodies[index]!.name, accountId: caller.accountId, slug: randomHex(12) })))
    .returning({ id: videos.id });
  return inserted.map((row) => row.id);
}

/** The account's videos `ids`, as the API shows them, in the order of `ids`. */
export async function shownVideos(db: Reader, accountId: number, ids: number[]): Promise<Video[]> {
  if (ids.length === 0) return [];
  const [reads, ladders] = await Promise.all([
    db
      .select(videoColumns)
      .from(videos)
      .where(and(eq(videos.accountId, accountId), inArray(videos.id, ids))),
    vodLadders(db, accountId),
  ]);
  const byId = new Map(reads.map((read) => [read.row.id, toVideo(read, ladders)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export function streamingVideos({ db }: RouteDeps) {
  return tsr.routerWithMiddleware(served("streaming", streamingVideosRoutes))<RequestExtension>({
    listVideos: async ({ query }, { request: { caller }, responseHeaders }) => {
      const filters: SQL[] = [eq(videos.accountId, caller.accountId)];
      if (query.search !== undefined) filters.push(ilike(videos.name, likePattern(query.search)));
      if (query.status !== undefined) filters.push(sql`(${videoStatus}) = ${query.status}`);
      if (query.stream_id !== undefined) filters.push(eq(videos.streamId, query.stream_id));
      if (query.client_user_id !== undefined) filters.push(eq(videos.clientUserId, query.client_user_id));
      if (query.id !== undefined) filters.push(inArray(videos.id, query.id));
      const where = and(...filters);
      const [reads, [total], ladders] = await Promise.all([
        db
          .select(videoColumns)
          .from(videos)
          .where(where)
          .orderBy(desc(videos.id))
          .limit(query.per_page)
          .offset((query.page - 1) * query.per_page),
        db.select({ total: count() }).from(videos).where(where),
        vodLadders(db, caller.accountId),
      ]);
      responseHeaders.set("x-total-count", String(total?.total ?? 0));
      return { status: 200, body: reads.map((read) => toVideo(read, ladders)) };
    },

    getVideo: async ({ params }, { request: { caller } }) => {
      const [shown] = await shownVideos(db, caller.accountId, [params.video_id]);
      if (!shown) throw notFound(`Video ${params.video_id}`);
      return { status: 200, body: shown };
    },

    listVideoNames: async ({ query }, { request: { caller } }) => {
      const rows = await db
        .select({ id: videos.id, name: videos.name })
        .from(videos)
        .where(and(eq(videos.accountId, caller.accountId), inArray(videos.id, query.ids)))
        .orderBy(asc(videos.id));
      return { status: 200, body: rows };
    },

    createVideo: async ({ body }, { request: { caller } }) => {
      const shown = await db.transaction(async (tx) => {
        const ids = await insertVideos(tx, caller, [body.video], () => "video.");
        return shownVideos(tx, caller.accountId, ids);
      });
      return { status: 201, body: shown };
    },

    createVideoBatch: async ({ body }, { request: { caller } }) => {
      const shown = await db.transaction(async (tx) => {
        const ids = await insertVideos(tx, caller, body.videos, (index) => `videos.${index}.`);
        const subtitles = body.videos.flatMap((video, index) =>
          (video.subtitles ?? []).map((subtitle) => ({ ...subtitle, accountId: caller.accountId, videoId: ids[index]! })),
        );
        if (subtitles.length > 0) await tx.insert(videoSubtitles).values(subtitles);
        return shownVideos(tx, caller.accountId, ids);
      });
      return { status: 201, body: shown };
    },

    updateVideo: async ({ params, body }, { request: { caller } }) => {
      const shown = await db.transaction(async (tx) => {
        const mine = and(eq(videos.accountId, caller.accountId), eq(videos.id, params.video_id));
        const [current] = await tx.select().from(videos).where(mine).for("update");
        if (!current) throw notFound(`Video ${params.video_id}`);
        const errors = fieldErrors();
        const columns = await settingsOf(tx, caller.accountId, body, "", errors);
        if (problemCount(errors) > 0) throw validationFailed(errors);
        if (body.origin_url !== undefined && current.sourceAt !== null)
          throw conflict(`Video ${current.id} has its source already; origin_url may be given only to a video that is still empty.`);
        await tx
          .update(videos)
          .set({ ...columns, updatedAt: sql`now()` })
          .where(mine);
        return shownVideos(tx, caller.accountId, [current.id]);
      });
      return { status: 200, body: shown[0]! };
    },

    deleteVideo: async ({ params }, { request: { caller } }) => {
      // Its subtitles go with it (a foreign key that cascades).
      const [deleted] = await db
        .delete(videos)
        .where(and(eq(videos.accountId, caller.accountId), eq(videos.id, params.video_id)))
        .returning({ id: videos.id });
      if (!deleted) throw notFound(`Video ${params.video_id}`);
      return { status: 204, body: undefined };
    },

    getVideoUpload: async ({ params }, { request: { caller } }) => {
      const [shown] = await shownVideos(db, caller.accountId, [params.video_id]);
      if (!shown) throw notFound(`Video ${params.video_id}`);
      return { status: 200, body: { token: `tus_${randomHex(32)}`, servers: UPLOAD_SERVERS, video: shown } };
    },
  });
}
