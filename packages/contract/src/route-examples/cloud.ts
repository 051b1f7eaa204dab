/**
 * Example calls of the Cloud area's routes, keyed by route id (see ../route-examples.ts).
 */
import * as examples from "../examples.js";
import type { AreaRouteExamples } from "./example.js";

/** A GPU image of the demo data: account 1's project 1 ("production") in region 1. */
const demoImageId = "d342b423-7ae4-4628-ab4f-3c665cb04dcd";
const uploadTaskId = "0d3f7c52-8e61-4d2a-9b7e-3c1a5f9e2b40";
/** Account 1's own image of the demo data (project 3, "research", region 1), and the task that uploaded it. */
const demoPrivateImageId = "a38cee96-647e-42be-8b60-2b98d82b9e2a";
const demoTaskId = "27f197ca-ad26-40dd-ad43-3e8918557fd9";
/** The first inference model of the demo data's catalog. */
const demoModelId = "3374e2b7-2871-41fe-8b39-1164b7eb7ded";

export const cloudRouteExamples = {
  "cloud.listInferenceModels": {
    query: { limit: 100, offset: 0, order_by: "name.asc" },
    response: { count: 1, results: [examples.inferenceModelExample] },
  },
  "cloud.getInferenceModel": {
    pathParams: { model_id: demoModelId },
    response: { ...examples.inferenceModelExample, id: demoModelId },
  },
  "cloud.listGpuImages": {
    // Project 1 ("production") of the demo data; region 1 is the region of the cost report example.
    pathParams: { project_id: 1, region_id: examples.costReportTotalsExample.results[0]!.region_id },
    query: { limit: 100, offset: 0 },
    response: { count: 1, results: [examples.gpuImageExample] },
  },
  "cloud.getGpuImage": {
    pathParams: { project_id: 1, region_id: 1, image_id: demoImageId },
    response: { ...examples.gpuImageExample, id: demoImageId },
  },
  "cloud.uploadGpuImage": {
    pathParams: { project_id: 1, region_id: 1 },
    body: {
      name: "acme-finetune-base",
      url: "https://images.acme.example/acme-finetune-base.qcow2",
      architecture: "x86_64",
      os_distro: "ubuntu",
      os_type: "linux",
      os_version: "24.04",
      ssh_key: "required",
      tags: { team: "research" },
    },
    response: { tasks: [uploadTaskId] },
  },
  "cloud.deleteGpuImage": {
    // Only a project's own images can be deleted, not the platform's public ones.
    pathParams: { project_id: 3, region_id: 1, image_id: demoPrivateImageId },
    response: { tasks: ["5b2e8d17-4c3a-4f9e-a6d0-8e1f2a3b4c5d"] },
  },
  "cloud.getTask": {
    // A task of the demo data: an upload still running.
    pathParams: { task_id: demoTaskId },
    response: {
      id: demoTaskId,
      task_type: "upload_gpu_virtual_image",
      state: "RUNNING",
      detailed_state: "RUNNING",
      created_on: "2026-03-12T09:03:00.000Z",
      updated_on: "2026-03-12T09:03:00.000Z",
      finished_on: null,
      client_id: 1,
      user_id: 1,
      project_id: 3,
      region_id: 2,
      created_resources: null,
      data: { image_name: "debian-12-x64-nvidia-535" },
      error: null,
      acknowledged_at: null,
      acknowledged_by: null,
    },
  },
  "cloud.getReservationCostReportTotals": {
    body: examples.costReportTotalsRequestExample,
    response: examples.costReportTotalsExample,
  },
} satisfies AreaRouteExamples<"cloud">;
