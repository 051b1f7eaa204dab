/**
 * The CDN audit log's routes: the account's entries (written by audit-log.ts as the CDN writes happen),
 * filtered and paged, newest first, and one entry.
 */
import { cdnAuditLogRoutes, type CdnAuditLogEntry, type CdnAuditLogQuery } from "@cloudplane/contract";
import { and, count, desc, eq, gte, lt, schema, sql, type SQL } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { notFound } from "../errors.js";
import { served } from "../served.js";
import type { RequestExtension, RouteDeps } from "../types.js";

const { cdnAuditLog } = schema;
type EntryRow = typeof cdnAuditLog.$inferSelect;

/** The entry's time with microseconds, as the platform writes it: 2026-10-30T09:12:00.000000Z. */
const microseconds = (moment: Date) => moment.toISOString().replace(/\.(\d{3})Z$/, ".$1000Z");

function entryOf(row: EntryRow): CdnAuditLogEntry {
  return {
    id: row.id,
    client_id: row.accountId,
    user_id: row.userId,
    token_id: row.tokenId,
    requested_at: microseconds(row.requestedAt),
    method: row.method,
    path: row.path,
    query_params: row.queryParams,
    host: row.host,
    remote_ip_address: row.remoteIpAddress,
    status_code: row.statusCode,
    data: (row.data as Record<string, unknown> | null) ?? null,
    actions: row.actionType ? [{ action_type: row.actionType as "C" | "U" | "D", state_before_request: null, state_after_request: null }] : [],
  };
}

/** A filter's moment: a date alone stands for its midnight (UTC), or with `wholeDay` the midnight after it. */
function momentOf(text: string, wholeDay: boolean): Date {
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) {
    const midnight = new Date(`${text}T00:00:00Z`);
    return wholeDay ? new Date(midnight.getTime() + 86_400_000) : midnight;
  }
  const zoned = /(?:Z|[+-]\d{2}:?\d{2})$/.test(text) ? text : `${text}Z`;
  return new Date(zoned.replace(" ", "T"));
}

function filtersOf(accountId: number, query: CdnAuditLogQuery): SQL | undefined {
  const conditions: (SQL | undefined)[] = [eq(cdnAuditLog.accountId, accountId)];
  // Another account's id names no entry of the caller's.
  if (query.client_id !== undefined && query.client_id !== accountId) conditions.push(sql`false`);
  if (query.user_id !== undefined) conditions.push(eq(cdnAuditLog.userId, query.user_id));
  if (query.token_id !== undefined) conditions.push(eq(cdnAuditLog.tokenId, query.token_id));
  if (query.method !== undefined) conditions.push(eq(cdnAuditLog.method, query.method));
  if (query.path !== undefined) conditions.push(eq(cdnAuditLog.path, query.path));
  if (query.remote_ip_address !== undefined) conditions.push(eq(cdnAuditLog.remoteIpAddress, query.remote_ip_address));
  if (query.status_code !== undefined) conditions.push(sql`${cdnAuditLog.statusCode}::text like ${`${query.status_code}%`}`);
  if (query.min_requested_at !== undefined) conditions.push(gte(cdnAuditLog.requestedAt, momentOf(query.min_requested_at, false)));
  if (query.max_requested_at !== undefined) {
    const wholeDay = /^\d{4}-\d{2}-\d{2}$/.test(query.max_requested_at);
    const end = momentOf(query.max_requested_at, wholeDay);
    conditions.push(wholeDay ? lt(cdnAuditLog.requestedAt, end) : sql`${cdnAuditLog.requestedAt} <= ${end.toISOString()}::timestamptz`);
  }
  return and(...conditions);
}

export function cdnAuditLogEntries(deps: RouteDeps) {
  const { db } = deps;

  return tsr.routerWithMiddleware(served("cdn", cdnAuditLogRoutes))<RequestExtension>({
    listAuditLog: async ({ query }, { request }) => {
      const where = filtersOf(request.caller.accountId, query);
      const [rows, [total]] = await Promise.all([
        db.select().from(cdnAuditLog).where(where).orderBy(desc(cdnAuditLog.requestedAt), desc(cdnAuditLog.id)).limit(query.limit).offset(query.offset),
        db.select({ total: count() }).from(cdnAuditLog).where(where),
      ]);
      return { status: 200, body: { count: total?.total ?? 0, results: rows.map(entryOf) } };
    },

    getAuditLogEntry: async ({ params }, { request }) => {
      const [row] = await db
        .select()
        .from(cdnAuditLog)
        .where(and(eq(cdnAuditLog.accountId, request.caller.accountId), eq(cdnAuditLog.id, params.id)));
      if (!row) throw notFound(`Audit log entry ${params.id}`);
      return { status: 200, body: entryOf(row) };
    },
  });
}
