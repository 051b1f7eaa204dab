/**
 * Cloud cost reports: the usage lines that cost reports sum, and their monthly totals, kept by the
 * database.
 */
import { relations, sql } from "drizzle-orm";
import { check, index, integer, jsonb, numeric, pgTable, text, unique } from "drizzle-orm/pg-core";
import { identityId, timestamptz } from "../columns.js";
import { accountId } from "../iam/account.js";
import { cloudRegions } from "./projects.js";

/** The fields of a resource that only some usage types have, as the detailed reports name them. */
export interface UsageResourceDetails {
  ip_address?: string;
  port_id?: string;
  vm_id?: string;
  instance_name?: string | null;
  size_unit?: string;
  last_size?: number;
  attached_to_vm?: string | null;
}

/**
 * One line of billed usage in one month. The cost report sums these per type, region, flavor,
 * metric, feature, unit and currency. `cost` null: the usage has no price (the report's `err`).
 */
export const usageLines = pgTable(
  "usage_lines",
  {
    id: identityId(),
    accountId: accountId(),
    /** The billing month, YYYY-MM: compares as text in the order of time. */
    month: text("month").notNull(),
    type: text("type").notNull(),
    regionId: integer("region_id")
      .notNull()
      .references(() => cloudRegions.id),
    flavor: text("flavor").notNull().default(""),
    /** What sent egress traffic ("vm", "baremetal", "router"); null for other types. */
    instanceType: text("instance_type"),
    /** The volume type of volume and snapshot usage; null for other types. */
    volumeType: text("volume_type"),
    billingMetricName: text("billing_metric_name").notNull(),
    billingFeatureName: text("billing_feature_name").notNull(),
    billingValueUnit: text("billing_value_unit").notNull(),
    currency: text("currency").notNull(),
    // numeric keeps sums of money exact; read as numbers.
    billingValue: numeric("billing_value", { mode: "number" }).notNull(),
    cost: numeric("cost", { mode: "number" }),
    /** The resource's tags, name to value. */
    tags: jsonb("tags").$type<Record<string, string>>().notNull().default({}),
    /** The project the resource is in; null for usage recorded before projects were kept on the lines. */
    projectId: integer("project_id"),
    /** The resource the usage is of: its id and its last name ("" when not known). */
    resourceId: text("resource_id").notNull().default(""),
    resourceName: text("resource_name").notNull().default(""),
    /** When the resource was first and last seen in the month; null: the month's start and end. */
    firstSeen: timestamptz("first_seen"),
    lastSeen: timestamptz("last_seen"),
    /**
     * What the detailed reports show of the resource beside its usage, by the platform's field names: an
     * address's ip_address, a volume's last_size, size_unit and attached_to_vm, traffic's port_id, vm_id,
     * instance_name and size_unit.
     */
    details: jsonb("details").$type<UsageResourceDetails>().notNull().default({}),
  },
  (t) => [
    // Covering: the cost report filters on the first four columns and reads the others, so
    // it is answered from the index alone (an index-only scan) without visiting the table's rows.
    // The read columns are key columns because Drizzle cannot declare INCLUDE; with suffix truncation
    // the index is no larger for it. Tag filters still read the rows.
    index("usage_lines_cost_report_idx").on(
      t.accountId,
      t.month,
      t.type,
      t.regionId,
      t.flavor,
      t.billingMetricName,
      t.billingFeatureName,
      t.billingValueUnit,
      t.currency,
      t.instanceType,
      t.volumeType,
      t.billingValue,
      t.cost,
    ),
    check("usage_lines_month_check", sql`${t.month} ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'`),
  ],
);

/**
 * The usage lines summed per account, month and group of the cost report (type, region, flavor,
 * instance type, volume type, metric, feature, unit, currency): the report reads these when it has no
 * tag filter, a few rows per month instead of every line. Kept by the database itself: statement-level
 * triggers on `usage_lines` (drizzle/0012_usage_month_totals_triggers.sql) add what each insert, update
 * or delete changed, remove a group whose last line is gone, and empty the table when the lines are
 * truncated. Nothing else writes it. No foreign keys: its rows follow the lines, which have theirs.
 */
export const usageMonthTotals = pgTable(
  "usage_month_totals",
  {
    accountId: integer("account_id").notNull(),
    /** The billing month, YYYY-MM, as the lines name it. */
    month: text("month").notNull(),
    type: text("type").notNull(),
    regionId: integer("region_id").notNull(),
    flavor: text("flavor").notNull(),
    /** Null as on the lines, for types other than egress traffic. */
    instanceType: text("instance_type"),
    /** Null as on the lines, for types other than volumes and snapshots. */
    volumeType: text("volume_type"),
    billingMetricName: text("billing_metric_name").notNull(),
    billingFeatureName: text("billing_feature_name").notNull(),
    billingValueUnit: text("billing_value_unit").notNull(),
    currency: text("currency").notNull(),
    /** The exact sum of the group's billing values (numeric, as the lines'). */
    billingValue: numeric("billing_value", { mode: "number" }).notNull(),
    /** The exact sum of the costs of the group's priced lines; 0 when none has a price. */
    cost: numeric("cost", { mode: "number" }).notNull(),
    /** How many of the group's lines have no price (cost null): the report's `err` when above 0. */
    unpricedLines: integer("unpriced_lines").notNull(),
    /** How many lines the group sums; a group is deleted when this reaches 0. */
    lines: integer("lines").notNull(),
  },
  (t) => [
    // One row per group; the account and month first, so that a report reads one range of it. Nulls
    // not distinct: the instance and volume types are null for most types and still name one group.
    unique("usage_month_totals_group_unique")
      .on(
        t.accountId,
        t.month,
        t.type,
        t.regionId,
        t.flavor,
        t.instanceType,
        t.volumeType,
        t.billingMetricName,
        t.billingFeatureName,
        t.billingValueUnit,
        t.currency,
      )
      .nullsNotDistinct(),
  ],
);

export const usageLinesRelations = relations(usageLines, ({ one }) => ({
  region: one(cloudRegions, { fields: [usageLines.regionId], references: [cloudRegions.id] }),
}));
