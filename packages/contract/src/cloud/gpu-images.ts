/**
 * Cloud GPU images: the images of a project and region (v3) for virtual and for bare-metal GPU clusters,
 * uploaded and deleted through tasks, their schemas and their routes (the same four for each kind).
 */
import { z } from "zod";
import { errorResponses, idParam, integer, integerParam, isoTimestamp, mapOf, stringEnum, strictObject, uuid, withBody } from "../common.js";
import * as examples from "../examples.js";
import type { AppRoute } from "@ts-rest/core";
import { route as contractRoute } from "../route.js";
import { uniqueName, type CaseWorld, type RouteCaseSpec } from "../route-case.js";
import type { RouteMetadata } from "../roles.js";
import { DEMO_REGION_ID, read, write } from "./shared.js";

const gpuImageSchema = z
  .object({
    id: uuid,
    name: z.string(),
    architecture: z.string().describe('CPU architecture, e.g. "x86_64".'),
    os_distro: z.string().nullable().describe('The OS distribution, e.g. "ubuntu"; null when the upload did not say.'),
    os_type: z.string().describe('"linux" or "windows".'),
    os_version: z.string().nullable().describe('The OS version, e.g. "22.04"; null when the upload did not say.'),
    ssh_key: z.string().describe('"allow", "deny" or "required": whether an SSH key can be given at boot.'),
    status: z.string().describe('"active" when the image can be used.'),
    visibility: z.string().describe('"public" for the platform\'s images, "private" for the project\'s own.'),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
    min_disk: integer().describe("Minimum disk, GiB."),
    min_ram: integer().describe("Minimum memory, MiB."),
    size: integer({ column: "bigint" })
      .nullable()
      .describe("Image size in bytes; null for an uploaded image (the service does not fetch the URL, so it never learns the size)."),
    tags: z
      .array(
        z
          .object({
            key: z.string().describe("The tag's key."),
            read_only: z.boolean().describe("Whether the tag is set by the platform and cannot be changed."),
            value: z.string().describe("The tag's value."),
          })
          .strict(),
      )
      .describe("Key-value tags of the image."),
    task_id: z.string().nullable().describe("The task that is changing the image (and locks it), or null."),
    disk_format: z.string().describe('How the image is stored: "qcow2", or "raw" for one uploaded with cow_format true.'),
    hw_firmware_type: z.string().nullable().describe('The firmware the guest boots with, "bios" or "uefi"; null: the platform\'s default.'),
    cuda_toolkit_version: z.string().nullable().describe("The CUDA toolkit installed on the image, or null."),
    gpu_driver: z.string().nullable().describe('The GPU driver\'s vendor, e.g. "nvidia", or null (no driver installed, or not known).'),
    gpu_driver_type: z.string().nullable().describe('The kind of GPU driver, e.g. "open" or "proprietary", or null.'),
    gpu_driver_version: z.string().nullable().describe('The GPU driver\'s version, e.g. "550.127.05", or null.'),
  })
  .strict()
  .describe("An image for GPU clusters (virtual or bare-metal, as the path says).");
export interface GpuImageSchema extends GpuImageSchemaType {}
type GpuImageSchemaType = typeof gpuImageSchema;
export const gpuImage: GpuImageSchema = gpuImageSchema;

export type GpuImage = z.infer<typeof gpuImage>;

const gpuImageListSchema = z
  .object({ count: integer().describe("The number of all the images, before limit and offset."), results: z.array(gpuImage) })
  .strict()
  .describe("A page of GPU images, and the number of all of them.");
export interface GpuImageListSchema extends GpuImageListSchemaType {}
type GpuImageListSchemaType = typeof gpuImageListSchema;
export const gpuImageList: GpuImageListSchema = gpuImageListSchema;

export type GpuImageList = z.infer<typeof gpuImageList>;

const listGpuImagesQuerySchema = z.object({
  limit: integerParam({ min: 1, max: 1000, description: "Page size, 1 to 1000. Default 1000." }).default(1000),
  offset: integerParam({ min: 0, description: "Number of leading images skipped. Default 0." }).default(0),
});
export interface ListGpuImagesQuerySchema extends ListGpuImagesQuerySchemaType {}
type ListGpuImagesQuerySchemaType = typeof listGpuImagesQuerySchema;
export const listGpuImagesQuery: ListGpuImagesQuerySchema = listGpuImagesQuerySchema;

