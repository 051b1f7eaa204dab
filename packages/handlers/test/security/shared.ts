/**
 * What the security test files share: the demo data's profile templates and how the API shows them.
 */
import { demoFixture, type DemoRow } from "@cloudplane/db";

export const { securityProfileTemplates: templates } = demoFixture;

export type DemoSecurityProfileTemplate = DemoRow<"securityProfileTemplates">;

/** A template's fields, in their order. */
export const fieldsOf = (templateId: number) => demoFixture.securityTemplateFields.filter((field) => field.templateId === templateId);

export const fixedOfAccount1 = templates.find((candidate) => candidate.accountId === 1 && !candidate.acceptsIpAddress)!;
export const ownOfAccount2 = templates.find((candidate) => candidate.accountId === 2)!;

/** A template field as the API shows it. */
export function fieldAsShown({ id, name, description, fieldType, required, default: fallback, validationSchema }: DemoRow<"securityTemplateFields">) {
  return { id, name, description, field_type: fieldType, required, default: fallback, validation_schema: validationSchema };
}

/** A template as the API shows it, with its fields. */
export function templateAsShown(shown: DemoSecurityProfileTemplate) {
  return {
    id: shown.id,
    name: shown.name,
    description: shown.description,
    fields: fieldsOf(shown.id).map(fieldAsShown),
    base_template: shown.baseTemplateId,
    version: shown.version,
    created: shown.created,
    template_sifter: shown.templateSifter,
  };
}
