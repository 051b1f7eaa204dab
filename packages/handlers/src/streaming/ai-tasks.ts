/**
 * Streaming AI tasks: speech recognition and content moderation run as tasks. A task's status, progress
 * and times follow from when it was made and whether it was cancelled, read against the database's
 * clock (`taskColumns`); its result, once it has one, is derived from its file's URL (this API fetches
 * no file), the same for the same URL.
 */
import {
  AI_LANGUAGES,
  AI_TASK_ENDS_AFTER_S,
  AI_TASK_STARTS_AFTER_S,
  streamingAiTasksRoutes,
  type AiTask,
  type AiTaskDetails,
  type AiTaskStatus,
} from "@cloudplane/contract";
import { and, asc, count, desc, eq, ilike, schema, sql, type SQL } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { addFieldError, fieldErrors, notFound, problemCount, validationFailed } from "../errors.js";
import { isoTime } from "../format.js";
import { likePattern } from "../like.js";
import { served } from "../served.js";
import type { RequestExtension, RouteDeps } from "../types.js";

const { aiTasks } = schema;

type TaskRow = typeof aiTasks.$inferSelect;

const STARTS = sql.raw(String(AI_TASK_STARTS_AFTER_S));
const ENDS = sql.raw(String(AI_TASK_ENDS_AFTER_S));
/** A task's status, by the database's clock: the one definition the reads and the status filter share. */
const taskStatus = sql<AiTaskStatus>`case
  when ${aiTasks.cancelledAt} is not null and ${aiTasks.cancelledAt} < ${aiTasks.createdAt} + make_interval(secs => ${ENDS}) then 'REVOKED'
  when now() < ${aiTasks.createdAt} + make_interval(secs => ${STARTS}) then 'PENDING'
  when now() < ${aiTasks.createdAt} + make_interval(secs => ${ENDS}) then 'STARTED'
  else 'SUCCESS' end`;
/** Seconds since the task was made, by the same clock. */
const taskAge = sql<number>`extract(epoch from now() - ${aiTasks.createdAt})::float8`.mapWith(Number);
const taskColumns = { row: aiTasks, status: taskStatus, age: taskAge };
type TaskRead = { row: TaskRow; status: AiTaskStatus; age: number };

const plus = (date: Date, seconds: number) => new Date(date.getTime() + seconds * 1000);

function toTask({ row, status, age }: TaskRead): AiTask {
  const started = status !== "PENDING" && !(status === "REVOKED" && row.cancelledAt! < plus(row.createdAt, AI_TASK_STARTS_AFTER_S));
  const startedAt = started ? plus(row.createdAt, AI_TASK_STARTS_AFTER_S) : null;
  const completedAt = status === "SUCCESS" ? plus(row.createdAt, AI_TASK_ENDS_AFTER_S) : status === "REVOKED" ? row.cancelledAt : null;
  // Progress runs from the start to the end; a cancelled task keeps what it had done.
  const at = status === "REVOKED" ? (row.cancelledAt!.getTime() - row.createdAt.getTime()) / 1000 : age;
  const progress = status === "SUCCESS" ? 100 : Math.max(0, Math.min(99, Math.floor(((at - AI_TASK_STARTS_AFTER_S) / (AI_TASK_ENDS_AFTER_S - AI_TASK_STARTS_AFTER_S)) * 100)));
  return {
    task_id: row.id,
    status,
    progress,
    processing_time: {
      started_at: startedAt ? isoTime(startedAt) : null,
      completed_at: completedAt ? isoTime(completedAt) : null,
      total_time_sec: startedAt && completedAt ? Math.max(0, (completedAt.getTime() - startedAt.getTime()) / 1000) : null,
    },
    task_data: {
      task_name: row.taskName as AiTask["task_data"]["task_name"],
      url: row.url,
      category: row.category as AiTask["task_data"]["category"],
      stop_objects: row.stopObjects,
      audio_language: row.audioLanguage,
      subtitles_language: row.subtitlesLanguage,
      client_entity_data: row.clientEntityData,
      client_user_id: row.clientUserId,
      client_id: row.accountId,
    },
  };
}

/** FNV-1a of the URL: what the stand-in results are derived from. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (const char of text) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0;
  return hash;
}

const SPORTS = ["football", "basketball dunk", "playing tennis", "cricket", "ice skating", "rowing"];
const time = (seconds: number) => `00:${String(Math.floor(seconds / 60)).padStart(2, "0")}:${String(seconds % 60).padStart(2, "0")}.000`;

/** A succeeded task's result, derived from its file's URL. */
function resultOf(row: TaskRow): NonNullable<AiTaskDetails["result"]> {
  const hash = hashOf(row.url);
  if (row.taskName === "transcription") {
    const file = decodeURIComponent(new URL(row.url).pathname.split("/").pop() || "the file");
    const language = row.subtitlesLanguage ?? row.audioLanguage ?? AI_LANGUAGES[hash % AI_LANGUAGES.length]!;
    const lines = Array.from({ length: 2 + (hash % 3) }, (_, index) => ({
      start_time: time(index * 4 + 1),
      end_time: time(index * 4 + 4),
      text: `Transcript of ${file}, part ${index + 1}.`,
    }));
    return {
      speech_detected: true,
      languages: [language],
      concatenated_text: lines.map((line) => line.text).join(" "),
      subtitles: lines,
      vttContent: `WEBVTT\n\n${lines.map((line) => `${line.start_time} --> ${line.end_time}\n${line.text}\n`).join("\n")}`,
    };
  }
  const detected = hash % 4 === 0;
  const label = row.category === "sport" ? SPORTS[hash % SPORTS.length]! : row.category === "nsfw" ? "nsfw" : "FACE_FEMALE";
  const frames = detected ? [{ frame_number: 24 + (hash % 100), label, confidence: 0.5 + (hash % 50) / 100 }] : [];
  const detection_results = detected ? [label] : [];
  if (row.category === "sport") return { sport_detected: detected, detection_results, frames };
  if (row.category === "nsfw") return { nsfw_detected: detected, detection_results, frames };
  return { nudity_detected: detected, detection_results, frames };
}

