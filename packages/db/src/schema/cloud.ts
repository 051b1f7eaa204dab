/**
 * Cloud area: the platform's inference model catalogue and regions, the account's projects, their
 * GPU images and the tasks that changed them, and the usage lines that cost reports sum (with their
 * monthly totals, kept by the database).
 */
import { relations, sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  foreignKey,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  unique,
  uuid,
} from "drizzle-orm/pg-core";
import { identityId, timestamptz } from "./columns.js";
import { accountId, accounts } from "./iam.js";

/** The platform's catalogue of deployable inference models: shared by every account. */
export const inferenceModels = pgTable(
  "inference_models",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    category: text("category").notNull(),
    defaultFlavorId: text("default_flavor_id").notNull(),
    description: text("description").notNull().default(""),
    developer: text("developer").notNull(),
    documentationPage: text("documentation_page").notNull().default(""),
    eulaUrl: text("eula_url").notNull().default(""),
    exampleCurlRequest: text("example_curl_request").notNull().default(""),
    hasEula: boolean("has_eula").notNull().default(false),
    imageRegistryId: text("image_registry_id").notNull().default(""),
    imageUrl: text("image_url").notNull(),
    inferenceBackend: text("inference_backend").notNull(),
    inferenceFrontend: text("inference_frontend").notNull(),
    modelId: text("model_id").notNull(),
    openaiCompatibility: text("openai_compatibility").notNull().default(""),
    port: integer("port").notNull(),
    version: text("version").notNull(),
  },
  (t) => [
    // One index per `order_by` field, with id as the tie-breaker, in the "C" collation the listing
    // orders by (character by character, the same on every server).
    index("inference_models_name_id_idx").on(sql`${t.name} collate "C"`, t.id),
    index("inference_models_category_id_idx").on(sql`${t.category} collate "C"`, t.id),
    index("inference_models_developer_id_idx").on(sql`${t.developer} collate "C"`, t.id),
  ],
);

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

export interface GpuImageTag {
  key: string;
  read_only: boolean;
  value: string;
}

/** An image for virtual GPU clusters, available in one project and region. */
export const gpuImages = pgTable(
  "gpu_images",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    accountId: accountId(),
    projectId: integer("project_id").notNull(),
    regionId: integer("region_id")
      .notNull()
      .references(() => cloudRegions.id),
    name: text("name").notNull(),
    architecture: text("architecture").notNull().default("x86_64"),
    osDistro: text("os_distro"),
    osType: text("os_type").notNull().default("linux"),
    osVersion: text("os_version"),
    sshKey: text("ssh_key").notNull().default("allow"),
    status: text("status").notNull().default("active"),
    visibility: text("visibility").notNull().default("public"),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    updatedAt: timestamptz("updated_at").notNull().defaultNow(),
    minDisk: integer("min_disk").notNull().default(0),
    minRam: integer("min_ram").notNull().default(0),
    /** Bytes: images are larger than 2 GiB, beyond `integer`. Null while unknown (an uploaded image we never fetch). */
    size: bigint("size", { mode: "number" }),
    tags: jsonb("tags").$type<GpuImageTag[]>().notNull().default([]),
    taskId: text("task_id"),
    /** "qcow2", or "raw" for an image uploaded with cow_format. */
    diskFormat: text("disk_format").notNull().default("qcow2"),
    /** Whether the image may only be deleted once no volume made from it is left (the upload's cow_format). */
    cowFormat: boolean("cow_format").notNull().default(false),
    hwFirmwareType: text("hw_firmware_type"),
    cudaToolkitVersion: text("cuda_toolkit_version"),
    gpuDriver: text("gpu_driver"),
    gpuDriverType: text("gpu_driver_type"),
    gpuDriverVersion: text("gpu_driver_version"),
  },
  (t) => [
    index("gpu_images_account_id_project_id_region_id_idx").on(t.accountId, t.projectId, t.regionId, t.name),
    foreignKey({
      name: "gpu_images_project_fk",
      columns: [t.accountId, t.projectId],
      foreignColumns: [cloudProjects.accountId, cloudProjects.id],
    }),
  ],
);

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

/**
 * One line of billed usage in one month. The cost report sums these per type, region, flavor,
 * metric, feature, unit and currency. `cost` null: the usage has no price (the report's `err`).
 */
