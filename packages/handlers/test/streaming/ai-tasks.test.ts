/**
 * Integration tests of AI tasks on every engine: creation with the fields of each kind, the status moving
 * from PENDING to STARTED to SUCCESS as time passes (the creation is moved back in the database, as the
 * clock would), results the same for the same file, cancelling, the listing's filters, and language support.
 */
import { AI_TASK_ENDS_AFTER_S, AI_TASK_STARTS_AFTER_S, type AiTask, type AiTaskDetails } from "@cloudplane/contract";
import { demoFixture, sql } from "@cloudplane/db";
import { selectRows } from "@cloudplane/db/testing";
import { describe, expect, it } from "vitest";
import { engines, expectEnvelope, useApi, type TestApi } from "../harness.js";

const ownTasks = demoFixture.aiTasks.filter((task) => task.accountId === 1);
const theirTask = demoFixture.aiTasks.find((task) => task.accountId === 2)!;

async function count(api: TestApi): Promise<number> {
  const [row] = await selectRows<{ total: number }>(api.database.db, sql`select count(*)::int as total from ai_tasks`);
  return row!.total;
}

/** Moves a task's creation back by `seconds`, as that much time passing would. */
async function age(api: TestApi, id: string, seconds: number): Promise<void> {
  await api.database.db.execute(sql`update ai_tasks set created_at = created_at - make_interval(secs => ${seconds}), cancelled_at = cancelled_at - make_interval(secs => ${seconds}) where id = ${id}`);
}

