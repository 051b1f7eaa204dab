/**
 * Integration tests of the Streaming area (stream listing and details, clip recording) on every
 * engine, with the demo fixture as the source of every expected value.
 */
import { clipRecording, STREAMS_PAGE_SIZE, stream as streamSchema, type ClipRecording, type Stream } from "@cloudplane/contract";
import { demoFixture, sql, type DemoAccountId, type DemoRow } from "@cloudplane/db";
import { selectRows } from "@cloudplane/db/testing";
import { describe, expect, it } from "vitest";
import { broadcastsOfStream as broadcastsOf, shownStream, streamsOfBroadcast } from "./streaming/shown.js";
import { engines, expectEnvelope, useApi } from "./harness.js";

const { streams, broadcasts, clips } = demoFixture;

type DemoStream = DemoRow<"streams">;

const STREAM_FIELDS = Object.keys(streamSchema.shape)
  .filter((field) => field !== "broadcasts")
  .sort();
const CLIP_FIELDS = Object.keys(clipRecording.shape).sort();
/** The form of the fixture's clip ids, which new clips follow too. */
const CLIP_ID = /^clip_[0-9a-f]{16}$/;

function streamsOf(accountId: DemoAccountId): DemoStream[] {
  return streams.filter((stream) => stream.accountId === accountId);
}

/** Newest first, as the listing orders them. */
function newestFirst(accountId: DemoAccountId): DemoStream[] {
  return [...streamsOf(accountId)].sort((a, b) => b.id - a.id);
}


const shown = shownStream;

