/**
 * advanceMedia: a video made through the client moves from pending to viewable to ready, and an AI task
 * from PENDING to SUCCESS, as the platform's media pipeline is moved on; nothing moves without it.
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
});
