/**
 * Streaming directories: the folders an account files its videos in, as a tree (creation, the whole tree,
 * one directory with its items, changes and moves, deletion).
 */
import { initContract } from "@ts-rest/core";
import { z } from "zod";
import { errorResponses, idParam, integer, isoTimestamp, strictObject, withBody } from "../common.js";
import { read, write } from "../roles.js";
import { route } from "../route.js";
import { missingId, uniqueName, type CaseWorld } from "../route-case.js";
import { video, videoExample } from "./videos.js";

const c = initContract();

/** How deep directories may nest: a directory at the root is at depth 1. */
export const DIRECTORY_DEPTH_MAX = 5;

const directoryBaseShape = {
  id: integer(),
  name: z.string(),
  parent_id: integer().nullable().describe("The directory it sits in; null at the root."),
  items_count: integer().describe("How many videos and directories it holds directly."),
  created_at: isoTimestamp,
  updated_at: isoTimestamp,
};

const directorySchema = z.object(directoryBaseShape).strict().describe("A directory of videos.");
export interface DirectorySchema extends DirectorySchemaType {}
type DirectorySchemaType = typeof directorySchema;
export const directory: DirectorySchema = directorySchema;
export type Directory = z.infer<typeof directory>;

export interface DirectoryNode extends Directory {
  descendants: DirectoryNode[];
}
/** A directory with the directories it holds, as `descendants` describes them. */
const nodeWith = <D extends z.ZodTypeAny>(descendants: D) =>
  z.object({ ...directoryBaseShape, descendants }).strict().describe("A directory with the directories it holds.");
/**
 * The tree written out level by level, to the deepest a directory may sit (DIRECTORY_DEPTH_MAX, 5): the contract's
 * schemas are not recursive, so that every tool derived from them can read them.
 */
const deepest = nodeWith(z.array(z.object({}).strict()).max(0, "Empty: directories nest no deeper.").describe("None: directories nest no deeper."));
const level4 = nodeWith(z.array(deepest).describe("The directories it holds, by name."));
const level3 = nodeWith(z.array(level4).describe("The directories it holds, by name."));
const level2 = nodeWith(z.array(level3).describe("The directories it holds, by name."));
const directoryNode = nodeWith(z.array(level2).describe("The directories it holds, by name."));

const directoryTreeSchema = z.object({ tree: z.array(directoryNode).describe("The directories at the root, by name, each with its descendants.") }).strict().describe("Every directory of the account, as a tree.");
export interface DirectoryTreeSchema extends DirectoryTreeSchemaType {}
type DirectoryTreeSchemaType = typeof directoryTreeSchema;
export const directoryTree: DirectoryTreeSchema = directoryTreeSchema;
export type DirectoryTree = z.infer<typeof directoryTree>;

const directoryItem = z.union([
  z.object({ ...directoryBaseShape, item_type: z.literal("Directory").describe("What the item is: a directory.") }).strict().describe("A directory it holds."),
  video.extend({ item_type: z.literal("Video").describe("What the item is: a video.") }).describe("A video it holds: the video's fields and `item_type`."),
]);

const directoryDetailsSchema = z
  .object({
    directory: z
      .object({ ...directoryBaseShape, items: z.array(directoryItem).describe("What it holds: its directories by name, then its videos, newest first.") })
      .strict()
      .describe("The directory and what it holds directly."),
  })
  .strict()
  .describe("A directory with what it holds, wrapped in `directory` as the platform answers.");
export interface DirectoryDetailsSchema extends DirectoryDetailsSchemaType {}
type DirectoryDetailsSchemaType = typeof directoryDetailsSchema;
export const directoryDetails: DirectoryDetailsSchema = directoryDetailsSchema;
export type DirectoryDetails = z.infer<typeof directoryDetails>;

const directoryName = z.string().min(1, "Must not be empty.").max(255, "At most 255 characters.").describe("The directory's name, 1 to 255 characters.");
const parentId = integer({ min: 1 })
  .nullable()
  .describe(`A directory of the account to put it in (400 otherwise); null or left out for the root. At most ${DIRECTORY_DEPTH_MAX} levels deep.`);
const READ_ONLY = ["id", "items_count", "created_at", "updated_at", "items", "descendants"];

const createDirectoryBodySchema = strictObject({ name: directoryName, parent_id: parentId.optional() }, { readOnly: READ_ONLY }).describe("The new directory.");
export interface CreateDirectoryBodySchema extends CreateDirectoryBodySchemaType {}
type CreateDirectoryBodySchemaType = typeof createDirectoryBodySchema;
export const createDirectoryBody: CreateDirectoryBodySchema = createDirectoryBodySchema;

