/**
 * Streaming AI tasks: speech recognition (subtitles) and content moderation of a video file, run by the
 * platform as tasks whose status moves on with time; their listing, one task with its result, cancelling,
 * and which languages are supported.
 */
import { z } from "zod";
import type { ClientMetadata } from "../client-names.js";
import { emptyInput, errorResponses, integer, integerParam, isoTimestamp, pageOf, strictObject, stringEnum, uuid, withBody } from "../common.js";
import { read, write } from "../roles.js";
import { route } from "../route.js";
import type { CaseWorld } from "../route-case.js";
import { LANGUAGE_CODE } from "./videos.js";

export const AI_TASK_NAMES = ["transcription", "content-moderation"] as const;
export const AI_MODERATION_CATEGORIES = ["nsfw", "hard_nudity", "soft_nudity", "sport"] as const;
export const AI_TASK_STATUSES = ["PENDING", "STARTED", "SUCCESS", "FAILURE", "RECEIVED", "REVOKED", "RETRY"] as const;
export type AiTaskStatus = (typeof AI_TASK_STATUSES)[number];
/** Seconds after its creation that a task starts, and that it ends with its result. */
export const AI_TASK_STARTS_AFTER_S = 2;
export const AI_TASK_ENDS_AFTER_S = 20;
export const AI_TASKS_PAGE_SIZE = 10;
export const AI_TASKS_LIMIT_MAX = 100;
/** The languages speech recognition and translation support (ISO 639-2). */
export const AI_LANGUAGES = ["eng", "deu", "fra", "spa", "ita", "por", "nld", "pol", "rus", "ukr", "tur", "ara", "hin", "jpn", "kor", "zho"] as const;
/** What the nudity categories can find. */
export const HARD_NUDITY_OBJECTS = ["ANUS_EXPOSED", "BUTTOCKS_EXPOSED", "FEMALE_BREAST_EXPOSED", "FEMALE_GENITALIA_EXPOSED", "MALE_BREAST_EXPOSED", "MALE_GENITALIA_EXPOSED"] as const;
export const SOFT_NUDITY_OBJECTS = [
  "ANUS_COVERED",
  "ANUS_EXPOSED",
  "ARMPITS_COVERED",
  "ARMPITS_EXPOSED",
  "BELLY_COVERED",
  "BELLY_EXPOSED",
  "BUTTOCKS_COVERED",
  "BUTTOCKS_EXPOSED",
  "FACE_FEMALE",
  "FACE_MALE",
  "FEET_COVERED",
  "FEET_EXPOSED",
  "FEMALE_BREAST_COVERED",
  "FEMALE_BREAST_EXPOSED",
  "FEMALE_GENITALIA_COVERED",
  "FEMALE_GENITALIA_EXPOSED",
  "MALE_BREAST_EXPOSED",
  "MALE_GENITALIA_EXPOSED",
] as const;

const LIFECYCLE =
  `A task is \`PENDING\` when made, \`STARTED\` ${AI_TASK_STARTS_AFTER_S} seconds later, and \`SUCCESS\` with its result ${AI_TASK_ENDS_AFTER_S} ` +
  "seconds after it was made (read from the time, on every read; `progress` grows meanwhile). A task cancelled before it ends is `REVOKED`.";

const mediaUrl = z
  .string()
  .max(2048, "At most 2048 characters.")
  .refine((value) => URL.canParse(value) && ["http:", "https:"].includes(new URL(value).protocol), "Must be an http or https URL.")
  .describe("The video or audio file, an http or https URL.");
const language = (what: string) => z.string().regex(LANGUAGE_CODE, "Must be a three-letter language code (ISO 639-2), such as eng.").describe(what);
const common = {
  url: mediaUrl,
  client_entity_data: z.string().max(4096, "At most 4096 characters.").describe("The client's own data about the task, kept as sent, at most 4096 characters."),
  client_user_id: z.string().max(255, "At most 255 characters.").describe("The client's own id of the user the task is for, kept as sent."),
};

