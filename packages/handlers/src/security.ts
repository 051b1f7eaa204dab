/**
 * Security routes: replacing a protection profile, its values checked against the template's fields
 * and their JSON Schemas (with @cfworker/json-schema, which needs no eval and so runs on edge runtimes).
 */
import { contract, type SecurityProfile } from "@cloudplane/contract";
import { and, asc, type Database, eq, schema, sql } from "@cloudplane/db";
import { Validator } from "@cfworker/json-schema";
import { tsr } from "@ts-rest/serverless/fetch";
import { invalid, notFound, validationFailed } from "./errors.js";
import { isoTime } from "./format.js";
import type { RequestExtension, RouteDeps } from "./types.js";

const { securityProfileFields, securityProfileTemplates, securityProfiles, securityTemplateFields } = schema;

type TemplateField = typeof securityTemplateFields.$inferSelect;

function fieldMeta(field: TemplateField) {
  return {
    id: field.id,
    name: field.name,
    description: field.description,
    field_type: field.fieldType,
    required: field.required,
    default: field.default,
    validation_schema: field.validationSchema,
  };
}

/** Messages for a value that does not satisfy a field's JSON Schema, e.g. "/0: 70000 is greater than 65535". */
function schemaErrors(validationSchema: Record<string, unknown>, value: unknown): string[] {
  const result = new Validator(validationSchema, "2020-12", false).validate(value);
  if (result.valid) return [];
  // An applicator's error ("Items did not match schema.") only repeats the errors of its subschema, whose
  // keyword locations lie under its own. Other errors at the same instance (uniqueItems) are kept.
  const leaves = result.errors.filter((error) => !result.errors.some((other) => other.keywordLocation.startsWith(`${error.keywordLocation}/`)));
  const messages = (leaves.length ? leaves : result.errors).map((error) =>
    error.instanceLocation === "#" ? error.error : `${error.instanceLocation.slice(1)}: ${error.error}`,
  );
  return [...new Set(messages)];
}

async function loadProfile(db: Pick<Database, "select">, accountId: number, id: number): Promise<SecurityProfile | undefined> {
  const [row] = await db
    .select({ profile: securityProfiles, template: securityProfileTemplates })
    .from(securityProfiles)
    .innerJoin(securityProfileTemplates, eq(securityProfileTemplates.id, securityProfiles.templateId))
    .where(and(eq(securityProfiles.accountId, accountId), eq(securityProfiles.id, id)));
  if (!row) return undefined;
  const fields = await db
    .select()
    .from(securityTemplateFields)
    .where(eq(securityTemplateFields.templateId, row.template.id))
    .orderBy(asc(securityTemplateFields.position));
  const values = await db
    .select()
    .from(securityProfileFields)
    .where(and(eq(securityProfileFields.accountId, accountId), eq(securityProfileFields.profileId, id)))
    .orderBy(asc(securityProfileFields.id));
  const byId = new Map(fields.map((field) => [field.id, field]));
  return {
    id: row.profile.id,
    profile_template: {
      id: row.template.id,
      name: row.template.name,
      description: row.template.description,
      fields: fields.map(fieldMeta),
      base_template: row.template.baseTemplateId,
      version: row.template.version,
      created: isoTime(row.template.created),
      template_sifter: row.template.templateSifter,
    },
    ip_address: row.profile.ipAddress,
    fields: values.flatMap((value) => {
      const field = byId.get(value.baseFieldId);
      // Stored as jsonb: any JSON value, never undefined.
      const fieldValue = value.fieldValue as SecurityProfile["fields"][number]["field_value"];
      return field ? [{ ...fieldMeta(field), field_value: fieldValue, base_field: field.id }] : [];
    }),
    site: row.profile.site,
    options: row.profile.options,
    protocols: row.profile.protocols,
    status: row.profile.status,
    plan: row.profile.plan,
  };
}

export function securityRoutes({ db }: RouteDeps) {
  return tsr.routerWithMiddleware(contract.security)<RequestExtension>({
    updateProfile: async ({ params, body }, { request: { caller } }) => {
      const { accountId } = caller;
      const profile = await db.transaction(async (tx) => {
        const [current] = await tx
          .select({ id: securityProfiles.id })
          .from(securityProfiles)
          .where(and(eq(securityProfiles.accountId, accountId), eq(securityProfiles.id, params.id)))
          .for("update");
        if (!current) throw notFound(`Security profile ${params.id}`);
        const [template] = await tx
          .select({ id: securityProfileTemplates.id })
          .from(securityProfileTemplates)
          .where(eq(securityProfileTemplates.id, body.profile_template));
        if (!template)
          throw invalid("profile_template", "Must be an existing profile template.");
        const fields = await tx.select().from(securityTemplateFields).where(eq(securityTemplateFields.templateId, template.id));
        const byId = new Map(fields.map((field) => [field.id, field]));
        const errors: Record<string, string[]> = {};
        body.fields.forEach((value, index) => {
          const field = byId.get(value.base_field);
          if (!field) errors[`fields.${index}.base_field`] = [`Must be a field of profile template ${template.id}.`];
          else {
            const problems = schemaErrors(field.validationSchema, value.field_value);
            if (problems.length) errors[`fields.${index}.field_value`] = problems;
          }
        });
        const given = new Set(body.fields.map((value) => value.base_field));
        const missing = fields.filter((field) => field.required && !given.has(field.id));
        if (missing.length) errors.fields = missing.map((field) => `Required field ${field.id} (${field.name}) is missing.`);
        if (Object.keys(errors).length) throw validationFailed(errors);

        await tx
          .update(securityProfiles)
          .set({ templateId: template.id, ipAddress: body.ip_address, site: body.site, updated: new Date() })
          .where(and(eq(securityProfiles.accountId, accountId), eq(securityProfiles.id, current.id)));
        await tx.delete(securityProfileFields).where(and(eq(securityProfileFields.accountId, accountId), eq(securityProfileFields.profileId, current.id)));
        if (body.fields.length)
          await tx
            .insert(securityProfileFields)
            .values(
              body.fields.map((value) => ({
                accountId,
                profileId: current.id,
                baseFieldId: value.base_field,
                // Written as JSON text: Drizzle would send a JSON null as SQL NULL, which the column refuses.
                fieldValue: sql`${JSON.stringify(value.field_value)}::jsonb`,
              })),
            );
        return (await loadProfile(tx, accountId, current.id))!;
      });
      return { status: 200, body: profile };
    },
  });
}