const ORDER_COLUMNS = { task_id: aiTasks.id, status: taskStatus, task_name: aiTasks.taskName, started_at: aiTasks.createdAt } as const;

export function streamingAiTasks({ db }: RouteDeps) {
  async function taskOf(accountId: number, id: string): Promise<TaskRead> {
    const [read] = await db
      .select(taskColumns)
      .from(aiTasks)
      .where(and(eq(aiTasks.accountId, accountId), eq(aiTasks.id, id)));
    if (!read) throw notFound(`AI task ${id}`);
    return read;
  }

  return tsr.routerWithMiddleware(served("streaming", streamingAiTasksRoutes))<RequestExtension>({
    listAiTasks: async ({ query }, { request: { caller } }) => {
      const filters: SQL[] = [eq(aiTasks.accountId, caller.accountId)];
      if (query.status !== undefined) filters.push(sql`(${taskStatus}) = ${query.status}`);
      if (query.task_name !== undefined) filters.push(eq(aiTasks.taskName, query.task_name));
      if (query.task_id !== undefined) filters.push(eq(aiTasks.id, query.task_id));
      if (query.search !== undefined) filters.push(ilike(aiTasks.url, likePattern(query.search)));
      if (query.date_created !== undefined) filters.push(sql`(${aiTasks.createdAt} at time zone 'UTC')::date = ${query.date_created}::date`);
      const where = and(...filters);
      const ordering = query.ordering ?? "-started_at";
      const column = ORDER_COLUMNS[ordering.replace(/^-/, "") as keyof typeof ORDER_COLUMNS];
      const direction = ordering.startsWith("-") ? desc : asc;
      const [reads, [total]] = await Promise.all([
        db
          .select(taskColumns)
          .from(aiTasks)
          .where(where)
          .orderBy(direction(column), direction(aiTasks.id))
          .limit(query.limit)
          .offset((query.page - 1) * query.limit),
        db.select({ total: count() }).from(aiTasks).where(where),
      ]);
      return { status: 200, body: { count: total?.total ?? 0, results: reads.map(toTask) } };
    },

    getAiTask: async ({ params }, { request: { caller } }) => {
      const read = await taskOf(caller.accountId, params.task_id);
      return { status: 200, body: { ...toTask(read), result: read.status === "SUCCESS" ? resultOf(read.row) : null } };
    },

    createAiTask: async ({ body }, { request: { caller } }) => {
      const errors = fieldErrors();
      const moderation = body.task_name === "content-moderation";
      if (moderation && body.category === undefined) addFieldError(errors, "category", "Required for content-moderation.");
      for (const field of ["audio_language", "subtitles_language"] as const)
        if (moderation && body[field] !== undefined) addFieldError(errors, field, "Only a transcription takes it.");
      if (!moderation && body.category !== undefined) addFieldError(errors, "category", "Only content-moderation takes it.");
      if (body.stop_objects !== undefined && body.category !== "hard_nudity" && body.category !== "soft_nudity")
        addFieldError(errors, "stop_objects", "Only the hard_nudity and soft_nudity categories take it.");
      if (problemCount(errors) > 0) throw validationFailed(errors);
      const [row] = await db
        .insert(aiTasks)
        .values({
          id: crypto.randomUUID(),
          accountId: caller.accountId,
          taskName: body.task_name,
          url: body.url,
          category: body.category ?? null,
          stopObjects: body.stop_objects ?? null,
          audioLanguage: body.audio_language ?? null,
          subtitlesLanguage: body.subtitles_language ?? null,
          clientEntityData: body.client_entity_data ?? null,
          clientUserId: body.client_user_id ?? null,
        })
        .returning({ id: aiTasks.id });
      return { status: 201, body: { task_id: row!.id } };
    },

    cancelAiTask: async ({ params }, { request: { caller } }) => {
      // Only a task still running is stopped; the update's condition and the read after it are one statement each, by one clock.
      await db
        .update(aiTasks)
        .set({ cancelledAt: sql`now()` })
        .where(
          and(
            eq(aiTasks.accountId, caller.accountId),
            eq(aiTasks.id, params.task_id),
            sql`${aiTasks.cancelledAt} is null`,
            sql`now() < ${aiTasks.createdAt} + make_interval(secs => ${ENDS})`,
          ),
        );
      const read = await taskOf(caller.accountId, params.task_id);
      return { status: 200, body: { result: read.status } };
    },

    getAiSettings: ({ query }) => {
      const supported = [query.audio_language, query.subtitles_language].every(
        (code) => code === undefined || (AI_LANGUAGES as readonly string[]).includes(code),
      );
      return Promise.resolve({ status: 200 as const, body: { supported } });
    },
  });
}
