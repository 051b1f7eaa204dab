/**
 * Cloud projects: the account's projects, and the platform's regions (the GPU images and the usage
 * lines are each in one). The projects' relations are in gpu-images.ts, as they name the images (this
 * module cannot import that one, which builds on it).
 */
import { doublePrecision, index, integer, jsonb, pgTable, text, unique } from "drizzle-orm/pg-core";
import { identityId, timestamptz } from "../columns.js";
import { accountId } from "../iam/account.js";

/** The platform's cloud regions: shared by every account. What each offers is the platform's, kept here. */
export const cloudRegions = pgTable("cloud_regions", {
  id: identityId(),
  /** The technical name (keystone_name and slug), e.g. "luxembourg-2". */
  name: text("name").notNull(),
  displayName: text("display_name").notNull(),
  /** ISO 3166-1 alpha-2. */
  country: text("country").notNull().default(""),
  /** AMERICAS, APAC, EMEA or RUSSIA_AND_CIS; null when not placed. */
  zone: text("zone"),
  /** "core" or "edge". */
  accessLevel: text("access_level").notNull().default("core"),
  /** ACTIVE, MAINTENANCE, … as the platform names a region's state. */
  state: text("state").notNull().default("ACTIVE"),
  latitude: doublePrecision("latitude"),
  longitude: doublePrecision("longitude"),
  /** What the region offers: the has_… capabilities without the prefix (ai, baremetal, …) and the products (containers, inference). */
  capabilities: jsonb("capabilities").$type<string[]>().notNull().default([]),
  /** Volume types offered, e.g. ["standard", "ssd_hiiops"]. */
  volumeTypes: jsonb("volume_types").$type<string[]>().notNull().default([]),
  /** File share types offered: "standard", "vast". */
  fileShareTypes: jsonb("file_share_types").$type<string[]>().notNull().default([]),
  keystoneId: integer("keystone_id").notNull().default(0),
  created: timestamptz("created").notNull().defaultNow(),
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
  (t) => [
    unique("cloud_projects_account_id_id_unique").on(t.accountId, t.id),
    // A project's name is unique in its account, as the platform's are.
    unique("cloud_projects_account_id_name_unique").on(t.accountId, t.name),
    // The listing's default order (created_at.asc) and its reverse read a page from here, not a sort of every project.
    index("cloud_projects_account_id_created_id_idx").on(t.accountId, t.created, t.id),
  ],
);
