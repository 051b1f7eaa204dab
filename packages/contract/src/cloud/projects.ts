/**
 * Cloud projects: the account's projects (v1), which the GPU images, secrets and tasks belong to; their
 * schemas and their routes (list, get, create, change and delete, the delete answered by its task).
 */
import { z } from "zod";
import { booleanQuery, errorResponses, idParam, integer, isoTimestamp, pageOf, paging, stringEnum, strictObject, withBody } from "../common.js";
import { route } from "../route.js";
import { missingId, uniqueName, type CaseWorld } from "../route-case.js";
import { taskIdList } from "./gpu-images.js";
import { read, write } from "./shared.js";

export const CLOUD_PROJECT_ORDERS = ["created_at.asc", "created_at.desc", "name.asc", "name.desc"] as const;

const cloudProjectSchema = z
  .object({
    id: integer(),
    client_id: integer().describe("The account id."),
    name: z.string().describe("The project's name, unique in the account."),
    description: z.string().nullable().describe("What the project is for; empty when none was given."),
    is_default: z.boolean().describe("Whether it is the account's default project: its oldest one (the lowest id). An account has exactly one."),
    state: z.string().describe('The project\'s state: "ACTIVE" for every project served here.'),
    created_at: isoTimestamp,
    deleted_at: isoTimestamp.nullable().describe("When the project was deleted: always null, as deleted projects are not kept here."),
    task_id: z.string().nullable().describe("The task changing the project's state: always null, as a project changes in the request that changes it."),
  })
  .strict()
  .describe("A cloud project of the account: the GPU images and tasks of the Cloud area belong to one.");
export interface CloudProjectSchema extends CloudProjectSchemaType {}
type CloudProjectSchemaType = typeof cloudProjectSchema;
export const cloudProject: CloudProjectSchema = cloudProjectSchema;

export type CloudProject = z.infer<typeof cloudProject>;

const listCloudProjectsQuerySchema = z.object({
  ...paging("projects", 1000, 1000),
  name: z.string().max(255).optional().describe("Only the project of this name (exact, case-sensitive)."),
  order_by: stringEnum(CLOUD_PROJECT_ORDERS)
    .default("created_at.asc")
    .describe("`created_at` or `name`, `.asc` or `.desc`. Default created_at.asc; ties are broken by id."),
  include_deleted: booleanQuery("Taken as the platform takes it; deleted projects are not kept here, so it changes nothing.").optional(),
});
export interface ListCloudProjectsQuerySchema extends ListCloudProjectsQuerySchemaType {}
type ListCloudProjectsQuerySchemaType = typeof listCloudProjectsQuerySchema;
export const listCloudProjectsQuery: ListCloudProjectsQuerySchema = listCloudProjectsQuerySchema;

export type ListCloudProjectsQuery = z.input<typeof listCloudProjectsQuery>;

const cloudProjectListSchema = pageOf(cloudProject, "projects");
export interface CloudProjectListSchema extends CloudProjectListSchemaType {}
type CloudProjectListSchemaType = typeof cloudProjectListSchema;
export const cloudProjectList: CloudProjectListSchema = cloudProjectListSchema;

export type CloudProjectList = z.infer<typeof cloudProjectList>;

/** The most projects an account holds. */
export const MAX_CLOUD_PROJECTS = 1000;

const projectName = z
  .string()
  .min(1, "Must not be empty.")
  .max(255, "At most 255 characters.")
  .regex(/^\S(.*\S)?$/, "Must not start or end with a space.")
  .describe("The project's name, 1 to 255 characters, unique in the account.");
const projectDescription = z.string().max(1024, "At most 1024 characters.").describe("What the project is for, at most 1024 characters.");

const createCloudProjectBodySchema = strictObject(
  {
    name: projectName,
    description: projectDescription.nullable().optional().describe("What the project is for, at most 1024 characters; null or left out: empty."),
  },
  { readOnly: ["id", "client_id", "is_default", "state", "created_at", "deleted_at", "task_id"] },
).describe("The new project's name and description.");
export interface CreateCloudProjectBodySchema extends CreateCloudProjectBodySchemaType {}
type CreateCloudProjectBodySchemaType = typeof createCloudProjectBodySchema;
export const createCloudProjectBody: CreateCloudProjectBodySchema = createCloudProjectBodySchema;
export type CreateCloudProjectBody = z.input<typeof createCloudProjectBody>;

const updateCloudProjectBodySchema = strictObject(
  { name: projectName.optional(), description: projectDescription.optional() },
  { readOnly: ["id", "client_id", "is_default", "state", "created_at", "deleted_at", "task_id"] },
).describe("The fields to change; those left out keep their values.");
export interface UpdateCloudProjectBodySchema extends UpdateCloudProjectBodySchemaType {}
type UpdateCloudProjectBodySchemaType = typeof updateCloudProjectBodySchema;
export const updateCloudProjectBody: UpdateCloudProjectBodySchema = updateCloudProjectBodySchema;
export type UpdateCloudProjectBody = z.input<typeof updateCloudProjectBody>;

