/**
 * What the Security routes share: the profile templates an account may use, and a template with its
 * fields as the templates and the profiles show it.
 */
import type { SECURITY_FIELD_TYPES, SecurityProfileTemplate } from "@cloudplane/contract";
import { asc, type Database, eq, inArray, isNull, or, schema, type SQL } from "@cloudplane/db";
import { isoTime } from "../format.js";

const { securityProfileTemplates, securityTemplateFields } = schema;

export type TemplateField = typeof securityTemplateFields.$inferSelect;

export function fieldMeta(field: TemplateField) {
  return {
    id: field.id,
    name: field.name,
    description: field.description,
    // The column's check constraint allows only these.
    field_type: field.fieldType as (typeof SECURITY_FIELD_TYPES)[number],
    required: field.required,
    default: field.default,
    validation_schema: field.validationSchema,
  };
}

type TemplateRow = typeof securityProfileTemplates.$inferSelect;

/** The fields of each of `templateIds`, in their template's order. */
export async function templateFields(db: Pick<Database, "select">, templateIds: number[]): Promise<Map<number, TemplateField[]>> {
  const byTemplate = new Map<number, TemplateField[]>(templateIds.map((id) => [id, []]));
  if (!templateIds.length) return byTemplate;
  const rows = await db
    .select()
    .from(securityTemplateFields)
    .where(inArray(securityTemplateFields.templateId, templateIds))
    .orderBy(asc(securityTemplateFields.templateId), asc(securityTemplateFields.position));
  for (const row of rows) byTemplate.get(row.templateId)?.push(row);
  return byTemplate;
}

export function toTemplate(template: TemplateRow, fields: TemplateField[]): SecurityProfileTemplate {
  return {
    id: template.id,
    name: template.name,
    description: template.description,
    fields: fields.map(fieldMeta),
    base_template: template.baseTemplateId,
    version: template.version,
    created: isoTime(template.created),
    template_sifter: template.templateSifter,
  };
}

/** The templates an account may see and use: the common ones and its own. */
export function visibleTemplate(accountId: number): SQL {
  return or(isNull(securityProfileTemplates.accountId), eq(securityProfileTemplates.accountId, accountId))!;
}
