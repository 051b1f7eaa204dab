/**
 * The account's CDN features, paid and free.
 */
import { cdnFeaturesRoutes } from "@cloudplane/contract";
import { asc, eq, schema } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { cdnTime } from "../format.js";
import type { RequestExtension, RouteDeps } from "../types.js";
import { served } from "../served.js";

const { cdnFeatures } = schema;

/** The account's CDN features' route; exported as `cdnFeatures`, a name this file gives the features' table. */
function cdnFeaturesRouter(deps: RouteDeps) {
  const { db } = deps;

  return tsr.routerWithMiddleware(served("cdn", cdnFeaturesRoutes))<RequestExtension>({
    getClientFeatures: async (_args, { request: { caller } }) => {
      const features = await db.select().from(cdnFeatures).where(eq(cdnFeatures.accountId, caller.accountId)).orderBy(asc(cdnFeatures.id));
      const entry = (feature: (typeof features)[number]) => ({
        feature_id: feature.featureId,
        name: feature.name,
        create_date: cdnTime(feature.created),
      });
      return {
        status: 200,
        body: {
          id: caller.accountId,
          paid_features: features.filter((feature) => feature.paid).map((feature) => ({ ...entry(feature), paid_feature_id: feature.id })),
          free_features: features.filter((feature) => !feature.paid).map((feature) => ({ ...entry(feature), free_feature_id: feature.id })),
        },
      };
    },
  });
}

export { cdnFeaturesRouter as cdnFeatures };
