/**
 * The platform's shielding POPs: their listing, the same for every account.
 */
import { cdnShieldingPopsRoutes } from "@cloudplane/contract";
import { asc, count, schema } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import type { RequestExtension, RouteDeps } from "../types.js";
import { served } from "../served.js";

const { shieldingPops } = schema;

/** The shielding POPs' route. */
export function cdnShieldingPops(deps: RouteDeps) {
  const { db } = deps;

  return tsr.routerWithMiddleware(served("cdn", cdnShieldingPopsRoutes))<RequestExtension>({
    listShieldingPops: async ({ query }) => {
      const [rows, [total]] = await Promise.all([
        db.select().from(shieldingPops).orderBy(asc(shieldingPops.id)).limit(query.limit).offset(query.offset),
        db.select({ total: count() }).from(shieldingPops),
      ]);
      return {
        status: 200,
        body: {
          count: total?.total ?? 0,
          results: rows.map((pop) => ({ id: pop.id, datacenter: pop.datacenter, country: pop.country, city: pop.city })),
        },
      };
    },
  });
}
