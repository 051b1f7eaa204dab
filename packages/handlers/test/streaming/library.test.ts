/**
 * Integration tests, on every engine, of what videos are filed, transcoded and played with: directories
 * (tree, items, moves that may not make a cycle, delete of an empty one only), quality sets and the
 * account's defaults, players (defaults, echoes, delete refused while a playlist uses one) and playlists
 * (live needs a start, videos of the account in order).
 */
import { DIRECTORY_DEPTH_MAX, PLAYER_DEFAULTS, type Directory, type DirectoryDetails, type DirectoryTree, type Player, type Playlist, type QualitySets, type Video } from "@cloudplane/contract";
import { demoFixture, sql } from "@cloudplane/db";
import { selectRows } from "@cloudplane/db/testing";
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi, type TestApi } from "../harness.js";

const { videoDirectories, videos, videoPlayers, videoPlaylists, playlistVideos } = demoFixture;

const ownDirectories = videoDirectories.filter((directory) => directory.accountId === 1);
const marketing = ownDirectories.find((directory) => directory.name === "Marketing")!;
const events = ownDirectories.find((directory) => directory.parentId === marketing.id)!;
const theirDirectory = videoDirectories.find((directory) => directory.accountId === 2)!;
const ownPlayers = videoPlayers.filter((player) => player.accountId === 1);
const theirPlayer = videoPlayers.find((player) => player.accountId === 2)!;
const ownPlaylists = videoPlaylists.filter((playlist) => playlist.accountId === 1);
const theirPlaylist = videoPlaylists.find((playlist) => playlist.accountId === 2)!;
const theirVideo = videos.find((video) => video.accountId === 2)!;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

async function count(api: TestApi, table: string): Promise<number> {
  const [row] = await selectRows<{ total: number }>(api.database.db, sql`select count(*)::int as total from ${sql.identifier(table)}`);
  return row!.total;
}

