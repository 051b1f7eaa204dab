/**
 * Cloud projects: the account's projects (v1), which the GPU images and tasks belong to; their schemas and
 * their route.
 */
import { z } from "zod";
import { booleanQuery, errorResponses, integer, isoTimestamp, pageOf, paging, stringEnum } from "../common.js";
import { route } from "../route.js";
import { read } from "./shared.js";

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
    task_id: z.string().nullable().describe("The task changing the project's state: always null, as projects change at once here."),
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
      "project is the account's default one (`is_default`). Projects are made and removed by the service, not " +
      "through this API.",
    metadata: read,
  }, {
    example: {
      query: { limit: 100, offset: 0, order_by: "created_at.asc" },
      response: {
        count: 2,
        results: [
          { id: 1, client_id: 1, name: "production", description: "Customer-facing workloads.", is_default: true, state: "ACTIVE", created_at: "2026-01-13T09:00:00.000Z", deleted_at: null, task_id: null },
          { id: 3, client_id: 1, name: "research", description: "Model training experiments.", is_default: false, state: "ACTIVE", created_at: "2026-01-14T09:00:00.000Z", deleted_at: null, task_id: null },
        ],
      },
    },
    case: { path: () => "/cloud/v1/projects?order_by=name.asc", ownsObjects: false },
  }),
} as const;