function withBroadcasts(stream: DemoStream): Stream {
  return { ...shown(stream), broadcasts: broadcastsOf(stream).map(({ id, name, status }) => ({ id, name, status })) };
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

// The streams the clip tests need, found in the fixture rather than assumed.
const liveWithDvr = streamsOf(1).filter((stream) => stream.live && stream.dvrDuration > 0);
const notLive = streamsOf(1).find((stream) => !stream.live && stream.dvrDuration > 0);
const liveWithoutDvr = streamsOf(1).find((stream) => stream.live && stream.dvrDuration === 0);
const theirLive = streamsOf(2).find((stream) => stream.live && stream.dvrDuration > 0);

describe.each(engines())("streaming area on %s", (engine) => {
  const api = useApi(engine);

  describe("GET /streaming/streams", () => {
    it("page 1 holds the 25 newest streams; X-Total-Count is the account's stream count", async () => {
      const all = newestFirst(1);
      expect(all.length).toBeGreaterThan(STREAMS_PAGE_SIZE);
      const reply = await api.call("GET", "/streaming/streams");
      expect(reply.status, reply.text).toBe(200);
      expect(reply.headers.get("x-total-count")).toBe(String(all.length));
      const page = reply.body as Stream[];
      expect(page).toEqual(all.slice(0, STREAMS_PAGE_SIZE).map(shown));
      for (const stream of page) expect(Object.keys(stream).sort()).toEqual(STREAM_FIELDS);
      expect(await api.call("GET", "/streaming/streams?page=1").then((again) => again.body as Stream[])).toEqual(page);
    });

    it("page 2 holds the rest; a page past the end is an empty array with the same total", async () => {
      const all = newestFirst(1);
      const second = await api.call("GET", "/streaming/streams?page=2");
      expect(second.status, second.text).toBe(200);
      expect(second.body).toEqual(all.slice(STREAMS_PAGE_SIZE, 2 * STREAMS_PAGE_SIZE).map(shown));
      expect(second.headers.get("x-total-count")).toBe(String(all.length));

      const past = Math.ceil(all.length / STREAMS_PAGE_SIZE) + 1;
      const empty = await api.call("GET", `/streaming/streams?page=${past}`);
      expect(empty.status, empty.text).toBe(200);
      expect(empty.body).toEqual([]);
      expect(empty.headers.get("x-total-count")).toBe(String(all.length));
    });

    it("shows account 2 only its own streams", async () => {
      const theirs = newestFirst(2);
      const reply = await api.call("GET", "/streaming/streams", { as: [2, "role-1-active"] });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toEqual(theirs.slice(0, STREAMS_PAGE_SIZE).map(shown));
      expect(reply.headers.get("x-total-count")).toBe(String(theirs.length));
    });

    it.each(["0", "-1", "abc", "1.5"])("page=%s is 400 query.page", async (page) => {
      expectEnvelope(await api.call("GET", `/streaming/streams?page=${page}`), 400, "validation_error", ["query.page"]);
    });

    it("with_broadcasts=1 adds each stream's broadcasts (an empty list for none), on every page", async () => {
      const all = newestFirst(1);
      // Broadcasts hang off the oldest streams, so page 2 is where most of them show.
      expect(broadcasts.some((broadcast) => all.slice(STREAMS_PAGE_SIZE).some((stream) => streamsOfBroadcast(broadcast).includes(stream.id)))).toBe(true);
      for (const page of [1, 2]) {
        const reply = await api.call("GET", `/streaming/streams?page=${page}&with_broadcasts=1`);
        expect(reply.status, reply.text).toBe(200);
        expect(reply.body).toEqual(all.slice((page - 1) * STREAMS_PAGE_SIZE, page * STREAMS_PAGE_SIZE).map(withBroadcasts));
      }
      const past = await api.call("GET", "/streaming/streams?page=9&with_broadcasts=1");
      expect(past.body).toEqual([]);
    });

    it("with_broadcasts=1 shows account 2 only its own broadcasts", async () => {
      const reply = await api.call("GET", "/streaming/streams?with_broadcasts=1", { as: [2, "role-1-active"] });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toEqual(newestFirst(2).map(withBroadcasts));
    });

    it("without with_broadcasts, or with 0, no stream has a broadcasts key", async () => {
      for (const query of ["", "?with_broadcasts=0", "?page=2"]) {
        const reply = await api.call("GET", `/streaming/streams${query}`);
        expect(reply.status, reply.text).toBe(200);
        for (const stream of reply.body as Stream[]) expect(stream).not.toHaveProperty("broadcasts");
      }
      expectEnvelope(await api.call("GET", "/streaming/streams?with_broadcasts=2"), 400, "validation_error", ["query.with_broadcasts"]);
    });

    it("is open to the read-only Users role", async () => {
      const reply = await api.call("GET", "/streaming/streams", { as: [1, "role-2-active"] });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.headers.get("x-total-count")).toBe(String(streamsOf(1).length));
    });
  });

  describe("GET /streaming/streams/{stream_id}", () => {
    it("answers every fixture stream of the account with its fields, timestamps in ISO 8601 UTC", async () => {
      for (const stream of streamsOf(1)) {
        const reply = await api.call("GET", `/streaming/streams/${stream.id}`);
        expect(reply.status, reply.text).toBe(200);
        expect(reply.body).toEqual(shown(stream));
        expect(Object.keys(reply.body as Stream).sort()).toEqual(STREAM_FIELDS);
      }
      const finished = streamsOf(1).find((stream) => stream.finishedAtPrimary !== null)!;
      const body = (await api.call("GET", `/streaming/streams/${finished.id}`)).body as Stream;
      for (const value of [body.created_at, body.started_at_primary, body.finished_at_primary])
        expect(value).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    });

    it("the other account's stream and an unknown id are 404; a bad id is 400", async () => {
      const theirs = streamsOf(2)[0]!;
      const reply = await api.call("GET", `/streaming/streams/${theirs.id}`);
      expectEnvelope(reply, 404, "not_found");
      expect(reply.text).not.toContain(theirs.name);
      expectEnvelope(await api.call("GET", "/streaming/streams/999999"), 404, "not_found");
      expectEnvelope(await api.call("GET", "/streaming/streams/abc"), 400, "validation_error", ["path.stream_id"]);
    });
  });

  describe("PUT /streaming/streams/{stream_id}/clip_recording", () => {
    async function clipCount(): Promise<number> {
      const [row] = await selectRows<{ total: number }>(api.database.db, sql`select count(*)::int as total from clips`);
      return row!.total;
    }

    function clip(streamId: number, body: unknown, as: [DemoAccountId, "role-1-active" | "role-2-active"] = [1, "role-1-active"]) {
      return api.call("PUT", `/streaming/streams/${streamId}/clip_recording`, { as, body });
    }

    it("the fixture has the streams these tests need: live with DVR, not live, and live without DVR", () => {
      for (const example of clips) {
        const source = streams.find((stream) => stream.id === example.streamId)!;
        expect(example.id).toMatch(CLIP_ID);
        expect(example.hlsMaster).toBe(`${new URL(source.hlsMpegtsUrl).origin}/clips/${example.id}/master.m3u8`);
        expect(example.mp4Master).toBe(`${new URL(source.hlsMpegtsUrl).origin}/clips/${example.id}/master.mp4`);
      }
      expect(liveWithDvr.length).toBeGreaterThanOrEqual(2);
      expect(notLive).toBeDefined();
      expect(liveWithoutDvr).toBeDefined();
      expect(theirLive).toBeDefined();
      expect(new Set(liveWithDvr.map((stream) => stream.transcodedQualities.join()))).not.toEqual(new Set([""]));
    });

    it("defaults: start now, expiration start + duration + 3600; renditions are the stream's qualities", async () => {
      const stream = liveWithDvr[0]!;
      const before = nowSeconds();
      const reply = await clip(stream.id, { duration: 60 });
      const after = nowSeconds();
      expect(reply.status, reply.text).toBe(200);
      const created = reply.body as ClipRecording;
      expect(Object.keys(created).sort()).toEqual(CLIP_FIELDS);
      expect(created.start).toBeGreaterThanOrEqual(before);
      expect(created.start).toBeLessThanOrEqual(after);
      expect(created).toEqual({
        id: expect.any(String) as string,
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/) as string,
        vod_required: false,
        video_id: null,
        renditions: stream.transcodedQualities,
        hls_master: expect.any(String) as string,
        mp4_master: expect.any(String) as string,
        start: created.start,
        duration: 60,
        expiration: created.start + 60 + 3600,
      });
      expect(Math.abs(Date.parse(created.created_at) - Date.now())).toBeLessThan(60_000);

      // New clips look like the fixture's: a clip_ id, files under the stream owner's video host.
      const origin = new URL(stream.hlsMpegtsUrl).origin;
      expect(created.id).toMatch(CLIP_ID);
      expect(created.hls_master).toBe(`${origin}/clips/${created.id}/master.m3u8`);
      expect(created.mp4_master).toBe(`${origin}/clips/${created.id}/master.mp4`);

      const [row] = await selectRows(api.database.db, sql`select account_id, stream_id, start, duration, expiration from clips where id = ${created.id}`);
      expect(row).toEqual({ account_id: 1, stream_id: stream.id, start: expect.anything() as unknown, duration: 60, expiration: expect.anything() as unknown });
      expect(Number(row!.start)).toBe(created.start);
      expect(Number(row!.expiration)).toBe(created.expiration);
    });

    it("takes start and expiration as given, inside their bounds", async () => {
      const stream = liveWithDvr[1]!;
      const start = nowSeconds() - stream.dvrDuration + 120;
      const duration = stream.dvrDuration;
      for (const expiration of [start + duration + 60, start + duration + 4 * 3600]) {
        const reply = await clip(stream.id, { start, duration, expiration });
        expect(reply.status, reply.text).toBe(200);
        expect(reply.body).toMatchObject({ start, duration, expiration, renditions: stream.transcodedQualities });
      }
      const ahead = nowSeconds() + 3600 - 120;
      const reply = await clip(stream.id, { start: ahead, duration: 30 });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toMatchObject({ start: ahead, duration: 30, expiration: ahead + 30 + 3600 });
    });

    it("a duration over the stream's dvr_duration is 400 errors.duration", async () => {
      const stream = liveWithDvr[0]!;
      const before = await clipCount();
      expectEnvelope(await clip(stream.id, { duration: stream.dvrDuration + 1 }), 400, "validation_error", ["duration"]);
      expectEnvelope(await clip(stream.id, { duration: 0 }), 400, "validation_error", ["duration"]);
      expectEnvelope(await clip(stream.id, {}), 400, "validation_error", ["duration"]);
      expect(await clipCount()).toBe(before);
    });

    it("an expiration under 1 minute or over 4 hours after the clip ends is 400 errors.expiration", async () => {
      const stream = liveWithDvr[0]!;
      const before = await clipCount();
      const start = nowSeconds() - 600;
      const end = start + 120;
      for (const expiration of [end + 59, end, start, end + 4 * 3600 + 1])
        expectEnvelope(await clip(stream.id, { start, duration: 120, expiration }), 400, "validation_error", ["expiration"]);
      expect(await clipCount()).toBe(before);
    });

    it("a start outside [now − dvr_duration, now + 1 hour] is 400 errors.start", async () => {
      const stream = liveWithDvr[0]!;
      const before = await clipCount();
      const now = nowSeconds();
      for (const start of [now - stream.dvrDuration - 60, now + 3600 + 60, 0])
        expectEnvelope(await clip(stream.id, { start, duration: 10 }), 400, "validation_error", ["start"]);
      expect(await clipCount()).toBe(before);
    });

    it("names every offending field at once", async () => {
      const stream = liveWithDvr[0]!;
      const start = nowSeconds() - stream.dvrDuration - 600;
      expectEnvelope(await clip(stream.id, { start, duration: stream.dvrDuration + 1, expiration: start }), 400, "validation_error", ["duration", "expiration", "start"]);
    });

    it("a stream that is not live, and a live one with DVR off, are 422 unprocessable", async () => {
      const before = await clipCount();
      expectEnvelope(await clip(notLive!.id, { duration: 10 }), 422, "unprocessable");
      expectEnvelope(await clip(liveWithoutDvr!.id, { duration: 10 }), 422, "unprocessable");
      expect(await clipCount()).toBe(before);
    });

    it("the other account's stream and an unknown id are 404; account 2 clips its own", async () => {
      const before = await clipCount();
      expectEnvelope(await clip(theirLive!.id, { duration: 10 }), 404, "not_found");
      expectEnvelope(await clip(999_999, { duration: 10 }), 404, "not_found");
      expect(await clipCount()).toBe(before);
      const theirs = await clip(theirLive!.id, { duration: 10 }, [2, "role-1-active"]);
      expect(theirs.status, theirs.text).toBe(200);
      expect(theirs.body).toMatchObject({ renditions: theirLive!.transcodedQualities, duration: 10 });
    });

    it("is refused to the read-only Users role, and read-only fields are rejected", async () => {
      const stream = liveWithDvr[0]!;
      expectEnvelope(await clip(stream.id, { duration: 10 }, [1, "role-2-active"]), 403, "permission_denied");
      expectEnvelope(await clip(stream.id, { duration: 10, renditions: ["720p"] }), 400, "validation_error", ["renditions"]);
    });
  });
});
