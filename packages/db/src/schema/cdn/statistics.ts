/**
 * What the CDN's statistics, metrics and raw logs are answered from: the traffic of each CDN resource per
 * 5-minute bucket (one row per resource, bucket, edge country, client country and protocol), the requests
 * the edges logged, and the periods during which a resource had a paid feature (origin shielding, raw
 * logs) switched on. No foreign key to the resources: a deleted resource's history stays its account's.
 */
import { sql } from "drizzle-orm";
import { bigint, check, index, integer, jsonb, pgTable, primaryKey, smallint, text, uniqueIndex } from "drizzle-orm/pg-core";
import { identityId, sqlList, timestamptz } from "../columns.js";
import { accounts } from "../iam/account.js";

/** The seconds of one usage bucket. */
export const CDN_USAGE_BUCKET_SECONDS = 300;

const accountRef = () =>
  integer("account_id")
    .notNull()
    .references(() => accounts.id, { onDelete: "cascade" });

/**
 * A resource's traffic in one 5-minute bucket (`bucket` is its start), at the edges of one country, from
 * clients of one country, over one HTTP protocol. Times are sums over the bucket's requests.
 */
export const cdnUsage = pgTable(
  "cdn_usage",
  {
    accountId: accountRef(),
    bucket: timestamptz("bucket").notNull(),
    resourceId: integer("resource_id").notNull(),
    /** ISO 3166 alpha-2 code of the edge servers' country; the region is the country's. */
    country: text("country").notNull(),
    region: text("region").notNull(),
    clientCountry: text("client_country").notNull(),
    protocol: text("protocol").notNull(),
    sentBytes: bigint("sent_bytes", { mode: "number" }).notNull(),
    upstreamBytes: bigint("upstream_bytes", { mode: "number" }).notNull(),
    shieldBytes: bigint("shield_bytes", { mode: "number" }).notNull(),
    backblazeBytes: bigint("backblaze_bytes", { mode: "number" }).notNull(),
    hitBytes: bigint("hit_bytes", { mode: "number" }).notNull(),
    requests: bigint("requests", { mode: "number" }).notNull(),
    originRequests: bigint("origin_requests", { mode: "number" }).notNull(),
    responses2xx: bigint("responses_2xx", { mode: "number" }).notNull(),
    responses3xx: bigint("responses_3xx", { mode: "number" }).notNull(),
    responses4xx: bigint("responses_4xx", { mode: "number" }).notNull(),
    responses5xx: bigint("responses_5xx", { mode: "number" }).notNull(),
    responsesHit: bigint("responses_hit", { mode: "number" }).notNull(),
    responsesMiss: bigint("responses_miss", { mode: "number" }).notNull(),
    imageProcessed: bigint("image_processed", { mode: "number" }).notNull(),
    requestTimeMs: bigint("request_time_ms", { mode: "number" }).notNull(),
    upstreamResponseTimeMs: bigint("upstream_response_time_ms", { mode: "number" }).notNull(),
    /** Responses by MIME type: `{"text/html": 120, …}`. */
    responseTypes: jsonb("response_types").$type<Record<string, number>>().notNull().default({}),
  },
  (t) => [
    // The account's buckets in time order first: every statistics query reads one account's time range.
    primaryKey({ columns: [t.accountId, t.bucket, t.resourceId, t.country, t.clientCountry, t.protocol] }),
    index("cdn_usage_account_id_resource_id_bucket_idx").on(t.accountId, t.resourceId, t.bucket),
  ],
);

export const CDN_CACHE_STATUSES = ["MISS", "BYPASS", "EXPIRED", "STALE", "PENDING", "UPDATING", "REVALIDATED", "HIT", "-"] as const;

/** One request an edge server logged for a resource. */
export const cdnRequestLogs = pgTable(
  "cdn_request_logs",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    accountId: accountRef(),
    timestamp: timestamptz("timestamp").notNull(),
    resourceId: integer("resource_id").notNull(),
    cname: text("cname").notNull(),
    clientIp: text("client_ip").notNull(),
    method: text("method").notNull(),
    path: text("path").notNull(),
    status: smallint("status").notNull(),
    size: bigint("size", { mode: "number" }).notNull(),
    cacheStatus: text("cache_status").notNull(),
    datacenter: text("datacenter").notNull(),
    referer: text("referer").notNull(),
    userAgent: text("user_agent").notNull(),
    contentType: text("content_type").notNull(),
    tcpinfoRtt: integer("tcpinfo_rtt").notNull(),
  },
  (t) => [
    index("cdn_request_logs_account_id_timestamp_idx").on(t.accountId, t.timestamp),
    check("cdn_request_logs_cache_status_check", sql`${t.cacheStatus} in (${sql.raw(sqlList(CDN_CACHE_STATUSES))})`),
  ],
);

export const CDN_PAID_FEATURES = ["shield", "raw_logs"] as const;

/**
 * A period during which a resource had a paid feature on: origin shielding (a shielding POP chosen) or raw
 * logs (named by an enabled logs uploader config). `active_to` null: still on. Written by the triggers of
 * migration `cdn_statistics_feature_periods`, as the resource or config changes.
 */
export const cdnFeaturePeriods = pgTable(
  "cdn_feature_periods",
  {
    id: identityId(),
    accountId: accountRef(),
    resourceId: integer("resource_id").notNull(),
    feature: text("feature", { enum: CDN_PAID_FEATURES }).notNull(),
    activeFrom: timestamptz("active_from").notNull(),
    activeTo: timestamptz("active_to"),
  },
  (t) => [
    index("cdn_feature_periods_account_id_feature_active_from_idx").on(t.accountId, t.feature, t.activeFrom),
    uniqueIndex("cdn_feature_periods_open_unique").on(t.resourceId, t.feature).where(sql`${t.activeTo} is null`),
    check("cdn_feature_periods_feature_check", sql`${t.feature} in (${sql.raw(sqlList(CDN_PAID_FEATURES))})`),
  ],
);

/**
 * The account's API write requests to the CDN area, one row each: who made it, what it sent (secrets
 * removed) and what it answered. Written in the write's own transaction when it commits one.
 */
export const cdnAuditLog = pgTable(
  "cdn_audit_log",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    accountId: accountRef(),
    userId: integer("user_id").notNull(),
    tokenId: integer("token_id").notNull(),
    requestedAt: timestamptz("requested_at").notNull().defaultNow(),
    method: text("method").notNull(),
    path: text("path").notNull(),
    queryParams: text("query_params").notNull().default(""),
    host: text("host").notNull().default(""),
    remoteIpAddress: text("remote_ip_address"),
    statusCode: smallint("status_code").notNull(),
    data: jsonb("data"),
    /** C, U or D for a write that changed something; null for one that was refused. */
    actionType: text("action_type"),
  },
  (t) => [
    index("cdn_audit_log_account_id_requested_at_idx").on(t.accountId, t.requestedAt),
    check("cdn_audit_log_action_type_check", sql`${t.actionType} in ('C', 'U', 'D')`),
  ],
);
