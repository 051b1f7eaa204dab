/**
 * Cloud projects: the account's projects, and the platform's regions (the GPU images and the usage
 * lines are each in one). The projects' relations are in gpu-images.ts, as they name the images (this
 * module cannot import that one, which builds on it).
 */
import { pgTable, text, unique } from "drizzle-orm/pg-core";
import { identityId, timestamptz } from "../columns.js";
import { accountId } from "../iam/account.js";

/** The platform's cloud regions: shared by every account. */
export const cloudRegions = pgTable("cloud_regions", {
  id: identityId(),
  name: text("name").notNull(),
  displayName: text("display_name").notNull(),
});

export const cloudProjects = pgTable(
  "cloud_projects",
  {
    id: identityId(),
    accountId: accountId(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    created: timestamptz("created").notNull().defaultNow(),
  },
  (t) => [unique("cloud_projects_account_id_id_unique").on(t.accountId, t.id)],
);
