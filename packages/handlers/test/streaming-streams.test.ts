/**
 * Integration tests of a stream's lifecycle (create, change, delete) and of the clip listing on every
 * engine: defaults, the checks across fields, 404 for other accounts, and what a delete takes with it.
 */
import { CLIPS_LIST_MAX, DVR_DURATION_DEFAULT, stream as streamSchema, type ClipRecording, type Stream } from "@cloudplane/contract";
import { demoFixture, demoToken, sql, type DemoAccountId, type DemoRow, type DemoTokenName } from "@cloudplane/db";
import { selectRows } from "@cloudplane/db/testing";
import { describe, expect, it } from "vitest";
import { shownStream, streamsOfBroadcast } from "./streaming/shown.js";
import { engines, expectEnvelope, useApi, type TestApi } from "./harness.js";

const { streams, broadcasts, users, cdnResources } = demoFixture;

type DemoStream = DemoRow<"streams">;

const STREAM_FIELDS = Object.keys(streamSchema.shape)
  .filter((field) => field !== "broadcasts")
  .sort();
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function streamsOf(accountId: DemoAccountId): DemoStream[] {
  return streams.filter((stream) => stream.accountId === accountId);
}

/** The ids of the broadcasts of a fixture stream, ascending. */
const broadcastIdsOf = (stream: DemoStream) =>
  broadcasts
    .filter((broadcast) => streamsOfBroadcast(broadcast).includes(stream.id))
    .map((broadcast) => broadcast.id)
    .sort((a, b) => a - b);

const shown = shownStream;

const administrator = demoToken(1, "role-1-active");
const otherUser = users.find((user) => user.accountId === 1 && !user.deleted && user.id !== administrator.userId)!;
const theirUser = users.find((user) => user.accountId === 2 && !user.deleted)!;
const deletedUser = users.find((user) => user.accountId === 1 && user.deleted)!;
const ownResource = cdnResources.find((resource) => resource.accountId === 1 && !resource.deleted)!;
const theirResource = cdnResources.find((resource) => resource.accountId === 2)!;
const liveWithDvr = streamsOf(1).filter((stream) => stream.live && stream.dvrDuration > 0);
const withBroadcasts = streamsOf(1).find((stream) => broadcastIdsOf(stream).length > 0 && stream.live)!;
const theirStream = streamsOf(2)[0]!;

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

async function streamCount(api: TestApi): Promise<number> {
  const [row] = await selectRows<{ total: number }>(api.database.db, sql`select count(*)::int as total from streams`);
  return row!.total;
}

async function streamRow(api: TestApi, id: number) {
  const [row] = await selectRows(api.database.db, sql`select * from streams where id = ${id}`);
  return row;
}

