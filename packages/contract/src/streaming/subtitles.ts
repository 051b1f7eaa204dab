/**
 * Streaming video subtitles: the WebVTT tracks of a video (listing, one track, adding, changing, deleting).
 */
import { initContract } from "@ts-rest/core";
import { z } from "zod";
import { errorResponses, idParam, integer, strictObject, withBody } from "../common.js";
import type { ClientMetadata } from "../client-names.js";
import { route } from "../route.js";
import { missingId, type CaseWorld } from "../route-case.js";
import { subtitleSettings } from "./videos.js";

const c = initContract();

/** The most tracks a video may have. */
export const SUBTITLES_PER_VIDEO_MAX = 50;

const subtitleBaseSchema = z
  .object({ name: z.string(), language: z.string().describe("ISO 639-2 language code."), vtt: z.string().describe("WebVTT text.") })
  .strict()
  .describe("A subtitle track, without its id.");
export interface SubtitleBaseSchema extends SubtitleBaseSchemaType {}
type SubtitleBaseSchemaType = typeof subtitleBaseSchema;
export const subtitleBase: SubtitleBaseSchema = subtitleBaseSchema;

const subtitleSchema = z
  .object({ id: integer(), name: z.string(), language: z.string().describe("ISO 639-2 language code."), vtt: z.string().describe("WebVTT text.") })
  .strict()
  .describe("A subtitle track of a video.");
export interface SubtitleSchema extends SubtitleSchemaType {}
type SubtitleSchemaType = typeof subtitleSchema;
export const subtitle: SubtitleSchema = subtitleSchema;
export type Subtitle = z.infer<typeof subtitle>;

const createSubtitleBodySchema = strictObject(subtitleSettings, { readOnly: ["id"] }).describe("The new track: every field is required.");
export interface CreateSubtitleBodySchema extends CreateSubtitleBodySchemaType {}
type CreateSubtitleBodySchemaType = typeof createSubtitleBodySchema;
export const createSubtitleBody: CreateSubtitleBodySchema = createSubtitleBodySchema;

const updateSubtitleBodySchema = strictObject(
  { name: subtitleSettings.name.optional(), language: subtitleSettings.language.optional(), vtt: subtitleSettings.vtt.optional() },
  { readOnly: ["id"] },
).describe("The fields to change; fields left out keep their values.");
export interface UpdateSubtitleBodySchema extends UpdateSubtitleBodySchemaType {}
type UpdateSubtitleBodySchemaType = typeof updateSubtitleBodySchema;
export const updateSubtitleBody: UpdateSubtitleBodySchema = updateSubtitleBodySchema;

const videoIdParams = z.object({ video_id: idParam("The video id.") });
const subtitleParams = z.object({ video_id: idParam("The video id."), id: idParam("The subtitle id.") });
/** In the client under the video, as the platform's SDKs have them: `client.streaming.videos.subtitles`. */
const client = (method: string) => ({ resource: "videos.subtitles", method });
const read = (method: string): ClientMetadata => ({ access: "read", client: client(method) });
const write = (method: string): ClientMetadata => ({ access: "write", client: client(method) });

const VTT = "WEBVTT\n\n00:00:01.000 --> 00:00:04.000\nWelcome to the autumn launch.\n\n00:00:04.500 --> 00:00:08.000\nLet's start with what's new.\n";
export const subtitleExample: Subtitle = { id: 1, name: "English", language: "eng", vtt: VTT };

// The cases' objects: the account's newest video that has subtitles (newer ones other walks made may have none), and its first subtitle.
const videoOf = (w: CaseWorld) => {
  const found = w.list("streaming.listVideos").find((video) => w.list("streaming.listSubtitles", { params: { video_id: video.id } }).length > 0);
  if (!found) throw new Error(`The route cases need a video with subtitles in account ${w.account}; there is none.`);
  return found;
};
const subtitleOf = (w: CaseWorld) => w.first("streaming.listSubtitles", { params: { video_id: videoOf(w).id } });

