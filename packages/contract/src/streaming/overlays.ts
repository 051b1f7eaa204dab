/**
 * A stream's HTML overlays: live web widgets drawn over the video, each placed by its box or stretched
 * over the whole frame; made, changed and deleted one by one or as a list.
 */
import { initContract } from "@ts-rest/core";
import { z } from "zod";
import { errorResponses, idParam, integer, isoTimestamp, listOf, strictObject, withBody } from "../common.js";
import type { ClientMetadata } from "../client-names.js";
import { read, write } from "../roles.js";
import { route } from "../route.js";
import { missingId, type CaseObject, type CaseWorld } from "../route-case.js";

const c = initContract();

/** The most overlays a stream may have. */
export const OVERLAYS_PER_STREAM_MAX = 50;
/** The frame an overlay's box lies in: a Full HD source's, in pixels. */
export const OVERLAY_FRAME_WIDTH = 1920;
export const OVERLAY_FRAME_HEIGHT = 1080;

const overlaySchema = z
  .object({
    id: integer(),
    stream_id: integer().describe("The stream the overlay is shown over."),
    url: z.string().describe("The web page (http or https) drawn over the video."),
    width: integer().nullable().describe("Width of the box in pixels; null when the overlay is stretched or takes the page's own size."),
    height: integer().nullable().describe("Height of the box in pixels; null when the overlay is stretched or takes the page's own size."),
    x: integer().nullable().describe("Left edge of the box, pixels from the frame's left; null when stretched or not placed (the frame's corner)."),
    y: integer().nullable().describe("Top edge of the box, pixels from the frame's top; null when stretched or not placed (the frame's corner)."),
    stretch: z.boolean().describe("Whether the overlay covers the whole frame (then it has no box)."),
    created_at: isoTimestamp,
    updated_at: isoTimestamp.describe("When the overlay was last changed."),
  })
  .strict()
  .describe("An HTML overlay widget of a stream.");
export interface OverlaySchema extends OverlaySchemaType {}
type OverlaySchemaType = typeof overlaySchema;
export const overlay: OverlaySchema = overlaySchema;

export type Overlay = z.infer<typeof overlay>;

const overlayUrl = z
  .string()
  .max(2048, "At most 2048 characters.")
  .refine((value) => URL.canParse(value) && ["http:", "https:"].includes(new URL(value).protocol) && new URL(value).hostname !== "", {
    message: "Must be an http or https URL.",
  })
  .describe("The web page to draw over the video: an http or https URL, at most 2048 characters.");

/** The fields of an overlay a client sets; `stretch` and the box exclude each other. */
const overlayFields = {
  width: integer({ min: 1, max: OVERLAY_FRAME_WIDTH }).describe(`Width of the box, 1 to ${OVERLAY_FRAME_WIDTH} pixels.`),
  height: integer({ min: 1, max: OVERLAY_FRAME_HEIGHT }).describe(`Height of the box, 1 to ${OVERLAY_FRAME_HEIGHT} pixels.`),
  x: integer({ min: 0, max: OVERLAY_FRAME_WIDTH - 1 }).describe(`Left edge of the box, 0 to ${OVERLAY_FRAME_WIDTH - 1} pixels.`),
  y: integer({ min: 0, max: OVERLAY_FRAME_HEIGHT - 1 }).describe(`Top edge of the box, 0 to ${OVERLAY_FRAME_HEIGHT - 1} pixels.`),
  stretch: z
    .boolean()
    .describe("true: the overlay covers the whole frame and has no box (it may not come with width, height, x or y); false: it is placed by its box."),
};

const OVERLAY_READ_ONLY = ["stream_id", "created_at", "updated_at"];

const newOverlaySchema = strictObject(
  {
    url: overlayUrl,
    width: overlayFields.width.optional(),
    height: overlayFields.height.optional(),
    x: overlayFields.x.optional(),
    y: overlayFields.y.optional(),
    stretch: overlayFields.stretch.optional(),
  },
  { readOnly: ["id", ...OVERLAY_READ_ONLY] },
).describe("A new overlay: `url` is required; the box fields left out are null, `stretch` is false unless given.");

const overlayChangesShape = {
  url: overlayUrl.optional(),
  width: overlayFields.width.optional(),
  height: overlayFields.height.optional(),
  x: overlayFields.x.optional(),
  y: overlayFields.y.optional(),
  stretch: overlayFields.stretch.optional(),
};