describe.each(engines())("stream lifecycle on %s", (engine) => {
  const api = useApi(engine);

  function create(body: unknown, as: [DemoAccountId, DemoTokenName] = [1, "role-1-active"]) {
    return api.call("POST", "/streaming/streams", { body, as });
  }

  function update(id: number, body: unknown, as: [DemoAccountId, DemoTokenName] = [1, "role-1-active"]) {
    return api.call("PATCH", `/streaming/streams/${id}`, { body, as });
  }

  it("the fixture has what these tests need", () => {
    expect(otherUser).toBeDefined();
    expect(deletedUser).toBeDefined();
    expect(theirUser).toBeDefined();
    expect(ownResource).toBeDefined();
    expect(theirResource).toBeDefined();
    expect(liveWithDvr.length).toBeGreaterThanOrEqual(2);
    expect(withBroadcasts).toBeDefined();
  });

  describe("POST /streaming/streams", () => {
    it("makes a push stream with the defaults: not live, DVR off, the caller's user, URLs from its id", async () => {
      const before = await streamCount(api);
      const reply = await create({ name: "Town hall" });
      expect(reply.status, reply.text).toBe(201);
      const created = reply.body as Stream;
      expect(Object.keys(created).sort()).toEqual(STREAM_FIELDS);
      const { id } = created;
      expect(id).toBeGreaterThan(Math.max(...streams.map((stream) => stream.id)));
      const key = /^rtmp:\/\/vp-push\.cloudplane\.example\/in\/(\d+)\?([0-9a-f]{12})$/.exec(created.push_url);
      expect(key?.[1]).toBe(String(id));
      const secret = key![2]!;
      const playback = `https://video.cloudplane.example/accounts/1/streams/${id}`;
      expect(created).toEqual({
        id,
        name: "Town hall",
        pull: false,
        active: true,
        auto_record: false,
        html_overlay: false,
        live: false,
        backup_live: false,
        client_user_id: administrator.userId,
        uri: null,
        push_url: `rtmp://vp-push.cloudplane.example/in/${id}?${secret}`,
        backup_push_url: `rtmp://vp-push-backup.cloudplane.example/in/${id}?${secret}`,
        push_url_srt: `srt://vp-push.cloudplane.example:5001?streamid=${id}#${secret}`,
        backup_push_url_srt: `srt://vp-push-backup.cloudplane.example:5001?streamid=${id}#${secret}`,
        push_url_whip: `https://whip.cloudplane.example/whip/${id}/${secret}`,
        created_at: expect.stringMatching(ISO) as string,
        started_at_primary: null,
        finished_at_primary: null,
        started_at_backup: null,
        dvr_duration: 0,
        dvr_enabled: false,
        recording_duration: 0,
        iframe_url: `${playback}/player.html`,
        dash_url: `${playback}/index.mpd`,
        hls_cmaf_url: `${playback}/index.m3u8`,
        hls_mpegts_url: `${playback}/index-ts.m3u8`,
        screenshot: `${playback}/screenshot.jpg`,
        transcoded_qualities: [],
        transcoding_speed: 0,
        frame_rate: 0,
        video_height: 0,
        video_width: 0,
        broadcast_ids: [],
        cdn_id: null,
        client_entity_data: null,
        hls_mpegts_endlist_tag: false,
        projection: "regular",
        quality_set_id: null,
        record_type: "origin",
        stream_source_type: null,
        token: secret,
        srt_passphrase: null,
        active_ingest_region_primary: null,
        active_ingest_region_backup: null,
        html_overlays: [],
      });
      expect(Math.abs(Date.parse(created.created_at) - Date.now())).toBeLessThan(60_000);
      expect(await streamCount(api)).toBe(before + 1);
      expect((await streamRow(api, id))!.account_id).toBe(1);

      const fetched = await api.call("GET", `/streaming/streams/${id}`);
      expect(fetched.status, fetched.text).toBe(200);
      expect(fetched.body).toEqual(created);
      const listed = await api.call("GET", "/streaming/streams");
      expect(listed.headers.get("x-total-count")).toBe(String(streamsOf(1).length + 1));
      expect((listed.body as Stream[])[0]).toEqual(created);
      // Another stream gets another key.
      const second = (await create({ name: "Town hall" })).body as Stream;
      expect(second.push_url).not.toContain(secret);
    });

    it("takes every writable field", async () => {
      const body = {
        name: "Stadium feed",
        active: false,
        auto_record: true,
        client_entity_data: '{"match":42}',
        client_user_id: otherUser.id,
        cdn_id: ownResource.id,
        dvr_duration: 600,
        hls_mpegts_endlist_tag: true,
        html_overlay: true,
        projection: "vr180",
        pull: true,
        quality_set_id: 7,
        record_type: "transcoded",
        uri: "srt://origin.acme.example:9000 rtmp://backup.acme.example/live/1",
      };
      const reply = await create(body);
      expect(reply.status, reply.text).toBe(201);
      expect(reply.body).toMatchObject({ ...body, dvr_enabled: true, live: false });
      expect(await api.call("GET", `/streaming/streams/${(reply.body as Stream).id}`).then((got) => got.body)).toEqual(reply.body);
    });

    it(`dvr_enabled true without a duration gives the default window, ${DVR_DURATION_DEFAULT} seconds`, async () => {
      const reply = await create({ name: "With DVR", dvr_enabled: true });
      expect(reply.status, reply.text).toBe(201);
      expect(reply.body).toMatchObject({ dvr_enabled: true, dvr_duration: DVR_DURATION_DEFAULT });
    });

    it("account 2 makes its own stream, for its own user", async () => {
      const reply = await create({ name: "Globex feed" }, [2, "role-1-active"]);
      expect(reply.status, reply.text).toBe(201);
      const made = reply.body as Stream;
      expect(made.client_user_id).toBe(demoToken(2, "role-1-active").userId);
      expect(made.hls_cmaf_url).toBe(`https://video.cloudplane.example/accounts/2/streams/${made.id}/index.m3u8`);
      expectEnvelope(await api.call("GET", `/streaming/streams/${made.id}`), 404, "not_found");
    });

    it.each<[string, unknown, string[]]>([
      ["no name", {}, ["name"]],
      ["an empty name", { name: "" }, ["name"]],
      ["a name of 256 characters", { name: "x".repeat(256) }, ["name"]],
      ["an unknown field", { name: "A", colour: "red" }, ["colour"]],
      ["read-only fields", { name: "A", live: true, push_url: "rtmp://x/y" }, ["live", "push_url"]],
      ["broadcast_ids", { name: "A", broadcast_ids: [1] }, ["broadcast_ids"]],
      ["a pull stream without uri", { name: "A", pull: true }, ["uri"]],
      ["a push stream with a uri", { name: "A", uri: "rtmp://origin.acme.example/live" }, ["uri"]],
      ["a uri of another scheme", { name: "A", pull: true, uri: "ftp://origin.acme.example/live" }, ["uri"]],
      ["a uri with two spaces", { name: "A", pull: true, uri: "rtmp://a.example/x  rtmp://b.example/y" }, ["uri"]],
      ["a uri of 11 addresses", { name: "A", pull: true, uri: Array.from({ length: 11 }, (_, n) => `rtmp://a${n}.example/x`).join(" ") }, ["uri"]],
      ["a DVR window under 30 seconds", { name: "A", dvr_duration: 29 }, ["dvr_duration"]],
      ["a DVR window over 4 hours", { name: "A", dvr_duration: 14_401 }, ["dvr_duration"]],
      ["a DVR window with DVR off", { name: "A", dvr_enabled: false, dvr_duration: 600 }, ["dvr_duration"]],
      ["another account's user", { name: "A", client_user_id: theirUser.id }, ["client_user_id"]],
      ["an unknown user", { name: "A", client_user_id: 999_999 }, ["client_user_id"]],
      ["another account's CDN resource", { name: "A", cdn_id: theirResource.id }, ["cdn_id"]],
      ["an unknown projection", { name: "A", projection: "flat" }, ["projection"]],
      ["an unknown record type", { name: "A", record_type: "both" }, ["record_type"]],
      ["client_entity_data over 4096 characters", { name: "A", client_entity_data: "x".repeat(4097) }, ["client_entity_data"]],
      ["a quality set id of 0", { name: "A", quality_set_id: 0 }, ["quality_set_id"]],
      ["an SRT passphrase of 9 characters", { name: "A", srt_passphrase: "short-key" }, ["srt_passphrase"]],
      ["an SRT passphrase with a space", { name: "A", srt_passphrase: "has a space in it" }, ["srt_passphrase"]],
      ["an SRT passphrase on a pull stream", { name: "A", pull: true, uri: "rtmp://origin.acme.example/x", srt_passphrase: "long-enough-key" }, ["srt_passphrase"]],
      ["the service's own fields", { name: "A", token: "abc", active_ingest_region_primary: "eu-west", html_overlays: [] }, ["token", "active_ingest_region_primary", "html_overlays"]],
      ["several problems", { name: "", pull: true, client_user_id: theirUser.id, cdn_id: theirResource.id }, ["name"]],
    ])("%s is 400 naming the fields, and makes nothing", async (_what, body, fields) => {
      const before = await streamCount(api);
      expectEnvelope(await create(body), 400, "validation_error", fields);
      expect(await streamCount(api)).toBe(before);
    });

    it("the checks across fields report every problem at once", async () => {
      expectEnvelope(
        await create({ name: "A", pull: true, client_user_id: theirUser.id, cdn_id: theirResource.id, dvr_enabled: false, dvr_duration: 60 }),
        400,
        "validation_error",
        ["uri", "client_user_id", "cdn_id", "dvr_duration"],
      );
    });

    it("a deleted user of the account is 400 client_user_id", async () => {
      expectEnvelope(await create({ name: "A", client_user_id: deletedUser.id }), 400, "validation_error", ["client_user_id"]);
    });

    it("is refused to the read-only Users role", async () => {
      const before = await streamCount(api);
      expectEnvelope(await create({ name: "A" }, [1, "role-2-active"]), 403, "permission_denied");
      expect(await streamCount(api)).toBe(before);
    });
  });

  describe("PATCH /streaming/streams/{stream_id}", () => {
    it("changes only the fields given in stream; the name may be left out", async () => {
      const original = withBroadcasts;
      const reply = await update(original.id, { stream: { auto_record: !original.autoRecord, projection: "vr360tb" } });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toEqual({ ...shown(original), auto_record: !original.autoRecord, projection: "vr360tb" });
      expect(await api.call("GET", `/streaming/streams/${original.id}`).then((got) => got.body)).toEqual(reply.body);
      const again = await update(original.id, { stream: { name: "Renamed", auto_record: original.autoRecord } });
      expect(again.body).toEqual({ ...shown(original), name: "Renamed", projection: "vr360tb" });
    });

    it("sets, keeps and clears the SRT passphrase; switching pull on clears it", async () => {
      const made = (await create({ name: "Encrypted", srt_passphrase: "Acme-SRT-2026!" })).body as Stream;
      expect(made.srt_passphrase).toBe("Acme-SRT-2026!");
      expect((await update(made.id, { stream: { name: "Encrypted 2" } })).body).toMatchObject({ name: "Encrypted 2", srt_passphrase: "Acme-SRT-2026!" });
      expect((await update(made.id, { stream: { srt_passphrase: null } })).body).toMatchObject({ srt_passphrase: null });
      expect((await update(made.id, { stream: { srt_passphrase: "another-passphrase" } })).body).toMatchObject({ srt_passphrase: "another-passphrase" });
      const pulled = await update(made.id, { stream: { pull: true, uri: "srt://origin.acme.example:9000" } });
      expect(pulled.body).toMatchObject({ pull: true, srt_passphrase: null });
      expect((await streamRow(api, made.id))!.srt_passphrase).toBeNull();
    });

    it("the token is the stream key every push URL carries", async () => {
      for (const stream of streams.slice(0, 4)) {
        const got = (await api.call("GET", `/streaming/streams/${stream.id}`, { as: [stream.accountId as DemoAccountId, "role-1-active"] })).body as Stream;
        expect(got.token).toMatch(/^[0-9a-f]{12}$/);
        for (const url of [got.push_url, got.backup_push_url, got.push_url_srt, got.backup_push_url_srt, got.push_url_whip]) expect(url).toContain(got.token);
      }
    });

    it("switching pull off clears uri; switching it on needs one, given or kept", async () => {
      const made = (await create({ name: "Pull", pull: true, uri: "rtmp://origin.acme.example/live/9" })).body as Stream;
      const off = await update(made.id, { stream: { pull: false } });
      expect(off.status, off.text).toBe(200);
      expect(off.body).toMatchObject({ pull: false, uri: null });
      expectEnvelope(await update(made.id, { stream: { pull: true } }), 400, "validation_error", ["stream.uri"]);
      const on = await update(made.id, { stream: { pull: true, uri: "https://origin.acme.example/live/9.m3u8" } });
      expect(on.body).toMatchObject({ pull: true, uri: "https://origin.acme.example/live/9.m3u8" });
      // A change that leaves pull alone keeps the uri; null on a pull stream is refused.
      expect((await update(made.id, { stream: { name: "Pull 2" } })).body).toMatchObject({ pull: true, uri: "https://origin.acme.example/live/9.m3u8" });
      expectEnvelope(await update(made.id, { stream: { uri: null } }), 400, "validation_error", ["stream.uri"]);
      expectEnvelope(await update(made.id, { stream: { pull: false, uri: "rtmp://origin.acme.example/x" } }), 400, "validation_error", ["stream.uri"]);
    });

    it("DVR: off sets the window to 0, on restores the default, a window switches it on", async () => {
      const made = (await create({ name: "DVR", dvr_duration: 900 })).body as Stream;
      expect(made).toMatchObject({ dvr_enabled: true, dvr_duration: 900 });
      expect((await update(made.id, { stream: { dvr_enabled: true } })).body).toMatchObject({ dvr_enabled: true, dvr_duration: 900 });
      expect((await update(made.id, { stream: { dvr_enabled: false } })).body).toMatchObject({ dvr_enabled: false, dvr_duration: 0 });
      expect((await update(made.id, { stream: { dvr_enabled: true } })).body).toMatchObject({ dvr_enabled: true, dvr_duration: DVR_DURATION_DEFAULT });
      expect((await update(made.id, { stream: { dvr_duration: 30 } })).body).toMatchObject({ dvr_enabled: true, dvr_duration: 30 });
    });

    it("sets and clears the nullable fields", async () => {
      const made = (await create({ name: "Nullable" })).body as Stream;
      const set = await update(made.id, { stream: { cdn_id: ownResource.id, quality_set_id: 3, client_entity_data: "x", client_user_id: otherUser.id } });
      expect(set.body).toMatchObject({ cdn_id: ownResource.id, quality_set_id: 3, client_entity_data: "x", client_user_id: otherUser.id });
      const cleared = await update(made.id, { stream: { cdn_id: null, quality_set_id: null, client_entity_data: null } });
      expect(cleared.body).toMatchObject({ cdn_id: null, quality_set_id: null, client_entity_data: null, client_user_id: otherUser.id });
    });

    it.each<[string, unknown, string[]]>([
      ["a flat body (the platform wraps changes in stream)", { name: "A" }, ["name", "stream"]],
      ["no stream", {}, ["stream"]],
      ["a read-only field", { stream: { created_at: "2026-01-01T00:00:00.000Z" } }, ["stream.created_at"]],
      ["an unknown field", { stream: { colour: "red" } }, ["stream.colour"]],
      ["an empty name", { stream: { name: "" } }, ["stream.name"]],
      ["another account's CDN resource", { stream: { cdn_id: theirResource.id } }, ["stream.cdn_id"]],
      ["another account's user", { stream: { client_user_id: theirUser.id } }, ["stream.client_user_id"]],
      ["DVR off with a window", { stream: { dvr_enabled: false, dvr_duration: 60 } }, ["stream.dvr_duration"]],
    ])("%s is 400 naming the fields, and changes nothing", async (_what, body, fields) => {
      const target = liveWithDvr[1]!;
      const before = await streamRow(api, target.id);
      expectEnvelope(await update(target.id, body), 400, "validation_error", fields);
      expect(await streamRow(api, target.id)).toEqual(before);
    });

    it("another account's stream and an unknown id are 404 and change nothing; Users may not change streams", async () => {
      const before = await streamRow(api, theirStream.id);
      const reply = await update(theirStream.id, { stream: { name: "Taken over" } });
      expectEnvelope(reply, 404, "not_found");
      expect(reply.text).not.toContain(theirStream.name);
      expect(await streamRow(api, theirStream.id)).toEqual(before);
      expectEnvelope(await update(999_999, { stream: { name: "A" } }), 404, "not_found");
      expectEnvelope(await update(liveWithDvr[1]!.id, { stream: { name: "A" } }, [1, "role-2-active"]), 403, "permission_denied");
      expectEnvelope(await api.call("PATCH", "/streaming/streams/0", { body: { stream: {} } }), 400, "validation_error", ["path.stream_id"]);
    });
  });

  describe("GET /streaming/streams/{stream_id}/clip_recording", () => {
    function clips(id: number, as: [DemoAccountId, DemoTokenName] = [1, "role-1-active"]) {
      return api.call("GET", `/streaming/streams/${id}/clip_recording`, { as });
    }

    it("lists the stream's unexpired clips, newest first; expired ones are left out", async () => {
      const stream = liveWithDvr[0]!;
      const now = nowSeconds();
      const unexpiredFixture = demoFixture.clips.filter((clip) => clip.streamId === stream.id && clip.expiration > now);
      const made: ClipRecording[] = [];
      for (const duration of [30, 40]) {
        const reply = await api.call("PUT", `/streaming/streams/${stream.id}/clip_recording`, { body: { duration } });
        expect(reply.status, reply.text).toBe(200);
        made.push(reply.body as ClipRecording);
      }
      // One that expired a minute ago, written straight to the database (the API makes none).
      await api.database.db.execute(
        sql`insert into clips (id, account_id, stream_id, hls_master, mp4_master, start, duration, expiration)
            values ('clip_00000000000000ff', 1, ${stream.id}, 'https://x.example/a.m3u8', 'https://x.example/a.mp4', ${now - 7200}, 60, ${now - 60})`,
      );
      const reply = await clips(stream.id);
      expect(reply.status, reply.text).toBe(200);
      const listed = reply.body as ClipRecording[];
      expect(listed.map((clip) => clip.id).sort()).toEqual([...made.map((clip) => clip.id), ...unexpiredFixture.map((clip) => clip.id)].sort());
      expect(listed.slice(0, 2)).toEqual([made[1]!, made[0]!].sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id)));
      for (const clip of listed) expect(clip.expiration).toBeGreaterThan(now);
    });

    it(`shows at most ${CLIPS_LIST_MAX}`, async () => {
      const stream = liveWithDvr[1]!;
      const expiration = nowSeconds() + 3600;
      await api.database.db.execute(
        sql`insert into clips (id, account_id, stream_id, hls_master, mp4_master, start, duration, expiration)
            select 'clip_many_' || n, 1, ${stream.id}, 'https://x.example/a.m3u8', 'https://x.example/a.mp4', ${expiration - 3660}, 60, ${expiration}
            from generate_series(1, ${CLIPS_LIST_MAX + 5}) as n`,
      );
      const reply = await clips(stream.id);
      expect(reply.status, reply.text).toBe(200);
      expect((reply.body as ClipRecording[]).length).toBe(CLIPS_LIST_MAX);
    });

    it("a stream without clips answers an empty array; Users may read", async () => {
      const made = (await create({ name: "No clips" })).body as Stream;
      const reply = await clips(made.id, [1, "role-2-active"]);
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toEqual([]);
    });

    it("another account's stream and an unknown id are 404", async () => {
      const reply = await clips(theirStream.id);
      expectEnvelope(reply, 404, "not_found");
      expectEnvelope(await clips(999_999), 404, "not_found");
      expectEnvelope(await api.call("GET", "/streaming/streams/x/clip_recording"), 400, "validation_error", ["path.stream_id"]);
    });
  });

  describe("DELETE /streaming/streams/{stream_id}", () => {
    it("another account's stream and an unknown id are 404 and delete nothing; Users may not delete", async () => {
      const before = await streamCount(api);
      expectEnvelope(await api.call("DELETE", `/streaming/streams/${theirStream.id}`), 404, "not_found");
      expectEnvelope(await api.call("DELETE", "/streaming/streams/999999"), 404, "not_found");
      expectEnvelope(await api.call("DELETE", `/streaming/streams/${withBroadcasts.id}`, { as: [1, "role-2-active"] }), 403, "permission_denied");
      expect(await streamCount(api)).toBe(before);
    });

    it("answers 204 with no body and takes the stream's clips and broadcasts with it; a second delete is 404", async () => {
      const { id } = withBroadcasts;
      const clip = await api.call("PUT", `/streaming/streams/${id}/clip_recording`, { body: { duration: 10 } });
      expect(clip.status, clip.text).toBe(200);
      const reply = await api.call("DELETE", `/streaming/streams/${id}`);
      expect(reply.status, reply.text).toBe(204);
      expect(reply.text).toBe("");
      expectEnvelope(await api.call("GET", `/streaming/streams/${id}`), 404, "not_found");
      // Its broadcasts showed it alone: they go with it.
      const shown = broadcastIdsOf(withBroadcasts);
      expect(shown.length).toBeGreaterThan(0);
      for (const broadcast of broadcasts.filter((candidate) => shown.includes(candidate.id))) expect(streamsOfBroadcast(broadcast)).toEqual([id]);
      const [left] = await selectRows<{ clips: number; shown: number; broadcasts: number }>(
        api.database.db,
        sql`select (select count(*)::int from clips where stream_id = ${id}) as clips, (select count(*)::int from broadcast_streams where stream_id = ${id}) as shown,
          (select count(*)::int from broadcasts where id in (${sql.join(shown.map((broadcast) => sql`${broadcast}`), sql`, `)})) as broadcasts`,
      );
      expect(left).toEqual({ clips: 0, shown: 0, broadcasts: 0 });
      expectEnvelope(await api.call("DELETE", `/streaming/streams/${id}`), 404, "not_found");
      // The other account's broadcasts are untouched.
      const [theirs] = await selectRows<{ total: number }>(api.database.db, sql`select count(*)::int as total from broadcasts where account_id = 2`);
      expect(theirs!.total).toBe(broadcasts.filter((broadcast) => broadcast.accountId === 2).length);
    });
  });
});