export const usageLines = pgTable(
  "usage_lines",
  {
    id: identityId(),
    accountId: accountId(),
    /** The billing month, YYYY-MM: compares as text in the order of time. */
    month: text("month").notNull(),
    type: text("type").notNull(),
    regionId: integer("region_id")
      .notNull()
      .references(() => cloudRegions.id),
    flavor: text("flavor").notNull().default(""),
    /** What sent egress traffic ("vm", "baremetal", "router"); null for other types. */
    instanceType: text("instance_type"),
    /** The volume type of volume and snapshot usage; null for other types. */
    volumeType: text("volume_type"),
    billingMetricName: text("billing_metric_name").notNull(),
    billingFeatureName: text("billing_feature_name").notNull(),
    billingValueUnit: text("billing_value_unit").notNull(),
    currency: text("currency").notNull(),
    // numeric keeps sums of money exact; read as numbers.
    billingValue: numeric("billing_value", { mode: "number" }).notNull(),
    cost: numeric("cost", { mode: "number" }),
    /** The resource's tags, name to value. */
    tags: jsonb("tags").$type<Record<string, string>>().notNull().default({}),
  },
  (t) => [
    // Covering: the cost report filters on the first four columns and reads the others, so
    // it is answered from the index alone (an index-only scan) without visiting the table's rows.
    // The read columns are key columns because Drizzle cannot declare INCLUDE; with suffix truncation
    // the index is no larger for it. Tag filters still read the rows.
    index("usage_lines_cost_report_idx").on(
      t.accountId,
      t.month,
      t.type,
      t.regionId,
      t.flavor,
      t.billingMetricName,
      t.billingFeatureName,
      t.billingValueUnit,
      t.currency,
      t.instanceType,
      t.volumeType,
      t.billingValue,
      t.cost,
    ),
    check("usage_lines_month_check", sql`${t.month} ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'`),
  ],
);

/**
 * The usage lines summed per account, month and group of the cost report (type, region, flavor,
 * instance type, volume type, metric, feature, unit, currency): the report reads these when it has no
 * tag filter, a few rows per month instead of every line. Kept by the database itself: statement-level
 * triggers on `usage_lines` (drizzle/0012_usage_month_totals_triggers.sql) add what each insert, update
 * or delete changed, remove a group whose last line is gone, and empty the table when the lines are
 * truncated. Nothing else writes it. No foreign keys: its rows follow the lines, which have theirs.
 */
export const usageMonthTotals = pgTable(
  "usage_month_totals",
  {
    accountId: integer("account_id").notNull(),
    /** The billing month, YYYY-MM, as the lines name it. */
    month: text("month").notNull(),
    type: text("type").notNull(),
    regionId: integer("region_id").notNull(),
    flavor: text("flavor").notNull(),
    /** Null as on the lines, for types other than egress traffic. */
    instanceType: text("instance_type"),
    /** Null as on the lines, for types other than volumes and snapshots. */
    volumeType: text("volume_type"),
    billingMetricName: text("billing_metric_name").notNull(),
    billingFeatureName: text("billing_feature_name").notNull(),
    billingValueUnit: text("billing_value_unit").notNull(),
    currency: text("currency").notNull(),
    /** The exact sum of the group's billing values (numeric, as the lines'). */
    billingValue: numeric("billing_value", { mode: "number" }).notNull(),
    /** The exact sum of the costs of the group's priced lines; 0 when none has a price. */
    cost: numeric("cost", { mode: "number" }).notNull(),
    /** How many of the group's lines have no price (cost null): the report's `err` when above 0. */
    unpricedLines: integer("unpriced_lines").notNull(),
    /** How many lines the group sums; a group is deleted when this reaches 0. */
    lines: integer("lines").notNull(),
  },
  (t) => [
    // One row per group; the account and month first, so that a report reads one range of it. Nulls
    // not distinct: the instance and volume types are null for most types and still name one group.
    unique("usage_month_totals_group_unique")
      .on(
        t.accountId,
        t.month,
        t.type,
        t.regionId,
        t.flavor,
        t.instanceType,
        t.volumeType,
        t.billingMetricName,
        t.billingFeatureName,
        t.billingValueUnit,
        t.currency,
      )
      .nullsNotDistinct(),
  ],
);

export const cloudProjectsRelations = relations(cloudProjects, ({ one, many }) => ({
  account: one(accounts, { fields: [cloudProjects.accountId], references: [accounts.id] }),
  gpuImages: many(gpuImages),
}));

export const gpuImagesRelations = relations(gpuImages, ({ one }) => ({
  project: one(cloudProjects, { fields: [gpuImages.projectId], references: [cloudProjects.id] }),
  region: one(cloudRegions, { fields: [gpuImages.regionId], references: [cloudRegions.id] }),
}));

export const usageLinesRelations = relations(usageLines, ({ one }) => ({
  region: one(cloudRegions, { fields: [usageLines.regionId], references: [cloudRegions.id] }),
}));
