/**
 * Restreams: a stream's output pushed on to another platform's ingest (RTMP, RTMPS or SRT) while the
 * stream is live.
 */
import { initContract } from "@ts-rest/core";
import { z } from "zod";
import { errorResponses, idParam, integer, integerParam, strictObject, withBody } from "../common.js";
import type { ClientMetadata } from "../client-names.js";
import { read, write } from "../roles.js";
import { route } from "../route.js";
import { missingId, uniqueName, type CaseWorld } from "../route-case.js";

const c = initContract();

/** Restreams on one page of the listing. */
export const RESTREAMS_PAGE_SIZE = 25;

const RESTREAM_SCHEMES = ["rtmp:", "rtmps:", "srt:"];

const restreamSchema = z
  .object({
    id: integer(),
    name: z.string(),
    stream_id: integer().describe("The stream whose output is pushed on."),
    uri: z.string().describe("Where the output is pushed: an RTMP, RTMPS or SRT (caller mode) ingest URL."),
    active: z.boolean().describe("The restream's on/off switch: an inactive restream is not pushed."),
    live: z.boolean().describe("Whether the output is being pushed now: the restream is active and its stream is live."),
    client_user_id: integer().describe("The account's user the restream belongs to."),
  })
  .strict()
  .describe("A restream of a live stream to another platform.");
export interface RestreamSchema extends RestreamSchemaType {}
type RestreamSchemaType = typeof restreamSchema;
export const restream: RestreamSchema = restreamSchema;

export type Restream = z.infer<typeof restream>;

const restreamUri = z
  .string()
  .max(2048, "At most 2048 characters.")
  .refine(
    (value) => {
      if (!URL.canParse(value)) return false;
      const url = new URL(value);
      if (!RESTREAM_SCHEMES.includes(url.protocol) || url.hostname === "") return false;
      const mode = url.searchParams.get("mode");
      return url.protocol !== "srt:" || mode === null || mode === "caller";
    },
    { message: "Must be an rtmp, rtmps or srt URL with a host; an srt URL only in caller mode (mode=caller, or no mode)." },
  )
  .describe("The target ingest: an rtmp, rtmps or srt URL (srt in caller mode only), at most 2048 characters, stream key included.");

const restreamSettings = {
  name: z.string().min(1, "Must not be empty.").max(255, "At most 255 characters.").describe("The restream's name, 1 to 255 characters."),
  stream_id: integer({ min: 1 }).describe("The stream to push on: one of the account's (400 otherwise)."),
  uri: restreamUri,
  active: z.boolean().describe("The on/off switch. Default true."),
  client_user_id: integer({ min: 1 }).describe("A user of the account (400 otherwise). Default: the user of the calling token."),
};

const RESTREAM_READ_ONLY = ["id", "live"];

const createRestreamBodySchema = strictObject({
  restream: strictObject(
    {
      name: restreamSettings.name,
      stream_id: restreamSettings.stream_id,
      uri: restreamSettings.uri,
      active: restreamSettings.active.optional(),
      client_user_id: restreamSettings.client_user_id.optional(),
    },
    { readOnly: RESTREAM_READ_ONLY },
  ).describe("The new restream: `name`, `stream_id` and `uri` are required."),
}).describe("The new restream, wrapped in `restream` as the platform takes it.");
export interface CreateRestreamBodySchema extends CreateRestreamBodySchemaType {}
type CreateRestreamBodySchemaType = typeof createRestreamBodySchema;
export const createRestreamBody: CreateRestreamBodySchema = createRestreamBodySchema;
export type CreateRestreamBody = z.input<typeof createRestreamBody>;

const updateRestreamBodySchema = strictObject({
  restream: strictObject(
    Object.fromEntries(Object.entries(restreamSettings).map(([key, schema]) => [key, schema.optional()])) as {
      [Key in keyof typeof restreamSettings]: z.ZodOptional<(typeof restreamSettings)[Key]>;
    },
    { readOnly: RESTREAM_READ_ONLY },
  ).describe("The fields to change; fields left out keep their values."),
}).describe("The changes, wrapped in `restream` as the platform takes them.");
export interface UpdateRestreamBodySchema extends UpdateRestreamBodySchemaType {}
type UpdateRestreamBodySchemaType = typeof updateRestreamBodySchema;
export const updateRestreamBody: UpdateRestreamBodySchema = updateRestreamBodySchema;
export type UpdateRestreamBody = z.input<typeof updateRestreamBody>;

const restreamIdParams = z.object({ restream_id: idParam("The restream id.") });

