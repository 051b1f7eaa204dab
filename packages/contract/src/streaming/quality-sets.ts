/**
 * Streaming quality sets: the platform's sets of renditions that live streams and videos are transcoded
 * into, and the account's default set of each kind.
 */
import { z } from "zod";
import { errorResponses, integer, strictObject, withBody } from "../common.js";
import type { ClientMetadata } from "../client-names.js";
import { read, write } from "../roles.js";
import { route } from "../route.js";
import type { CaseWorld } from "../route-case.js";

/** The two kinds of quality set: for live streams and for videos. */
export const QUALITY_SET_KINDS = ["live", "vod"] as const;
export type QualitySetKind = (typeof QUALITY_SET_KINDS)[number];

const qualitySet = z
  .object({
    id: integer(),
    name: z.string(),
    default: z.boolean().describe("Whether it is the account's default set of its kind."),
    qualities: z
      .array(z.object({ id: integer(), name: z.string().describe('The rendition, e.g. "vod_720p".') }).strict())
      .describe("Its renditions, best first."),
  })
  .strict()
  .describe("A quality set.");

const qualitySetsSchema = z
  .object({
    live: z.array(qualitySet).describe("The sets for live streams, by id."),
    vod: z.array(qualitySet).describe("The sets for videos, by id."),
  })
  .strict()
  .describe("The platform's quality sets, each kind's default for the account marked.");
export interface QualitySetsSchema extends QualitySetsSchemaType {}
type QualitySetsSchemaType = typeof qualitySetsSchema;
export const qualitySets: QualitySetsSchema = qualitySetsSchema;
export type QualitySets = z.infer<typeof qualitySets>;

const choice = (kind: QualitySetKind) =>
  strictObject({ id: integer({ min: 1 }).describe(`A ${kind} quality set of the platform (400 otherwise).`) }).describe(`The new default ${kind} set.`);

const setDefaultQualitySetsBodySchema = strictObject({ live: choice("live").optional(), vod: choice("vod").optional() }).describe(
  "The new defaults; a kind left out keeps its default.",
);
export interface SetDefaultQualitySetsBodySchema extends SetDefaultQualitySetsBodySchemaType {}
type SetDefaultQualitySetsBodySchemaType = typeof setDefaultQualitySetsBodySchema;
export const setDefaultQualitySetsBody: SetDefaultQualitySetsBodySchema = setDefaultQualitySetsBodySchema;


// The platform's sets as the demo data holds them, with account 1's defaults.
const example: QualitySets = {
  live: [
    { id: 1, name: "Live HD", default: true, qualities: [{ id: 11, name: "live_1080p" }, { id: 12, name: "live_720p" }, { id: 13, name: "live_480p" }] },
    { id: 2, name: "Live SD", default: false, qualities: [{ id: 12, name: "live_720p" }, { id: 13, name: "live_480p" }] },
  ],
  vod: [
    { id: 3, name: "VOD HD", default: true, qualities: [{ id: 1, name: "vod_1080p" }, { id: 2, name: "vod_720p" }] },
    { id: 4, name: "VOD full ladder", default: false, qualities: [{ id: 1, name: "vod_1080p" }, { id: 2, name: "vod_720p" }, { id: 5, name: "vod_480p" }, { id: 6, name: "vod_360p" }] },
  ],
};

const setsOf = (w: CaseWorld) => w.get("streaming.listQualitySets") as QualitySets;

export const streamingQualitySetsRoutes = {
  listQualitySets: route({
    method: "GET",
    path: "/streaming/quality_sets",
    responses: { 200: qualitySets, ...errorResponses() },
    summary: "List quality sets",
    description:
      "The platform's quality sets for live streams and for videos, each with its renditions; `default` marks the account's default of each " +
      "kind (the platform's own until the account picks one). Streams and videos without a `quality_set_id` are transcoded with it.",
    metadata: read,
  }, {
    example: { response: example },
    case: { path: () => "/streaming/quality_sets", ownsObjects: false },
  }),
  setDefaultQualitySets: route({
    method: "PUT",
    path: "/streaming/quality_sets/default",
    body: setDefaultQualitySetsBody,
    responses: { 200: qualitySets, ...errorResponses(withBody) },
    summary: "Set the default quality sets",
    description:
      "Picks the account's default set for live streams (`live.id`) and for videos (`vod.id`); a kind left out keeps its default. Each id must be " +
      "a set of that kind (400 `errors[\"live.id\"]` otherwise). Videos transcoding already keep their set; the answer is the listing.",
    metadata: { ...write, client: { resource: "qualitySets", method: "setDefault" } } satisfies ClientMetadata,
  }, {
    example: {
      body: { vod: { id: 4 } },
      response: { live: example.live, vod: example.vod.map((set) => ({ ...set, default: set.id === 4 })) },
    },
    case: {
      path: () => "/streaming/quality_sets/default",
      ownsObjects: false,
      body: (w) => ({ vod: { id: setsOf(w).vod.find((set) => set.default)!.id } }),
    },
  }),
};
