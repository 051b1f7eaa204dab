/**
 * Integration tests of videos and their subtitles on every engine: the demo videos as shown, creation
 * (one, a batch) with its checks, the status moving from pending to viewable to ready as time passes
 * (the source's arrival is moved back in the database, as the clock would), filters, changes, names,
 * direct upload, deletion, subtitles' lifecycle, and 404 for another account's objects.
 */
import { VIDEO_READY_AFTER_S, VIDEO_VIEWABLE_AFTER_S, video as videoSchema, type Subtitle, type Video } from "@cloudplane/contract";
import { demoFixture, sql } from "@cloudplane/db";
import { selectRows } from "@cloudplane/db/testing";
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi, type TestApi } from "../harness.js";

const { videos, videoSubtitles, videoDirectories, users } = demoFixture;

const VIDEO_FIELDS = Object.keys(videoSchema.shape).sort();
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const keynote = videos.find((video) => video.name === "Product launch keynote")!;
const draft = videos.find((video) => video.accountId === 1 && video.originUrl === null && video.streamId === null)!;
const broken = videos.find((video) => video.error !== null)!;
const theirVideo = videos.find((video) => video.accountId === 2)!;
const theirDirectory = videoDirectories.find((directory) => directory.accountId === 2)!;
const theirUser = users.find((user) => user.accountId === 2 && !user.deleted)!;
const ownVideos = videos.filter((video) => video.accountId === 1);

async function count(api: TestApi, table: "videos" | "video_subtitles"): Promise<number> {
  const [row] = await selectRows<{ total: number }>(api.database.db, sql`select count(*)::int as total from ${sql.identifier(table)}`);
  return row!.total;
}

/** Moves a video's source back in time by `seconds`, as that much time passing would. */
async function age(api: TestApi, id: number, seconds: number): Promise<void> {
  await api.database.db.execute(sql`update videos set source_at = source_at - make_interval(secs => ${seconds}) where id = ${id}`);
}

