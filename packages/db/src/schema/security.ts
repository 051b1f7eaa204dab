/**
 * Security area: profile templates (the platform's common ones and an account's own) and their fields
 * (each with a JSON Schema), and the account's protection profiles with their field values.
 */
import { relations } from "drizzle-orm";
import { boolean, foreignKey, index, integer, jsonb, pgTable, text, unique, uuid } from "drizzle-orm/pg-core";
import { identityId, timestamptz } from "./columns.js";
import { accountId, accounts } from "./iam.js";

/** A profile template: common to every account (`account_id` null), or made for one account. */
export const securityProfileTemplates = pgTable(
  "security_profile_templates",
  {
    id: identityId(),
    /** The account the template was made for; null for the platform's common templates. */
    accountId: integer("account_id").references(() => accounts.id),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    baseTemplateId: integer("base_template_id"),
    version: uuid("version").notNull().defaultRandom(),
    created: timestamptz("created").notNull().defaultNow(),
    templateSifter: text("template_sifter").notNull().default(""),
    /** Whether each profile names the address it protects; false: the template's addresses are fixed. */
    acceptsIpAddress: boolean("accepts_ip_address").notNull().default(true),
  },
  (t) => [
    foreignKey({ name: "security_profile_templates_base_template_fk", columns: [t.baseTemplateId], foreignColumns: [t.id] }),
    index("security_profile_templates_account_id_idx").on(t.accountId),
  ],
);

/** A field of a template. A profile's value for it must satisfy `validation_schema` (a JSON Schema). */
export const securityTemplateFields = pgTable(
  "security_template_fields",
  {
    id: identityId(),
    templateId: integer("template_id").notNull(),
    position: integer("position").notNull(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    fieldType: text("field_type").notNull(),
    required: boolean("required").notNull().default(false),
    default: text("default"),
    validationSchema: jsonb("validation_schema").$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [
    unique("security_template_fields_template_id_name_unique").on(t.templateId, t.name),
    foreignKey({
      name: "security_template_fields_template_fk",
      columns: [t.templateId],
      foreignColumns: [securityProfileTemplates.id],
    }).onDelete("cascade"),
  ],
);

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
    /** The site that protects the address (the contract's `securityProfile.site`). */
    site: text("site").notNull(),
    options: jsonb("options").$type<SecurityProfileOptions>().notNull(),
    protocols: jsonb("protocols").$type<Record<string, unknown>[]>().notNull().default([]),
    status: jsonb("status").$type<Record<string, unknown>>().notNull().default({}),
    plan: text("plan").notNull(),
    created: timestamptz("created").notNull().defaultNow(),
    updated: timestamptz("updated").notNull().defaultNow(),
    /** When the profile was deleted (its protection turned off); null while it is live. */
    deleted: timestamptz("deleted"),
  },
  (t) => [unique("security_profiles_account_id_id_unique").on(t.accountId, t.id)],
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

export const securityProfileTemplatesRelations = relations(securityProfileTemplates, ({ one, many }) => ({
  account: one(accounts, { fields: [securityProfileTemplates.accountId], references: [accounts.id] }),
  fields: many(securityTemplateFields),
}));

export const securityTemplateFieldsRelations = relations(securityTemplateFields, ({ one }) => ({
  template: one(securityProfileTemplates, { fields: [securityTemplateFields.templateId], references: [securityProfileTemplates.id] }),
}));

export const securityProfilesRelations = relations(securityProfiles, ({ one, many }) => ({
  account: one(accounts, { fields: [securityProfiles.accountId], references: [accounts.id] }),
  template: one(securityProfileTemplates, { fields: [securityProfiles.templateId], references: [securityProfileTemplates.id] }),
  fields: many(securityProfileFields),
}));

export const securityProfileFieldsRelations = relations(securityProfileFields, ({ one }) => ({
  profile: one(securityProfiles, { fields: [securityProfileFields.profileId], references: [securityProfiles.id] }),
  baseField: one(securityTemplateFields, { fields: [securityProfileFields.baseFieldId], references: [securityTemplateFields.id] }),
}));
