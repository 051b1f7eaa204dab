/**
 * Integration tests of a live stream's recording on every engine: a start notes the recording (again:
 * the same one), the stream's recording_duration grows with it, a stop keeps it as a pending video of
 * the stream, and a second stop makes nothing; 422 for a stream that is not live or not recorded, 404
 * for another account's, 403 for the read-only role; the storage warning past 90% of the account's storage.
 */
import { STREAMING_STORAGE_LIMIT_MB, type RecordingStart, type Stream, type Video } from "@cloudplane/contract";
import { demoFixture, sql } from "@cloudplane/db";
import { selectRows } from "@cloudplane/db/testing";
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi, type TestApi } from "../harness.js";

const { streams, videos } = demoFixture;

const live = streams.find((stream) => stream.accountId === 1 && stream.live)!;
const offline = streams.find((stream) => stream.accountId === 1 && !stream.live)!;
const theirLive = streams.find((stream) => stream.accountId === 2 && stream.live)!;
const MB = 1024 * 1024;

async function recordingStartedAt(api: TestApi, id: number): Promise<Date | null> {
  const [row] = await selectRows<{ at: Date | string | null }>(api.database.db, sql`select recording_started_at as at from streams where id = ${id}`);
  return row!.at === null ? null : new Date(row!.at);
}

async function videoCount(api: TestApi): Promise<number> {
  const [row] = await selectRows<{ total: number }>(api.database.db, sql`select count(*)::int as total from videos`);
  return row!.total;
}

describe.each(engines())("stream recordings on %s", (engine) => {
  const api = useApi(engine);
  const start = (id: number, options: { body?: unknown; as?: [1 | 2, "role-1-active" | "role-2-active"] } = {}) =>
    api.call("PUT", `/streaming/streams/${id}/start_recording`, options);
  const stop = (id: number, options: { body?: unknown; as?: [1 | 2, "role-1-active" | "role-2-active"] } = {}) =>
    api.call("PUT", `/streaming/streams/${id}/stop_recording`, options);

  it("starts a recording of a live stream, with the account's storage; a second start goes on with the same one", async () => {
    const usedBytes = videos.filter((video) => video.accountId === 1).reduce((sum, video) => sum + (video.originSize ?? 0), 0);
    const started = await start(live.id);
    expect(started.status, started.text).toBe(200);
    expect(started.body).toEqual({
      data: {
        stream: { id: live.id, client: { id: 1, storage_limit_mb: STREAMING_STORAGE_LIMIT_MB, storage_usage_mb: Math.round((usedBytes / MB) * 100) / 100 } },
      },
      errors: [],
      warnings: [],
    } satisfies RecordingStart);
    const first = await recordingStartedAt(api, live.id);
    expect(first).not.toBeNull();
    expect(Math.abs(first!.getTime() - Date.now())).toBeLessThan(60_000);

    const again = await start(live.id, { body: {} });
    expect(again.status, again.text).toBe(200);
    expect(again.body).toEqual(started.body);
    expect(await recordingStartedAt(api, live.id)).toEqual(first);
  });

  it("shows the recording's length on the stream, and a stop keeps it as a pending video of the stream", async () => {
    // Two minutes into the recording, as the test kit's advanceMedia moves it.
    await api.database.db.execute(sql`update streams set recording_started_at = recording_started_at - interval '120 seconds' where id = ${live.id}`);
    const startedAt = (await recordingStartedAt(api, live.id))!;
    const during = (await api.call("GET", `/streaming/streams/${live.id}`)).body as Stream;
    expect(during.recording_duration).toBeGreaterThanOrEqual(120);
    expect(during.recording_duration).toBeLessThan(180);

    const before = await videoCount(api);
    const stopped = await stop(live.id);
    expect(stopped.status, stopped.text).toBe(200);
    const video = stopped.body as Video;
    expect(video.name).toMatch(new RegExp(`^Stream Record: ${live.name}, \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2} UTC$`));
    const ended = new Date(`${video.name.slice(-23, -4).replace(" ", "T")}Z`).getTime();
    expect(Math.abs(ended - Date.now())).toBeLessThan(60_000);
    expect(video).toMatchObject({
      stream_id: live.id,
      recording_started_at: startedAt.toISOString(),
      record_type: live.recordType,
      client_user_id: live.clientUserId,
      client_id: 1,
      status: "pending",
      origin_url: null,
      directory_id: null,
    });
    expect(video.duration).toBeGreaterThanOrEqual(120_000);
    expect(video.duration).toBeLessThan(180_000);
    expect(video.origin_video_duration).toBe(video.duration);
    expect(video.origin_size).toBe(video.origin_video_duration! * 250);
    expect(await videoCount(api)).toBe(before + 1);

    // The video is the stream's recording in the listing, and the stream records nothing now.
    const listed = await api.call("GET", `/streaming/videos?stream_id=${live.id}`);
    const earlier = videos.filter((row) => row.accountId === 1 && row.streamId === live.id).map((row) => row.id);
    expect((listed.body as Video[]).map((item) => item.id).sort((x, y) => x - y)).toEqual([...earlier, video.id].sort((x, y) => x - y));
    expect(((await api.call("GET", `/streaming/streams/${live.id}`)).body as Stream).recording_duration).toBe(0);
    expect(await recordingStartedAt(api, live.id)).toBeNull();

    // A second stop has nothing to keep.
    expect(expectEnvelope(await stop(live.id), 422, "unprocessable").message).toContain("not being recorded");
    expect(await videoCount(api)).toBe(before + 1);
  });

  it("a stream that is not live is 422; another account's stream is 404; the Users role is 403; a field in the body is 400; none changes", async () => {
    expect(expectEnvelope(await start(offline.id), 422, "unprocessable").message).toContain("not live");
    expect(await recordingStartedAt(api, offline.id)).toBeNull();
    expectEnvelope(await start(theirLive.id), 404, "not_found");
    expectEnvelope(await stop(theirLive.id), 404, "not_found");
    expectEnvelope(await start(2_147_483_000), 404, "not_found");
    expect(await recordingStartedAt(api, theirLive.id)).toBeNull();
    expectEnvelope(await start(live.id, { as: [1, "role-2-active"] }), 403, "permission_denied");
    expectEnvelope(await start(live.id, { body: { record_type: "origin" } }), 400, "validation_error", ["record_type"]);
    expect(await recordingStartedAt(api, live.id)).toBeNull();
  });

  it("warns when the account's videos fill more than 90% of its storage", async () => {
    const fill = Math.ceil(STREAMING_STORAGE_LIMIT_MB * 0.95) * MB;
    await api.database.db.execute(sql`update videos set origin_size = ${fill} where id = (select min(id) from videos where account_id = 1)`);
    const started = await start(live.id);
    expect(started.status, started.text).toBe(200);
    const { data, warnings } = started.body as RecordingStart;
    expect(data.stream.client.storage_usage_mb).toBeGreaterThan(STREAMING_STORAGE_LIMIT_MB * 0.95);
    expect(warnings).toEqual([
      { key: "client_storage_almost_exceeded", meta: { storage_limit_mb: STREAMING_STORAGE_LIMIT_MB, storage_usage_mb: data.stream.client.storage_usage_mb }, source_object: { id: 1, type: "client" } },
    ]);
  });
});
