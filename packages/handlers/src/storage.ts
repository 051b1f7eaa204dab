/**
 * Object storage routes: the CORS settings of a bucket of one of the account's storages.
 */
import { contract } from "@cloudplane/contract";
import { and, eq, schema } from "@cloudplane/db";
import { implementArea } from "./router.js";
import { notFound } from "./errors.js";
import type { RouteDeps } from "./handler.js";

const { buckets } = schema;

export function storageRoutes({ db }: RouteDeps) {
  return implementArea(contract.storage, {
    getBucketCors: async ({ params }, { caller }) => {
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
