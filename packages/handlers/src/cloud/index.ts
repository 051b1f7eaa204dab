/**
 * Cloud routes: the account's projects, the inference model catalogue, a project's GPU images in a
 * region (with the finished tasks that upload and delete them), and reservation cost report totals, one
 * module per resource. The inference models' v3 paths are aliases, served by the same implementations.
 */
import type { Contract, PrimaryRoutes } from "@cloudplane/contract";
import type { RouteDeps } from "../types.js";
import { cloudCostReports } from "./cost-reports.js";
import { cloudGpuImages } from "./gpu-images.js";
import { cloudInferenceModels } from "./inference-models.js";
import { cloudProjects } from "./projects.js";
import { cloudTasks } from "./tasks.js";

export function cloudRoutes(deps: RouteDeps) {
  return {
    ...cloudProjects(deps),
    ...cloudInferenceModels(deps),
    ...cloudGpuImages(deps),
    ...cloudTasks(deps),
    ...cloudCostReports(deps),
  } satisfies Record<keyof PrimaryRoutes<Contract["cloud"]>, unknown>;
}
