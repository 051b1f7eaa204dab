/**
 * advanceMedia: a video made through the client moves from pending to viewable to ready, an AI task
 * from PENDING to SUCCESS, and a recording of a stream put on the air grows, as the platform's media
 * pipeline is moved on; nothing moves without it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestPlatform, type TestPlatform } from "../src/index.js";

describe("the media pipeline of a test platform", () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await createTestPlatform();
  });
  afterAll(() => platform.close());

  it("moves a video's transcoding and an AI task on through the client's eyes", async () => {
    const [video] = await platform.client.streaming.videos.create({ video: { name: "Intro", origin_url: "https://media.example/intro.mp4" } });
    const waiting = (await platform.client.streaming.videos.createMultiple({ videos: [{ name: "Later" }] }))[0]!;
    const { task_id } = await platform.client.streaming.ai.tasks.create({ task_name: "transcription", url: "https://media.example/intro.mp4" });
    expect((await platform.client.streaming.videos.get(video!.id)).status).toBe("pending");
    expect((await platform.client.streaming.ai.tasks.get(task_id)).status).toBe("PENDING");

    await platform.advanceMedia(10);
    expect((await platform.client.streaming.videos.get(video!.id)).status).toBe("viewable");
    expect((await platform.client.streaming.ai.tasks.get(task_id)).status).toBe("STARTED");

    await platform.advanceMedia(20);
    const ready = await platform.client.streaming.videos.get(video!.id);
    expect(ready.status).toBe("ready");
    expect(ready.converted_videos.every((rendition) => rendition.status === "complete")).toBe(true);
    const task = await platform.client.streaming.ai.tasks.get(task_id);
    expect(task.status).toBe("SUCCESS");
    expect(task.result).not.toBeNull();
    // A video without a source waits for it, however long.
    expect((await platform.client.streaming.videos.get(waiting.id)).status).toBe("empty");
    await expect(platform.advanceMedia(-1)).rejects.toThrow(RangeError);
  });

  it("lengthens a recording under way, and the video its stop keeps", async () => {
    const { id } = await platform.client.streaming.streams.create({ name: "Studio" });
    // Nothing records a stream that is not on the air.
    await expect(platform.client.streaming.streams.startRecording(id)).rejects.toMatchObject({ status: 422 });
    await platform.setStreamLive(id, true);
    const onAir = await platform.client.streaming.streams.get(id);
    expect(onAir).toMatchObject({ live: true, stream_source_type: "rtmp", active_ingest_region_primary: "eu-west", finished_at_primary: null });
    expect(onAir.started_at_primary).not.toBeNull();

    const started = await platform.client.streaming.streams.startRecording(id);
    expect(started.data.stream.id).toBe(id);
    await platform.advanceMedia(90);
    const recording = (await platform.client.streaming.streams.get(id)).recording_duration;
    expect(recording).toBeGreaterThanOrEqual(90);
    expect(recording).toBeLessThan(120);
    await platform.setStreamLive(id, false);
    expect(await platform.client.streaming.streams.get(id)).toMatchObject({ live: false, stream_source_type: null, active_ingest_region_primary: null });
    const video = await platform.client.streaming.streams.stopRecording(id);
    expect(video.stream_id).toBe(id);
    expect(video.status).toBe("pending");
    expect(video.duration).toBeGreaterThanOrEqual(90_000);
    expect((await platform.client.streaming.streams.get(id)).recording_duration).toBe(0);
    await platform.advanceMedia(30);
    expect((await platform.client.streaming.videos.get(video.id)).status).toBe("ready");
    await expect(platform.setStreamLive(2_147_483_000, true)).rejects.toThrow(RangeError);
  });
});
