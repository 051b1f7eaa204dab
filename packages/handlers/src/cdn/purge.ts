/**
 * Purge, prefetch and the Let's Encrypt pre-validation of a CDN resource, and the purge history. Each purge and
 * prefetch is kept as a request (with the resource's cname of the time); its status follows from its age: in
 * progress for its kind's set time (CACHE_REQUEST_SECONDS), then successful.
 */
import { CACHE_REQUEST_SECONDS, cdnPurgeRoutes, type PrefetchStatus, type PurgeStatus, type PurgeType } from "@cloudplane/contract";
import { and, count, desc, eq, schema, sql, type SQL } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { ApiError, notFound } from "../errors.js";
import type { RequestExtension, RouteDeps } from "../types.js";
import { served } from "../served.js";

const { cdnCacheRequests, cdnResources } = schema;

type CacheRequestRow = typeof cdnCacheRequests.$inferSelect;

/** The request's status at `now`: in progress for its kind's set time after it was made. */
function statusAt(row: Pick<CacheRequestRow, "kind" | "created">, now: Date): "In progress" | "Successful" {
  return row.created.getTime() + CACHE_REQUEST_SECONDS[row.kind] * 1000 > now.getTime() ? "In progress" : "Successful";
}

/** The same status in SQL, for the listing's filter: `now` is the request's time. */
function statusSql(now: Date): SQL<string> {
  const seconds = sql.join(
    Object.entries(CACHE_REQUEST_SECONDS).map(([kind, value]) => sql`when ${kind} then ${sql.raw(String(Number(value)))}`),
    sql` `,
  );
  return sql<string>`(case when ${cdnCacheRequests.created} + make_interval(secs => (case ${cdnCacheRequests.kind} ${seconds} end)) > ${now.toISOString()}::timestamptz then 'In progress' else 'Successful' end)`;
}

function purgeStatusOf(row: CacheRequestRow, now: Date): PurgeStatus {
  return {
    purge_id: row.id,
    purge_type: row.kind as PurgeType,
    payload: row.payload,
    resource: { id: row.resourceId, cname: row.cname },
    created: row.created.toISOString(),
    status: statusAt(row, now),
  };
}

function prefetchStatusOf(row: CacheRequestRow, now: Date): PrefetchStatus {
  return {
    prefetch_id: row.id,
    payload: row.payload as { paths: string[] },
    resource: { id: row.resourceId, cname: row.cname },
    created: row.created.toISOString(),
    status: statusAt(row, now),
  };
}

/** The routes of purges, prefetches, the pre-validation and the purge history. */
export function cdnPurge({ db }: RouteDeps) {
  /** Keeps a request for the account's resource; 404 when the account has no such resource. */
  async function keepRequest(accountId: number, resourceId: number, kind: CacheRequestRow["kind"], payload: CacheRequestRow["payload"]): Promise<CacheRequestRow> {
    return db.transaction(async (tx) => {
      // Key share: the resource cannot be deleted under the request, which names its cname of the time.
      const [resource] = await tx
        .select({ id: cdnResources.id, cname: cdnResources.cname })
        .from(cdnResources)
        .where(and(eq(cdnResources.accountId, accountId), eq(cdnResources.id, resourceId)))
        .for("key share");
      if (!resource) throw notFound(`CDN resource ${resourceId}`);
      const [row] = await tx.insert(cdnCacheRequests).values({ accountId, resourceId, cname: resource.cname, kind, payload }).returning();
      return row!;
    });
  }

  return tsr.routerWithMiddleware(served("cdn", cdnPurgeRoutes))<RequestExtension>({
    purgeResource: async ({ params, body }, { request: { caller } }) => {
      const [kind, payload]: [CacheRequestRow["kind"], CacheRequestRow["payload"]] = body.urls
        ? ["purge_by_url", { urls: body.urls }]
        : [body.paths!.length ? "purge_by_pattern" : "purge_all", { paths: body.paths! }];
      const row = await keepRequest(caller.accountId, params.resource_id, kind, payload);
      return { status: 201, body: purgeStatusOf(row, row.created) };
    },

    prefetchResource: async ({ params, body }, { request: { caller } }) => {
      const row = await keepRequest(caller.accountId, params.resource_id, "prefetch", { paths: body.paths });
      return { status: 201, body: prefetchStatusOf(row, row.created) };
    },

    prevalidateResourceSslLeCertificate: async ({ params }, { request: { caller } }) => {
      const [resource] = await db
        .select({ active: cdnResources.active, suspended: cdnResources.suspended, deleted: cdnResources.deleted, cname: cdnResources.cname })
        .from(cdnResources)
        .where(and(eq(cdnResources.accountId, caller.accountId), eq(cdnResources.id, params.resource_id)));
      if (!resource) throw notFound(`CDN resource ${params.resource_id}`);
      const not = [!resource.active && "active", resource.suspended && "suspended", resource.deleted && "deleted"].filter(Boolean);
      if (!resource.active || resource.suspended || resource.deleted)
        throw new ApiError(
          "unprocessable",
          `CDN resource ${params.resource_id} (${resource.cname}) cannot get a Let's Encrypt certificate: it is ${not.map((word) => (word === "active" ? "not active" : word)).join(" and ")}, so the CDN does not answer Let's Encrypt's challenge for it.`,
        );
      return { status: 204, body: undefined };
    },

    listPurgeStatuses: async ({ query }, { request: { caller } }) => {
      const now = new Date();
      const conditions: (SQL | undefined)[] = [eq(cdnCacheRequests.accountId, caller.accountId), sql`${cdnCacheRequests.kind} <> 'prefetch'`];
      if (query.cname) conditions.push(sql`lower(${cdnCacheRequests.cname}) = lower(${query.cname})`);
      if (query.purge_type) conditions.push(eq(cdnCacheRequests.kind, query.purge_type));
      if (query.from_created) conditions.push(sql`${cdnCacheRequests.created} >= ${query.from_created}::timestamptz`);
      if (query.to_created) conditions.push(sql`${cdnCacheRequests.created} <= ${query.to_created}::timestamptz`);
      if (query.status) conditions.push(sql`${statusSql(now)} = ${query.status}`);
      const where = and(...conditions);
      const [rows, [total]] = await Promise.all([
        db.select().from(cdnCacheRequests).where(where).orderBy(desc(cdnCacheRequests.created), desc(cdnCacheRequests.id)).limit(query.limit).offset(query.offset),
        db.select({ total: count() }).from(cdnCacheRequests).where(where),
      ]);
      return { status: 200, body: { count: total?.total ?? 0, results: rows.map((row) => purgeStatusOf(row, now)) } };
    },
  });
}
