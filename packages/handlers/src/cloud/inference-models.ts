/**
 * Cloud inference models: the platform's catalogue of inference models, ordered in the "C" collation.
 */
import { cloudInferenceModelsRoutes, type InferenceModel } from "@cloudplane/contract";
import { asc, count, desc, eq, schema, sql } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { notFound } from "../errors.js";
import type { RequestExtension, RouteDeps } from "../types.js";
import { served } from "../served.js";

const { inferenceModels } = schema;

// Text is ordered by code point (collation "C"): the database's own collation would make the order
// depend on how the server was set up (PGlite sorts "FLUX" before "bge", an en_US server after it).
const MODEL_ORDER = {
  name: sql`${inferenceModels.name} collate "C"`,
  id: sql`${inferenceModels.id}`,
  category: sql`${inferenceModels.category} collate "C"`,
  developer: sql`${inferenceModels.developer} collate "C"`,
} as const;

function toInferenceModel(row: typeof inferenceModels.$inferSelect): InferenceModel {
  return {
    id: row.id,
    name: row.name,
    category: row.category,
    default_flavor_id: row.defaultFlavorId,
    description: row.description,
    developer: row.developer,
    documentation_page: row.documentationPage,
    eula_url: row.eulaUrl,
    example_curl_request: row.exampleCurlRequest,
    has_eula: row.hasEula,
    image_registry_id: row.imageRegistryId,
    image_url: row.imageUrl,
    inference_backend: row.inferenceBackend,
    inference_frontend: row.inferenceFrontend,
    model_id: row.modelId,
    openai_compatibility: row.openaiCompatibility,
    port: row.port,
    version: row.version,
  };
}

export function cloudInferenceModels({ db }: RouteDeps) {
  return tsr.routerWithMiddleware(served("cloud", cloudInferenceModelsRoutes))<RequestExtension>({
    listInferenceModels: async ({ query }) => {
      const [field, direction] = query.order_by.split(".") as [keyof typeof MODEL_ORDER, "asc" | "desc"];
      const order = direction === "asc" ? asc : desc;
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(inferenceModels)
          .orderBy(order(MODEL_ORDER[field]), asc(inferenceModels.id))
          .limit(query.limit)
          .offset(query.offset),
        db.select({ total: count() }).from(inferenceModels),
      ]);
      return { status: 200, body: { count: total?.total ?? 0, results: rows.map(toInferenceModel) } };
    },

    getInferenceModel: async ({ params }) => {
      const [row] = await db.select().from(inferenceModels).where(eq(inferenceModels.id, params.model_id));
      if (!row) throw notFound(`Inference model ${params.model_id}`);
      return { status: 200, body: toInferenceModel(row) };
    },
  });
}
