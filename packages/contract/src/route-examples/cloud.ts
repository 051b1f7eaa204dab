/**
 * Example calls of the Cloud area's routes, keyed by route id (see ../route-examples.ts).
 */
import * as examples from "../examples.js";
import type { AreaRouteExamples } from "./example.js";

/** A GPU image of the demo data: account 1's project 1 ("production") in region 1. */
const demoImageId = "d342b423-7ae4-4628-ab4f-3c665cb04dcd";
const uploadTaskId = "0d3f7c52-8e61-4d2a-9b7e-3c1a5f9e2b40";
const uploadedImageId = "7a9e1c4b-2f6d-4e8a-b1c3-5d7f9a0b2c4e";

export const cloudRouteExamples = {
  "cloud.listInferenceModels": {
    query: { limit: 100, offset: 0, order_by: "name.asc" },
    response: { count: 1, results: [examples.inferenceModelExample] },
  },
  "cloud.getInferenceModel": {
    pathParams: { model_id: examples.inferenceModelExample.id },
    response: examples.inferenceModelExample,
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
    pathParams: { project_id: 1, region_id: 1, image_id: uploadedImageId },
    response: { tasks: ["5b2e8d17-4c3a-4f9e-a6d0-8e1f2a3b4c5d"] },
  },
  "cloud.getTask": {
    pathParams: { task_id: uploadTaskId },
    response: {
      id: uploadTaskId,
      task_type: "upload_gpu_virtual_image",
      state: "FINISHED",
      detailed_state: "FINISHED",
      created_on: "2026-11-02T10:15:00.000Z",
      updated_on: "2026-11-02T10:15:00.000Z",
      finished_on: "2026-11-02T10:15:00.000Z",
      client_id: 1,
      user_id: 1,
      project_id: 1,
      region_id: 1,
      created_resources: { images: [uploadedImageId] },
      data: { image_name: "acme-finetune-base" },
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
