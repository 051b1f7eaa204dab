/**
 * Broadcasts: the public event a stream is shown as in the platform's player (pending, live, paused,
 * finished), with its player settings and the count of viewers watching it now.
 */
import { initContract } from "@ts-rest/core";
import { z } from "zod";
import { errorResponses, idParam, integer, integerParam, listOf, strictObject, stringEnum, withBody } from "../common.js";
import type { ClientMetadata } from "../client-names.js";
import { read, write } from "../roles.js";
import { route } from "../route.js";
import { missingId, uniqueName, type CaseWorld } from "../route-case.js";

const c = initContract();

/** Broadcasts on one page of the listing. */
export const BROADCASTS_PAGE_SIZE = 25;

/** The most streams a broadcast shows. */
export const BROADCAST_STREAMS_MAX = 10;

/** What the player shows of a broadcast: a waiting message, the stream, a pause message, or an end message. */
export const BROADCAST_STATUSES = ["pending", "live", "paused", "finished"] as const;

const broadcastDetailSchema = z
  .object({
    id: integer(),
    name: z.string(),
    status: stringEnum(BROADCAST_STATUSES).describe(
      "`pending`: the player shows `pending_message` (or a default one), not the stream; `live`: viewers see the stream; " +
        "`paused`: a pause message; `finished`: an end message. Viewers' players follow a change within seconds.",
    ),
    stream_ids: z
      .array(integer())
      .describe("The streams the broadcast shows, in the order given: at least one (a broadcast whose last stream is deleted is deleted with it)."),
    ad_id: integer().nullable().describe("The ad shown in the broadcast; null for the account's default ad (or none)."),
    custom_iframe_url: z.string().nullable().describe("The player URL the share button offers instead of the generated one; null for the generated one."),
    pending_message: z.string().nullable().describe("The message shown while the broadcast is pending; null for the default one."),
    player_id: integer().nullable().describe("The player the broadcast is shown in; null for the account's default player."),
    poster: z.string().nullable().describe("The poster image's URL; null for none."),
    share_url: z.string().nullable().describe("The link the share button offers; null disables sharing."),
    show_dvr_after_finish: z.boolean().describe("Whether the recording of the DVR window stays watchable once the broadcast is finished."),
  })
  .strict()
  .describe("A broadcast: how a stream is shown to its viewers.");
export interface BroadcastDetailSchema extends BroadcastDetailSchemaType {}
type BroadcastDetailSchemaType = typeof broadcastDetailSchema;
export const broadcastDetail: BroadcastDetailSchema = broadcastDetailSchema;

export type BroadcastDetail = z.infer<typeof broadcastDetail>;

export const broadcastSpectators = z
  .object({ spectators_count: integer().describe("Viewers watching the broadcast now; 0 whenever it is not live.") })
  .strict()
  .describe("The broadcast's viewers at the moment.");

export type BroadcastSpectators = z.infer<typeof broadcastSpectators>;

const link = (what: string) =>
  z
    .string()
    .max(2048, "At most 2048 characters.")
    .refine((value) => URL.canParse(value) && ["http:", "https:"].includes(new URL(value).protocol), { message: "Must be an http or https URL." })
    .nullable()
    .describe(`${what}: an http or https URL, at most 2048 characters; null for none.`);

/** The fields a client sets on a broadcast. */
const broadcastSettings = {
  name: z.string().min(1, "Must not be empty.").max(255, "At most 255 characters.").describe("The broadcast's name, 1 to 255 characters."),
  stream_ids: listOf(integer({ min: 1 }), {
    min: 1,
    max: BROADCAST_STREAMS_MAX,
    noun: "streams",
    description: "The streams the broadcast shows, in this order: streams of the account, each once, at least one.",
  }).superRefine((ids, ctx) => {
    ids.forEach((id, index) => {
      if (ids.indexOf(id) !== index) ctx.addIssue({ code: z.ZodIssueCode.custom, path: [index], message: `Stream ${id} is named twice.` });
    });
  }),
  status: stringEnum(BROADCAST_STATUSES).describe("`pending`, `live`, `paused` or `finished`, in any order. Default `pending`."),
  ad_id: integer({ min: 1 }).nullable().describe("The ad to show; null for the account's default. Ads are not part of this API, so the id is not checked. Default null."),
  custom_iframe_url: link("The player URL the share button offers instead of the generated one"),
  pending_message: z.string().max(1024, "At most 1024 characters.").nullable().describe("The message shown while pending, at most 1024 characters; null for the default. Default null."),
  player_id: integer({ min: 1 }).nullable().describe("The player to show the broadcast in; null for the account's default. The id is not checked. Default null."),
  poster: link("The poster image"),
  share_url: link("The link the share button offers (null disables sharing)"),
  show_dvr_after_finish: z.boolean().describe("Whether the DVR recording stays watchable once finished. Default false."),
};

