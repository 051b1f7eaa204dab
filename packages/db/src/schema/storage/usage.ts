/**
 * Object storage usage: one row per storage and hour, what the storage held and served in that hour. The
 * statistics routes aggregate these rows; the demo data's are generated (`generateDemoStorageUsage`).
 */
import { bigint, foreignKey, integer, pgTable, primaryKey } from "drizzle-orm/pg-core";
import { timestamptz } from "../columns.js";
import { accountId } from "../iam/account.js";
import { storages } from "./storages.js";

const count = (name: string) => bigint(name, { mode: "number" }).notNull().default(0);

export const storageUsage = pgTable(
  "storage_usage",
  {
    accountId: accountId(),
    storageId: integer("storage_id").notNull(),
    /** The start of the hour (UTC). */
    hour: timestamptz("hour").notNull(),
    /** Bytes stored during the hour (the largest total seen in it). */
    sizeBytes: count("size_bytes"),
    /** Files stored during the hour (the largest count seen in it). */
    fileQuantity: count("file_quantity"),
    requestsIn: count("requests_in"),
    requestsOutEdges: count("requests_out_edges"),
    requestsOutWoEdges: count("requests_out_wo_edges"),
    trafficIn: count("traffic_in"),
    trafficOutEdges: count("traffic_out_edges"),
    trafficOutWoEdges: count("traffic_out_wo_edges"),
  },
  (t) => [
    primaryKey({ name: "storage_usage_pk", columns: [t.storageId, t.hour] }),
    foreignKey({
      name: "storage_usage_storage_fk",
      columns: [t.accountId, t.storageId],
      foreignColumns: [storages.accountId, storages.id],
    }).onDelete("cascade"),
  ],
);
