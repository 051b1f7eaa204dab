/**
 * Security routes: replacing a protection profile, its values checked against the template's fields
 * and their JSON Schemas (with @cfworker/json-schema, which needs no eval and so runs on edge runtimes).
 */
import { contract, type SecurityProfile } from "@cloudplane/contract";
import { and, asc, type Database, eq, schema, sql } from "@cloudplane/db";
import { Validator } from "@cfworker/json-schema";
import { tsr } from "@ts-rest/serverless/fetch";
import { addFieldError, fieldErrors, invalid, notFound, problemCount, validationFailed } from "./errors.js";
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

type JsonSchema = Record<string, unknown>;

function isSchemaObject(schema: unknown): schema is JsonSchema {
  return typeof schema === "object" && schema !== null && !Array.isArray(schema);
}

/** A message as the validator words it: "/0: …" inside the value, the bare error for the value itself. */
function at(location: string, error: string): string {
  return location ? `${location}: ${error}` : error;
}

/**
 * Messages for parts of `value` over a size limit of `schema` (maxItems, maxProperties, maxLength), at the
 * value and inside it as far as `prefixItems`, `items`, `properties` and `additionalProperties` lead. Found
 * before the full check, whose cost grows faster than the value (uniqueItems compares every pair of items),
 * so that a value far over a limit is refused for that alone. The contract bounds how deep a value goes.
 */
function sizeErrors(schema: unknown, value: unknown, location = ""): string[] {
  if (!isSchemaObject(schema)) return [];
  const limit = (keyword: string) => (typeof schema[keyword] === "number" ? schema[keyword] : undefined);
  if (typeof value === "string") {
    const maxLength = limit("maxLength");
    // The validator counts code points; a string is never fewer code points than UTF-16 units.
    if (maxLength !== undefined && value.length > maxLength && [...value].length > maxLength)
      return [at(location, `String is too long (${[...value].length} > ${maxLength}).`)];
    return [];
  }
  if (Array.isArray(value)) {
    const maxItems = limit("maxItems");
    if (maxItems !== undefined && value.length > maxItems) return [at(location, `Array has too many items (${value.length} > ${maxItems}).`)];
    const prefix = Array.isArray(schema.prefixItems) ? (schema.prefixItems as unknown[]) : [];
    return value.flatMap((item, index) => sizeErrors(index < prefix.length ? prefix[index] : schema.items, item, `${location}/${index}`));
  }
  if (typeof value === "object" && value !== null) {
    const keys = Object.keys(value);
    const maxProperties = limit("maxProperties");
    if (maxProperties !== undefined && keys.length > maxProperties)
      return [at(location, `Instance has too many properties (${keys.length} > ${maxProperties}).`)];
    const properties = isSchemaObject(schema.properties) ? schema.properties : {};
    return keys.flatMap((key) =>
      sizeErrors(Object.hasOwn(properties, key) ? properties[key] : schema.additionalProperties, (value as Record<string, unknown>)[key], `${location}/${key}`),
    );
  }
  return [];
}

/** Messages for a value that does not satisfy a field's JSON Schema, e.g. "/0: 70000 is greater than 65535". */
function schemaErrors(validationSchema: JsonSchema, value: unknown): string[] {
  const tooLarge = sizeErrors(validationSchema, value);
  if (tooLarge.length) return tooLarge;
  const result = new Validator(validationSchema, "2020-12", false).validate(value);
  if (result.valid) return [];
  // An applicator's error ("Items did not match schema.") only repeats the errors of its subschema, whose
  // keyword locations lie under its own. Other errors at the same instance (uniqueItems) are kept. The
  // locations that have others under them, collected in one pass.
  const inner = new Set<string>();
  for (const error of result.errors) {
    const parts = error.keywordLocation.split("/");
    for (let end = 1; end < parts.length; end++) inner.add(parts.slice(0, end).join("/"));
  }
  const leaves = result.errors.filter((error) => !inner.has(error.keywordLocation));
  const messages = (leaves.length ? leaves : result.errors).map((error) => at(error.instanceLocation.slice(1), error.error));
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
        const errors = fieldErrors();
        body.fields.forEach((value, index) => {
          const field = byId.get(value.base_field);
          if (!field) addFieldError(errors, `fields.${index}.base_field`, `Must be a field of profile template ${template.id}.`);
          else for (const problem of schemaErrors(field.validationSchema, value.field_value)) addFieldError(errors, `fields.${index}.field_value`, problem);
        });
        const given = new Set(body.fields.map((value) => value.base_field));
        for (const field of fields)
          if (field.required && !given.has(field.id)) addFieldError(errors, "fields", `Required field ${field.id} (${field.name}) is missing.`);
        if (problemCount(errors)) throw validationFailed(errors);

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