// The examples' objects: the demo data's, of account 1.
const toYoutube: Restream = {
  id: 1,
  name: "Lobby cam to YouTube",
  stream_id: 1,
  uri: "rtmp://a.rtmp.youtube.com/live2/acme-lobby-4f2a",
  active: true,
  live: true,
  client_user_id: 5,
};
export const restreamExample: Restream = toYoutube;

const restreamOf = (w: CaseWorld) => w.first("streaming.listRestreams");

export const streamingRestreamsRoutes = {
  listRestreams: route({
    method: "GET",
    path: "/streaming/restreams",
    query: z.object({
      page: integerParam({ min: 1, description: `The page, from 1. Default 1. A page holds ${RESTREAMS_PAGE_SIZE} restreams.` }).default(1),
    }),
    responses: { 200: z.array(restream), ...errorResponses() },
    summary: "List restreams",
    description:
      `The account's restreams, newest first (id descending), ${RESTREAMS_PAGE_SIZE} a page. The body is a bare array; ` +
      "the `X-Total-Count` response header carries the total number of restreams. A page past the end is an empty array.",
    metadata: { ...read, client: { pageSize: RESTREAMS_PAGE_SIZE } } satisfies ClientMetadata,
  }, {
    example: {
      query: { page: 1 },
      response: [toYoutube],
      responseHeaders: {
        "X-Total-Count": { description: "The total number of the account's restreams, on every page.", example: 1, type: "integer" },
      },
    },
    case: { path: () => "/streaming/restreams", ownsObjects: false },
  }),
  getRestream: route({
    method: "GET",
    path: "/streaming/restreams/:restream_id",
    pathParams: restreamIdParams,
    responses: { 200: restream, ...errorResponses() },
    summary: "Get a restream",
    description: "One restream of the account.",
    metadata: read,
  }, {
    example: { pathParams: { restream_id: 1 }, response: toYoutube },
    case: { path: (w) => `/streaming/restreams/${restreamOf(w).id}`, ownsObjects: true },
  }),
  createRestream: route({
    method: "POST",
    path: "/streaming/restreams",
    body: createRestreamBody,
    responses: { 201: restream, ...errorResponses(withBody) },
    summary: "Create a restream",
    description:
      "A new restream of one of the account's streams. It is `live` (being pushed) while it is active and its stream is live, " +
      "from the next second on. Deleting the stream deletes its restreams. Answers 201 with the restream (the platform's SDKs read no body).",
    metadata: write,
  }, {
    example: {
      body: { restream: { name: "Lobby cam to Twitch", stream_id: 1, uri: "rtmp://live.twitch.tv/app/acme-lobby-91c3" } },
      response: { ...toYoutube, id: 4, name: "Lobby cam to Twitch", uri: "rtmp://live.twitch.tv/app/acme-lobby-91c3" },
    },
    case: {
      path: () => "/streaming/restreams",
      ownsObjects: false,
      body: (w) => ({ restream: { name: uniqueName("route-case-restream"), stream_id: w.first("streaming.listStreams").id, uri: "rtmp://ingest.example/live/route-case" } }),
    },
  }),
  updateRestream: route({
    method: "PATCH",
    path: "/streaming/restreams/:restream_id",
    pathParams: restreamIdParams,
    body: updateRestreamBody,
    responses: { 200: restream, ...errorResponses(withBody) },
    summary: "Change a restream",
    description:
      "Changes the fields given in `restream`; the others keep their values. Switching `active` off stops the push (`live` false) at once; " +
      "a new `uri` or `stream_id` takes effect on the stream's next live session.",
    metadata: write,
  }, {
    example: {
      pathParams: { restream_id: 1 },
      body: { restream: { active: false } },
      response: { ...toYoutube, active: false, live: false },
    },
    case: { path: (w) => `/streaming/restreams/${restreamOf(w).id}`, ownsObjects: true, body: () => ({ restream: { name: uniqueName("route-case-restream") } }) },
  }),
  deleteRestream: route({
    method: "DELETE",
    path: "/streaming/restreams/:restream_id",
    pathParams: restreamIdParams,
    responses: { 204: c.noBody(), ...errorResponses() },
    summary: "Delete a restream",
    description: "Deletes the restream for good; its push stops. Answers 204 with no body.",
    metadata: write,
  }, {
    example: { pathParams: { restream_id: 2 } },
    case: {
      path: (w, made) => `/streaming/restreams/${made?.id ?? missingId(w.account)}`,
      ownsObjects: true,
      makes: "streaming.createRestream",
    },
  }),
};
