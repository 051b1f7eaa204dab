/**
 * Cloud tasks: the tasks that changed the account's cloud resources (image uploads and deletions).
 */
import { index, integer, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { timestamptz } from "../columns.js";
import { accountId } from "../iam/account.js";

export interface CloudTaskResources {
  images?: string[];
}

/**
 * A task of the account: what an asynchronous operation (an image upload or deletion) reports. Ours
 * finish in the request that starts them, so every task is stored finished.
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
    finishedOn: timestamptz("finished_on"),
  },
  (t) => [index("cloud_tasks_account_id_idx").on(t.accountId, t.createdOn)],
);