describe.each(engines())("videos on %s", (engine) => {
  const api = useApi(engine);

  const create = (video: unknown, as: Parameters<TestApi["call"]>[2] = {}) => api.call("POST", "/streaming/videos", { body: { video }, ...as });
  const get = async (id: number) => (await api.call("GET", `/streaming/videos/${id}`)).body as Video;

  it("the fixture has what these tests need", () => {
    expect([keynote, draft, broken, theirVideo, theirDirectory, theirUser].every(Boolean)).toBe(true);
  });

  describe("reads", () => {
    it("GET shows a ready demo video with every field, its renditions complete", async () => {
      const reply = await api.call("GET", `/streaming/videos/${keynote.id}`);
      expect(reply.status, reply.text).toBe(200);
      const shown = reply.body as Video;
      expect(Object.keys(shown).sort()).toEqual(VIDEO_FIELDS);
      const base = `https://video.cloudplane.example/videos/${keynote.id}_${keynote.slug}`;
      expect(shown).toMatchObject({
        id: keynote.id,
        name: keynote.name,
        client_id: 1,
        status: "ready",
        directory_id: keynote.directoryId,
        origin_size: keynote.originSize,
        duration: keynote.originVideoDuration,
        hls_url: `${base}/master.m3u8`,
        sprite: `${base}/sprite.jpg`,
        screenshot: `${base}/screenshots/0.jpg`,
        poster: keynote.poster,
        ad_id: null,
        created_at: keynote.createdAt,
      });
      // The account's default VOD set (the platform's, VOD HD): 1080p and 720p, each a share of the source by its height.
      expect(shown.converted_videos).toEqual([
        { id: 1, name: "vod_1080p", width: 1920, height: 1080, mp4_url: `${base}/qid1.mp4`, progress: 100, size: keynote.originSize! / 2, status: "complete", error: null },
        { id: 2, name: "vod_720p", width: 1280, height: 720, mp4_url: `${base}/qid2.mp4`, progress: 100, size: Math.round((keynote.originSize! * 720) / 2160), status: "complete", error: null },
      ]);
    });

    it("a video without a source is empty, one that failed is error", async () => {
      expect(await get(draft.id)).toMatchObject({ status: "empty", converted_videos: [], hls_url: null, screenshots: [], screenshot: null, duration: null });
      const failed = await get(broken.id);
      expect(failed.status).toBe("error");
      expect(failed.error).toBe(broken.error);
      expect(failed.converted_videos.every((rendition) => rendition.status === "error" && rendition.error === broken.error)).toBe(true);
    });

    it("a clip's duration is the clip's", async () => {
      const clipped = ownVideos.find((video) => video.clipDurationSeconds !== null)!;
      expect((await get(clipped.id)).duration).toBe(clipped.clipDurationSeconds! * 1000);
    });

    it("the listing: newest first, paged, with the total in X-Total-Count, and filtered", async () => {
      const all = await api.call("GET", "/streaming/videos");
      expect(all.status, all.text).toBe(200);
      expect(all.headers.get("x-total-count")).toBe(String(ownVideos.length));
      expect((all.body as Video[]).map((video) => video.id)).toEqual(ownVideos.map((video) => video.id).sort((a, b) => b - a));
      const page2 = await api.call("GET", "/streaming/videos?page=2&per_page=2");
      expect((page2.body as Video[]).map((video) => video.id)).toEqual(ownVideos.map((video) => video.id).sort((a, b) => b - a).slice(2, 4));
      const searched = await api.call("GET", "/streaming/videos?search=KEYNOTE");
      expect((searched.body as Video[]).map((video) => video.id)).toEqual([keynote.id]);
      expect(searched.headers.get("x-total-count")).toBe("1");
      const empty = await api.call("GET", "/streaming/videos?status=empty");
      expect((empty.body as Video[]).map((video) => video.id)).toEqual([draft.id]);
      const byIds = await api.call("GET", `/streaming/videos?id=${keynote.id},${theirVideo.id}`);
      expect((byIds.body as Video[]).map((video) => video.id)).toEqual([keynote.id]);
      const recorded = ownVideos.find((video) => video.streamId !== null)!;
      expect(((await api.call("GET", `/streaming/videos?stream_id=${recorded.streamId}`)).body as Video[]).map((video) => video.id)).toEqual([recorded.id]);
      expect((await api.call("GET", "/streaming/videos?page=99")).body).toEqual([]);
    });

    it.each([
      ["page=0", "query.page"],
      ["per_page=101", "query.per_page"],
      ["status=done", "query.status"],
      ["id=x", "query.id.0"],
    ])("a bad query (%s) is 400 naming %s", async (query, field) => {
      expectEnvelope(await api.call("GET", `/streaming/videos?${query}`), 400, "validation_error", [field]);
    });

    it("names: the account's videos named, by id, others left out", async () => {
      const reply = await api.call("GET", `/streaming/videos/names?ids=${draft.id}&ids=${keynote.id}&ids=${theirVideo.id}`);
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toEqual([
        { id: keynote.id, name: keynote.name },
        { id: draft.id, name: draft.name },
      ]);
      expectEnvelope(await api.call("GET", "/streaming/videos/names"), 400, "validation_error", ["query.ids"]);
    });

    it("direct upload: a fresh token each time, the servers and the video", async () => {
      const first = await api.call("GET", `/streaming/videos/${draft.id}/upload`);
      expect(first.status, first.text).toBe(200);
      const second = await api.call("GET", `/streaming/videos/${draft.id}/upload`);
      const { token, servers, video } = first.body as { token: string; servers: unknown[]; video: Video };
      expect(token).toMatch(/^tus_[0-9a-f]{32}$/);
      expect((second.body as { token: string }).token).not.toBe(token);
      expect(servers).toEqual([{ id: 1, hostname: "upload-1.video.cloudplane.example" }]);
      expect(video).toEqual(await get(draft.id));
    });

    it("another account's video is 404 on every route", async () => {
      for (const [method, path, body] of [
        ["GET", `/streaming/videos/${theirVideo.id}`],
        ["GET", `/streaming/videos/${theirVideo.id}/upload`],
        ["PATCH", `/streaming/videos/${theirVideo.id}`, { name: "Mine" }],
        ["DELETE", `/streaming/videos/${theirVideo.id}`],
        ["GET", `/streaming/videos/${theirVideo.id}/subtitles`],
        ["POST", `/streaming/videos/${theirVideo.id}/subtitles`, { name: "x", language: "eng", vtt: "WEBVTT\n" }],
      ] as const)
        expectEnvelope(await api.call(method, path, body === undefined ? {} : { body }), 404, "not_found", undefined, `${method} ${path}`);
      expect((await api.call("GET", `/streaming/videos/${theirVideo.id}`, { as: [2, "role-1-active"] })).status).toBe(200);
    });
  });

  describe("creation and the life of a video", () => {
    it("from a URL: pending at once, viewable and then ready as time passes", async () => {
      const before = await count(api, "videos");
      const reply = await create({ name: "Onboarding", origin_url: "https://media.acme.example/onboarding.mp4", quality_set_id: 4, priority: 3 });
      expect(reply.status, reply.text).toBe(201);
      const [made] = reply.body as Video[];
      expect(reply.body).toHaveLength(1);
      expect(Object.keys(made!).sort()).toEqual(VIDEO_FIELDS);
      expect(made).toMatchObject({
        name: "Onboarding",
        status: "pending",
        client_id: 1,
        client_user_id: 1,
        quality_set_id: 4,
        priority: 3,
        origin_url: "https://media.acme.example/onboarding.mp4",
        hls_url: null,
        sprite: null,
        screenshots: [],
        views: 0,
        error: null,
      });
      expect(made!.created_at).toMatch(ISO);
      expect(made!.origin_video_duration).toBeGreaterThanOrEqual(60_000);
      expect(made!.origin_size).toBe(made!.origin_video_duration! * 250);
      // The chosen set's four renditions, none made yet.
      expect(made!.converted_videos.map((rendition) => [rendition.name, rendition.status, rendition.mp4_url])).toEqual([
        ["vod_1080p", "processing", null],
        ["vod_720p", "processing", null],
        ["vod_480p", "processing", null],
        ["vod_360p", "processing", null],
      ]);
      expect(await count(api, "videos")).toBe(before + 1);
      // The same URL gives the same source.
      const [twin] = (await create({ name: "Twin", origin_url: "https://media.acme.example/onboarding.mp4" })).body as Video[];
      expect(twin!.origin_video_duration).toBe(made!.origin_video_duration);

      await age(api, made!.id, VIDEO_VIEWABLE_AFTER_S + 1);
      const viewable = await get(made!.id);
      expect(viewable.status).toBe("viewable");
      expect(viewable.hls_url).toBe(`https://video.cloudplane.example/videos/${made!.id}_${made!.slug}/master.m3u8`);
      expect(viewable.screenshots).toHaveLength(5);
      expect(viewable.sprite).toBeNull();
      // The lowest rendition is made first, the best last.
      expect(viewable.converted_videos.at(-1)).toMatchObject({ name: "vod_360p", status: "complete", progress: 100 });
      expect(viewable.converted_videos[0]).toMatchObject({ name: "vod_1080p", status: "processing" });
      expect(viewable.converted_videos[0]!.progress).toBeGreaterThan(0);
      expect(viewable.converted_videos[0]!.progress).toBeLessThan(100);
      expect(((await api.call("GET", "/streaming/videos?status=viewable")).body as Video[]).map((video) => video.id)).toEqual([made!.id]);

      await age(api, made!.id, VIDEO_READY_AFTER_S);
      const ready = await get(made!.id);
      expect(ready.status).toBe("ready");
      expect(ready.sprite_vtt).toBe(`https://video.cloudplane.example/videos/${made!.id}_${made!.slug}/sprite.vtt`);
      expect(ready.converted_videos.every((rendition) => rendition.status === "complete" && rendition.progress === 100 && rendition.mp4_url !== null)).toBe(true);
    });

    it("without a source: empty, until a change gives it an origin_url; a second one is 409", async () => {
      const [made] = (await create({ name: "Upload later", directory_id: 1, description: "For the lobby." })).body as Video[];
      expect(made).toMatchObject({ status: "empty", directory_id: 1, description: "For the lobby.", origin_url: null, converted_videos: [] });
      const changed = await api.call("PATCH", `/streaming/videos/${made!.id}`, { body: { name: "Upload later", origin_url: "https://media.acme.example/late.mp4" } });
      expect(changed.status, changed.text).toBe(200);
      expect(changed.body).toMatchObject({ status: "pending", origin_url: "https://media.acme.example/late.mp4" });
      expectEnvelope(await api.call("PATCH", `/streaming/videos/${made!.id}`, { body: { origin_url: "https://media.acme.example/other.mp4" } }), 409, "conflict");
      expect((await get(made!.id)).origin_url).toBe("https://media.acme.example/late.mp4");
    });

    it("origin_http_headers are kept and never shown", async () => {
      const reply = await create({ name: "Private source", origin_url: "https://media.acme.example/private.mp4", origin_http_headers: "Authorization: Bearer s3cr3t-token" });
      expect(reply.text).not.toContain("s3cr3t-token");
      const [made] = reply.body as Video[];
      const [row] = await selectRows<{ origin_http_headers: string }>(api.database.db, sql`select origin_http_headers from videos where id = ${made!.id}`);
      expect(row!.origin_http_headers).toBe("Authorization: Bearer s3cr3t-token");
      expect((await api.call("GET", `/streaming/videos/${made!.id}`)).text).not.toContain("s3cr3t-token");
    });

    it.each<[string, unknown, string[]]>([
      ["no name", {}, ["video.name"]],
      ["an unknown field", { name: "A", colour: "red" }, ["video.colour"]],
      ["read-only fields", { name: "A", status: "ready", hls_url: "x" }, ["video.status", "video.hls_url"]],
      ["an ftp origin", { name: "A", origin_url: "ftp://media.acme.example/a.mp4" }, ["video.origin_url"]],
      ["another account's directory", { name: "A", directory_id: theirDirectory.id }, ["video.directory_id"]],
      ["another account's user", { name: "A", client_user_id: theirUser.id }, ["video.client_user_id"]],
      ["a live quality set", { name: "A", quality_set_id: 1 }, ["video.quality_set_id"]],
      ["a priority of 11", { name: "A", priority: 11 }, ["video.priority"]],
      ["screenshot 5", { name: "A", screenshot_id: 5 }, ["video.screenshot_id"]],
      ["poster with remove_poster", { name: "A", poster: "https://media.acme.example/p.jpg", remove_poster: true }, ["video.poster"]],
      ["a clip start without a length", { name: "A", clip_start_seconds: 3 }, ["video.clip_duration_seconds"]],
      ["a bad transcription language", { name: "A", auto_transcribe_audio_language: "english" }, ["video.auto_transcribe_audio_language"]],
    ])("%s is 400 naming the fields, and makes nothing", async (_what, video, fields) => {
      const before = await count(api, "videos");
      expectEnvelope(await create(video), 400, "validation_error", fields);
      expect(await count(api, "videos")).toBe(before);
    });

    it("is refused to the read-only Users role", async () => {
      const before = await count(api, "videos");
      expectEnvelope(await create({ name: "A" }, { as: [1, "role-2-active"] }), 403, "permission_denied");
      expect(await count(api, "videos")).toBe(before);
    });

    it("a batch makes every video with its subtitles, in order, or none", async () => {
      const [videosBefore, subtitlesBefore] = [await count(api, "videos"), await count(api, "video_subtitles")];
      const reply = await api.call("POST", "/streaming/videos/batch", {
        body: {
          videos: [
            { name: "Batch one", origin_url: "https://media.acme.example/b1.mp4", subtitles: [{ name: "English", language: "eng", vtt: "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nHi.\n" }] },
            { name: "Batch two" },
          ],
        },
      });
      expect(reply.status, reply.text).toBe(201);
      const made = reply.body as Video[];
      expect(made.map((video) => [video.name, video.status])).toEqual([
        ["Batch one", "pending"],
        ["Batch two", "empty"],
      ]);
      expect(made[1]!.id).toBeGreaterThan(made[0]!.id);
      expect(await count(api, "videos")).toBe(videosBefore + 2);
      expect(((await api.call("GET", `/streaming/videos/${made[0]!.id}/subtitles`)).body as Subtitle[]).map((subtitle) => subtitle.language)).toEqual(["eng"]);

      // What the schema refuses, each by its place; then what only the account's objects refuse, every video's at once.
      expectEnvelope(
        await api.call("POST", "/streaming/videos/batch", {
          body: { videos: [{ name: "Fine" }, { name: "" }, { name: "Bad vtt", subtitles: [{ name: "x", language: "eng", vtt: "hello" }] }] },
        }),
        400,
        "validation_error",
        ["videos.1.name", "videos.2.subtitles.0.vtt"],
      );
      expectEnvelope(
        await api.call("POST", "/streaming/videos/batch", {
          body: { videos: [{ name: "Fine" }, { name: "Bad", directory_id: theirDirectory.id }, { name: "Bad too", client_user_id: theirUser.id }] },
        }),
        400,
        "validation_error",
        ["videos.1.directory_id", "videos.2.client_user_id"],
      );
      expectEnvelope(await api.call("POST", "/streaming/videos/batch", { body: { videos: [] } }), 400, "validation_error", ["videos"]);
      expect(await count(api, "videos")).toBe(videosBefore + 2);
      expect(await count(api, "video_subtitles")).toBe(subtitlesBefore + 1);
    });
  });

  describe("changes and deletion", () => {
    it("PATCH changes only the fields given and moves updated_at", async () => {
      const before = await get(keynote.id);
      const reply = await api.call("PATCH", `/streaming/videos/${keynote.id}`, { body: { description: "New words.", remove_poster: true, directory_id: null } });
      expect(reply.status, reply.text).toBe(200);
      const after = reply.body as Video;
      expect(after).toEqual({ ...before, description: "New words.", poster: null, poster_thumb: null, directory_id: null, updated_at: after.updated_at });
      expect(Date.parse(after.updated_at)).toBeGreaterThan(Date.parse(before.updated_at));
      expect(await get(keynote.id)).toEqual(after);
      expectEnvelope(await api.call("PATCH", `/streaming/videos/${keynote.id}`, { body: { name: "" } }), 400, "validation_error", ["name"]);
      expectEnvelope(await api.call("PATCH", `/streaming/videos/${keynote.id}`, { body: { slug: "x" } }), 400, "validation_error", ["slug"]);
    });

    it("DELETE removes the video with its subtitles and from its playlists; again is 404", async () => {
      const [made] = (await api.call("POST", "/streaming/videos/batch", { body: { videos: [{ name: "Doomed", subtitles: [{ name: "E", language: "eng", vtt: "WEBVTT\n" }] }] } })).body as Video[];
      const playlist = (await api.call("POST", "/streaming/playlists", { body: { name: "With doomed", video_ids: [keynote.id, made!.id] } })).body as { id: number; video_ids: number[] };
      expect(playlist.video_ids).toEqual([keynote.id, made!.id]);
      const subtitlesBefore = await count(api, "video_subtitles");
      const reply = await api.call("DELETE", `/streaming/videos/${made!.id}`);
      expect(reply.status, reply.text).toBe(204);
      expect(reply.text).toBe("");
      expect(await count(api, "video_subtitles")).toBe(subtitlesBefore - 1);
      expect(((await api.call("GET", `/streaming/playlists/${playlist.id}`)).body as { video_ids: number[] }).video_ids).toEqual([keynote.id]);
      expectEnvelope(await api.call("GET", `/streaming/videos/${made!.id}`), 404, "not_found");
      expectEnvelope(await api.call("DELETE", `/streaming/videos/${made!.id}`), 404, "not_found");
    });
  });

  describe("subtitles", () => {
    const keynoteSubtitles = videoSubtitles.filter((subtitle) => subtitle.videoId === keynote.id);

    it("lists, adds, reads, changes and deletes a video's tracks", async () => {
      const listed = await api.call("GET", `/streaming/videos/${keynote.id}/subtitles`);
      expect(listed.status, listed.text).toBe(200);
      expect(listed.body).toEqual(keynoteSubtitles.map(({ id, name, language, vtt }) => ({ id, name, language, vtt })));

      const vtt = "WEBVTT\n\n00:00:01.000 --> 00:00:03.000\nHola.\n";
      const added = await api.call("POST", `/streaming/videos/${keynote.id}/subtitles`, { body: { name: "Español", language: "spa", vtt } });
      expect(added.status, added.text).toBe(201);
      const subtitle = added.body as Subtitle;
      expect(subtitle).toEqual({ id: subtitle.id, name: "Español", language: "spa", vtt });
      expect((await api.call("GET", `/streaming/videos/${keynote.id}/subtitles/${subtitle.id}`)).body).toEqual(subtitle);

      const changed = await api.call("PATCH", `/streaming/videos/${keynote.id}/subtitles/${subtitle.id}`, { body: { name: "Español (ES)" } });
      expect(changed.status, changed.text).toBe(200);
      expect(changed.body).toEqual({ name: "Español (ES)", language: "spa", vtt });
      expect((await api.call("PATCH", `/streaming/videos/${keynote.id}/subtitles/${subtitle.id}`, { body: {} })).body).toEqual({ name: "Español (ES)", language: "spa", vtt });

      // A track is reached only through its own video.
      expectEnvelope(await api.call("GET", `/streaming/videos/${draft.id}/subtitles/${subtitle.id}`), 404, "not_found");
      const deleted = await api.call("DELETE", `/streaming/videos/${keynote.id}/subtitles/${subtitle.id}`);
      expect(deleted.status, deleted.text).toBe(204);
      expectEnvelope(await api.call("GET", `/streaming/videos/${keynote.id}/subtitles/${subtitle.id}`), 404, "not_found");
      expect((await api.call("GET", `/streaming/videos/${keynote.id}/subtitles`)).body).toEqual(listed.body);
    });

    it.each<[string, unknown, string[]]>([
      ["no fields", {}, ["name", "language", "vtt"]],
      ["a two-letter language", { name: "E", language: "en", vtt: "WEBVTT\n" }, ["language"]],
      ["text that is not WebVTT", { name: "E", language: "eng", vtt: "1\n00:00:01,000 --> 00:00:02,000\nHi\n" }, ["vtt"]],
      ["an id", { id: 9, name: "E", language: "eng", vtt: "WEBVTT\n" }, ["id"]],
    ])("%s is 400 and adds nothing", async (_what, body, fields) => {
      const before = await count(api, "video_subtitles");
      expectEnvelope(await api.call("POST", `/streaming/videos/${keynote.id}/subtitles`, { body }), 400, "validation_error", fields);
      expect(await count(api, "video_subtitles")).toBe(before);
    });

    it("another account's track is 404, even through its own video's path", async () => {
      const theirs = videoSubtitles.find((subtitle) => subtitle.accountId === 2)!;
      expectEnvelope(await api.call("GET", `/streaming/videos/${theirs.videoId}/subtitles/${theirs.id}`), 404, "not_found");
      expectEnvelope(await api.call("DELETE", `/streaming/videos/${keynote.id}/subtitles/${theirs.id}`), 404, "not_found");
      expect((await api.call("GET", `/streaming/videos/${theirs.videoId}/subtitles/${theirs.id}`, { as: [2, "role-1-active"] })).status).toBe(200);
    });
  });
});