const createAiTaskBodySchema = strictObject({
  task_name: stringEnum(AI_TASK_NAMES).describe("`transcription` (subtitles from speech) or `content-moderation`."),
  url: common.url,
  category: stringEnum(AI_MODERATION_CATEGORIES).optional().describe("For `content-moderation` (required there, 400 otherwise): what to look for."),
  stop_objects: z.string().max(1024, "At most 1024 characters.").optional().describe("For `hard_nudity` and `soft_nudity`: comma-separated objects that stop the check when found."),
  audio_language: language("For `transcription`: the audio's language; left out, it is detected.").optional(),
  subtitles_language: language("For `transcription`: the language of the subtitles, if not the audio's (translated).").optional(),
  client_entity_data: common.client_entity_data.optional(),
  client_user_id: common.client_user_id.optional(),
}).describe("The task: its name, the file, and the fields of its kind.");
export interface CreateAiTaskBodySchema extends CreateAiTaskBodySchemaType {}
type CreateAiTaskBodySchemaType = typeof createAiTaskBodySchema;
export const createAiTaskBody: CreateAiTaskBodySchema = createAiTaskBodySchema;
export type CreateAiTaskBody = z.input<typeof createAiTaskBody>;

const taskData = z
  .object({
    task_name: stringEnum(AI_TASK_NAMES).describe(`What the task does: ${AI_TASK_NAMES.join(", ")}.`),
    url: z.string().describe("The file the task reads."),
    category: stringEnum(AI_MODERATION_CATEGORIES).nullable().describe("For content moderation; null for transcription."),
    stop_objects: z.string().nullable().describe("For a content check: the object labels, comma-separated, that end the check at the first one found; null for all."),
    audio_language: z.string().nullable().describe("For a transcription: the language spoken (ISO 639-2), or null to detect it."),
    subtitles_language: z.string().nullable().describe("For a transcription: the language the subtitles are translated into, or null for the spoken one."),
    client_entity_data: z.string().nullable().describe("The caller's own text kept with the task, or null."),
    client_user_id: z.string().nullable().describe("The caller's own user id kept with the task, or null."),
    client_id: integer().describe("The account."),
  })
  .strict()
  .describe("The task as it was asked for; fields it was not given are null.");

const processingTime = z
  .object({
    started_at: isoTimestamp.nullable().describe("When it started; null while it is pending."),
    completed_at: isoTimestamp.nullable().describe("When it ended (or was cancelled); null while it runs."),
    total_time_sec: z.number().nullable().describe("Seconds from start to end; null while it runs."),
  })
  .strict();

const aiTaskSchema = z
  .object({
    task_id: uuid.describe("The task id."),
    status: stringEnum(AI_TASK_STATUSES).describe(LIFECYCLE),
    progress: integer({ min: 0, max: 100 }).describe("Percent done."),
    processing_time: processingTime.describe("When the task ran, and for how long."),
    task_data: taskData.describe("The task as it was asked for."),
  })
  .strict()
  .describe("An AI task.");
export interface AiTaskSchema extends AiTaskSchemaType {}
type AiTaskSchemaType = typeof aiTaskSchema;
export const aiTask: AiTaskSchema = aiTaskSchema;
export type AiTask = z.infer<typeof aiTask>;

const frame = z
  .object({
    frame_number: integer().describe("The frame's number in the video, from 0."),
    label: z.string().describe("What was found in the frame."),
    confidence: z.number().describe("How sure the check is, from 0 to 1."),
  })
  .strict();
const detections = {
  detection_results: z.array(z.string()).describe("The labels found in the video, each once."),
  frames: z.array(frame).describe("The frames something was found in."),
};
const aiResult = z
  .union([
    z
      .object({
        speech_detected: z.boolean().describe("Whether any speech was heard."),
        languages: z.array(z.string()).describe("The languages heard (ISO 639-2)."),
        concatenated_text: z.string().describe("Everything said, as one text."),
        subtitles: z
          .array(
            z
              .object({
                start_time: z.string().describe("When the line starts (HH:MM:SS.mmm)."),
                end_time: z.string().describe("When the line ends (HH:MM:SS.mmm)."),
                text: z.string().describe("What is said."),
              })
              .strict(),
          )
          .describe("The subtitles, a line each."),
        vttContent: z.string().describe("The subtitles as WebVTT text."),
      })
      .strict()
      .describe("A transcription's result."),
    z.object({ nsfw_detected: z.boolean().describe("Whether content not safe for work was found."), ...detections }).strict().describe("The `nsfw` check's result."),
    z.object({ nudity_detected: z.boolean().describe("Whether nudity was found."), ...detections }).strict().describe("A nudity check's result."),
    z.object({ sport_detected: z.boolean().describe("Whether sport was found."), ...detections }).strict().describe("The `sport` check's result."),
  ])
  .nullable()
  .describe("The result, once the task has succeeded; null before, or when it was cancelled.");