const BROADCAST_READ_ONLY = ["id"];

const createBroadcastBodySchema = strictObject({
  broadcast: strictObject(
    {
      name: broadcastSettings.name,
      stream_ids: broadcastSettings.stream_ids,
      status: broadcastSettings.status.optional(),
      ad_id: broadcastSettings.ad_id.optional(),
      custom_iframe_url: broadcastSettings.custom_iframe_url.optional(),
      pending_message: broadcastSettings.pending_message.optional(),
      player_id: broadcastSettings.player_id.optional(),
      poster: broadcastSettings.poster.optional(),
      share_url: broadcastSettings.share_url.optional(),
      show_dvr_after_finish: broadcastSettings.show_dvr_after_finish.optional(),
    },
    { readOnly: BROADCAST_READ_ONLY },
  ).describe("The new broadcast: `name` and `stream_ids` are required."),
}).describe("The new broadcast, wrapped in `broadcast` as the platform takes it.");
export interface CreateBroadcastBodySchema extends CreateBroadcastBodySchemaType {}
type CreateBroadcastBodySchemaType = typeof createBroadcastBodySchema;
export const createBroadcastBody: CreateBroadcastBodySchema = createBroadcastBodySchema;
export type CreateBroadcastBody = z.input<typeof createBroadcastBody>;

const updateBroadcastBodySchema = strictObject({
  broadcast: strictObject(
    Object.fromEntries(Object.entries(broadcastSettings).map(([key, schema]) => [key, schema.optional()])) as {
      [Key in keyof typeof broadcastSettings]: z.ZodOptional<(typeof broadcastSettings)[Key]>;
    },
    { readOnly: BROADCAST_READ_ONLY },
  ).describe("The fields to change; fields left out keep their values."),
}).describe("The changes, wrapped in `broadcast` as the platform takes them.");
export interface UpdateBroadcastBodySchema extends UpdateBroadcastBodySchemaType {}
type UpdateBroadcastBodySchemaType = typeof updateBroadcastBodySchema;
export const updateBroadcastBody: UpdateBroadcastBodySchema = updateBroadcastBodySchema;
export type UpdateBroadcastBody = z.input<typeof updateBroadcastBody>;

const broadcastIdParams = z.object({ broadcast_id: idParam("The broadcast id.") });

// The examples' objects: the demo data's, of account 1.
const morningNews: BroadcastDetail = {
  id: 1,
  name: "Morning news",
  status: "live",
  stream_ids: [1],
  ad_id: null,
  custom_iframe_url: null,
  pending_message: null,
  player_id: null,
  poster: "https://acme.video.cloudplane.example/posters/morning-news.jpg",
  share_url: "https://acme.example/live/morning-news",
  show_dvr_after_finish: true,
};
export const broadcastExample: BroadcastDetail = morningNews;

const broadcastOf = (w: CaseWorld) => w.first("streaming.listBroadcasts");

