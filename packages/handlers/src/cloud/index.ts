/**
 * Cloud routes: the account's projects, the platform's regions, the inference model catalogue, a
 * project's GPU images (virtual and bare-metal) and secrets in a region, the tasks that change them, and
 * the cost and usage reports, one module per resource. The inference models' v3 paths are aliases, served
 * by the same implementations.
 */
import type { Contract, PrimaryRoutes } from "@cloudplane/contract";
import type { RouteDeps } from "../types.js";
import { cloudCostReports } from "./cost-reports.js";
import { cloudGpuImages } from "./gpu-images.js";
import { cloudInferenceModels } from "./inference-models.js";
import { cloudProjects } from "./projects.js";
import { cloudRegions } from "./regions.js";
import { cloudSecrets } from "./secrets.js";
import { cloudTasks } from "./tasks.js";

export function cloudRoutes(deps: RouteDeps) {
  return {
    ...cloudProjects(deps),
    ...cloudInferenceModels(deps),
    ...cloudGpuImages(deps),
    ...cloudTasks(deps),
    ...cloudCostReports(deps),
    ...cloudRegions(deps),
    ...cloudSecrets(deps),
  } satisfies Record<keyof PrimaryRoutes<Contract["cloud"]>, unknown>;
}