export type ListGpuImagesQuery = z.input<typeof listGpuImagesQuery>;

const imageUrl = z
  .string()
  .max(2048, "At most 2048 characters.")
  .url("Must be a URL.")
  .refine((value) => /^https?:\/\//i.test(value), "Must be an http or https URL.");

const uploadGpuImageBodySchema = strictObject(
  {
    name: z.string().min(1, "Must not be empty.").max(255, "At most 255 characters.").describe("The image's name, 1 to 255 characters."),
    url: imageUrl.describe("Where the image file is, an http or https URL of at most 2048 characters. Never shown back."),
    architecture: stringEnum(["aarch64", "x86_64"]).nullable().optional().describe("aarch64 or x86_64 (default, also for null)."),
    cow_format: z
      .boolean()
      .optional()
      .describe("true: stored raw (disk_format \"raw\"), and deletable only once no volume made from it is left; false (default): qcow2."),
    hw_firmware_type: stringEnum(["bios", "uefi"]).nullable().optional().describe("bios or uefi; null or left out: the platform's default."),
    os_distro: z.string().min(1).max(255).nullable().optional().describe('The OS distribution, e.g. "ubuntu"; at most 255 characters.'),
    os_type: stringEnum(["linux", "windows"]).nullable().optional().describe("linux (default, also for null) or windows."),
    os_version: z.string().min(1).max(255).nullable().optional().describe('The OS version, e.g. "22.04"; at most 255 characters.'),
    ssh_key: stringEnum(["allow", "deny", "required"]).optional().describe("Whether instances of the image take an SSH key: allow (default), deny or required."),
    tags: mapOf(z.string().min(1, "Must not be empty.").max(255, "At most 255 characters."), z.string().max(255, "At most 255 characters."), {
      max: 100,
      noun: "tags",
      description: "Key-value tags of the image, keys 1 to 255 characters and values at most 255; they show as tags with read_only false.",
    }).optional(),
  },
  { readOnly: ["id", "status", "visibility", "size", "disk_format", "task_id", "created_at", "updated_at", "min_disk", "min_ram"] },
).describe("The image to upload: its name and URL, and what it holds.");
export interface UploadGpuImageBodySchema extends UploadGpuImageBodySchemaType {}
type UploadGpuImageBodySchemaType = typeof uploadGpuImageBodySchema;
export const uploadGpuImageBody: UploadGpuImageBodySchema = uploadGpuImageBodySchema;

export type UploadGpuImageBody = z.input<typeof uploadGpuImageBody>;

const taskIdListSchema = z
  .object({ tasks: z.array(uuid).describe("The ids of the tasks the operation started; see GET /cloud/v1/tasks/{task_id}.") })
  .strict()
  .describe("The tasks an asynchronous operation started.");
export interface TaskIdListSchema extends TaskIdListSchemaType {}
type TaskIdListSchemaType = typeof taskIdListSchema;
export const taskIdList: TaskIdListSchema = taskIdListSchema;

export type TaskIdList = z.infer<typeof taskIdList>;

const imagePathParams = z.object({ project_id: idParam("The project id."), region_id: idParam("The region id.") });
const imageIdPathParams = imagePathParams.extend({ image_id: uuid.describe("The image id, a UUID.") });

/** The kinds of GPU clusters an image is for: each kind's images are served at its own paths, by one implementation. */
export const GPU_CLUSTER_TYPES = ["virtual", "baremetal"] as const;
export type GpuClusterType = (typeof GPU_CLUSTER_TYPES)[number];

/** What the routes of one kind of images name: their ids in the contract, and their examples' objects (account 1's). */
interface GpuImageKind {
  /** The route ids of the kind's list and upload, which its cases read and make with. */
  list: string;
  upload: string;
  /** The resource the kind's methods are under in the client, when the rule's name is another kind's. */
  clientResource?: string;
  /** The kind's clusters in a sentence: "virtual GPU clusters". */
  clusters: string;
  /** A public image of the demo data in project 1, region 1, and account 1's own image in project 3, region 1. */
  publicImage: GpuImage;
  privateImageId: string;
  uploadTaskId: string;
  deleteTaskId: string;
}

/** The four routes of a kind of images (list, get, upload, delete): the same schemas and rules, at the kind's paths. */
function gpuImageRoutes<const Kind extends GpuClusterType>(kind: Kind, names: GpuImageKind) {
  const base = `/cloud/v3/gpu/${kind}/:project_id/:region_id/images` as const;
  // The cases' objects: the images of the account's default project in the region the demo data's images are in.
  const projectOf = (w: CaseWorld) => w.first("cloud.listProjects", { where: (project) => project.is_default === true });
  const imagesPath = (w: CaseWorld) => `/cloud/v3/gpu/${kind}/${projectOf(w).id}/${DEMO_REGION_ID}/images`;
  const imageOf = (w: CaseWorld) => w.first(names.list, { params: { project_id: projectOf(w).id, region_id: DEMO_REGION_ID } });
  const where = "The project must be the account's and the region must exist (404 otherwise).";
  // The virtual images keep the client name the rule gives them (client.cloud.gpu.images); the bare-metal
  // ones, at a path the rule reads alike, are named client.cloud.gpu.baremetal.images.
  const client = names.clientResource ? { client: { resource: names.clientResource } } : {};
  const access = (metadata: RouteMetadata) => ({ ...metadata, ...client });
  // The examples are typed by each kind's own call; inside this function the paths are generic, which the
  // example's type cannot see through (the contract's tests parse every example with its route's schemas).
  const route = <const Route extends AppRoute>(definition: Route, extras: { example: Record<string, unknown>; case: RouteCaseSpec }) =>
    contractRoute(definition, extras as never);
  const taskText =
    "the task reports RUNNING for its first seconds, then FINISHED (GET /cloud/v1/tasks/{task_id})";
  return {
    list: route({
      method: "GET",
      path: base,
      pathParams: imagePathParams,
      query: listGpuImagesQuery,
      responses: { 200: gpuImageList, ...errorResponses() },
      summary: `List ${kind} GPU images`,
      description:
        `The images available to ${names.clusters} of a project in a region, ordered by name then id, paged by \`limit\` ` +
        `(default and maximum 1000) and \`offset\`; \`count\` is the number of all of them. ${where}`,
      metadata: access(read),
    }, {
      example: {
        // Project 1 ("production") of the demo data; region 1 is the region of the cost report example.
        pathParams: { project_id: 1, region_id: examples.costReportTotalsExample.results[0]!.region_id },
        query: { limit: 100, offset: 0 },
        response: { count: 1, results: [names.publicImage] },
      },
      case: { path: (w) => `${imagesPath(w)}?limit=10`, ownsObjects: true },
    }),
    get: route({
      method: "GET",
      path: `${base}/:image_id`,
      pathParams: imageIdPathParams,
      responses: { 200: gpuImage, ...errorResponses() },
      summary: `Get a ${kind} GPU image`,
      description:
        `One image for ${names.clusters} of a project in a region. 404 when the project is not the account's, or the image ` +
        `is not one of this kind in that project and region.`,
      metadata: access(read),
    }, {
      example: { pathParams: { project_id: 1, region_id: 1, image_id: names.publicImage.id }, response: names.publicImage },
      case: { path: (w) => `${imagesPath(w)}/${imageOf(w).id}`, ownsObjects: true },
    }),
    upload: route({
      method: "POST",
      path: base,
      pathParams: imagePathParams,
      body: uploadGpuImageBody,
      responses: { 200: taskIdList, ...errorResponses(withBody) },
      summary: `Upload a ${kind} GPU image`,
      description:
        `Adds an image for ${names.clusters} to the project in the region from a URL, and answers the id of the task that ` +
        `does it (task_type upload_gpu_${kind}_image), as the platform does. This service does not fetch the URL: the ` +
        "image is there when the answer arrives, with status \"active\", visibility \"private\", size null, min_disk and " +
        `min_ram 0 and no task_id, and the task's id is the image's (also in its created_resources.images); ${taskText}. ` +
        `Names need not be unique. The URL is kept nowhere and never shown back. ${where}`,
      metadata: access(write),
    }, {
      example: {
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
        response: { tasks: [names.uploadTaskId] },
      },
      case: {
        path: (w) => imagesPath(w),
        ownsObjects: true,
        body: () => ({ name: uniqueName("route-case-image"), url: "https://images.cloud-cases.example/route-case.qcow2", tags: { made_by: "route cases" } }),
      },
    }),
    delete: route({
      method: "DELETE",
      path: `${base}/:image_id`,
      pathParams: imageIdPathParams,
      responses: { 200: taskIdList, ...errorResponses([409]) },
      summary: `Delete a ${kind} GPU image`,
      description:
        `Deletes one of the project's own (private) images for ${names.clusters} and answers the id of the task that does ` +
        `it (task_type delete_gpu_${kind}_image), as the platform does; the image is gone when the answer arrives, and ` +
        `${taskText}. The platform's public images cannot be deleted (403), and an image a task still holds (task_id set) ` +
        "answers 409 first. No volumes are made from images here, so cow_format never holds a deletion back.",
      metadata: access(write),
    }, {
      example: {
        // Only a project's own images can be deleted, not the platform's public ones.
        pathParams: { project_id: 3, region_id: 1, image_id: names.privateImageId },
        response: { tasks: [names.deleteTaskId] },
      },
      case: {
        // An upload's task id is the new image's id.
        path: (w, made) => `${imagesPath(w)}/${(made?.tasks as string[] | undefined)?.[0] ?? `00000000-0000-4000-8000-00000000000${w.account}`}`,
        ownsObjects: true,
        makes: names.upload,
      },
    }),
  };
}

// The examples' objects: the demo data's, of account 1.
const virtualImages = gpuImageRoutes("virtual", {
  list: "cloud.listGpuImages",
  upload: "cloud.uploadGpuImage",
  clusters: "virtual GPU clusters",
  publicImage: { ...examples.gpuImageExample, id: "d342b423-7ae4-4628-ab4f-3c665cb04dcd" },
  privateImageId: "a38cee96-647e-42be-8b60-2b98d82b9e2a",
  uploadTaskId: "0d3f7c52-8e61-4d2a-9b7e-3c1a5f9e2b40",
  deleteTaskId: "5b2e8d17-4c3a-4f9e-a6d0-8e1f2a3b4c5d",
});
const baremetalImages = gpuImageRoutes("baremetal", {
  list: "cloud.listGpuBaremetalImages",
  upload: "cloud.uploadGpuBaremetalImage",
  clientResource: "gpu.baremetal.images",
  clusters: "bare-metal GPU clusters",
  publicImage: {
    ...examples.gpuImageExample,
    id: "482757df-0d25-4826-8fe8-35faf6200d6f",
    name: "ubuntu-22.04-x64-nvidia-550-bm",
    created_at: "2026-03-16T09:01:00.000Z",
    updated_at: "2026-06-24T09:01:00.000Z",
    min_disk: 60,
    min_ram: 32768,
    tags: [{ key: "os", read_only: true, value: "ubuntu-22.04" }],
    disk_format: "raw",
    hw_firmware_type: "uefi",
    cuda_toolkit_version: null,
  },
  privateImageId: "982b0829-d182-47d9-88ce-b87337158b7c",
  uploadTaskId: "3e9a1f4b-7c2d-4e8f-9a6b-5d4c3b2a1f0e",
  deleteTaskId: "7d6c5b4a-3f2e-4d1c-8b0a-9f8e7d6c5b4a",
});

export const cloudGpuImagesRoutes = {
  listGpuImages: virtualImages.list,
  getGpuImage: virtualImages.get,
  uploadGpuImage: virtualImages.upload,
  deleteGpuImage: virtualImages.delete,
  listGpuBaremetalImages: baremetalImages.list,
  getGpuBaremetalImage: baremetalImages.get,
  uploadGpuBaremetalImage: baremetalImages.upload,
  deleteGpuBaremetalImage: baremetalImages.delete,
} as const;