describe.each(engines())("AI tasks on %s", (engine) => {
  const api = useApi(engine);
  const get = async (id: string) => (await api.call("GET", `/streaming/ai/tasks/${id}`)).body as AiTaskDetails;

  it("a transcription: PENDING, then STARTED with progress, then SUCCESS with its result", async () => {
    const before = await count(api);
    const made = await api.call("POST", "/streaming/ai/tasks", { body: { task_name: "transcription", url: "https://media.acme.example/talk.mp4", audio_language: "eng", client_user_id: "u-42" } });
    expect(made.status, made.text).toBe(201);
    const { task_id } = made.body as { task_id: string };
    expect(task_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(await count(api)).toBe(before + 1);

    const pending = await get(task_id);
    expect(pending).toEqual({
      task_id,
      status: "PENDING",
      progress: 0,
      processing_time: { started_at: null, completed_at: null, total_time_sec: null },
      task_data: {
        task_name: "transcription",
        url: "https://media.acme.example/talk.mp4",
        category: null,
        stop_objects: null,
        audio_language: "eng",
        subtitles_language: null,
        client_entity_data: null,
        client_user_id: "u-42",
        client_id: 1,
      },
      result: null,
    });

    await age(api, task_id, AI_TASK_STARTS_AFTER_S + (AI_TASK_ENDS_AFTER_S - AI_TASK_STARTS_AFTER_S) / 2);
    const started = await get(task_id);
    expect(started.status).toBe("STARTED");
    expect(started.progress).toBeGreaterThanOrEqual(45);
    expect(started.progress).toBeLessThan(100);
    expect(started.processing_time.started_at).not.toBeNull();
    expect(started.result).toBeNull();

    await age(api, task_id, AI_TASK_ENDS_AFTER_S);
    const done = await get(task_id);
    expect(done).toMatchObject({ status: "SUCCESS", progress: 100, processing_time: { total_time_sec: AI_TASK_ENDS_AFTER_S - AI_TASK_STARTS_AFTER_S } });
    const result = done.result as { speech_detected: boolean; languages: string[]; subtitles: { text: string }[]; vttContent: string; concatenated_text: string };
    expect(result.speech_detected).toBe(true);
    expect(result.languages).toEqual(["eng"]);
    expect(result.subtitles[0]!.text).toBe("Transcript of talk.mp4, part 1.");
    expect(result.vttContent.startsWith("WEBVTT\n\n00:00:01.000 --> 00:00:04.000\nTranscript of talk.mp4, part 1.\n")).toBe(true);
    expect(result.concatenated_text).toBe(result.subtitles.map((line) => line.text).join(" "));
    // Cancelling an ended task changes nothing.
    expect((await api.call("POST", `/streaming/ai/tasks/${task_id}/cancel`)).body).toEqual({ result: "SUCCESS" });
    expect(await get(task_id)).toEqual(done);
  });

  it("content moderation: the same file gives the same result", async () => {
    const body = { task_name: "content-moderation", category: "sport", url: "https://media.acme.example/match.mp4" };
    const ids = await Promise.all([1, 2].map(async () => ((await api.call("POST", "/streaming/ai/tasks", { body })).body as { task_id: string }).task_id));
    for (const id of ids) await age(api, id, AI_TASK_ENDS_AFTER_S + 1);
    const [first, second] = await Promise.all(ids.map(get));
    expect(first!.status).toBe("SUCCESS");
    expect(Object.keys(first!.result!).sort()).toEqual(["detection_results", "frames", "sport_detected"]);
    expect(first!.result).toEqual(second!.result);
  });

  it("cancelling a running task revokes it for good; it keeps no result", async () => {
    const { task_id } = (await api.call("POST", "/streaming/ai/tasks", { body: { task_name: "content-moderation", category: "nsfw", url: "https://media.acme.example/x.mp4" } })).body as { task_id: string };
    await age(api, task_id, AI_TASK_STARTS_AFTER_S + 1);
    const reply = await api.call("POST", `/streaming/ai/tasks/${task_id}/cancel`);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toEqual({ result: "REVOKED" });
    await age(api, task_id, AI_TASK_ENDS_AFTER_S * 2);
    const revoked = await get(task_id);
    expect(revoked.status).toBe("REVOKED");
    expect(revoked.result).toBeNull();
    expect(revoked.processing_time.completed_at).not.toBeNull();
    expect((await api.call("POST", `/streaming/ai/tasks/${task_id}/cancel`, { body: {} })).body).toEqual({ result: "REVOKED" });
  });

  it.each<[string, unknown, string[]]>([
    ["no task name", { url: "https://media.acme.example/a.mp4" }, ["task_name"]],
    ["moderation without a category", { task_name: "content-moderation", url: "https://media.acme.example/a.mp4" }, ["category"]],
    ["a transcription with a category", { task_name: "transcription", category: "nsfw", url: "https://media.acme.example/a.mp4" }, ["category"]],
    ["moderation with a language", { task_name: "content-moderation", category: "nsfw", audio_language: "eng", url: "https://media.acme.example/a.mp4" }, ["audio_language"]],
    ["stop objects for sport", { task_name: "content-moderation", category: "sport", stop_objects: "FACE_MALE", url: "https://media.acme.example/a.mp4" }, ["stop_objects"]],
    ["a file that is no URL", { task_name: "transcription", url: "talk.mp4" }, ["url"]],
  ])("%s is 400 and makes nothing", async (_what, body, fields) => {
    const before = await count(api);
    expectEnvelope(await api.call("POST", "/streaming/ai/tasks", { body }), 400, "validation_error", fields);
    expect(await count(api)).toBe(before);
  });

  it("the listing: newest first by default, paged, filtered by status, kind and day", async () => {
    const reply = await api.call("GET", "/streaming/ai/tasks?limit=100");
    expect(reply.status, reply.text).toBe(200);
    const { count: total, results } = reply.body as { count: number; results: AiTask[] };
    expect(total).toBe(results.length);
    expect(results.map((task) => task.task_id)).not.toContain(theirTask.id);
    const created = results.map((task) => task.task_id);
    for (const task of ownTasks) expect(created).toContain(task.id);
    const revoked = (await api.call("GET", "/streaming/ai/tasks?status=REVOKED&limit=100")).body as { results: AiTask[] };
    expect(revoked.results.every((task) => task.status === "REVOKED")).toBe(true);
    const demoRevoked = ownTasks.find((task) => task.cancelledAt !== null)!;
    expect(revoked.results.map((task) => task.task_id)).toContain(demoRevoked.id);
    const day = ownTasks[0]!.createdAt.slice(0, 10);
    const onDay = (await api.call("GET", `/streaming/ai/tasks?date_created=${day}`)).body as { results: AiTask[] };
    expect(onDay.results.map((task) => task.task_id)).toEqual(ownTasks.filter((task) => task.createdAt.startsWith(day)).map((task) => task.id));
    const page = (await api.call("GET", "/streaming/ai/tasks?limit=1&page=2&ordering=task_id")).body as { count: number; results: AiTask[] };
    expect(page.results).toHaveLength(1);
    expect(page.results[0]!.task_id).toBe([...created].sort()[1]);
    expectEnvelope(await api.call("GET", "/streaming/ai/tasks?ordering=url"), 400, "validation_error", ["query.ordering"]);
  });

  it("another account's task is 404", async () => {
    expectEnvelope(await api.call("GET", `/streaming/ai/tasks/${theirTask.id}`), 404, "not_found");
    expectEnvelope(await api.call("POST", `/streaming/ai/tasks/${theirTask.id}/cancel`), 404, "not_found");
    expectEnvelope(await api.call("GET", "/streaming/ai/tasks/not-a-uuid"), 400, "validation_error", ["path.task_id"]);
  });

  it("language support", async () => {
    expect((await api.call("GET", "/streaming/ai/info?type=language_support&audio_language=eng&subtitles_language=deu")).body).toEqual({ supported: true });
    expect((await api.call("GET", "/streaming/ai/info?type=language_support&audio_language=eng&subtitles_language=xho")).body).toEqual({ supported: false });
    expectEnvelope(await api.call("GET", "/streaming/ai/info"), 400, "validation_error", ["query.type"]);
  });
});
