/**
 * Security profiles: the account's protection profiles, with their values of their template's fields.
 */
import { relations, sql } from "drizzle-orm";
import { boolean, foreignKey, index, integer, jsonb, pgTable, text, unique } from "drizzle-orm/pg-core";
import { identityId, timestamptz } from "../columns.js";
import { accountId, accounts } from "../iam/account.js";
import { securityProfileTemplates, securityTemplateFields } from "./profile-templates.js";

export interface SecurityProfileOptions {
  bgp: boolean;
  active: boolean;
  price: string;
}

export const securityProfiles = pgTable(
  "security_profiles",
  {
    id: identityId(),
    accountId: accountId(),
    templateId: integer("template_id")
      .notNull()
      .references(() => securityProfileTemplates.id),
    /** Null for a profile of a template whose addresses are fixed. */
    ipAddress: text("ip_address"),
    /**
     * The address as a network, its /32 or /128 in PostgreSQL's normal form (null without an address),
     * computed by the database when the address is written: the BGP announces list the account's networks
     * in order from the index below, without parsing every address on every request.
     */
    network: text("network").generatedAlwaysAs(
      sql`set_masklen(ip_address::inet, case when family(ip_address::inet) = 4 then 32 else 128 end)::text`,
    ),
    /** The site that protects the address (the contract's `securityProfile.site`). */
    site: text("site").notNull(),
    options: jsonb("options").$type<SecurityProfileOptions>().notNull(),
    /**
     * `options.bgp`, computed by the database when the options are written: kept in the networks' index
     * below, so the announces read an account's networks from the index alone (an index-only scan).
     */
    bgp: boolean("bgp").generatedAlwaysAs(sql`(options ->> 'bgp')::boolean`),
    protocols: jsonb("protocols").$type<Record<string, unknown>[]>().notNull().default([]),
    status: jsonb("status").$type<Record<string, unknown>>().notNull().default({}),
    plan: text("plan").notNull(),
    created: timestamptz("created").notNull().defaultNow(),
    updated: timestamptz("updated").notNull().defaultNow(),
    /** When the profile was deleted (its protection turned off); null while it is live. */
    deleted: timestamptz("deleted"),
  },
  (t) => [
    unique("security_profiles_account_id_id_unique").on(t.accountId, t.id),
    // The listing's ip_address filter: one profile among the account's many.
    index("security_profiles_account_id_ip_address_idx").on(t.accountId, t.ipAddress),
    // The announces: the live profiles' networks in code-point order with their bgp option, one range of
    // the index per account, read without visiting the table.
    index("security_profiles_account_id_network_bgp_idx")
      .on(t.accountId, sql`${t.network} collate "C"`, t.bgp)
      .where(sql`${t.deleted} is null`),
  ],
);

/** A profile's value for one template field (`base_field`). */
export const securityProfileFields = pgTable(
  "security_profile_fields",
  {
    id: identityId(),
    accountId: accountId(),
    profileId: integer("profile_id").notNull(),
    baseFieldId: integer("base_field_id").notNull(),
    fieldValue: jsonb("field_value").$type<unknown>().notNull(),
  },
  (t) => [
    unique("security_profile_fields_profile_id_base_field_id_unique").on(t.profileId, t.baseFieldId),
    foreignKey({
      name: "security_profile_fields_profile_fk",
      columns: [t.accountId, t.profileId],
      foreignColumns: [securityProfiles.accountId, securityProfiles.id],
    }).onDelete("cascade"),
    foreignKey({
      name: "security_profile_fields_base_field_fk",
      columns: [t.baseFieldId],
      foreignColumns: [securityTemplateFields.id],
    }),
  ],
);

export const securityProfilesRelations = relations(securityProfiles, ({ one, many }) => ({
  account: one(accounts, { fields: [securityProfiles.accountId], references: [accounts.id] }),
  template: one(securityProfileTemplates, { fields: [securityProfiles.templateId], references: [securityProfileTemplates.id] }),
  fields: many(securityProfileFields),
}));

export const securityProfileFieldsRelations = relations(securityProfileFields, ({ one }) => ({
  profile: one(securityProfiles, { fields: [securityProfileFields.profileId], references: [securityProfiles.id] }),
  baseField: one(securityTemplateFields, { fields: [securityProfileFields.baseFieldId], references: [securityTemplateFields.id] }),
}));
