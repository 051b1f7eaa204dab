/**
 * Cloud inference flavors: the platform's catalogue of the hardware an inference deployment runs on, and
 * how many containers of each flavor each region holds (the capacity the deployments draw from).
 */
import { integer, pgTable, primaryKey, real, text } from "drizzle-orm/pg-core";
import { cloudRegions } from "./projects.js";

/** A flavor of the platform's catalogue: shared by every account, named by its `name`. */
export const inferenceFlavors = pgTable("inference_flavors", {
  name: text("name").primaryKey(),
  description: text("description").notNull(),
  cpu: real("cpu").notNull(),
  memory: real("memory").notNull(),
  gpu: integer("gpu").notNull(),
  gpuModel: text("gpu_model").notNull(),
  gpuMemory: real("gpu_memory").notNull(),
  gpuComputeCapability: text("gpu_compute_capability").notNull(),
});

/** How many containers of a flavor a region holds in all: the capacity answer subtracts what deployments use. */
export const inferenceRegionFlavors = pgTable(
  "inference_region_flavors",
  {
    regionId: integer("region_id")
      .notNull()
      .references(() => cloudRegions.id),
    flavorName: text("flavor_name")
      .notNull()
      .references(() => inferenceFlavors.name),
    containers: integer("containers").notNull(),
  },
  (t) => [primaryKey({ name: "inference_region_flavors_pk", columns: [t.regionId, t.flavorName] })],
);
