/**
 * Cloud inference flavors: the platform's flavor catalogue, and each region's capacity left, which the
 * running deployments of every account draw on.
 */
import { cloudInferenceFlavorsRoutes, type InferenceFlavor, type InferenceRegionCapacityList } from "@cloudplane/contract";
import { asc, count, eq, schema, sql } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { notFound } from "../errors.js";
import type { RequestExtension, RouteDeps } from "../types.js";
import { served } from "../served.js";

const { inferenceFlavors, inferenceRegionFlavors, inferenceDeployments, inferenceApplicationDeployments } = schema;

function toFlavor(row: typeof inferenceFlavors.$inferSelect): InferenceFlavor {
  return {
    name: row.name,
    description: row.description,
    cpu: row.cpu,
    memory: row.memory,
    gpu: row.gpu,
    gpu_model: row.gpuModel,
    gpu_memory: row.gpuMemory,
    gpu_compute_capability: row.gpuComputeCapability,
    is_gpu_shared: false,
  };
}

const byName = sql`${inferenceFlavors.name} collate "C"`;

export function cloudInferenceFlavors({ db }: RouteDeps) {
  return tsr.routerWithMiddleware(served("cloud", cloudInferenceFlavorsRoutes))<RequestExtension>({
    getInferenceCapacity: async () => {
      // Only running objects hold containers: a stopped deployment, and one being deleted, hold none.
      const [regionFlavors, deployments, applications] = await Promise.all([
        db.select().from(inferenceRegionFlavors).orderBy(asc(inferenceRegionFlavors.regionId), asc(sql`${inferenceRegionFlavors.flavorName} collate "C"`)),
        db.select({ flavorName: inferenceDeployments.flavorName, containers: inferenceDeployments.containers }).from(inferenceDeployments).where(eq(inferenceDeployments.state, "running")),
        db
          .select({ components: inferenceApplicationDeployments.componentsConfiguration, regions: inferenceApplicationDeployments.regions })
          .from(inferenceApplicationDeployments)
          .where(eq(inferenceApplicationDeployments.state, "running")),
      ]);
      const held = new Map<string, number>();
      const hold = (regionId: number, flavorName: string, containers: number) => {
        const key = `${regionId} ${flavorName}`;
        held.set(key, (held.get(key) ?? 0) + containers);
      };
      for (const deployment of deployments) for (const container of deployment.containers) hold(container.region_id, deployment.flavorName, container.scale.max);
      for (const application of applications)
        for (const component of Object.values(application.components)) for (const regionId of application.regions) hold(regionId, component.flavor, component.scale.max);
      const regions = new Map<number, InferenceRegionCapacityList["results"][number]>();
      for (const row of regionFlavors) {
        const region = regions.get(row.regionId) ?? regions.set(row.regionId, { region_id: row.regionId, capacity: [] }).get(row.regionId)!;
        region.capacity.push({ flavor_name: row.flavorName, capacity: Math.max(0, row.containers - (held.get(`${row.regionId} ${row.flavorName}`) ?? 0)) });
      }
      const results = [...regions.values()];
      return { status: 200, body: { count: results.length, results } };
    },

    listInferenceFlavors: async ({ query }) => {
      const [rows, [total]] = await Promise.all([
        db.select().from(inferenceFlavors).orderBy(asc(byName)).limit(query.limit).offset(query.offset),
        db.select({ total: count() }).from(inferenceFlavors),
      ]);
      return { status: 200, body: { count: total?.total ?? 0, results: rows.map(toFlavor) } };
    },

    getInferenceFlavor: async ({ params }) => {
      const [row] = await db.select().from(inferenceFlavors).where(eq(inferenceFlavors.name, params.flavor_name));
      if (!row) throw notFound(`Flavor ${params.flavor_name}`);
      return { status: 200, body: toFlavor(row) };
    },
  });
}
