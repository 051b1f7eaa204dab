/**
 * Cloud area: the account's projects (v1), the platform's regions (v1), inference models (v2), GPU images
 * of a project and region for virtual and bare-metal clusters (v3), secrets (v1, uploads at v2), the tasks
 * that change them (v1), the cost and usage reports (v1), and the inference family (v3: flavors and capacity,
 * registry credentials, secrets, API keys, deployments and their logs, applications), one module per
 * resource; the area's router, with the inference models' v3 aliases.
 */
import { initContract } from "@ts-rest/core";
import { alias } from "../alias.js";
import { cloudCostReportsRoutes } from "./cost-reports.js";
import { cloudGpuImagesRoutes } from "./gpu-images.js";
import { cloudInferenceModelsRoutes } from "./inference-models.js";
import { cloudProjectsRoutes } from "./projects.js";
import { cloudRegionsRoutes } from "./regions.js";
import { cloudSecretsRoutes } from "./secrets.js";
import { cloudTasksRoutes } from "./tasks.js";
import { cloudInferenceFlavorsRoutes } from "./inference-flavors.js";
import { cloudInferenceRegistryCredentialsRoutes } from "./inference-registry-credentials.js";
import { cloudInferenceSecretsRoutes } from "./inference-secrets.js";
import { cloudInferenceApiKeysRoutes } from "./inference-api-keys.js";
import { cloudInferenceDeploymentsRoutes } from "./inference-deployments.js";
import { cloudInferenceApplicationsRoutes } from "./inference-applications.js";

export * from "./projects.js";
export * from "./inference-models.js";
export * from "./gpu-images.js";
export * from "./tasks.js";
export * from "./cost-reports.js";
export * from "./inference-shared.js";
export * from "./inference-flavors.js";
export * from "./inference-registry-credentials.js";
export * from "./inference-secrets.js";
export * from "./inference-api-keys.js";
export * from "./inference-deployments.js";
export * from "./inference-applications.js";
export * from "./regions.js";
export * from "./secrets.js";
export { instantOf } from "./shared.js";

const c = initContract();

export const cloudContract = c.router({
  ...cloudProjectsRoutes,
  ...cloudInferenceModelsRoutes,
  ...cloudGpuImagesRoutes,
  ...cloudTasksRoutes,
  ...cloudCostReportsRoutes,
  listInferenceModelsV3: alias(cloudInferenceModelsRoutes, "listInferenceModels", { path: "/cloud/v3/inference/models" }),
  getInferenceModelV3: alias(cloudInferenceModelsRoutes, "getInferenceModel", { path: "/cloud/v3/inference/models/:model_id" }),
  ...cloudInferenceFlavorsRoutes,
  ...cloudInferenceRegistryCredentialsRoutes,
  ...cloudInferenceSecretsRoutes,
  ...cloudInferenceApiKeysRoutes,
  ...cloudInferenceDeploymentsRoutes,
  ...cloudInferenceApplicationsRoutes,
  ...cloudRegionsRoutes,
  ...cloudSecretsRoutes,
});
