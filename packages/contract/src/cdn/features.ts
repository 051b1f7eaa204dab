/**
 * The account's CDN features, paid and free, and their route.
 */
import { z } from "zod";
import { cdnTimestamp, errorResponses, integer } from "../common.js";
import type { ClientMetadata } from "../client-names.js";
import * as examples from "../examples.js";
import { route } from "../route.js";
import { read } from "./shared.js";

const feature = {
  feature_id: integer(),
  name: z.string(),
  create_date: cdnTimestamp.describe("When the account got the feature."),
};

const cdnFeaturesSchema = z
  .object({
    id: integer().describe("The account id."),
    paid_features: z
      .array(z.object({ ...feature, paid_feature_id: integer() }).strict())
      .describe("The features the account pays for."),
    free_features: z
      .array(z.object({ ...feature, free_feature_id: integer() }).strict())
      .describe("The features the account has at no cost."),
  })
  .strict()
  .describe("The CDN features of the account, paid and free.");
export interface CdnFeaturesSchema extends CdnFeaturesSchemaType {}
type CdnFeaturesSchemaType = typeof cdnFeaturesSchema;
export const cdnFeatures: CdnFeaturesSchema = cdnFeaturesSchema;

export type CdnFeatures = z.infer<typeof cdnFeatures>;

/** The account's CDN features' route. */
export const cdnFeaturesRoutes = {
  getClientFeatures: route({
    method: "GET",
    path: "/cdn/clients/me/features",
    responses: { 200: cdnFeatures, ...errorResponses() },
    summary: "List the account's CDN features",
    description: "The paid and free CDN features of the caller's account.",
    // The account's CDN features, which the path files under `clients/me`.
    metadata: { ...read, client: { resource: "features", method: "get" } } satisfies ClientMetadata,
  }, {
    example: { response: examples.cdnFeaturesExample },
    case: { path: () => "/cdn/clients/me/features", ownsObjects: false },
  }),
} as const;
