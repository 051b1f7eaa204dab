/**
 * Cloud inference models: the platform's catalogue of deployable inference models.
 */
import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, text, uuid } from "drizzle-orm/pg-core";

/** The platform's catalogue of deployable inference models: shared by every account. */
export const inferenceModels = pgTable(
  "inference_models",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    category: text("category").notNull(),
    defaultFlavorId: text("default_flavor_id").notNull(),
    description: text("description").notNull().default(""),
    developer: text("developer").notNull(),
    documentationPage: text("documentation_page").notNull().default(""),
    eulaUrl: text("eula_url").notNull().default(""),
    exampleCurlRequest: text("example_curl_request").notNull().default(""),
    hasEula: boolean("has_eula").notNull().default(false),
    imageRegistryId: text("image_registry_id").notNull().default(""),
    imageUrl: text("image_url").notNull(),
    inferenceBackend: text("inference_backend").notNull(),
    inferenceFrontend: text("inference_frontend").notNull(),
    modelId: text("model_id").notNull(),
    openaiCompatibility: text("openai_compatibility").notNull().default(""),
    port: integer("port").notNull(),
    version: text("version").notNull(),
  },
  (t) => [
    // One index per `order_by` field, with id as the tie-breaker, in the "C" collation the listing
    // orders by (character by character, the same on every server).
    index("inference_models_name_id_idx").on(sql`${t.name} collate "C"`, t.id),
    index("inference_models_category_id_idx").on(sql`${t.category} collate "C"`, t.id),
    index("inference_models_developer_id_idx").on(sql`${t.developer} collate "C"`, t.id),
  ],
);
