/**
 * Cloud inference applications: the platform's catalogue of applications (templates of components, each
 * deployed as an inference of its own), and a project's deployments of them. A deployment's status is
 * computed when it is read, from its `state` and how long ago it was set (`state_since`).
 */
import { sql } from "drizzle-orm";
import { check, foreignKey, integer, jsonb, pgTable, text, unique } from "drizzle-orm/pg-core";
import { identityId, sqlList, timestamptz } from "../columns.js";
import { accountId } from "../iam/account.js";
import { cloudProjects } from "./projects.js";

/** A parameter of an application's component, as the catalogue describes it. */
export interface InferenceApplicationParameter {
  default_value: string;
  description: string;
  display_name: string;
  enum_values: string[] | null;
  max_value: string | null;
  min_value: string | null;
  pattern: string | null;
  required: boolean;
  type: "enum" | "float" | "integer" | "string";
}

/** A component of an application, as the catalogue describes it. */
export interface InferenceApplicationComponent {
  description: string;
  display_name: string;
  exposable: boolean;
  license_url: string;
  parameters: Record<string, InferenceApplicationParameter>;
  readme: string;
  required: boolean;
  suitable_flavors: { name: string }[];
}

/** How a deployment configures one component. */
export interface InferenceComponentConfiguration {
  exposed: boolean;
  flavor: string;
  parameter_overrides: Record<string, { value: string }>;
  scale: { min: number; max: number };
}

/** An application of the platform's catalogue: shared by every account, named by its `name`. */
export const inferenceApplicationTemplates = pgTable("inference_application_templates", {
  name: text("name").primaryKey(),
  displayName: text("display_name").notNull(),
  description: text("description").notNull(),
  coverUrl: text("cover_url").notNull(),
  readme: text("readme").notNull(),
  tags: jsonb("tags").$type<Record<string, string>>().notNull().default({}),
  components: jsonb("components").$type<Record<string, InferenceApplicationComponent>>().notNull(),
});

/** What the last action asked of an application deployment: run it or delete it. */
export const INFERENCE_APPLICATION_STATES = ["running", "deleting"] as const;

export const inferenceApplicationDeployments = pgTable(
  "inference_application_deployments",
  {
    id: identityId(),
    accountId: accountId(),
    projectId: integer("project_id").notNull(),
    name: text("name").notNull(),
    applicationName: text("application_name")
      .notNull()
      .references(() => inferenceApplicationTemplates.name),
    componentsConfiguration: jsonb("components_configuration").$type<Record<string, InferenceComponentConfiguration>>().notNull(),
    regions: jsonb("regions").$type<number[]>().notNull(),
    apiKeys: jsonb("api_keys").$type<string[]>().notNull().default([]),
    state: text("state").notNull().default("running"),
    stateSince: timestamptz("state_since").notNull().defaultNow(),
    created: timestamptz("created").notNull().defaultNow(),
  },
  (t) => [
    unique("inference_application_deployments_project_id_name_unique").on(t.projectId, t.name),
    foreignKey({ name: "inference_application_deployments_project_fk", columns: [t.accountId, t.projectId], foreignColumns: [cloudProjects.accountId, cloudProjects.id] }),
    check("inference_application_deployments_state_check", sql`${t.state} in (${sql.raw(sqlList(INFERENCE_APPLICATION_STATES))})`),
  ],
);
