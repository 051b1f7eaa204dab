/**
 * Edge app calls: one row per request an app served, with its status, duration, edge and log line. The
 * apps' logs list these rows, and the statistics count and summarise them per time slot. The demo data's
 * are made by a generator (demo-activity.ts); an app's calls go with it.
 */
import { sql } from "drizzle-orm";
import { bigint, check, foreignKey, index, integer, pgTable, smallint, text } from "drizzle-orm/pg-core";
import { timestamptz } from "../columns.js";
import { accountId } from "../iam/account.js";
import { edgeApps } from "./apps.js";

export const edgeAppCalls = pgTable(
  "edge_app_calls",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    accountId: accountId(),
    appId: integer("app_id").notNull(),
    time: timestamptz("time").notNull(),
    /** The HTTP status the app answered. */
    status: smallint("status").notNull(),
    /** How long the app ran, in microseconds. */
    durationUs: integer("duration_us").notNull(),
    /** The edge location that ran the app, e.g. "ams-1". */
    edge: text("edge").notNull(),
    /** The edge network the edge belongs to, e.g. "edge-eu". */
    network: text("network").notNull(),
    clientIp: text("client_ip").notNull(),
    requestId: text("request_id").notNull(),
    /** The log line the call wrote. */
    log: text("log").notNull(),
  },
  (t) => [
    index("edge_app_calls_account_id_app_id_time_idx").on(t.accountId, t.appId, t.time),
    index("edge_app_calls_account_id_time_idx").on(t.accountId, t.time),
    // An app's calls at one edge, the logs' most used filter: its page and its count from the index alone
    // (the index above reads every call of the period and drops the other edges' rows).
    index("edge_app_calls_account_id_app_id_edge_time_idx").on(t.accountId, t.appId, t.edge, t.time),
    foreignKey({ name: "edge_app_calls_app_fk", columns: [t.accountId, t.appId], foreignColumns: [edgeApps.accountId, edgeApps.id] }).onDelete("cascade"),
    check("edge_app_calls_status_check", sql`${t.status} between 100 and 599`),
    check("edge_app_calls_duration_check", sql`${t.durationUs} >= 0`),
  ],
);
