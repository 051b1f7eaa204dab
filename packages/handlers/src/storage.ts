/**
 * Object storage routes: the CORS settings of a bucket of one of the account's storages.
 */
import { contract } from "@cloudplane/contract";
import { and, eq, schema } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { notFound } from "./errors.js";
import type { RequestExtension, RouteDeps } from "./types.js";

const { buckets } = schema;

export function storageRoutes({ db }: RouteDeps) {
  return tsr.routerWithMiddleware(contract.storage)<RequestExtension>({
    getBucketCors: async ({ params }, { request: { caller } }) => {
      // The bucket's account_id is its storage's (a composite foreign key), so one lookup scopes both.
      const [bucket] = await db
        .select({ allowedOrigins: buckets.allowedOrigins })
        .from(buckets)
        .where(and(eq(buckets.accountId, caller.accountId), eq(buckets.storageId, params.id), eq(buckets.name, params.name)))
        .limit(1);
      if (!bucket) throw notFound(`Bucket ${params.name} of storage ${params.id}`);
      return { status: 200, body: { data: { allowedOrigins: bucket.allowedOrigins } } };
    },
  });
}