export const streamingBroadcastsRoutes = {
  listBroadcasts: route({
    method: "GET",
    path: "/streaming/broadcasts",
    query: z.object({
      page: integerParam({ min: 1, description: `The page, from 1. Default 1. A page holds ${BROADCASTS_PAGE_SIZE} broadcasts.` }).default(1),
    }),
    responses: { 200: z.array(broadcastDetail), ...errorResponses() },
    summary: "List broadcasts",
    description:
      `The account's broadcasts, newest first (id descending), ${BROADCASTS_PAGE_SIZE} a page. The body is a bare array; ` +
      "the `X-Total-Count` response header carries the total number of broadcasts. A page past the end is an empty array.",
    metadata: { ...read, client: { pageSize: BROADCASTS_PAGE_SIZE } } satisfies ClientMetadata,
  }, {
    example: {
      query: { page: 1 },
      response: [morningNews],
      responseHeaders: {
        "X-Total-Count": { description: "The total number of the account's broadcasts, on every page.", example: 4, type: "integer" },
      },
    },
    case: { path: () => "/streaming/broadcasts", ownsObjects: false },
  }),
  getBroadcast: route({
    method: "GET",
    path: "/streaming/broadcasts/:broadcast_id",
    pathParams: broadcastIdParams,
    responses: { 200: broadcastDetail, ...errorResponses() },
    summary: "Get a broadcast",
    description: "One broadcast of the account.",
    metadata: read,
  }, {
    example: { pathParams: { broadcast_id: 1 }, response: morningNews },
    case: { path: (w) => `/streaming/broadcasts/${broadcastOf(w).id}`, ownsObjects: true },
  }),
  getBroadcastSpectators: route({
    method: "GET",
    path: "/streaming/broadcasts/:broadcast_id/spectators",
    pathParams: broadcastIdParams,
    responses: { 200: broadcastSpectators, ...errorResponses() },
    summary: "Count a broadcast's viewers",
    description:
      "How many viewers watch the broadcast now, as the platform's players report them. A broadcast that is not live has none: " +
      "its count goes to 0 the moment its status leaves `live`.",
    metadata: read,
  }, {
    example: { pathParams: { broadcast_id: 1 }, response: { spectators_count: 148 } },
    case: { path: (w) => `/streaming/broadcasts/${broadcastOf(w).id}/spectators`, ownsObjects: true },
  }),
  createBroadcast: route({
    method: "POST",
    path: "/streaming/broadcasts",
    body: createBroadcastBody,
    responses: { 201: broadcastDetail, ...errorResponses(withBody) },
    summary: "Create a broadcast",
    description:
      `A new broadcast of the account's streams (\`stream_ids\`, 1 to ${BROADCAST_STREAMS_MAX}, each once, kept in the order given; 400 naming ` +
      "`broadcast.stream_ids.<index>` for a stream that is not the account's). It starts `pending` unless `status` says otherwise, with no viewers. " +
      "Answers 201 with the broadcast (the platform's SDKs read no body).",
    metadata: write,
  }, {
    example: {
      body: { broadcast: { name: "Quarterly update", stream_ids: [1], pending_message: "We start at 10:00 UTC." } },
      response: { ...morningNews, id: 8, name: "Quarterly update", status: "pending", poster: null, share_url: null, show_dvr_after_finish: false, pending_message: "We start at 10:00 UTC." },
    },
    case: {
      path: () => "/streaming/broadcasts",
      ownsObjects: false,
      body: (w) => ({ broadcast: { name: uniqueName("route-case-broadcast"), stream_ids: [w.first("streaming.listStreams").id] } }),
    },
  }),
  updateBroadcast: route({
    method: "PATCH",
    path: "/streaming/broadcasts/:broadcast_id",
    pathParams: broadcastIdParams,
    body: updateBroadcastBody,
    responses: { 200: broadcastDetail, ...errorResponses(withBody) },
    summary: "Change a broadcast",
    description:
      "Changes the fields given in `broadcast`; the others keep their values (the platform's SDKs always send `name`, which may be left " +
      "out here). `status` moves freely between `pending`, `live`, `paused` and `finished`; leaving `live` sets the viewer count to 0. " +
      "`stream_ids` replaces the broadcast's streams with those named, in that order.",
    metadata: write,
  }, {
    example: {
      pathParams: { broadcast_id: 3 },
      body: { broadcast: { name: "Evening news", status: "paused" } },
      response: { ...morningNews, id: 3, name: "Evening news", status: "paused", poster: null, share_url: null, show_dvr_after_finish: false },
    },
    case: { path: (w) => `/streaming/broadcasts/${broadcastOf(w).id}`, ownsObjects: true, body: () => ({ broadcast: { show_dvr_after_finish: true } }) },
  }),
  deleteBroadcast: route({
    method: "DELETE",
    path: "/streaming/broadcasts/:broadcast_id",
    pathParams: broadcastIdParams,
    responses: { 204: c.noBody(), ...errorResponses() },
    summary: "Delete a broadcast",
    description: "Deletes the broadcast for good; its stream stays. Answers 204 with no body.",
    metadata: write,
  }, {
    example: { pathParams: { broadcast_id: 5 } },
    case: {
      path: (w, made) => `/streaming/broadcasts/${made?.id ?? missingId(w.account)}`,
      ownsObjects: true,
      makes: "streaming.createBroadcast",
    },
  }),
};
