/**
 * Streaming players: the account's web player designs, a page at a time, one with its preview, creation,
 * changes, and deletion (refused while a playlist uses the player).
 */
import { PLAYER_DEFAULTS, PLAYERS_PAGE_SIZE, streamingPlayersRoutes, type Player, type UpdatePlayerBody } from "@cloudplane/contract";
import { and, asc, count, eq, schema } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { addFieldError, conflict, fieldErrors, notFound, problemCount, validationFailed } from "../errors.js";
import { served } from "../served.js";
import type { RequestExtension, RouteDeps } from "../types.js";

const { videoPlayers, videoPlaylists } = schema;

type PlayerRow = typeof videoPlayers.$inferSelect;
type PlayerFields = NonNullable<UpdatePlayerBody["player"]>;

const PREVIEW_ORIGIN = "https://video.cloudplane.example";

function toPlayer(row: PlayerRow): Player {
  return {
    id: row.id,
    name: row.name,
    client_id: row.accountId,
    design: row.design,
    framework: row.framework,
    autoplay: row.autoplay,
    mute: row.mute,
    disable_skin: row.disableSkin,
    save_options_to_cookies: row.saveOptionsToCookies,
    show_sharing: row.showSharing,
    speed_control: row.speedControl,
    bg_color: row.bgColor,
    fg_color: row.fgColor,
    hover_color: row.hoverColor,
    text_color: row.textColor,
    logo: row.logo,
    logo_position: row.logoPosition as Player["logo_position"],
    custom_css: row.customCss,
    js_url: row.jsUrl,
    skin_is_url: row.skinIsUrl,
  };
}

/** The columns the fields of a body set. */
function columnsOf(fields: Partial<Omit<Player, "id" | "client_id">>): Partial<typeof videoPlayers.$inferInsert> {
  const columns: Partial<typeof videoPlayers.$inferInsert> = {};
  if (fields.name !== undefined) columns.name = fields.name;
  if (fields.design !== undefined) columns.design = fields.design;
  if (fields.framework !== undefined) columns.framework = fields.framework;
  if (fields.autoplay !== undefined) columns.autoplay = fields.autoplay;
  if (fields.mute !== undefined) columns.mute = fields.mute;
  if (fields.disable_skin !== undefined) columns.disableSkin = fields.disable_skin;
  if (fields.save_options_to_cookies !== undefined) columns.saveOptionsToCookies = fields.save_options_to_cookies;
  if (fields.show_sharing !== undefined) columns.showSharing = fields.show_sharing;
  if (fields.speed_control !== undefined) columns.speedControl = fields.speed_control;
  if (fields.bg_color !== undefined) columns.bgColor = fields.bg_color;
  if (fields.fg_color !== undefined) columns.fgColor = fields.fg_color;
  if (fields.hover_color !== undefined) columns.hoverColor = fields.hover_color;
  if (fields.text_color !== undefined) columns.textColor = fields.text_color;
  if (fields.logo !== undefined) columns.logo = fields.logo;
  if (fields.logo_position !== undefined) columns.logoPosition = fields.logo_position;
  if (fields.custom_css !== undefined) columns.customCss = fields.custom_css;
  if (fields.js_url !== undefined) columns.jsUrl = fields.js_url;
  if (fields.skin_is_url !== undefined) columns.skinIsUrl = fields.skin_is_url;
  return columns;
}

/** `id` and `client_id` the platform's SDKs may echo in `player`: each must be the object's own. */
function checkEchoed(fields: Pick<PlayerFields, "id" | "client_id">, accountId: number, playerId: number | undefined): void {
  const errors = fieldErrors();
  if (fields.client_id !== undefined && fields.client_id !== accountId) addFieldError(errors, "player.client_id", "Must be the caller's account, or left out.");
  if (fields.id !== undefined && fields.id !== playerId) addFieldError(errors, "player.id", "Must be the player's own id (the path's), or left out.");
  if (problemCount(errors) > 0) throw validationFailed(errors);
}

export function streamingPlayers({ db }: RouteDeps) {
  const mine = (accountId: number, id: number) => and(eq(videoPlayers.accountId, accountId), eq(videoPlayers.id, id));

  async function playerOf(accountId: number, id: number): Promise<PlayerRow> {
    const [row] = await db.select().from(videoPlayers).where(mine(accountId, id));
    if (!row) throw notFound(`Player ${id}`);
    return row;
  }

  return tsr.routerWithMiddleware(served("streaming", streamingPlayersRoutes))<RequestExtension>({
    listPlayers: async ({ query }, { request: { caller }, responseHeaders }) => {
      const where = eq(videoPlayers.accountId, caller.accountId);
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(videoPlayers)
          .where(where)
          .orderBy(asc(videoPlayers.id))
          .limit(PLAYERS_PAGE_SIZE)
          .offset((query.page - 1) * PLAYERS_PAGE_SIZE),
        db.select({ total: count() }).from(videoPlayers).where(where),
      ]);
      responseHeaders.set("x-total-count", String(total?.total ?? 0));
      return { status: 200, body: rows.map(toPlayer) };
    },

    getPlayer: async ({ params }, { request: { caller } }) => ({ status: 200, body: toPlayer(await playerOf(caller.accountId, params.player_id)) }),

    getPlayerPreview: async ({ params }, { request: { caller } }) => {
      const row = await playerOf(caller.accountId, params.player_id);
      const previewUrl = `${PREVIEW_ORIGIN}/players/${row.id}/preview.html`;
      return { status: 200, body: { id: row.id, preview_url: previewUrl, html: `<iframe src="${previewUrl}" width="640" height="360" allowfullscreen></iframe>` } };
    },

    createPlayer: async ({ body }, { request: { caller } }) => {
      checkEchoed(body.player, caller.accountId, undefined);
      const [row] = await db
        .insert(videoPlayers)
        .values({ ...(columnsOf(PLAYER_DEFAULTS) as typeof videoPlayers.$inferInsert), ...columnsOf(body.player), name: body.player.name, accountId: caller.accountId })
        .returning();
      return { status: 201, body: toPlayer(row!) };
    },

    updatePlayer: async ({ params, body }, { request: { caller } }) => {
      checkEchoed(body.player, caller.accountId, params.player_id);
      const columns = columnsOf(body.player);
      const [row] =
        Object.keys(columns).length === 0
          ? await db.select().from(videoPlayers).where(mine(caller.accountId, params.player_id))
          : await db.update(videoPlayers).set(columns).where(mine(caller.accountId, params.player_id)).returning();
      if (!row) throw notFound(`Player ${params.player_id}`);
      return { status: 200, body: toPlayer(row) };
    },

    deletePlayer: async ({ params }, { request: { caller } }) => {
      await db.transaction(async (tx) => {
        const [current] = await tx.select({ id: videoPlayers.id }).from(videoPlayers).where(mine(caller.accountId, params.player_id)).for("update");
        if (!current) throw notFound(`Player ${params.player_id}`);
        const users = await tx
          .select({ id: videoPlaylists.id })
          .from(videoPlaylists)
          .where(and(eq(videoPlaylists.accountId, caller.accountId), eq(videoPlaylists.playerId, current.id)))
          .orderBy(asc(videoPlaylists.id))
          .limit(10);
        if (users.length > 0) throw conflict(`Player ${current.id} is used by playlists ${users.map((row) => row.id).join(", ")}; give them another player first.`);
        await tx.delete(videoPlayers).where(mine(caller.accountId, current.id));
      });
      return { status: 204, body: undefined };
    },
  });
}