const updateDirectoryBodySchema = strictObject({ name: directoryName.optional(), parent_id: parentId.optional() }, { readOnly: READ_ONLY }).describe(
  "The fields to change; fields left out keep their values. A new `parent_id` moves the directory with all it holds.",
);
export interface UpdateDirectoryBodySchema extends UpdateDirectoryBodySchemaType {}
type UpdateDirectoryBodySchemaType = typeof updateDirectoryBodySchema;
export const updateDirectoryBody: UpdateDirectoryBodySchema = updateDirectoryBodySchema;

const directoryIdParams = z.object({ directory_id: idParam("The directory id.") });

// The examples' objects: the demo data's, of account 1.
const marketing: Directory = { id: 1, name: "Marketing", parent_id: null, items_count: 4, created_at: "2026-09-01T08:00:00.000Z", updated_at: "2026-09-01T08:00:00.000Z" };
const events: Directory = { id: 3, name: "Events", parent_id: 1, items_count: 0, created_at: "2026-09-01T08:05:00.000Z", updated_at: "2026-09-01T08:05:00.000Z" };

// The cases' objects: the account's first directory at the root.
const directoryOf = (w: CaseWorld) => (w.get("streaming.getDirectoryTree") as DirectoryTree).tree[0] ?? missingDirectory(w);
function missingDirectory(w: CaseWorld): never {
  throw new Error(`The route cases need a directory of account ${w.account}; the tree has none.`);
}

export const streamingDirectoriesRoutes = {
  getDirectoryTree: route({
    method: "GET",
    path: "/streaming/directories/tree",
    responses: { 200: directoryTree, ...errorResponses() },
    summary: "Get the directory tree",
    description: "Every directory of the account, as a tree: the root's directories by name, each with the directories it holds (`descendants`), by name.",
    metadata: read,
  }, {
    example: { response: { tree: [{ ...marketing, descendants: [{ ...events, descendants: [] }] }] } },
    case: { path: () => "/streaming/directories/tree", ownsObjects: false },
  }),
  getDirectory: route({
    method: "GET",
    path: "/streaming/directories/:directory_id",
    pathParams: directoryIdParams,
    responses: { 200: directoryDetails, ...errorResponses() },
    summary: "Get a directory",
    description: "One directory with what it holds directly: its directories (`item_type` `Directory`) by name, then its videos (`item_type` `Video`), newest first.",
    metadata: read,
  }, {
    example: {
      pathParams: { directory_id: marketing.id },
      response: { directory: { ...marketing, items: [{ ...events, item_type: "Directory" }, { ...videoExample, item_type: "Video" }] } },
    },
    case: { path: (w) => `/streaming/directories/${directoryOf(w).id}`, ownsObjects: true },
  }),
  createDirectory: route({
    method: "POST",
    path: "/streaming/directories",
    body: createDirectoryBody,
    responses: { 201: directory, ...errorResponses(withBody) },
    summary: "Create a directory",
    description: `A new directory, at the root or in another of the account's directories (at most ${DIRECTORY_DEPTH_MAX} levels deep). Names need not be unique.`,
    metadata: write,
  }, {
    example: {
      body: { name: "Webinars" },
      response: { id: 7, name: "Webinars", parent_id: null, items_count: 0, created_at: "2026-11-23T19:30:00.000Z", updated_at: "2026-11-23T19:30:00.000Z" },
    },
    case: { path: () => "/streaming/directories", ownsObjects: false, body: () => ({ name: uniqueName("route-case-directory") }) },
  }),
  updateDirectory: route({
    method: "PATCH",
    path: "/streaming/directories/:directory_id",
    pathParams: directoryIdParams,
    body: updateDirectoryBody,
    responses: { 200: directory, ...errorResponses(withBody) },
    summary: "Change or move a directory",
    description:
      "Renames the directory, or moves it (`parent_id`) with all it holds; a directory cannot move into itself or into a directory it holds " +
      `(400 \`errors.parent_id\`), nor deeper than ${DIRECTORY_DEPTH_MAX} levels.`,
    metadata: write,
  }, {
    example: {
      pathParams: { directory_id: events.id },
      body: { name: "Events and launches" },
      response: { ...events, name: "Events and launches", updated_at: "2026-11-23T19:30:00.000Z" },
    },
    case: { path: (w) => `/streaming/directories/${directoryOf(w).id}`, ownsObjects: true, body: () => ({ name: uniqueName("route-case-directory") }) },
  }),
  deleteDirectory: route({
    method: "DELETE",
    path: "/streaming/directories/:directory_id",
    pathParams: directoryIdParams,
    responses: { 204: c.noBody(), ...errorResponses([409]) },
    summary: "Delete a directory",
    description: "Deletes an empty directory. One that holds videos or directories answers 409 naming them: move or delete them first. Answers 204 with no body.",
    metadata: write,
  }, {
    example: { pathParams: { directory_id: 5 } },
    case: {
      path: (w, made) => `/streaming/directories/${made?.id ?? missingId(w.account)}`,
      ownsObjects: true,
      makes: "streaming.createDirectory",
    },
  }),
};
