/**
 * Origin groups and their sources: the origins a CDN resource pulls from.
 */
import { relations, sql } from "drizzle-orm";
import { boolean, foreignKey, index, integer, pgTable, primaryKey, text, unique } from "drizzle-orm/pg-core";
import { identityId, timestamptz } from "../columns.js";
import { accountId, accounts } from "../iam/account.js";
import { cdnResources } from "./resources.js";

export const originGroups = pgTable(
  "origin_groups",
  {
    id: identityId(),
    accountId: accountId(),
    name: text("name").notNull(),
    useNext: boolean("use_next").notNull().default(true),
    proxyNextUpstream: text("proxy_next_upstream").array().notNull().default(sql`'{}'::text[]`),
    authType: text("auth_type").notNull().default("none"),
    path: text("path").notNull().default(""),
    created: timestamptz("created").notNull().defaultNow(),
    updated: timestamptz("updated").notNull().defaultNow(),
    /**
     * How many of the account's (non-deleted) CDN resources use the group, kept by triggers on
     * `cdn_resources` (drizzle/0034_listing_counts_triggers.sql): the listing's `has_related_resources`
     * filter and field read it instead of looking for a resource per group.
     */
    relatedResources: integer("related_resources").notNull().default(0),
  },
  (t) => [
    unique("origin_groups_account_id_id_unique").on(t.accountId, t.id),
    // has_related_resources=true|false: the page and the count walk only the groups that match.
    index("origin_groups_account_id_related_id_idx").on(t.accountId, sql`(${t.relatedResources} > 0)`, t.id),
  ],
);

/** The origins of a group, in the order the API lists them. */
export const originGroupSources = pgTable(
  "origin_group_sources",
  {
    accountId: accountId(),
    originGroupId: integer("origin_group_id").notNull(),
    position: integer("position").notNull(),
    source: text("source").notNull(),
    backup: boolean("backup").notNull().default(false),
    enabled: boolean("enabled").notNull().default(true),
    /** The Host header sent to this origin instead of the default; null: the default. */
    hostHeaderOverride: text("host_header_override"),
  },
  (t) => [
    primaryKey({ columns: [t.originGroupId, t.position] }),
    foreignKey({
      name: "origin_group_sources_group_fk",
      columns: [t.accountId, t.originGroupId],
      foreignColumns: [originGroups.accountId, originGroups.id],
    }).onDelete("cascade"),
  ],
);
export const originGroupsRelations = relations(originGroups, ({ one, many }) => ({
  account: one(accounts, { fields: [originGroups.accountId], references: [accounts.id] }),
  sources: many(originGroupSources),
  cdnResources: many(cdnResources),
}));

export const originGroupSourcesRelations = relations(originGroupSources, ({ one }) => ({
  originGroup: one(originGroups, { fields: [originGroupSources.originGroupId], references: [originGroups.id] }),
}));
