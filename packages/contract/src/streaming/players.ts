/**
 * Streaming players: the account's web player designs (colours, logo, skin, behaviour) that playlists
 * and embeds use, with a preview of each.
 */
import { initContract } from "@ts-rest/core";
import { z } from "zod";
import type { ClientMetadata } from "../client-names.js";
import { errorResponses, idParam, integer, integerParam, strictObject, stringEnum, withBody } from "../common.js";
import { read, write } from "../roles.js";
import { route } from "../route.js";
import { missingId, uniqueName, type CaseWorld } from "../route-case.js";

const c = initContract();

/** Players on one page of the listing. */
export const PLAYERS_PAGE_SIZE = 25;
/** Where a player's logo sits: top or bottom, left or right. */
export const PLAYER_LOGO_POSITIONS = ["tl", "tr", "bl", "br"] as const;

const playerSchema = z
  .object({
    id: integer(),
    name: z.string(),
    client_id: integer().describe("The account."),
    design: z.string().describe("The design's name."),
    framework: z.string().describe("The player's web framework."),
    autoplay: z.boolean().describe("Whether playback starts as soon as the player loads."),
    mute: z.boolean().describe("Whether playback starts muted."),
    disable_skin: z.boolean().describe("Whether the player shows its bare video, without controls' skin."),
    save_options_to_cookies: z.boolean().describe("Whether a viewer's choices (volume, quality) are kept in cookies."),
    show_sharing: z.boolean().describe("Whether the sharing button shows."),
    speed_control: z.boolean().describe("Whether the playback speed control shows."),
    bg_color: z.string().describe("Background colour, `#rrggbb`."),
    fg_color: z.string().describe("Controls' colour, `#rrggbb`."),
    hover_color: z.string().describe("Controls' colour under the pointer, `#rrggbb`."),
    text_color: z.string().describe("Text colour, `#rrggbb`."),
    logo: z.string().nullable().describe("The logo image's URL; null for none."),
    logo_position: stringEnum(PLAYER_LOGO_POSITIONS).describe("Where the logo sits: `tl`, `tr`, `bl` or `br`."),
    custom_css: z.string().describe("CSS added to the player's page."),
    js_url: z.string().nullable().describe("A script added to the player's page; null for none."),
    skin_is_url: z.string().nullable().describe("A skin's URL; null for the design's own."),
  })
  .strict()
  .describe("A web player design.");
export interface PlayerSchema extends PlayerSchemaType {}
type PlayerSchemaType = typeof playerSchema;
export const player: PlayerSchema = playerSchema;
export type Player = z.infer<typeof player>;