describe.each(engines())("directories on %s", (engine) => {
  const api = useApi(engine);

  it("the tree: roots by name, each with its descendants and its items_count", async () => {
    const reply = await api.call("GET", "/streaming/directories/tree");
    expect(reply.status, reply.text).toBe(200);
    const { tree } = reply.body as DirectoryTree;
    expect(tree.map((node) => node.name)).toEqual(ownDirectories.filter((directory) => directory.parentId === null).map((directory) => directory.name).sort());
    const top = tree.find((node) => node.id === marketing.id)!;
    const held = videos.filter((video) => video.directoryId === marketing.id).length + 1;
    expect(top).toEqual({
      id: marketing.id,
      name: marketing.name,
      parent_id: null,
      items_count: held,
      created_at: marketing.createdAt,
      updated_at: marketing.updatedAt,
      descendants: [{ id: events.id, name: events.name, parent_id: marketing.id, items_count: 0, created_at: events.createdAt, updated_at: events.updatedAt, descendants: [] }],
    });
  });

  it("one directory: its directories, then its videos newest first", async () => {
    const reply = await api.call("GET", `/streaming/directories/${marketing.id}`);
    expect(reply.status, reply.text).toBe(200);
    const { directory } = reply.body as DirectoryDetails;
    expect(directory.items.map((item) => [item.item_type, item.id])).toEqual([
      ["Directory", events.id],
      ...videos
        .filter((video) => video.directoryId === marketing.id)
        .map((video) => ["Video", video.id])
        .sort((a, b) => (b[1] as number) - (a[1] as number)),
    ]);
    const firstVideo = directory.items[1] as Video & { item_type: "Video" };
    expect(firstVideo).toEqual({ ...((await api.call("GET", `/streaming/videos/${firstVideo.id}`)).body as Video), item_type: "Video" });
    expectEnvelope(await api.call("GET", `/streaming/directories/${theirDirectory.id}`), 404, "not_found");
  });

  it("create, rename, move; never into itself or below itself, nor too deep", async () => {
    const made = await api.call("POST", "/streaming/directories", { body: { name: "Webinars", parent_id: marketing.id } });
    expect(made.status, made.text).toBe(201);
    const webinars = made.body as Directory;
    expect(webinars).toEqual({ id: webinars.id, name: "Webinars", parent_id: marketing.id, items_count: 0, created_at: expect.stringMatching(ISO), updated_at: webinars.created_at });
    const child = (await api.call("POST", "/streaming/directories", { body: { name: "2026", parent_id: webinars.id } })).body as Directory;

    expectEnvelope(await api.call("PATCH", `/streaming/directories/${webinars.id}`, { body: { parent_id: webinars.id } }), 400, "validation_error", ["parent_id"]);
    expectEnvelope(await api.call("PATCH", `/streaming/directories/${webinars.id}`, { body: { parent_id: child.id } }), 400, "validation_error", ["parent_id"]);
    expectEnvelope(await api.call("PATCH", `/streaming/directories/${webinars.id}`, { body: { parent_id: theirDirectory.id } }), 400, "validation_error", ["parent_id"]);
    const moved = await api.call("PATCH", `/streaming/directories/${webinars.id}`, { body: { name: "Webinars (all)", parent_id: null } });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body).toMatchObject({ id: webinars.id, name: "Webinars (all)", parent_id: null, items_count: 1 });

    // A chain as deep as allowed; one more level is refused.
    let parent = child.id;
    for (let depth = 3; depth <= DIRECTORY_DEPTH_MAX; depth += 1) parent = ((await api.call("POST", "/streaming/directories", { body: { name: `L${depth}`, parent_id: parent } })).body as Directory).id;
    expectEnvelope(await api.call("POST", "/streaming/directories", { body: { name: "Too deep", parent_id: parent } }), 400, "validation_error", ["parent_id"]);
    expectEnvelope(await api.call("PATCH", `/streaming/directories/${webinars.id}`, { body: { parent_id: marketing.id } }), 400, "validation_error", ["parent_id"]);
    expectEnvelope(await api.call("POST", "/streaming/directories", { body: { name: "" } }), 400, "validation_error", ["name"]);
  });

  it("delete: an empty one goes, one that holds anything is 409 naming what it holds", async () => {
    const before = await count(api, "video_directories");
    const conflict = expectEnvelope(await api.call("DELETE", `/streaming/directories/${marketing.id}`), 409, "conflict");
    expect(conflict.message).toContain(`directories ${events.id}`);
    expect(conflict.message).toMatch(/videos \d/);
    expect(await count(api, "video_directories")).toBe(before);
    const empty = (await api.call("POST", "/streaming/directories", { body: { name: "Empty" } })).body as Directory;
    const reply = await api.call("DELETE", `/streaming/directories/${empty.id}`);
    expect(reply.status, reply.text).toBe(204);
    expectEnvelope(await api.call("DELETE", `/streaming/directories/${empty.id}`), 404, "not_found");
    expectEnvelope(await api.call("DELETE", `/streaming/directories/${theirDirectory.id}`), 404, "not_found");
    expect(await count(api, "video_directories")).toBe(before);
  });
});

describe.each(engines())("quality sets on %s", (engine) => {
  const api = useApi(engine);

  it("lists the platform's sets with the default of each kind, and sets the account's own", async () => {
    const reply = await api.call("GET", "/streaming/quality_sets");
    expect(reply.status, reply.text).toBe(200);
    const sets = reply.body as QualitySets;
    const catalog = demoFixture.streamingQualitySets;
    expect(sets.vod.map((set) => [set.id, set.default])).toEqual(catalog.filter((set) => set.kind === "vod").map((set) => [set.id, set.platformDefault]));
    expect(sets.live.map((set) => [set.id, set.default])).toEqual(catalog.filter((set) => set.kind === "live").map((set) => [set.id, set.platformDefault]));
    const full = catalog.find((set) => set.kind === "vod" && !set.platformDefault)!;

    const changed = await api.call("PUT", "/streaming/quality_sets/default", { body: { vod: { id: full.id } } });
    expect(changed.status, changed.text).toBe(200);
    expect((changed.body as QualitySets).vod.filter((set) => set.default).map((set) => set.id)).toEqual([full.id]);
    expect((changed.body as QualitySets).live).toEqual(sets.live);
    // Videos without a set of their own now show the account's new default's renditions; account 2's keep the platform's.
    const keynote = videos.find((video) => video.accountId === 1 && video.qualitySetId === null && video.originUrl !== null && video.error === null)!;
    expect(((await api.call("GET", `/streaming/videos/${keynote.id}`)).body as Video).converted_videos).toHaveLength(full.qualities.length);
    expect(((await api.call("GET", "/streaming/quality_sets", { as: [2, "role-1-active"] })).body as QualitySets).vod).toEqual(sets.vod);

    expectEnvelope(await api.call("PUT", "/streaming/quality_sets/default", { body: { live: { id: full.id }, vod: { id: 999 } } }), 400, "validation_error", ["live.id", "vod.id"]);
    expectEnvelope(await api.call("PUT", "/streaming/quality_sets/default", { body: { hd: true } }), 400, "validation_error", ["hd"]);
    expectEnvelope(await api.call("PUT", "/streaming/quality_sets/default", { body: { vod: { id: full.id } }, as: [1, "role-2-active"] }), 403, "permission_denied");
  });
});

