/**
 * CDN resource rules (options for the requests whose path matches a pattern, in place of the resource's),
 * the account's rule templates, and the presets applied to resources and rules (the catalogue of presets
 * is constants in the contract: `CDN_PRESETS`).
 */
import { sql } from "drizzle-orm";
import { boolean, check, foreignKey, index, integer, jsonb, pgTable, text, unique, uniqueIndex } from "drizzle-orm/pg-core";
import { identityId, sqlList, timestamptz } from "../columns.js";
import { accountId } from "../iam/account.js";
import { originGroups } from "./origin-groups.js";
import { cdnResources, ORIGIN_PROTOCOLS } from "./resources.js";

/** A rule's or template's pattern syntax: 0, a regular expression starting with / or ^/; 1, the legacy form, which gets a / put before it. */
export const RULE_TYPES = [0, 1] as const;

/** A rule of a CDN resource; deleted with its resource. */
export const cdnResourceRules = pgTable(
  "cdn_resource_rules",
  {
    id: identityId(),
    accountId: accountId(),
    resourceId: integer("resource_id").notNull(),
    name: text("name").notNull(),
    rule: text("rule").notNull(),
    ruleType: integer("rule_type").notNull(),
    weight: integer("weight").notNull(),
    active: boolean("active").notNull().default(true),
    /** null: the resource's origin group. */
    originGroupId: integer("origin_group_id"),
    /** null: the resource's origin protocol. */
    overrideOriginProtocol: text("override_origin_protocol", { enum: ORIGIN_PROTOCOLS }),
    /** Options as the API writes them (contract: cdnRuleOptionsWrite), keyed by option name; `secure_key.key` encrypted. */
    options: jsonb("options").$type<Record<string, Record<string, unknown>>>().notNull().default({}),
    presetApplied: boolean("preset_applied").notNull().default(false),
    created: timestamptz("created").notNull().defaultNow(),
    updated: timestamptz("updated").notNull().defaultNow(),
  },
  (t) => [
    unique("cdn_resource_rules_account_id_id_unique").on(t.accountId, t.id),
    index("cdn_resource_rules_account_id_resource_id_weight_idx").on(t.accountId, t.resourceId, t.weight, t.id),
    index("cdn_resource_rules_account_id_origin_group_id_idx").on(t.accountId, t.originGroupId),
    check("cdn_resource_rules_rule_type_check", sql`${t.ruleType} in (${sql.raw(RULE_TYPES.join(", "))})`),
    check(
      "cdn_resource_rules_override_origin_protocol_check",
      sql`${t.overrideOriginProtocol} is null or ${t.overrideOriginProtocol} in (${sql.raw(sqlList(ORIGIN_PROTOCOLS))})`,
    ),
    foreignKey({
      name: "cdn_resource_rules_resource_fk",
      columns: [t.accountId, t.resourceId],
      foreignColumns: [cdnResources.accountId, cdnResources.id],
    }).onDelete("cascade"),
    foreignKey({
      name: "cdn_resource_rules_origin_group_fk",
      columns: [t.accountId, t.originGroupId],
      foreignColumns: [originGroups.accountId, originGroups.id],
    }),
  ],
);

/** A rule template of the account: a rule's pattern and settings to make rules from. */
export const cdnRuleTemplates = pgTable(
  "cdn_rule_templates",
  {
    id: identityId(),
    accountId: accountId(),
    name: text("name").notNull(),
    rule: text("rule").notNull(),
    ruleType: integer("rule_type").notNull(),
    weight: integer("weight").notNull(),
    overrideOriginProtocol: text("override_origin_protocol", { enum: ORIGIN_PROTOCOLS }),
    options: jsonb("options").$type<Record<string, Record<string, unknown>>>().notNull().default({}),
    created: timestamptz("created").notNull().defaultNow(),
    updated: timestamptz("updated").notNull().defaultNow(),
  },
  (t) => [
    unique("cdn_rule_templates_account_id_id_unique").on(t.accountId, t.id),
    check("cdn_rule_templates_rule_type_check", sql`${t.ruleType} in (${sql.raw(RULE_TYPES.join(", "))})`),
    check(
      "cdn_rule_templates_override_origin_protocol_check",
      sql`${t.overrideOriginProtocol} is null or ${t.overrideOriginProtocol} in (${sql.raw(sqlList(ORIGIN_PROTOCOLS))})`,
    ),
  ],
);

/**
 * A preset applied to a CDN resource or to a rule (exactly one of the two): at most one preset per object,
 * gone with its object.
 */
export const cdnAppliedPresets = pgTable(
  "cdn_applied_presets",
  {
    id: identityId(),
    accountId: accountId(),
    presetId: integer("preset_id").notNull(),
    resourceId: integer("resource_id"),
    ruleId: integer("rule_id"),
    created: timestamptz("created").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("cdn_applied_presets_resource_id_unique").on(t.resourceId),
    uniqueIndex("cdn_applied_presets_rule_id_unique").on(t.ruleId),
    index("cdn_applied_presets_account_id_preset_id_idx").on(t.accountId, t.presetId),
    check("cdn_applied_presets_one_object_check", sql`(${t.resourceId} is null) <> (${t.ruleId} is null)`),
    foreignKey({
      name: "cdn_applied_presets_resource_fk",
      columns: [t.accountId, t.resourceId],
      foreignColumns: [cdnResources.accountId, cdnResources.id],
    }).onDelete("cascade"),
    foreignKey({
      name: "cdn_applied_presets_rule_fk",
      columns: [t.accountId, t.ruleId],
      foreignColumns: [cdnResourceRules.accountId, cdnResourceRules.id],
    }).onDelete("cascade"),
  ],
);
