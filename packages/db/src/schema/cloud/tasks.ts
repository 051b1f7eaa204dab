/**
 * Cloud tasks: the tasks that changed the account's cloud resources (image uploads and deletions).
 */
import { index, integer, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { timestamptz } from "../columns.js";
import { accountId } from "../iam/account.js";

export interface CloudTaskResources {
  images?: string[];
  secrets?: string[];
  projects?: number[];
}

/**
 * A task of the account: what an asynchronous operation (an image upload or deletion, a project's or a
 * secret's) reports. The operation's change is made in the request that starts it; the task reports
 * RUNNING until `finished_on`, set when it starts, and `state` (FINISHED or ERROR) from then on. A task
 * whose `finished_on` is null runs until the service says otherwise (the demo data's).
 */
export const cloudTasks = pgTable(
  "cloud_tasks",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    accountId: accountId(),
    userId: integer("user_id").notNull(),
    projectId: integer("project_id"),
    regionId: integer("region_id"),
    taskType: text("task_type").notNull(),
    state: text("state").notNull(),
    createdResources: jsonb("created_resources").$type<CloudTaskResources>(),
    /** The operation's parameters as it was asked for (never a secret). */
    data: jsonb("data").$type<Record<string, unknown>>(),
    createdOn: timestamptz("created_on").notNull().defaultNow(),
    /** When the task finishes (or finished): it reports RUNNING before, `state` from then on. */
    finishedOn: timestamptz("finished_on"),
    /** Why the task failed (state ERROR), or null. */
    error: text("error"),
    /** When a user acknowledged the task (it no longer shows as new to them), and who. */
    acknowledgedAt: timestamptz("acknowledged_at"),
    acknowledgedBy: integer("acknowledged_by"),
  },
  (t) => [index("cloud_tasks_account_id_idx").on(t.accountId, t.createdOn)],
);
