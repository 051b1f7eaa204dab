/**
 * Cloud GPU images: a project's images in a region for virtual and for bare-metal GPU clusters, one
 * implementation for both kinds; uploaded and deleted by tasks (the change is made in the request).
 */
import { cloudGpuImagesRoutes, type GpuClusterType, type GpuImage, type UploadGpuImageBody } from "@cloudplane/contract";
import { and, asc, eq, schema } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { ApiError, conflict, notFound } from "../errors.js";
import { listingCount } from "../page.js";
import { isoTime } from "../format.js";
import type { RequestExtension, RouteDeps } from "../types.js";
import { served } from "../served.js";
import { requireProjectRegion } from "./projects.js";
import { startTask } from "./tasks.js";

const { gpuImages } = schema;

function toGpuImage(row: typeof gpuImages.$inferSelect): GpuImage {
  return {
    id: row.id,
    name: row.name,
    architecture: row.architecture,
    os_distro: row.osDistro,
    os_type: row.osType,
    os_version: row.osVersion,
    ssh_key: row.sshKey,
    status: row.status,
    visibility: row.visibility,
    created_at: isoTime(row.createdAt),
    updated_at: isoTime(row.updatedAt),
    min_disk: row.minDisk,
    min_ram: row.minRam,
    size: row.size,
    tags: row.tags,
    task_id: row.taskId,
    disk_format: row.diskFormat,
    hw_firmware_type: row.hwFirmwareType,
    cuda_toolkit_version: row.cudaToolkitVersion,
    gpu_driver: row.gpuDriver,
    gpu_driver_type: row.gpuDriverType,
    gpu_driver_version: row.gpuDriverVersion,
  };
}

/** The condition naming the account's images of a kind in a project and region. */
function imagesWhere(accountId: number, kind: GpuClusterType, params: { project_id: number; region_id: number }) {
  return and(
    eq(gpuImages.accountId, accountId),
    eq(gpuImages.projectId, params.project_id),
    eq(gpuImages.regionId, params.region_id),
    eq(gpuImages.clusterType, kind),
  );
}

/** The condition naming one image of the account of a kind in a project and region. */
function imageWhere(accountId: number, kind: GpuClusterType, params: { project_id: number; region_id: number; image_id: string }) {
  return and(imagesWhere(accountId, kind, params), eq(gpuImages.id, params.image_id));
}

type ImagesParams = { project_id: number; region_id: number };
type ImageParams = ImagesParams & { image_id: string };
type Caller = RequestExtension["caller"];

