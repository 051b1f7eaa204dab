/**
 * The purge and prefetch requests of the account's CDN resources: each kept with what it asked for and
 * when, its status derived from its age (the handlers' cdn/purge.ts). The resource's id and cname are
 * copied, so the history outlives the resource.
 */
import { sql } from "drizzle-orm";
import { check, index, integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { identityId, sqlList, timestamptz } from "../columns.js";
import { accountId } from "../iam/account.js";

export const CACHE_REQUEST_KINDS = ["purge_by_url", "purge_by_pattern", "purge_all", "prefetch"] as const;

export const cdnCacheRequests = pgTable(
  "cdn_cache_requests",
  {
    id: identityId(),
    accountId: accountId(),
    resourceId: integer("resource_id").notNull(),
    cname: text("cname").notNull(),
    kind: text("kind", { enum: CACHE_REQUEST_KINDS }).notNull(),
    /** `{urls}` or `{paths}`, as the request gave them. */
    payload: jsonb("payload").$type<{ urls: string[] } | { paths: string[] }>().notNull(),
    created: timestamptz("created").notNull().defaultNow(),
  },
  (t) => [
    index("cdn_cache_requests_account_id_created_idx").on(t.accountId, t.created, t.id),
    check("cdn_cache_requests_kind_check", sql`${t.kind} in (${sql.raw(sqlList(CACHE_REQUEST_KINDS))})`),
  ],
);