const colour = (what: string, fallback: string) =>
  z.string().regex(/^#[0-9a-fA-F]{6}$/, "Must be a colour, #rrggbb.").describe(`${what}, \`#rrggbb\`. Default \`${fallback}\`.`);
const link = (description: string) =>
  z
    .string()
    .max(2048, "At most 2048 characters.")
    .refine((value) => URL.canParse(value) && ["http:", "https:"].includes(new URL(value).protocol), "Must be an http or https URL.")
    .nullable()
    .describe(description);

/** The fields a client sets on a player, with each one's default. */
export const PLAYER_DEFAULTS = {
  design: "default",
  framework: "videojs",
  autoplay: false,
  mute: false,
  disable_skin: false,
  save_options_to_cookies: true,
  show_sharing: true,
  speed_control: true,
  bg_color: "#000000",
  fg_color: "#ffffff",
  hover_color: "#ff6600",
  text_color: "#ffffff",
  logo: null,
  logo_position: "tr",
  custom_css: "",
  js_url: null,
  skin_is_url: null,
} as const satisfies Omit<Player, "id" | "name" | "client_id">;

const playerSettings = {
  name: z.string().min(1, "Must not be empty.").max(255, "At most 255 characters.").describe("The player's name, 1 to 255 characters."),
  design: z.string().min(1, "Must not be empty.").max(64, "At most 64 characters.").describe("The design's name. Default `default`."),
  framework: z.string().min(1, "Must not be empty.").max(64, "At most 64 characters.").describe("The player's web framework. Default `videojs`."),
  autoplay: z.boolean().describe("Default false."),
  mute: z.boolean().describe("Whether playback starts muted. Default false."),
  disable_skin: z.boolean().describe("Default false."),
  save_options_to_cookies: z.boolean().describe("Default true."),
  show_sharing: z.boolean().describe("Default true."),
  speed_control: z.boolean().describe("Default true."),
  bg_color: colour("Background colour", PLAYER_DEFAULTS.bg_color),
  fg_color: colour("Controls' colour", PLAYER_DEFAULTS.fg_color),
  hover_color: colour("Controls' colour under the pointer", PLAYER_DEFAULTS.hover_color),
  text_color: colour("Text colour", PLAYER_DEFAULTS.text_color),
  logo: link("The logo image, an http or https URL; null for none. Default null."),
  logo_position: stringEnum(PLAYER_LOGO_POSITIONS).describe("Where the logo sits. Default `tr`."),
  custom_css: z.string().max(65_536, "At most 65536 characters.").describe("CSS added to the player's page, at most 65536 characters. Default empty."),
  js_url: link("A script added to the player's page; null for none. Default null."),
  skin_is_url: link("A skin's URL; null for the design's own. Default null."),
};
type PlayerSettingsShape = typeof playerSettings;
const { name: _name, ...otherSettings } = playerSettings;
const optionalOthers = Object.fromEntries(Object.entries(otherSettings).map(([key, schema]) => [key, schema.optional()])) as {
  [K in keyof Omit<PlayerSettingsShape, "name">]: z.ZodOptional<PlayerSettingsShape[K]>;
};
/** Sent by the platform's SDKs inside `player`: `id` must be the path's (or left out), `client_id` the caller's account. */
const echoed = {
  id: integer({ min: 1 }).optional().describe("Ignored when it is the player's own id (the platform's SDKs may send it); another id is 400."),
  client_id: integer({ min: 1 }).optional().describe("Ignored when it is the caller's account; another is 400."),
};

const createPlayerBodySchema = strictObject({
  player: strictObject({ name: playerSettings.name, ...optionalOthers, client_id: echoed.client_id }, { readOnly: ["id"] }).describe(
    "The new player: `name` is required, every other field has its default.",
  ),
}).describe("The new player, wrapped in `player` as the platform takes it.");
export interface CreatePlayerBodySchema extends CreatePlayerBodySchemaType {}
type CreatePlayerBodySchemaType = typeof createPlayerBodySchema;
export const createPlayerBody: CreatePlayerBodySchema = createPlayerBodySchema;
export type CreatePlayerBody = z.input<typeof createPlayerBody>;

const updatePlayerBodySchema = strictObject({
  player: strictObject({ name: playerSettings.name.optional(), ...optionalOthers, ...echoed }).describe("The fields to change; fields left out keep their values."),
}).describe("The changes, wrapped in `player` as the platform takes them.");
export interface UpdatePlayerBodySchema extends UpdatePlayerBodySchemaType {}
type UpdatePlayerBodySchemaType = typeof updatePlayerBodySchema;
export const updatePlayerBody: UpdatePlayerBodySchema = updatePlayerBodySchema;
export type UpdatePlayerBody = z.input<typeof updatePlayerBody>;

const playerPreviewSchema = z
  .object({
    id: integer().describe("The player."),
    preview_url: z.string().describe("A page that shows the player with a sample video."),
    html: z.string().describe("The player's embed code for the sample video."),
  })
  .strict()
  .describe("A preview of a player.");
export interface PlayerPreviewSchema extends PlayerPreviewSchemaType {}
type PlayerPreviewSchemaType = typeof playerPreviewSchema;
export const playerPreview: PlayerPreviewSchema = playerPreviewSchema;

const playerIdParams = z.object({ player_id: idParam("The player id.") });

export const playerExample: Player = { id: 1, name: "Acme brand player", client_id: 1, ...PLAYER_DEFAULTS, hover_color: "#e4002b", logo: "https://media.acme.example/logo.png" };

const playerOf = (w: CaseWorld) => w.first("streaming.listPlayers");

export const streamingPlayersRoutes = {
  listPlayers: route({
    method: "GET",
    path: "/streaming/players",
    query: z.object({ page: integerParam({ min: 1, description: `The page, from 1. Default 1. A page holds ${PLAYERS_PAGE_SIZE} players.` }).default(1) }),
    responses: { 200: z.array(player), ...errorResponses() },
    summary: "List players",
    description:
      `The account's players, by id ascending, ${PLAYERS_PAGE_SIZE} a page. The body is a bare array; the \`X-Total-Count\` response header carries ` +
      "the total number of players. A page past the end is an empty array.",
    metadata: { ...read, client: { pageSize: PLAYERS_PAGE_SIZE } } satisfies ClientMetadata,
  }, {
    example: {
      query: { page: 1 },
      response: [playerExample],
      responseHeaders: { "X-Total-Count": { description: "The total number of the account's players, on every page.", example: 1, type: "integer" } },
    },
    case: { path: () => "/streaming/players", ownsObjects: false },
  }),
  getPlayer: route({
    method: "GET",
    path: "/streaming/players/:player_id",
    pathParams: playerIdParams,
    responses: { 200: player, ...errorResponses() },
    summary: "Get a player",
    description: "One player of the account.",
    metadata: read,
  }, {
    example: { pathParams: { player_id: playerExample.id }, response: playerExample },
    case: { path: (w) => `/streaming/players/${playerOf(w).id}`, ownsObjects: true },
  }),
  getPlayerPreview: route({
    method: "GET",
    path: "/streaming/players/:player_id/preview",
    pathParams: playerIdParams,
    responses: { 200: playerPreview, ...errorResponses() },
    summary: "Preview a player",
    description: "Where to see the player with a sample video, and its embed code.",
    metadata: { ...read, client: { resource: "players", method: "preview" } } satisfies ClientMetadata,
  }, {
    example: {
      pathParams: { player_id: playerExample.id },
      response: {
        id: 1,
        preview_url: "https://video.cloudplane.example/players/1/preview.html",
        html: '<iframe src="https://video.cloudplane.example/players/1/preview.html" width="640" height="360" allowfullscreen></iframe>',
      },
    },
    case: { path: (w) => `/streaming/players/${playerOf(w).id}/preview`, ownsObjects: true },
  }),
  createPlayer: route({
    method: "POST",
    path: "/streaming/players",
    body: createPlayerBody,
    responses: { 201: player, ...errorResponses(withBody) },
    summary: "Create a player",
    description: "A new player of the account; fields left out take their defaults. Names need not be unique.",
    metadata: write,
  }, {
    example: {
      body: { player: { name: "Acme dark player", bg_color: "#111111", autoplay: true, mute: true } },
      response: { ...playerExample, ...PLAYER_DEFAULTS, id: 5, name: "Acme dark player", bg_color: "#111111", autoplay: true, mute: true },
    },
    case: { path: () => "/streaming/players", ownsObjects: false, body: () => ({ player: { name: uniqueName("route-case-player") } }) },
  }),
  updatePlayer: route({
    method: "PATCH",
    path: "/streaming/players/:player_id",
    pathParams: playerIdParams,
    body: updatePlayerBody,
    responses: { 200: player, ...errorResponses(withBody) },
    summary: "Change a player",
    description: "Changes the fields given in `player`; the others keep their values.",
    metadata: write,
  }, {
    example: {
      pathParams: { player_id: playerExample.id },
      body: { player: { name: "Acme brand player", logo_position: "bl" } },
      response: { ...playerExample, logo_position: "bl" },
    },
    case: { path: (w) => `/streaming/players/${playerOf(w).id}`, ownsObjects: true, body: () => ({ player: { show_sharing: true } }) },
  }),
  deletePlayer: route({
    method: "DELETE",
    path: "/streaming/players/:player_id",
    pathParams: playerIdParams,
    responses: { 204: c.noBody(), ...errorResponses([409]) },
    summary: "Delete a player",
    description: "Deletes the player. One that a playlist uses answers 409 naming the playlists: change them first. Answers 204 with no body.",
    metadata: write,
  }, {
    example: { pathParams: { player_id: 3 } },
    case: { path: (w, made) => `/streaming/players/${made?.id ?? missingId(w.account)}`, ownsObjects: true, makes: "streaming.createPlayer" },
  }),
};
