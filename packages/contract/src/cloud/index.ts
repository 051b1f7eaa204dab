/**
 * Cloud area: the account's projects (v1), inference models (v2), GPU images of a project and region (v3)
 * with the tasks that change them (v1), and reservation cost report totals (v1), one module per resource;
 * the area's router, with the inference models' v3 aliases.
 */
import { initContract } from "@ts-rest/core";
import { alias } from "../alias.js";
import { cloudCostReportsRoutes } from "./cost-reports.js";
import { cloudGpuImagesRoutes } from "./gpu-images.js";
import { cloudInferenceModelsRoutes } from "./inference-models.js";
import { cloudProjectsRoutes } from "./projects.js";
import { cloudTasksRoutes } from "./tasks.js";

export * from "./projects.js";
export * from "./inference-models.js";
export * from "./gpu-images.js";
export * from "./tasks.js";
export * from "./cost-reports.js";

const c = initContract();

export const cloudContract = c.router({
  ...cloudProjectsRoutes,
  ...cloudInferenceModelsRoutes,
  ...cloudGpuImagesRoutes,
  ...cloudTasksRoutes,
  ...cloudCostReportsRoutes,
  listInferenceModelsV3: alias(cloudInferenceModelsRoutes, "listInferenceModels", { path: "/cloud/v3/inference/models" }),
  getInferenceModelV3: alias(cloudInferenceModelsRoutes, "getInferenceModel", { path: "/cloud/v3/inference/models/:model_id" }),
});
