/**
 * Cloud GPU images: the images of a project and region, with their relations and the projects'.
 */
import { relations } from "drizzle-orm";
import { bigint, boolean, foreignKey, index, integer, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { timestamptz } from "../columns.js";
import { accountId, accounts } from "../iam/account.js";
import { cloudProjects, cloudRegions } from "./projects.js";

export interface GpuImageTag {
  key: string;
  read_only: boolean;
  value: string;
}

/** An image for GPU clusters (virtual or bare-metal, as `cluster_type` says), available in one project and region. */
export const gpuImages = pgTable(
  "gpu_images",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    accountId: accountId(),
    projectId: integer("project_id").notNull(),
    regionId: integer("region_id")
      .notNull()
      .references(() => cloudRegions.id),
    /** "virtual" or "baremetal": the clusters the image is for; each kind is listed at its own path. */
    clusterType: text("cluster_type").notNull().default("virtual"),
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
    index("gpu_images_account_id_project_id_region_id_idx").on(t.accountId, t.projectId, t.regionId, t.clusterType, t.name),
    foreignKey({
      name: "gpu_images_project_fk",
      columns: [t.accountId, t.projectId],
      foreignColumns: [cloudProjects.accountId, cloudProjects.id],
    }),
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