const aiTaskDetailsSchema = aiTaskSchema.extend({ result: aiResult }).describe("An AI task with its result.");
export interface AiTaskDetailsSchema extends AiTaskDetailsSchemaType {}
type AiTaskDetailsSchemaType = typeof aiTaskDetailsSchema;
export const aiTaskDetails: AiTaskDetailsSchema = aiTaskDetailsSchema;
export type AiTaskDetails = z.infer<typeof aiTaskDetails>;

/** What the listing may be ordered by: a field, with `-` before it for descending. */
const ORDERINGS = ["task_id", "-task_id", "status", "-status", "task_name", "-task_name", "started_at", "-started_at"] as const;
const taskIdParams = z.object({ task_id: uuid.describe("The task id.") });

export const aiTaskExample: AiTask = {
  task_id: "0d4c2b1a-9e8f-4a7b-8c6d-5e4f3a2b1c0d",
  status: "SUCCESS",
  progress: 100,
  processing_time: { started_at: "2026-11-02T09:10:02.000Z", completed_at: "2026-11-02T09:10:20.000Z", total_time_sec: 18 },
  task_data: {
    task_name: "transcription",
    url: "https://media.acme.example/keynote-2026.mp4",
    category: null,
    stop_objects: null,
    audio_language: "eng",
    subtitles_language: null,
    client_entity_data: null,
    client_user_id: null,
    client_id: 1,
  },
};

const taskOf = (w: CaseWorld) => w.first("streaming.listAiTasks");

