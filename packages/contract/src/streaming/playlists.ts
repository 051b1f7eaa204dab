/**
 * Streaming playlists: videos of the account played one after another, as video on demand or as a
 * scheduled live channel, with the player they use and the videos they list.
 */
import { initContract } from "@ts-rest/core";
import { z } from "zod";
import type { ClientMetadata } from "../client-names.js";
import { errorResponses, idParam, integer, integerParam, isoTimestamp, listOf, strictObject, stringEnum, withBody } from "../common.js";
import { read, write } from "../roles.js";
import { route } from "../route.js";
import { missingId, uniqueName, type CaseWorld } from "../route-case.js";
import { video, videoExample } from "./videos.js";

const c = initContract();

/** Playlists on one page of the listing, and the most videos a playlist lists. */
export const PLAYLISTS_PAGE_SIZE = 25;
export const PLAYLIST_VIDEOS_MAX = 500;
/** `live`: a channel that starts at `start_time`; `vod`: played on demand. */
export const PLAYLIST_TYPES = ["live", "vod"] as const;

const playlistSchema = z
  .object({
    id: integer(),
    name: z.string(),
    client_id: integer().describe("The account."),
    client_user_id: integer().describe("The account's user the playlist belongs to."),
    active: z.boolean().describe("Whether the playlist plays."),
    playlist_type: stringEnum(PLAYLIST_TYPES).describe("`live`: a channel that starts at `start_time`; `vod`: played on demand."),
    start_time: isoTimestamp.nullable().describe("When a live playlist starts; null for one that plays on demand."),
    loop: z.boolean().describe("Whether it starts again after its last video."),
    countdown: z.boolean().describe("Whether a live playlist shows a countdown until it starts."),
    player_id: integer().nullable().describe("The player it plays in; null for the platform's default player."),
    video_ids: z.array(integer()).describe("Its videos, in the order they play."),
    ad_id: integer().nullable().describe("The advertisement shown; advertisements are not part of this API, so always null."),
    hls_url: z.string().describe("HLS manifest (MPEG-TS)."),
    hls_cmaf_url: z.string().describe("HLS manifest (CMAF)."),
    iframe_url: z.string().describe("The platform's embeddable player page."),
  })
  .strict()
  .describe("A playlist.");
export interface PlaylistSchema extends PlaylistSchemaType {}
type PlaylistSchemaType = typeof playlistSchema;
export const playlist: PlaylistSchema = playlistSchema;
export type Playlist = z.infer<typeof playlist>;

const playlistSettings = {
  name: z.string().min(1, "Must not be empty.").max(255, "At most 255 characters.").describe("The playlist's name, 1 to 255 characters."),
  client_user_id: integer({ min: 1 }).describe("A user of the account (400 otherwise). Default: the user of the calling token."),
  active: z.boolean().describe("Default true."),
  playlist_type: stringEnum(PLAYLIST_TYPES).describe("Default `vod`. A `live` playlist needs `start_time`."),
  start_time: z
    .string()
    .datetime({ offset: true, message: "Must be an ISO 8601 date and time with a time zone." })
    .refine((value) => Date.parse(value) >= Date.UTC(2000, 0, 1) && Date.parse(value) < Date.UTC(2100, 0, 1), "Must be in the years 2000 to 2099.")
    .nullable()
    .describe("When a live playlist starts (ISO 8601 with a time zone, in the years 2000 to 2099); null for `vod`. Default null."),
  loop: z.boolean().describe("Default false."),
  countdown: z.boolean().describe("Default false."),
  player_id: integer({ min: 1 }).nullable().describe("A player of the account (400 otherwise); null for the platform's default. Default null."),
  video_ids: listOf(integer({ min: 1 }), {
    max: PLAYLIST_VIDEOS_MAX,
    noun: "videos",
    description: `Videos of the account (400 naming those that are not), in the order they play, each once, at most ${PLAYLIST_VIDEOS_MAX}. Default none.`,
  }),
};
const READ_ONLY = ["id", "client_id", "ad_id", "hls_url", "hls_cmaf_url", "iframe_url"];
const optionalSettings = Object.fromEntries(Object.entries(playlistSettings).map(([key, schema]) => [key, schema.optional()])) as {
  [K in keyof typeof playlistSettings]: z.ZodOptional<(typeof playlistSettings)[K]>;
};

const createPlaylistBodySchema = strictObject({ ...optionalSettings, name: playlistSettings.name }, { readOnly: READ_ONLY }).describe(
  "The new playlist: `name` is required, every other field has its default.",
);
export interface CreatePlaylistBodySchema extends CreatePlaylistBodySchemaType {}
type CreatePlaylistBodySchemaType = typeof createPlaylistBodySchema;
export const createPlaylistBody: CreatePlaylistBodySchema = createPlaylistBodySchema;
export type CreatePlaylistBody = z.input<typeof createPlaylistBody>;

const updatePlaylistBodySchema = strictObject(optionalSettings, { readOnly: READ_ONLY }).describe(
  "The fields to change; fields left out keep their values. `video_ids` replaces the list.",
);
export interface UpdatePlaylistBodySchema extends UpdatePlaylistBodySchemaType {}
type UpdatePlaylistBodySchemaType = typeof updatePlaylistBodySchema;
export const updatePlaylistBody: UpdatePlaylistBodySchema = updatePlaylistBodySchema;
export type UpdatePlaylistBody = z.input<typeof updatePlaylistBody>;

