/**
 * Cloud inference flavors: the platform's catalogue of the hardware an inference deployment runs on (v3),
 * and the capacity each region has left of each flavor; their schemas and routes.
 */
import { z } from "zod";
import { errorResponses, integer, pageOf, paging } from "../common.js";
import { route } from "../route.js";
import { inferenceMetadata, inferenceName } from "./inference-shared.js";

const inferenceFlavorSchema = z
  .object({
    name: z.string().describe("The flavor's name, what a deployment's `flavor_name` gives."),
    description: z.string(),
    cpu: z.number().describe("vCPUs of each container."),
    memory: z.number().describe("Memory of each container, GiB."),
    gpu: integer().describe("GPUs of each container; 0 for a CPU-only flavor."),
    gpu_model: z.string().describe('The GPU\'s model, e.g. "H100"; "" for a CPU-only flavor.'),
    gpu_memory: z.number().describe("GPU memory of each container in all, GiB."),
    gpu_compute_capability: z.string().describe('The GPU\'s CUDA compute capability, e.g. "9.0"; "" for a CPU-only flavor.'),
    is_gpu_shared: z.boolean().describe("Always false: a container has its GPUs to itself."),
  })
  .strict()
  .describe("A flavor: the hardware each container of an inference deployment gets.");
export interface InferenceFlavorSchema extends InferenceFlavorSchemaType {}
type InferenceFlavorSchemaType = typeof inferenceFlavorSchema;
export const inferenceFlavor: InferenceFlavorSchema = inferenceFlavorSchema;

export type InferenceFlavor = z.infer<typeof inferenceFlavor>;

const inferenceFlavorListSchema = pageOf(inferenceFlavor, "flavors");
export interface InferenceFlavorListSchema extends InferenceFlavorListSchemaType {}
type InferenceFlavorListSchemaType = typeof inferenceFlavorListSchema;
export const inferenceFlavorList: InferenceFlavorListSchema = inferenceFlavorListSchema;

const inferenceRegionCapacityListSchema = z
  .object({
    count: integer().describe("The number of regions."),
    results: z
      .array(
        z
          .object({
            region_id: integer(),
            capacity: z
              .array(
                z
                  .object({
                    flavor_name: z.string().describe("A flavor of the platform."),
                    capacity: integer().describe("Containers of the flavor the region can still start."),
                  })
                  .strict(),
              )
              .describe("Each flavor the region offers, by name."),
          })
          .strict(),
      )
      .describe("Each region that runs inference, by id."),
  })
  .strict()
  .describe("The capacity of every region that runs inference, and the number of such regions.");
export interface InferenceRegionCapacityListSchema extends InferenceRegionCapacityListSchemaType {}
type InferenceRegionCapacityListSchemaType = typeof inferenceRegionCapacityListSchema;
export const inferenceRegionCapacityList: InferenceRegionCapacityListSchema = inferenceRegionCapacityListSchema;

export type InferenceRegionCapacityList = z.infer<typeof inferenceRegionCapacityList>;

/** The demo data's H100 flavor. */
export const demoInferenceFlavor: InferenceFlavor = {
  name: "inference-16vcpu-232gib-1xh100-80gb",
  description: "16 vCPU, 232 GiB memory, one NVIDIA H100 (80 GB).",
  cpu: 16,
  memory: 232,
  gpu: 1,
  gpu_model: "H100",
  gpu_memory: 80,
  gpu_compute_capability: "9.0",
  is_gpu_shared: false,
};

export const cloudInferenceFlavorsRoutes = {
  getInferenceCapacity: route({
    method: "GET",
    path: "/cloud/v3/inference/capacity",
    responses: { 200: inferenceRegionCapacityList, ...errorResponses() },
    summary: "Get inference capacity by region",
    description:
      "How many more containers of each flavor each region can start, ordered by region id and flavor name. A region holds " +
      "a set number of containers of each flavor; every deployment of any account that is not stopped or being deleted " +
      "holds `scale.max` of them in each region it has containers in, as does each component of an application " +
      "deployment (on its flavor, in each of its regions), and the capacity is what is left (never below 0). Stopping or " +
      "deleting a deployment gives its containers back at once.",
    metadata: inferenceMetadata("read", "", "getCapacityByRegion"),
  }, {
    example: {
      response: {
        count: 1,
        results: [
          {
            region_id: 1,
            capacity: [
              { flavor_name: "inference-16vcpu-232gib-1xh100-80gb", capacity: 23 },
              { flavor_name: "inference-2vcpu-8gib-cpu", capacity: 9 },
            ],
          },
        ],
      },
    },
    case: { path: () => "/cloud/v3/inference/capacity", ownsObjects: false },
  }),
  listInferenceFlavors: route({
    method: "GET",
    path: "/cloud/v3/inference/flavors",
    query: z.object(paging("flavors", 1000)),
    responses: { 200: inferenceFlavorList, ...errorResponses() },
    summary: "List inference flavors",
    description:
      "The platform's flavors, ordered by name, paged by `limit` (default and maximum 1000) and `offset`; `count` is the " +
      "number of all of them. Every account sees the same flavors.",
    metadata: inferenceMetadata("read", "flavors"),
  }, {
    example: { query: { limit: 100, offset: 0 }, response: { count: 1, results: [demoInferenceFlavor] } },
    case: { path: () => "/cloud/v3/inference/flavors?limit=10", ownsObjects: false },
  }),
  getInferenceFlavor: route({
    method: "GET",
    path: "/cloud/v3/inference/flavors/:flavor_name",
    pathParams: z.object({ flavor_name: inferenceName.describe("The flavor's name.") }),
    responses: { 200: inferenceFlavor, ...errorResponses() },
    summary: "Get an inference flavor",
    description: "One flavor of the platform's catalogue by its name; an unknown name answers 404.",
    metadata: inferenceMetadata("read", "flavors"),
  }, {
    example: { pathParams: { flavor_name: demoInferenceFlavor.name }, response: demoInferenceFlavor },
    case: { path: (w) => `/cloud/v3/inference/flavors/${w.first("cloud.listInferenceFlavors").name as string}`, ownsObjects: false },
  }),
} as const;