export const streamingAiTasksRoutes = {
  listAiTasks: route({
    method: "GET",
    path: "/streaming/ai/tasks",
    query: z.object({
      page: integerParam({ min: 1, description: "The page, from 1. Default 1." }).default(1),
      limit: integerParam({ min: 1, max: AI_TASKS_LIMIT_MAX, description: `Tasks a page, 1 to ${AI_TASKS_LIMIT_MAX}. Default ${AI_TASKS_PAGE_SIZE}.` }).default(AI_TASKS_PAGE_SIZE),
      status: stringEnum(AI_TASK_STATUSES).optional().describe("Only tasks in this status, as it is at the time of the request."),
      task_name: stringEnum(AI_TASK_NAMES).optional().describe("Only tasks of this kind."),
      task_id: uuid.optional().describe("Only this task."),
      search: z.string().max(255, "At most 255 characters.").optional().describe("Only tasks whose file URL contains this text, in any case."),
      date_created: z
        .string()
        .regex(/^\d{4}-\d{2}-\d{2}$/, "Must be a date, YYYY-MM-DD.")
        .refine((value) => !Number.isNaN(Date.parse(value)) && new Date(value).toISOString().startsWith(value) && value >= "1970-01-01", "Must be a date, YYYY-MM-DD, from 1970.")
        .optional()
        .describe("Only tasks made on this day (UTC), YYYY-MM-DD."),
      ordering: stringEnum(ORDERINGS)
        .optional()
        .describe("The order: a field, with `-` before it for descending. Default: newest first."),
    }),
    responses: { 200: pageOf(aiTask, "tasks"), ...errorResponses() },
    summary: "List AI tasks",
    description: `The account's AI tasks that match the filters, a page at a time. ${LIFECYCLE}`,
    metadata: read,
  }, {
    example: { query: { page: 1, task_name: "transcription" }, response: { count: 1, results: [aiTaskExample] } },
    case: { path: () => "/streaming/ai/tasks", ownsObjects: false },
  }),
  getAiTask: route({
    method: "GET",
    path: "/streaming/ai/tasks/:task_id",
    pathParams: taskIdParams,
    responses: { 200: aiTaskDetails, ...errorResponses() },
    summary: "Get an AI task",
    description:
      `One AI task with its result. ${LIFECYCLE} This API fetches no file: the result is the platform's stand-in, derived from the file's URL, the ` +
      "same for the same URL.",
    metadata: read,
  }, {
    example: {
      pathParams: { task_id: aiTaskExample.task_id },
      response: {
        ...aiTaskExample,
        result: {
          speech_detected: true,
          languages: ["eng"],
          concatenated_text: "Transcript of keynote-2026.mp4, part 1. Transcript of keynote-2026.mp4, part 2.",
          subtitles: [
            { start_time: "00:00:01.000", end_time: "00:00:04.000", text: "Transcript of keynote-2026.mp4, part 1." },
            { start_time: "00:00:05.000", end_time: "00:00:08.000", text: "Transcript of keynote-2026.mp4, part 2." },
          ],
          vttContent:
            "WEBVTT\n\n00:00:01.000 --> 00:00:04.000\nTranscript of keynote-2026.mp4, part 1.\n\n00:00:05.000 --> 00:00:08.000\nTranscript of keynote-2026.mp4, part 2.\n",
        },
      },
    },
    case: { path: (w) => `/streaming/ai/tasks/${taskOf(w).task_id as string}`, ownsObjects: true },
  }),
  createAiTask: route({
    method: "POST",
    path: "/streaming/ai/tasks",
    body: createAiTaskBody,
    responses: { 201: z.object({ task_id: uuid }).strict().describe("The new task's id."), ...errorResponses(withBody) },
    summary: "Create an AI task",
    description:
      `Starts speech recognition (\`transcription\`) or content moderation (\`content-moderation\` with its \`category\`) of a file. ${LIFECYCLE} ` +
      "Only the fields of the task's kind are taken (400 for others).",
    metadata: write,
  }, {
    example: {
      body: { task_name: "transcription", url: "https://media.acme.example/keynote-2026.mp4", audio_language: "eng" },
      // The demo data's first task's id: the other examples name it, and on a new account it stands for the task made here.
      response: { task_id: aiTaskExample.task_id },
    },
    case: { path: () => "/streaming/ai/tasks", ownsObjects: false, body: () => ({ task_name: "content-moderation", category: "sport", url: "https://media.example/route-case.mp4" }) },
  }),
  cancelAiTask: route({
    method: "POST",
    path: "/streaming/ai/tasks/:task_id/cancel",
    pathParams: taskIdParams,
    body: emptyInput(),
    responses: { 200: z.object({ result: stringEnum(AI_TASK_STATUSES).describe("The task's status after the call.") }).strict().describe("What became of the task."), ...errorResponses(withBody) },
    summary: "Cancel an AI task",
    description:
      "Stops a task that is `PENDING` or `STARTED`: it becomes `REVOKED`, keeps no result, and `result` says `REVOKED`. A task that has already " +
      "ended (or was cancelled) is left as it is, and `result` is its status, `SUCCESS` or `REVOKED`: cancelling twice is harmless.",
    metadata: { ...write, client: { resource: "ai.tasks", method: "cancel" } } satisfies ClientMetadata,
  }, {
    example: { pathParams: { task_id: aiTaskExample.task_id }, body: {}, response: { result: "SUCCESS" } },
    case: {
      // The create answers the new task's `task_id`; without one, an id no task has, for each account another.
      path: (w, made) => `/streaming/ai/tasks/${(made?.task_id as string | undefined) ?? made?.id ?? `00000000-0000-4000-8000-00000000000${w.account}`}/cancel`,
      ownsObjects: true,
      makes: "streaming.createAiTask",
    },
  }),
  getAiSettings: route({
    method: "GET",
    path: "/streaming/ai/info",
    query: z.object({
      type: z.enum(["language_support"], { errorMap: () => ({ message: "Must be language_support." }) }).describe("What to ask: `language_support`."),
      audio_language: language("An audio language to check.").optional(),
      subtitles_language: language("A subtitles language to check.").optional(),
    }),
    responses: { 200: z.object({ supported: z.boolean() }).strict().describe("Whether every language asked about is supported."), ...errorResponses() },
    summary: "Check AI language support",
    description: `Whether speech recognition supports the audio language and translation the subtitles language given. Supported: ${AI_LANGUAGES.join(", ")}.`,
    metadata: { ...read, client: { resource: "ai.tasks", method: "getAiSettings" } } satisfies ClientMetadata,
  }, {
    example: { query: { type: "language_support", audio_language: "eng", subtitles_language: "deu" }, response: { supported: true } },
    case: { path: () => "/streaming/ai/info?type=language_support&audio_language=eng", ownsObjects: false },
  }),
};
