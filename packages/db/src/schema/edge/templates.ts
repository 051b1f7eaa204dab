/**
 * Edge app templates (the account's, or public ones of the platform) and their parameters.
 */
import { EDGE_API_TYPES, EDGE_TEMPLATE_PARAM_TYPES } from "@cloudplane/contract";
import { relations, sql } from "drizzle-orm";
import { boolean, check, index, integer, pgTable, primaryKey, text, unique } from "drizzle-orm/pg-core";
import { identityId, sqlList, timestamptz } from "../columns.js";
import { accounts } from "../iam/account.js";
import { edgeBinaries } from "./binaries.js";

/** A template. `account_id` null: a public template; otherwise `owned` is true for that account. */
export const edgeTemplates = pgTable(
  "edge_templates",
  {
    id: identityId(),
    accountId: integer("account_id").references(() => accounts.id),
    binaryId: integer("binary_id")
      .notNull()
      .references(() => edgeBinaries.id),
    name: text("name").notNull(),
    shortDescr: text("short_descr").notNull().default(""),
    longDescr: text("long_descr").notNull().default(""),
    apiType: text("api_type", { enum: EDGE_API_TYPES }).notNull(),
    created: timestamptz("created").notNull().defaultNow(),
  },
  (t) => [
    index("edge_templates_account_id_id_idx").on(t.accountId, t.id),
    // Public templates (account_id null) are exempt: null never equals null.
    unique("edge_templates_account_id_name_unique").on(t.accountId, t.name),
    index("edge_templates_binary_id_idx").on(t.binaryId),
    check("edge_templates_api_type_check", sql`${t.apiType} in (${sql.raw(sqlList(EDGE_API_TYPES))})`),
  ],
);

/** The parameters of a template, in the order the API lists them. */
export const edgeTemplateParams = pgTable(
  "edge_template_params",
  {
    templateId: integer("template_id")
      .notNull()
      .references(() => edgeTemplates.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    name: text("name").notNull(),
    dataType: text("data_type").notNull().default("string"),
    mandatory: boolean("mandatory").notNull().default(false),
    descr: text("descr").notNull().default(""),
    /** A JSON-encoded string of further details, such as the values of an `enum` parameter; null when none. */
    metadata: text("metadata"),
  },
  (t) => [
    primaryKey({ columns: [t.templateId, t.position] }),
    unique("edge_template_params_template_id_name_unique").on(t.templateId, t.name),
    check("edge_template_params_data_type_check", sql`${t.dataType} in (${sql.raw(sqlList(EDGE_TEMPLATE_PARAM_TYPES))})`),
  ],
);

export const edgeTemplatesRelations = relations(edgeTemplates, ({ one, many }) => ({
  binary: one(edgeBinaries, { fields: [edgeTemplates.binaryId], references: [edgeBinaries.id] }),
  params: many(edgeTemplateParams),
}));

export const edgeTemplateParamsRelations = relations(edgeTemplateParams, ({ one }) => ({
  template: one(edgeTemplates, { fields: [edgeTemplateParams.templateId], references: [edgeTemplates.id] }),
}));
