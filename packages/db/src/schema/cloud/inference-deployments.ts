/**
 * Cloud inference deployments: a project's containers of one image on one flavor in one or more regions,
 * and the log lines their containers wrote. A deployment's status is computed when it is read, from its
 * `state` (what the last action asked for) and how long ago that was (`state_since`).
 */
import { sql } from "drizzle-orm";
import { boolean, check, foreignKey, index, integer, jsonb, pgTable, text, unique } from "drizzle-orm/pg-core";
import { identityId, sqlList, timestamptz } from "../columns.js";
import { accountId } from "../iam/account.js";
import { cloudProjects, cloudRegions } from "./projects.js";

/** What the last action asked of a deployment: run it, stop it or delete it. */
export const INFERENCE_DEPLOYMENT_STATES = ["running", "stopped", "deleting"] as const;

/** The containers of a region: how far they scale, and on what. */
export interface InferenceContainerSpec {
  region_id: number;
  scale: {
    min: number;
    max: number;
    cooldown_period: number | null;
    polling_interval: number | null;
    triggers: Record<string, Record<string, unknown> | null>;
  };
}

export const inferenceDeployments = pgTable(
  "inference_deployments",
  {
    id: identityId(),
    accountId: accountId(),
    projectId: integer("project_id").notNull(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    image: text("image").notNull(),
    listeningPort: integer("listening_port").notNull(),
    flavorName: text("flavor_name").notNull(),
    /** The command and its arguments, or null for the image's own. */
    command: jsonb("command").$type<string[]>(),
    credentialsName: text("credentials_name"),
    envs: jsonb("envs").$type<Record<string, string>>().notNull().default({}),
    containers: jsonb("containers").$type<InferenceContainerSpec[]>().notNull(),
    /** The names of the project's API keys the deployment takes. */
    apiKeys: jsonb("api_keys").$type<string[]>().notNull().default([]),
    authEnabled: boolean("auth_enabled").notNull().default(false),
    ingressOpts: jsonb("ingress_opts").$type<{ disable_response_buffering: boolean }>(),
    logging: jsonb("logging").$type<Record<string, unknown>>(),
    probes: jsonb("probes").$type<Record<string, unknown>>(),
    timeout: integer("timeout"),
    state: text("state").notNull().default("running"),
    stateSince: timestamptz("state_since").notNull().defaultNow(),
    created: timestamptz("created").notNull().defaultNow(),
  },
  (t) => [
    unique("inference_deployments_project_id_name_unique").on(t.projectId, t.name),
    unique("inference_deployments_account_id_id_unique").on(t.accountId, t.id),
    foreignKey({ name: "inference_deployments_project_fk", columns: [t.accountId, t.projectId], foreignColumns: [cloudProjects.accountId, cloudProjects.id] }),
    check("inference_deployments_state_check", sql`${t.state} in (${sql.raw(sqlList(INFERENCE_DEPLOYMENT_STATES))})`),
  ],
);

/** A line a deployment's container wrote; lines dated later than now are not shown yet. */
export const inferenceDeploymentLogs = pgTable(
  "inference_deployment_logs",
  {
    id: identityId(),
    accountId: accountId(),
    deploymentId: integer("deployment_id").notNull(),
    regionId: integer("region_id")
      .notNull()
      .references(() => cloudRegions.id),
    pod: text("pod").notNull(),
    message: text("message").notNull(),
    time: timestamptz("time").notNull(),
  },
  (t) => [
    index("inference_deployment_logs_deployment_id_time_idx").on(t.deploymentId, t.time, t.id),
    foreignKey({
      name: "inference_deployment_logs_deployment_fk",
      columns: [t.accountId, t.deploymentId],
      foreignColumns: [inferenceDeployments.accountId, inferenceDeployments.id],
    }).onDelete("cascade"),
  ],
);