/** The four operations on a kind of images, one implementation for the virtual and the bare-metal ones. */
function gpuImageOperations(db: RouteDeps["db"], kind: GpuClusterType) {
  const imageCount = listingCount(db, "gpu_images");
  return {
    list: async (caller: Caller, params: ImagesParams, query: { limit: number; offset: number }) => {
      await requireProjectRegion(db, caller.accountId, params.project_id, params.region_id);
      const where = imagesWhere(caller.accountId, kind, params);
      // The count is kept by the database per project, region and kind (listing_counts).
      const [rows, total] = await Promise.all([
        db.select().from(gpuImages).where(where).orderBy(asc(gpuImages.name), asc(gpuImages.id)).limit(query.limit).offset(query.offset),
        imageCount(caller.accountId, `${params.project_id}/${params.region_id}/${kind}`),
      ]);
      return { status: 200 as const, body: { count: total, results: rows.map(toGpuImage) } };
    },

    get: async (caller: Caller, params: ImageParams) => {
      await requireProjectRegion(db, caller.accountId, params.project_id, params.region_id);
      const [row] = await db.select().from(gpuImages).where(imageWhere(caller.accountId, kind, params));
      if (!row) throw notFound(`GPU image ${params.image_id}`);
      return { status: 200 as const, body: toGpuImage(row) };
    },

    upload: async (caller: Caller, params: ImagesParams, body: UploadGpuImageBody) => {
      const taskId = await db.transaction(async (tx) => {
        await requireProjectRegion(tx, caller.accountId, params.project_id, params.region_id);
        const now = new Date();
        const [image] = await tx
          .insert(gpuImages)
          .values({
            accountId: caller.accountId,
            projectId: params.project_id,
            regionId: params.region_id,
            clusterType: kind,
            name: body.name,
            architecture: body.architecture ?? "x86_64",
            osDistro: body.os_distro ?? null,
            osType: body.os_type ?? "linux",
            osVersion: body.os_version ?? null,
            sshKey: body.ssh_key ?? "allow",
            status: "active",
            visibility: "private",
            createdAt: now,
            updatedAt: now,
            minDisk: 0,
            minRam: 0,
            size: null,
            tags: Object.entries(body.tags ?? {}).map(([key, value]) => ({ key, read_only: false, value })),
            taskId: null,
            diskFormat: body.cow_format ? "raw" : "qcow2",
            cowFormat: body.cow_format ?? false,
            hwFirmwareType: body.hw_firmware_type ?? null,
          })
          .returning({ id: gpuImages.id });
        // The URL is not kept: it may carry credentials, and nothing here fetches it. The task takes the
        // image's id, so that the task id a client gets back names the image too.
        return startTask(tx, caller, {
          now,
          id: image!.id,
          taskType: `upload_gpu_${kind}_image`,
          projectId: params.project_id,
          regionId: params.region_id,
          createdResources: { images: [image!.id] },
          data: { image_name: body.name },
        });
      });
      return { status: 200 as const, body: { tasks: [taskId] } };
    },

    delete: async (caller: Caller, params: ImageParams) => {
      const taskId = await db.transaction(async (tx) => {
        await requireProjectRegion(tx, caller.accountId, params.project_id, params.region_id);
        const [image] = await tx
          .select({ id: gpuImages.id, visibility: gpuImages.visibility, taskId: gpuImages.taskId })
          .from(gpuImages)
          .where(imageWhere(caller.accountId, kind, params))
          .for("update");
        if (!image) throw notFound(`GPU image ${params.image_id}`);
        if (image.taskId !== null) throw conflict(`GPU image ${image.id} is held by task ${image.taskId}; try again once it has finished.`);
        if (image.visibility !== "private")
          throw new ApiError("permission_denied", `GPU image ${image.id} is one of the platform's ${image.visibility} images; only the project's own images can be deleted.`);
        await tx.delete(gpuImages).where(imageWhere(caller.accountId, kind, params));
        return startTask(tx, caller, {
          taskType: `delete_gpu_${kind}_image`,
          projectId: params.project_id,
          regionId: params.region_id,
          data: { image_id: image.id },
        });
      });
      return { status: 200 as const, body: { tasks: [taskId] } };
    },
  };
}

export function cloudGpuImages({ db }: RouteDeps) {
  const virtual = gpuImageOperations(db, "virtual");
  const baremetal = gpuImageOperations(db, "baremetal");
  return tsr.routerWithMiddleware(served("cloud", cloudGpuImagesRoutes))<RequestExtension>({
    listGpuImages: ({ params, query }, { request: { caller } }) => virtual.list(caller, params, query),
    getGpuImage: ({ params }, { request: { caller } }) => virtual.get(caller, params),
    uploadGpuImage: ({ params, body }, { request: { caller } }) => virtual.upload(caller, params, body),
    deleteGpuImage: ({ params }, { request: { caller } }) => virtual.delete(caller, params),
    listGpuBaremetalImages: ({ params, query }, { request: { caller } }) => baremetal.list(caller, params, query),
    getGpuBaremetalImage: ({ params }, { request: { caller } }) => baremetal.get(caller, params),
    uploadGpuBaremetalImage: ({ params, body }, { request: { caller } }) => baremetal.upload(caller, params, body),
    deleteGpuBaremetalImage: ({ params }, { request: { caller } }) => baremetal.delete(caller, params),
  });
}