export const streamingSubtitlesRoutes = {
  listSubtitles: route({
    method: "GET",
    path: "/streaming/videos/:video_id/subtitles",
    pathParams: videoIdParams,
    responses: { 200: z.array(subtitle), ...errorResponses() },
    summary: "List a video's subtitles",
    description: "The video's subtitle tracks, by id ascending; a bare array, empty when it has none.",
    metadata: read("list"),
  }, {
    example: { pathParams: { video_id: 1 }, response: [subtitleExample] },
    case: { path: (w) => `/streaming/videos/${videoOf(w).id}/subtitles`, ownsObjects: true },
  }),
  getSubtitle: route({
    method: "GET",
    path: "/streaming/videos/:video_id/subtitles/:id",
    pathParams: subtitleParams,
    responses: { 200: subtitle, ...errorResponses() },
    summary: "Get a subtitle",
    description: "One subtitle track of the video.",
    metadata: read("get"),
  }, {
    example: { pathParams: { video_id: 1, id: subtitleExample.id }, response: subtitleExample },
    case: { path: (w) => `/streaming/videos/${videoOf(w).id}/subtitles/${subtitleOf(w).id}`, ownsObjects: true },
  }),
  createSubtitle: route({
    method: "POST",
    path: "/streaming/videos/:video_id/subtitles",
    pathParams: videoIdParams,
    body: createSubtitleBody,
    responses: { 201: subtitle, ...errorResponses([409, ...withBody]) },
    summary: "Add a subtitle",
    description: `Adds a WebVTT track to the video; a video has at most ${SUBTITLES_PER_VIDEO_MAX} (409 past that). Tracks of one language may be several.`,
    metadata: write("create"),
  }, {
    example: {
      pathParams: { video_id: 1 },
      body: { name: "Deutsch", language: "deu", vtt: "WEBVTT\n\n00:00:01.000 --> 00:00:04.000\nWillkommen zum Herbst-Launch.\n" },
      response: { id: 7, name: "Deutsch", language: "deu", vtt: "WEBVTT\n\n00:00:01.000 --> 00:00:04.000\nWillkommen zum Herbst-Launch.\n" },
    },
    case: {
      path: (w) => `/streaming/videos/${videoOf(w).id}/subtitles`,
      ownsObjects: true,
      body: () => ({ name: "Route case", language: "eng", vtt: "WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nHello.\n" }),
    },
  }),
  updateSubtitle: route({
    method: "PATCH",
    path: "/streaming/videos/:video_id/subtitles/:id",
    pathParams: subtitleParams,
    body: updateSubtitleBody,
    responses: { 200: subtitleBase, ...errorResponses(withBody) },
    summary: "Change a subtitle",
    description: "Changes the fields given; the others keep their values. The answer is the track without its id, as the platform answers.",
    metadata: write("update"),
  }, {
    example: {
      pathParams: { video_id: 1, id: subtitleExample.id },
      body: { name: "English (CC)" },
      response: { name: "English (CC)", language: "eng", vtt: VTT },
    },
    case: { path: (w) => `/streaming/videos/${videoOf(w).id}/subtitles/${subtitleOf(w).id}`, ownsObjects: true, body: () => ({ name: "English" }) },
  }),
  deleteSubtitle: route({
    method: "DELETE",
    path: "/streaming/videos/:video_id/subtitles/:id",
    pathParams: subtitleParams,
    responses: { 204: c.noBody(), ...errorResponses() },
    summary: "Delete a subtitle",
    description: "Deletes the track. Answers 204 with no body.",
    metadata: write("delete"),
  }, {
    example: { pathParams: { video_id: 1, id: 3 } },
    case: {
      path: (w, made) => `/streaming/videos/${videoOf(w).id}/subtitles/${made?.id ?? missingId(w.account)}`,
      ownsObjects: true,
      makes: "streaming.createSubtitle",
    },
  }),
};