const createOverlaysBodySchema = listOf(newOverlaySchema, {
  min: 1,
  max: OVERLAYS_PER_STREAM_MAX,
  noun: "overlays",
  description: "The overlays to add to the stream, a JSON array as the platform takes it.",
});
export interface CreateOverlaysBodySchema extends CreateOverlaysBodySchemaType {}
type CreateOverlaysBodySchemaType = typeof createOverlaysBodySchema;
export const createOverlaysBody: CreateOverlaysBodySchema = createOverlaysBodySchema;
export type CreateOverlaysBody = z.input<typeof createOverlaysBody>;

const updateOverlayBodySchema = strictObject(overlayChangesShape, { readOnly: ["id", ...OVERLAY_READ_ONLY] }).describe(
  "The fields to change; the others keep their values. `stretch: true` clears the box; a box field given without `stretch` sets `stretch` to false.",
);
export interface UpdateOverlayBodySchema extends UpdateOverlayBodySchemaType {}
type UpdateOverlayBodySchemaType = typeof updateOverlayBodySchema;
export const updateOverlayBody: UpdateOverlayBodySchema = updateOverlayBodySchema;
export type UpdateOverlayBody = z.input<typeof updateOverlayBody>;

const updateOverlaysBodySchema = listOf(
  strictObject({ id: integer({ min: 1 }).describe("The overlay to change: one of the stream's."), ...overlayChangesShape }, { readOnly: OVERLAY_READ_ONLY }).describe(
    "An overlay's id and the fields of it to change.",
  ),
  {
    min: 1,
    max: OVERLAYS_PER_STREAM_MAX,
    noun: "overlays",
    description: "The overlays to change, each named by its id (each at most once), a JSON array as the platform takes it.",
  },
);
export interface UpdateOverlaysBodySchema extends UpdateOverlaysBodySchemaType {}
type UpdateOverlaysBodySchemaType = typeof updateOverlaysBodySchema;
export const updateOverlaysBody: UpdateOverlaysBodySchema = updateOverlaysBodySchema;
export type UpdateOverlaysBody = z.input<typeof updateOverlaysBody>;

const streamIdParams = z.object({ stream_id: idParam("The stream id.") });
const overlayParams = z.object({ stream_id: idParam("The stream id."), overlay_id: idParam("The overlay id.") });

// The examples' objects: the demo data's, of account 1 (stream 3 has HTML overlays on).
const scoreboard: Overlay = {
  id: 1,
  stream_id: 3,
  url: "https://widgets.acme.example/scoreboard.html",
  width: 480,
  height: 120,
  x: 40,
  y: 900,
  stretch: false,
  created_at: "2026-11-01T17:00:00.000Z",
  updated_at: "2026-11-01T17:00:00.000Z",
};
export const overlayExample: Overlay = scoreboard;
const ticker: Overlay = {
  id: 2,
  stream_id: 3,
  url: "https://widgets.acme.example/ticker.html",
  width: null,
  height: null,
  x: null,
  y: null,
  stretch: true,
  created_at: "2026-11-01T17:05:00.000Z",
  updated_at: "2026-11-01T17:05:00.000Z",
};

// The cases' objects: the first stream of the account that has overlays, and its first overlay.
const overlaidStreamOf = (w: CaseWorld) => w.first("streaming.listStreams", { where: (stream) => Array.isArray(stream.html_overlays) && stream.html_overlays.length > 0 });
const overlayOf = (w: CaseWorld) => (overlaidStreamOf(w).html_overlays as CaseObject[])[0]!;
const overlayPath = (w: CaseWorld) => `/streaming/streams/${overlaidStreamOf(w).id}/overlays`;