describe.each(engines())("players on %s", (engine) => {
  const api = useApi(engine);

  it("lists the account's players by id with X-Total-Count, reads one and its preview", async () => {
    const reply = await api.call("GET", "/streaming/players");
    expect(reply.status, reply.text).toBe(200);
    expect(reply.headers.get("x-total-count")).toBe(String(ownPlayers.length));
    expect((reply.body as Player[]).map((player) => player.id)).toEqual(ownPlayers.map((player) => player.id));
    const first = ownPlayers[0]!;
    expect((await api.call("GET", `/streaming/players/${first.id}`)).body).toEqual((reply.body as Player[])[0]);
    const preview = await api.call("GET", `/streaming/players/${first.id}/preview`);
    expect(preview.body).toEqual({
      id: first.id,
      preview_url: `https://video.cloudplane.example/players/${first.id}/preview.html`,
      html: `<iframe src="https://video.cloudplane.example/players/${first.id}/preview.html" width="640" height="360" allowfullscreen></iframe>`,
    });
    expectEnvelope(await api.call("GET", `/streaming/players/${theirPlayer.id}`), 404, "not_found");
    expectEnvelope(await api.call("GET", `/streaming/players/${theirPlayer.id}/preview`), 404, "not_found");
  });

  it("create with defaults, change, echoes of its own id and account, delete", async () => {
    const made = await api.call("POST", "/streaming/players", { body: { player: { name: "Dark", bg_color: "#111111", client_id: 1 } } });
    expect(made.status, made.text).toBe(201);
    const player = made.body as Player;
    expect(player).toEqual({ ...PLAYER_DEFAULTS, id: player.id, name: "Dark", client_id: 1, bg_color: "#111111" });
    const changed = await api.call("PATCH", `/streaming/players/${player.id}`, { body: { player: { id: player.id, name: "Dark", logo_position: "bl", logo: "https://media.acme.example/l.png" } } });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toEqual({ ...player, logo_position: "bl", logo: "https://media.acme.example/l.png" });
    expectEnvelope(await api.call("PATCH", `/streaming/players/${player.id}`, { body: { player: { id: player.id + 1, client_id: 2 } } }), 400, "validation_error", ["player.id", "player.client_id"]);
    expectEnvelope(await api.call("POST", "/streaming/players", { body: { player: { name: "X", bg_color: "black", logo_position: "middle" } } }), 400, "validation_error", ["player.bg_color", "player.logo_position"]);
    expectEnvelope(await api.call("POST", "/streaming/players", { body: { name: "X" } }), 400, "validation_error", ["player", "name"]);
    const deleted = await api.call("DELETE", `/streaming/players/${player.id}`);
    expect(deleted.status, deleted.text).toBe(204);
    expectEnvelope(await api.call("GET", `/streaming/players/${player.id}`), 404, "not_found");
  });

  it("a player a playlist uses cannot be deleted (409)", async () => {
    const used = ownPlaylists.find((playlist) => playlist.playerId !== null)!;
    const before = await count(api, "video_players");
    const conflict = expectEnvelope(await api.call("DELETE", `/streaming/players/${used.playerId}`), 409, "conflict");
    expect(conflict.message).toContain(String(used.id));
    expect(await count(api, "video_players")).toBe(before);
  });
});