const playlistIdParams = z.object({ playlist_id: idParam("The playlist id.") });

const PLAYBACK = "https://video.cloudplane.example/playlists";
export const playlistExample: Playlist = {
  id: 1,
  name: "Acme product tour",
  client_id: 1,
  client_user_id: 1,
  active: true,
  playlist_type: "vod",
  start_time: null,
  loop: false,
  countdown: false,
  player_id: 1,
  video_ids: [1, 3],
  ad_id: null,
  hls_url: `${PLAYBACK}/1/master.m3u8`,
  hls_cmaf_url: `${PLAYBACK}/1/master-cmaf.m3u8`,
  iframe_url: `${PLAYBACK}/1/player.html`,
};

const playlistOf = (w: CaseWorld) => w.first("streaming.listPlaylists");

export const streamingPlaylistsRoutes = {
  listPlaylists: route({
    method: "GET",
    path: "/streaming/playlists",
    query: z.object({ page: integerParam({ min: 1, description: `The page, from 1. Default 1. A page holds ${PLAYLISTS_PAGE_SIZE} playlists.` }).default(1) }),
    responses: { 200: z.array(playlist), ...errorResponses() },
    summary: "List playlists",
    description:
      `The account's playlists, by id ascending, ${PLAYLISTS_PAGE_SIZE} a page. The body is a bare array; the \`X-Total-Count\` response header ` +
      "carries the total number of playlists. A page past the end is an empty array.",
    metadata: { ...read, client: { pageSize: PLAYLISTS_PAGE_SIZE } } satisfies ClientMetadata,
  }, {
    example: {
      query: { page: 1 },
      response: [playlistExample],
      responseHeaders: { "X-Total-Count": { description: "The total number of the account's playlists, on every page.", example: 1, type: "integer" } },
    },
    case: { path: () => "/streaming/playlists", ownsObjects: false },
  }),
  getPlaylist: route({
    method: "GET",
    path: "/streaming/playlists/:playlist_id",
    pathParams: playlistIdParams,
    responses: { 200: playlist, ...errorResponses() },
    summary: "Get a playlist",
    description: "One playlist of the account.",
    metadata: read,
  }, {
    example: { pathParams: { playlist_id: playlistExample.id }, response: playlistExample },
    case: { path: (w) => `/streaming/playlists/${playlistOf(w).id}`, ownsObjects: true },
  }),
  listPlaylistVideos: route({
    method: "GET",
    path: "/streaming/playlists/:playlist_id/videos",
    pathParams: playlistIdParams,
    responses: { 200: z.array(video), ...errorResponses() },
    summary: "List a playlist's videos",
    description: "The playlist's videos in the order they play, each as the video route shows it; a bare array.",
    metadata: { ...read, client: { resource: "playlists.videos", method: "list" } } satisfies ClientMetadata,
  }, {
    example: { pathParams: { playlist_id: playlistExample.id }, response: [videoExample] },
    case: { path: (w) => `/streaming/playlists/${playlistOf(w).id}/videos`, ownsObjects: true },
  }),
  createPlaylist: route({
    method: "POST",
    path: "/streaming/playlists",
    body: createPlaylistBody,
    responses: { 201: playlist, ...errorResponses(withBody) },
    summary: "Create a playlist",
    description: "A new playlist of the account. A `live` playlist needs a `start_time`; a `vod` one may not have one.",
    metadata: write,
  }, {
    example: {
      body: { name: "Acme launch channel", playlist_type: "live", start_time: "2026-12-01T18:00:00Z", countdown: true, video_ids: [1] },
      response: {
        ...playlistExample,
        id: 5,
        name: "Acme launch channel",
        playlist_type: "live",
        start_time: "2026-12-01T18:00:00.000Z",
        countdown: true,
        player_id: null,
        video_ids: [1],
        hls_url: `${PLAYBACK}/5/master.m3u8`,
        hls_cmaf_url: `${PLAYBACK}/5/master-cmaf.m3u8`,
        iframe_url: `${PLAYBACK}/5/player.html`,
      },
    },
    case: { path: () => "/streaming/playlists", ownsObjects: false, body: () => ({ name: uniqueName("route-case-playlist") }) },
  }),
  updatePlaylist: route({
    method: "PATCH",
    path: "/streaming/playlists/:playlist_id",
    pathParams: playlistIdParams,
    body: updatePlaylistBody,
    responses: { 200: playlist, ...errorResponses(withBody) },
    summary: "Change a playlist",
    description: "Changes the fields given; the others keep their values. Switching to `vod` clears `start_time`.",
    metadata: write,
  }, {
    example: {
      pathParams: { playlist_id: playlistExample.id },
      body: { loop: true },
      response: { ...playlistExample, loop: true },
    },
    case: { path: (w) => `/streaming/playlists/${playlistOf(w).id}`, ownsObjects: true, body: () => ({ active: true }) },
  }),
  deletePlaylist: route({
    method: "DELETE",
    path: "/streaming/playlists/:playlist_id",
    pathParams: playlistIdParams,
    responses: { 204: c.noBody(), ...errorResponses() },
    summary: "Delete a playlist",
    description: "Deletes the playlist; its videos stay. Answers 204 with no body.",
    metadata: write,
  }, {
    example: { pathParams: { playlist_id: 3 } },
    case: { path: (w, made) => `/streaming/playlists/${made?.id ?? missingId(w.account)}`, ownsObjects: true, makes: "streaming.createPlaylist" },
  }),
};