const projectPathParams = z.object({ project_id: idParam("The project id.") });

// The examples' objects: the demo data's, of account 1.
const demoProject: CloudProject = { id: 1, client_id: 1, name: "production", description: "Customer-facing workloads.", is_default: true, state: "ACTIVE", created_at: "2026-01-13T09:00:00.000Z", deleted_at: null, task_id: null };
const demoResearchProject: CloudProject = { id: 3, client_id: 1, name: "research", description: "Model training experiments.", is_default: false, state: "ACTIVE", created_at: "2026-01-14T09:00:00.000Z", deleted_at: null, task_id: null };

/** The cases' project: the account's default one, which no case deletes. */
const projectOf = (w: CaseWorld) => w.first("cloud.listProjects", { where: (project) => project.is_default === true });

export const cloudProjectsRoutes = {
  listProjects: route({
    method: "GET",
    path: "/cloud/v1/projects",
    query: listCloudProjectsQuery,
    responses: { 200: cloudProjectList, ...errorResponses() },
    summary: "List cloud projects",
    description:
      "The account's projects that match `name` (exact), ordered by `order_by` (default created_at.asc, ties by id) and " +
      "paged by `limit` (default and maximum 1000) and `offset`; `count` is the number of all matches. The oldest " +
      "project is the account's default one (`is_default`).",
    metadata: read,
  }, {
    example: {
      query: { limit: 100, offset: 0, order_by: "created_at.asc" },
      response: {
        count: 2,
        results: [demoProject, demoResearchProject],
      },
    },
    case: { path: () => "/cloud/v1/projects?order_by=name.asc", ownsObjects: false },
  }),
  getProject: route({
    method: "GET",
    path: "/cloud/v1/projects/:project_id",
    pathParams: projectPathParams,
    responses: { 200: cloudProject, ...errorResponses() },
    summary: "Get a cloud project",
    description: "One project of the account. Another account's project answers 404, as one that does not exist.",
    metadata: read,
  }, {
    example: { pathParams: { project_id: 1 }, response: demoProject },
    case: { path: (w) => `/cloud/v1/projects/${projectOf(w).id}`, ownsObjects: true },
  }),
  createProject: route({
    method: "POST",
    path: "/cloud/v1/projects",
    body: createCloudProjectBody,
    responses: { 201: cloudProject, ...errorResponses([...withBody, 409]) },
    summary: "Create a cloud project",
    description:
      "Adds a project to the account, ACTIVE at once (no task). Its name must be unused in the account (409 otherwise). " +
      `An account holds at most ${MAX_CLOUD_PROJECTS} projects (409 beyond). The new project is never the default one: ` +
      "the default is the account's oldest.",
    metadata: write,
  }, {
    example: {
      body: { name: "staging", description: "Pre-release checks." },
      response: { id: 5, client_id: 1, name: "staging", description: "Pre-release checks.", is_default: false, state: "ACTIVE", created_at: "2026-11-20T10:00:00.000Z", deleted_at: null, task_id: null },
    },
    case: { path: () => "/cloud/v1/projects", ownsObjects: false, body: () => ({ name: uniqueName("route-case-project"), description: "Made by the route cases." }) },
  }),
  updateProject: route({
    method: "PATCH",
    path: "/cloud/v1/projects/:project_id",
    pathParams: projectPathParams,
    body: updateCloudProjectBody,
    responses: { 200: cloudProject, ...errorResponses([...withBody, 409]) },
    summary: "Change a cloud project",
    description:
      "Changes the fields given (name, description) and leaves the others. A name another project of the account has " +
      "answers 409. An empty body changes nothing and answers the project.",
    metadata: write,
  }, {
    example: {
      pathParams: { project_id: 3 },
      body: { description: "Model training and evaluation." },
      response: { ...demoResearchProject, description: "Model training and evaluation." },
    },
    case: { path: (w) => `/cloud/v1/projects/${projectOf(w).id}`, ownsObjects: true, body: (w) => ({ description: projectOf(w).description as string }) },
  }),
  deleteProject: route({
    method: "DELETE",
    path: "/cloud/v1/projects/:project_id",
    pathParams: projectPathParams,
    responses: { 200: taskIdList, ...errorResponses([409]) },
    summary: "Delete a cloud project",
    description:
      "Deletes a project with everything in it, in every region (its GPU images and secrets go with it, as on the " +
      "platform), and answers the id of its task (task_type delete_project). The project is gone when the answer " +
      "arrives; the task reports RUNNING for its first seconds, then FINISHED (see GET /cloud/v1/tasks/{task_id}). The " +
      "account's default project cannot be deleted (409).",
    metadata: write,
  }, {
    example: {
      // The project the create example made.
      pathParams: { project_id: 5 },
      response: { tasks: ["6f1c2a9e-3b4d-4e5f-8a7b-9c0d1e2f3a4b"] },
    },
    case: {
      path: (w, made) => `/cloud/v1/projects/${made?.id ?? missingId(w.account)}`,
      ownsObjects: true,
      makes: "cloud.createProject",
    },
  }),
} as const;
