/**
 * Cloud routes: the account's projects, the platform's regions, the inference model catalogue, a
 * project's GPU images (virtual and bare-metal) and secrets in a region, the tasks that change them, the
 * cost and usage reports, and the inference family (flavors and capacity, registry credentials, secrets, API
 * keys, deployments with their logs, applications), one module per resource. The inference models' v3 paths
 * are aliases, served by the same implementations.
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
import { cloudInferenceFlavors } from "./inference-flavors.js";
import { cloudInferenceRegistryCredentials } from "./inference-registry-credentials.js";
import { cloudInferenceSecrets } from "./inference-secrets.js";
import { cloudInferenceApiKeys } from "./inference-api-keys.js";
import { cloudInferenceDeployments } from "./inference-deployments.js";
import { cloudInferenceApplications } from "./inference-applications.js";

export function cloudRoutes(deps: RouteDeps) {
  return {
    ...cloudProjects(deps),
    ...cloudInferenceModels(deps),
    ...cloudGpuImages(deps),
    ...cloudTasks(deps),
    ...cloudCostReports(deps),
    ...cloudInferenceFlavors(deps),
    ...cloudInferenceRegistryCredentials(deps),
    ...cloudInferenceSecrets(deps),
    ...cloudInferenceApiKeys(deps),
    ...cloudInferenceDeployments(deps),
    ...cloudInferenceApplications(deps),
    ...cloudRegions(deps),
    ...cloudSecrets(deps),
  } satisfies Record<keyof PrimaryRoutes<Contract["cloud"]>, unknown>;
}
