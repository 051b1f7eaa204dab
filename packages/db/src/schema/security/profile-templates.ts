/**
 * Security profile templates: the platform's common ones and an account's own, and their fields (each
 * with a JSON Schema).
 */
import { relations, sql } from "drizzle-orm";
import { boolean, check, foreignKey, index, integer, jsonb, pgTable, text, unique, uuid } from "drizzle-orm/pg-core";
import { identityId, timestamptz } from "../columns.js";
import { accounts } from "../iam/account.js";

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
    /** The value's type, as the platform names it: int, bool or str. */
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
    check("security_template_fields_field_type_check", sql`${t.fieldType} in ('int', 'bool', 'str')`),
  ],
);

export const securityProfileTemplatesRelations = relations(securityProfileTemplates, ({ one, many }) => ({
  account: one(accounts, { fields: [securityProfileTemplates.accountId], references: [accounts.id] }),
  fields: many(securityTemplateFields),
}));

export const securityTemplateFieldsRelations = relations(securityTemplateFields, ({ one }) => ({
  template: one(securityProfileTemplates, { fields: [securityTemplateFields.templateId], references: [securityProfileTemplates.id] }),
}));