describe.each(engines())("playlists on %s", (engine) => {
  const api = useApi(engine);
  const ownVideoIds = videos.filter((video) => video.accountId === 1).map((video) => video.id);

  it("lists the account's playlists with their videos in order, and a playlist's videos", async () => {
    const reply = await api.call("GET", "/streaming/playlists");
    expect(reply.status, reply.text).toBe(200);
    expect(reply.headers.get("x-total-count")).toBe(String(ownPlaylists.length));
    const listed = reply.body as Playlist[];
    expect(listed.map((playlist) => playlist.id)).toEqual(ownPlaylists.map((playlist) => playlist.id));
    const first = ownPlaylists[0]!;
    const order = playlistVideos.filter((row) => row.playlistId === first.id).sort((a, b) => a.position - b.position).map((row) => row.videoId);
    expect(listed[0]).toMatchObject({ id: first.id, name: first.name, video_ids: order, player_id: first.playerId, client_id: 1, ad_id: null });
    const inOrder = await api.call("GET", `/streaming/playlists/${first.id}/videos`);
    expect((inOrder.body as Video[]).map((video) => video.id)).toEqual(order);
    expectEnvelope(await api.call("GET", `/streaming/playlists/${theirPlaylist.id}`), 404, "not_found");
    expectEnvelope(await api.call("GET", `/streaming/playlists/${theirPlaylist.id}/videos`), 404, "not_found");
  });

  it("create, change (video_ids replaces the list; vod clears the start), delete", async () => {
    const made = await api.call("POST", "/streaming/playlists", {
      body: { name: "Channel", playlist_type: "live", start_time: "2026-12-01T18:00:00+01:00", video_ids: [ownVideoIds[1]!, ownVideoIds[0]!], player_id: ownPlayers[0]!.id },
    });
    expect(made.status, made.text).toBe(201);
    const playlist = made.body as Playlist;
    expect(playlist).toEqual({
      id: playlist.id,
      name: "Channel",
      client_id: 1,
      client_user_id: 1,
      active: true,
      playlist_type: "live",
      start_time: "2026-12-01T17:00:00.000Z",
      loop: false,
      countdown: false,
      player_id: ownPlayers[0]!.id,
      video_ids: [ownVideoIds[1], ownVideoIds[0]],
      ad_id: null,
      hls_url: `https://video.cloudplane.example/playlists/${playlist.id}/master.m3u8`,
      hls_cmaf_url: `https://video.cloudplane.example/playlists/${playlist.id}/master-cmaf.m3u8`,
      iframe_url: `https://video.cloudplane.example/playlists/${playlist.id}/player.html`,
    });
    const changed = await api.call("PATCH", `/streaming/playlists/${playlist.id}`, { body: { playlist_type: "vod", video_ids: [ownVideoIds[2]!], loop: true } });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toEqual({ ...playlist, playlist_type: "vod", start_time: null, video_ids: [ownVideoIds[2]], loop: true });
    expect((await api.call("GET", `/streaming/playlists/${playlist.id}`)).body).toEqual(changed.body);
    const deleted = await api.call("DELETE", `/streaming/playlists/${playlist.id}`);
    expect(deleted.status, deleted.text).toBe(204);
    expectEnvelope(await api.call("GET", `/streaming/playlists/${playlist.id}`), 404, "not_found");
    // Its videos stay.
    expect((await api.call("GET", `/streaming/videos/${ownVideoIds[2]}`)).status).toBe(200);
  });

  it.each<[string, unknown, string[]]>([
    ["no name", {}, ["name"]],
    ["live without a start", { name: "L", playlist_type: "live" }, ["start_time"]],
    ["vod with a start", { name: "V", start_time: "2026-12-01T18:00:00Z" }, ["start_time"]],
    ["another account's video", { name: "V", video_ids: [theirVideo.id] }, ["video_ids"]],
    ["a video twice", { name: "V", video_ids: [1, 1] }, ["video_ids"]],
    ["another account's player", { name: "V", player_id: theirPlayer.id }, ["player_id"]],
    ["read-only fields", { name: "V", hls_url: "x", client_id: 1 }, ["hls_url", "client_id"]],
  ])("%s is 400 and makes nothing", async (_what, body, fields) => {
    const before = await count(api, "video_playlists");
    expectEnvelope(await api.call("POST", "/streaming/playlists", { body }), 400, "validation_error", fields);
    expect(await count(api, "video_playlists")).toBe(before);
  });
});
