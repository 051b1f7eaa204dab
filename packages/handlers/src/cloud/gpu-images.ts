/**
 * Cloud GPU images: a project's GPU images in a region, uploaded and deleted by tasks that finish in the
 * request that starts them.
 */
import { cloudGpuImagesRoutes, type GpuImage } from "@cloudplane/contract";
import { and, asc, count, type Database, eq, schema } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { ApiError, conflict, notFound } from "../errors.js";
import { isoTime } from "../format.js";
import type { RequestExtension, RouteDeps } from "../types.js";
import { served } from "../served.js";

const { cloudProjects, cloudRegions, cloudTasks, gpuImages } = schema;

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

/** 404 unless the project is the account's and the region exists: every image route is under both. */
async function requireProjectRegion(db: Pick<Database, "select">, accountId: number, projectId: number, regionId: number): Promise<void> {
  const [project] = await db
    .select({ id: cloudProjects.id })
    .from(cloudProjects)
    .where(and(eq(cloudProjects.accountId, accountId), eq(cloudProjects.id, projectId)));
  if (!project) throw notFound(`Project ${projectId}`);
  const [region] = await db.select({ id: cloudRegions.id }).from(cloudRegions).where(eq(cloudRegions.id, regionId));
  if (!region) throw notFound(`Region ${regionId}`);
}

/** The condition naming one image of the account in a project and region. */
function imageWhere(accountId: number, params: { project_id: number; region_id: number; image_id: string }) {
  return and(
    eq(gpuImages.accountId, accountId),
    eq(gpuImages.projectId, params.project_id),
    eq(gpuImages.regionId, params.region_id),
    eq(gpuImages.id, params.image_id),
  );
}

export function cloudGpuImages({ db }: RouteDeps) {
  return tsr.routerWithMiddleware(served("cloud", cloudGpuImagesRoutes))<RequestExtension>({
    listGpuImages: async ({ params, query }, { request: { caller } }) => {
      await requireProjectRegion(db, caller.accountId, params.project_id, params.region_id);
      const where = and(
        eq(gpuImages.accountId, caller.accountId),
        eq(gpuImages.projectId, params.project_id),
        eq(gpuImages.regionId, params.region_id),
      );
      const [rows, [total]] = await Promise.all([
        db.select().from(gpuImages).where(where).orderBy(asc(gpuImages.name), asc(gpuImages.id)).limit(query.limit).offset(query.offset),
        db.select({ total: count() }).from(gpuImages).where(where),
      ]);
      return { status: 200, body: { count: total?.total ?? 0, results: rows.map(toGpuImage) } };
    },

    getGpuImage: async ({ params }, { request: { caller } }) => {
      await requireProjectRegion(db, caller.accountId, params.project_id, params.region_id);
      const [row] = await db.select().from(gpuImages).where(imageWhere(caller.accountId, params));
      if (!row) throw notFound(`GPU image ${params.image_id}`);
      return { status: 200, body: toGpuImage(row) };
    },

    uploadGpuImage: async ({ params, body }, { request: { caller } }) => {
      const taskId = await db.transaction(async (tx) => {
        await requireProjectRegion(tx, caller.accountId, params.project_id, params.region_id);
        const now = new Date();
        const [image] = await tx
          .insert(gpuImages)
          .values({
            accountId: caller.accountId,
            projectId: params.project_id,
            regionId: params.region_id,
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
        const [task] = await tx
          .insert(cloudTasks)
          .values({
            id: image!.id,
            accountId: caller.accountId,
            userId: caller.userId,
            projectId: params.project_id,
            regionId: params.region_id,
            taskType: "upload_gpu_virtual_image",
            state: "FINISHED",
            createdResources: { images: [image!.id] },
            data: { image_name: body.name },
            createdOn: now,
            finishedOn: now,
          })
          .returning({ id: cloudTasks.id });
        return task!.id;
      });
      return { status: 200, body: { tasks: [taskId] } };
    },

    deleteGpuImage: async ({ params }, { request: { caller } }) => {
      const taskId = await db.transaction(async (tx) => {
        await requireProjectRegion(tx, caller.accountId, params.project_id, params.region_id);
        const [image] = await tx
          .select({ id: gpuImages.id, visibility: gpuImages.visibility, taskId: gpuImages.taskId })
          .from(gpuImages)
          .where(imageWhere(caller.accountId, params))
          .for("update");
        if (!image) throw notFound(`GPU image ${params.image_id}`);
        if (image.taskId !== null) throw conflict(`GPU image ${image.id} is held by task ${image.taskId}; try again once it has finished.`);
        if (image.visibility !== "private")
          throw new ApiError("permission_denied", `GPU image ${image.id} is one of the platform's ${image.visibility} images; only the project's own images can be deleted.`);
        await tx.delete(gpuImages).where(imageWhere(caller.accountId, params));
        const now = new Date();
        const [task] = await tx
          .insert(cloudTasks)
          .values({
            accountId: caller.accountId,
            userId: caller.userId,
            projectId: params.project_id,
            regionId: params.region_id,
            taskType: "delete_gpu_virtual_image",
            state: "FINISHED",
            createdResources: null,
            data: { image_id: image.id },
            createdOn: now,
            finishedOn: now,
          })
          .returning({ id: cloudTasks.id });
        return task!.id;
      });
      return { status: 200, body: { tasks: [taskId] } };
    },
  });
}