export const streamingOverlaysRoutes = {
  listOverlays: route({
    method: "GET",
    path: "/streaming/streams/:stream_id/overlays",
    pathParams: streamIdParams,
    responses: { 200: z.array(overlay), ...errorResponses() },
    summary: "List a stream's overlays",
    description: `The stream's HTML overlays by id ascending (at most ${OVERLAYS_PER_STREAM_MAX}), a bare array; a stream without overlays answers an empty one.`,
    metadata: read,
  }, {
    example: { pathParams: { stream_id: 3 }, response: [scoreboard, ticker] },
    case: { path: overlayPath, ownsObjects: true },
  }),
  getOverlay: route({
    method: "GET",
    path: "/streaming/streams/:stream_id/overlays/:overlay_id",
    pathParams: overlayParams,
    responses: { 200: overlay, ...errorResponses() },
    summary: "Get an overlay",
    description: "One overlay of the stream; an overlay of another stream answers 404.",
    metadata: read,
  }, {
    example: { pathParams: { stream_id: 3, overlay_id: 1 }, response: scoreboard },
    case: { path: (w) => `${overlayPath(w)}/${overlayOf(w).id}`, ownsObjects: true },
  }),
  createOverlays: route({
    method: "POST",
    path: "/streaming/streams/:stream_id/overlays",
    pathParams: streamIdParams,
    body: createOverlaysBody,
    responses: { 201: z.array(overlay), ...errorResponses([422, ...withBody]) },
    summary: "Add overlays to a stream",
    description:
      "Adds the overlays of the body (a JSON array) to the stream, all or none, and answers them as made. Each is placed by its box " +
      "(`width`, `height`, `x`, `y` in pixels of a Full HD frame) or `stretch`ed over the whole frame, not both. A stream has at most " +
      `${OVERLAYS_PER_STREAM_MAX} overlays: more answers 422. Overlays are drawn while the stream's \`html_overlay\` is on; they may be ` +
      "added and changed while it is off, or while the stream is live.",
    metadata: write,
  }, {
    example: {
      pathParams: { stream_id: 3 },
      body: [{ url: "https://widgets.acme.example/lower-third.html", width: 1280, height: 160, x: 320, y: 880 }],
      response: [{ ...scoreboard, id: 6, url: "https://widgets.acme.example/lower-third.html", width: 1280, height: 160, x: 320, y: 880, created_at: "2026-11-23T19:30:00.000Z", updated_at: "2026-11-23T19:30:00.000Z" }],
    },
    case: {
      path: (w) => `/streaming/streams/${w.first("streaming.listStreams", { where: (stream) => Array.isArray(stream.html_overlays) && stream.html_overlays.length <= OVERLAYS_PER_STREAM_MAX - 20 }).id}/overlays`,
      ownsObjects: true,
      body: () => [{ url: "https://widgets.example/route-case.html", stretch: true }],
    },
  }),
  updateOverlays: route({
    method: "PATCH",
    path: "/streaming/streams/:stream_id/overlays",
    pathParams: streamIdParams,
    body: updateOverlaysBody,
    responses: { 200: z.array(overlay), ...errorResponses(withBody) },
    summary: "Change several overlays of a stream",
    description:
      "Changes the overlays the body names by `id` (each an overlay of the stream, at most once; 400 naming the item otherwise), all or none, " +
      "and answers them as changed, in the body's order. Each item changes the fields it gives, as a change of one overlay does.",
    metadata: { ...write, client: { method: "updateMultiple" } } satisfies ClientMetadata,
  }, {
    example: {
      pathParams: { stream_id: 3 },
      body: [{ id: 1, y: 860, url: "https://widgets.acme.example/scoreboard-v2.html" }],
      response: [{ ...scoreboard, y: 860, url: "https://widgets.acme.example/scoreboard-v2.html", updated_at: "2026-11-23T19:30:00.000Z" }],
    },
    case: { path: overlayPath, ownsObjects: true, body: (w) => [{ id: overlayOf(w).id, url: "https://widgets.example/route-case-changed.html" }] },
  }),
  updateOverlay: route({
    method: "PATCH",
    path: "/streaming/streams/:stream_id/overlays/:overlay_id",
    pathParams: overlayParams,
    body: updateOverlayBody,
    responses: { 200: overlay, ...errorResponses(withBody) },
    summary: "Change an overlay",
    description:
      "Changes the fields given; the others keep their values. `stretch: true` clears the box (and may not come with a box field); " +
      "a box field given without `stretch` places the overlay by its box (`stretch` false). The change shows on the live stream within seconds.",
    metadata: write,
  }, {
    example: {
      pathParams: { stream_id: 3, overlay_id: 1 },
      body: { x: 60, y: 880 },
      response: { ...scoreboard, x: 60, y: 880, updated_at: "2026-11-23T19:30:00.000Z" },
    },
    case: { path: (w) => `${overlayPath(w)}/${overlayOf(w).id}`, ownsObjects: true, body: () => ({ width: 400 }) },
  }),
  deleteOverlay: route({
    method: "DELETE",
    path: "/streaming/streams/:stream_id/overlays/:overlay_id",
    pathParams: overlayParams,
    responses: { 204: c.noBody(), ...errorResponses() },
    summary: "Delete an overlay",
    description: "Removes the overlay from the stream for good; the live stream stops showing it within seconds. Answers 204 with no body.",
    metadata: write,
  }, {
    example: { pathParams: { stream_id: 3, overlay_id: 2 } },
    case: {
      path: (w, made) => {
        const first = (made as unknown as CaseObject[] | undefined)?.[0];
        return first ? `/streaming/streams/${first.stream_id as number}/overlays/${first.id}` : `${overlayPath(w)}/${missingId(w.account)}`;
      },
      ownsObjects: true,
      makes: "streaming.createOverlays",
    },
  }),
};
