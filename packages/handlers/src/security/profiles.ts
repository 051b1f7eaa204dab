/**
 * Security profiles: the lifecycle of protection profiles, whose values are checked against the
 * template's fields and their JSON Schemas (with @cfworker/json-schema, which needs no eval and so runs
 * on edge runtimes).
 */
import { securityProfilesRoutes, type CreateSecurityProfileBody, type RecreateSecurityProfileBody, type SecurityProfile } from "@cloudplane/contract";
import { and, asc, type Database, eq, inArray, isNotNull, isNull, schema, sql, type SQL } from "@cloudplane/db";
import { Validator } from "@cfworker/json-schema";
import { tsr } from "@ts-rest/serverless/fetch";
import { addFieldError, fieldErrors, invalid, notFound, problemCount, validationFailed } from "../errors.js";
import { isoTime } from "../format.js";
import type { RequestExtension, RouteDeps } from "../types.js";
import { fieldMeta, templateFields, toTemplate, visibleTemplate } from "./shared.js";
import { served } from "../served.js";

const { securityProfileFields, securityProfileTemplates, securityTemplateFields } = schema;
// The table under a name of its own: `securityProfiles` names this module's routes.
const { securityProfiles: securityProfilesTable } = schema;

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

/**
 * The account's profiles that match `conditions`, by id, each with its template and values: three
 * queries whatever the number of profiles.
 */
async function loadProfiles(
  db: Pick<Database, "select">,
  accountId: number,
  conditions: SQL[],
  page?: { limit: number; offset: number },
): Promise<SecurityProfile[]> {
  let query = db
    .select({ profile: securityProfilesTable, template: securityProfileTemplates })
    .from(securityProfilesTable)
    .innerJoin(securityProfileTemplates, eq(securityProfileTemplates.id, securityProfilesTable.templateId))
    .where(and(eq(securityProfilesTable.accountId, accountId), ...conditions))
    .orderBy(asc(securityProfilesTable.id))
    .$dynamic();
  if (page) query = query.limit(page.limit).offset(page.offset);
  const rows = await query;
  if (!rows.length) return [];
  const fieldsOf = await templateFields(db, [...new Set(rows.map((row) => row.template.id))]);
  const values = await db
    .select()
    .from(securityProfileFields)
    .where(
      and(
        eq(securityProfileFields.accountId, accountId),
        inArray(
          securityProfileFields.profileId,
          rows.map((row) => row.profile.id),
        ),
      ),
    )
    .orderBy(asc(securityProfileFields.id));
  return rows.map(({ profile, template }) => {
    const fields = fieldsOf.get(template.id) ?? [];
    const byId = new Map(fields.map((field) => [field.id, field]));
    return {
      id: profile.id,
      profile_template: toTemplate(template, fields),
      ip_address: profile.ipAddress,
      fields: values
        .filter((value) => value.profileId === profile.id)
        .flatMap((value) => {
          const field = byId.get(value.baseFieldId);
          // Stored as jsonb: any JSON value, never undefined.
          const fieldValue = value.fieldValue as SecurityProfile["fields"][number]["field_value"];
          return field ? [{ ...fieldMeta(field), field_value: fieldValue, base_field: field.id }] : [];
        }),
      site: profile.site,
      options: profile.options,
      protocols: profile.protocols,
      status: profile.status,
      plan: profile.plan,
    };
  });
}

/** A live profile of the account. */
async function loadProfile(db: Pick<Database, "select">, accountId: number, id: number): Promise<SecurityProfile | undefined> {
  const [profile] = await loadProfiles(db, accountId, [eq(securityProfilesTable.id, id), isNull(securityProfilesTable.deleted)]);
  return profile;
}

type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

/**
 * Checks a profile's template, address and values as written (400 naming each problem) and returns the
 * template; everything is checked before anything is written.
 */
async function checkProfileBody(tx: Transaction, accountId: number, body: CreateSecurityProfileBody): Promise<number> {
  const [template] = await tx
    .select({ id: securityProfileTemplates.id, acceptsIpAddress: securityProfileTemplates.acceptsIpAddress })
    .from(securityProfileTemplates)
    .where(and(eq(securityProfileTemplates.id, body.profile_template), visibleTemplate(accountId)));
  if (!template) throw invalid("profile_template", "Must be a profile template the account may use (GET /security/iaas/profile-templates).");
  const errors = fieldErrors();
  const address = body.ip_address ?? null;
  if (template.acceptsIpAddress && address === null)
    addFieldError(errors, "ip_address", `Required: profile template ${template.id} protects the address each profile names.`);
  if (!template.acceptsIpAddress && address !== null)
    addFieldError(errors, "ip_address", `Must be left out or null: profile template ${template.id} protects fixed addresses.`);
  const fields = await tx.select().from(securityTemplateFields).where(eq(securityTemplateFields.templateId, template.id));
  const byId = new Map(fields.map((field) => [field.id, field]));
  body.fields.forEach((value, index) => {
    const field = byId.get(value.base_field);
    if (!field) addFieldError(errors, `fields.${index}.base_field`, `Must be a field of profile template ${template.id}.`);
    else for (const problem of schemaErrors(field.validationSchema, value.field_value)) addFieldError(errors, `fields.${index}.field_value`, problem);
  });
  const given = new Set(body.fields.map((value) => value.base_field));
  for (const field of fields)
    if (field.required && !given.has(field.id)) addFieldError(errors, "fields", `Required field ${field.id} (${field.name}) is missing.`);
  if (problemCount(errors)) throw validationFailed(errors);
  return template.id;
}

/** Replaces the stored values of a profile with those of `body`. */
async function writeProfileValues(tx: Transaction, accountId: number, profileId: number, body: CreateSecurityProfileBody): Promise<void> {
  await tx.delete(securityProfileFields).where(and(eq(securityProfileFields.accountId, accountId), eq(securityProfileFields.profileId, profileId)));
  if (body.fields.length)
    await tx.insert(securityProfileFields).values(
      body.fields.map((value) => ({
        accountId,
        profileId,
        baseFieldId: value.base_field,
        // Written as JSON text: Drizzle would send a JSON null as SQL NULL, which the column refuses.
        fieldValue: sql`${JSON.stringify(value.field_value)}::jsonb`,
      })),
    );
}

/** A re-create's body with the site it keeps when it names none. */
function withSite(body: RecreateSecurityProfileBody, site: string): CreateSecurityProfileBody {
  return { ...body, site: body.site ?? site };
}

export function securityProfiles({ db }: RouteDeps) {
  return tsr.routerWithMiddleware(served("security", securityProfilesRoutes))<RequestExtension>({
    listProfiles: async ({ query }, { request: { caller } }) => {
      const conditions: SQL[] = [];
      if (query.include_deleted !== true) conditions.push(isNull(securityProfilesTable.deleted));
      if (query.exclude_empty_address === true) conditions.push(isNotNull(securityProfilesTable.ipAddress));
      if (query.ip_address !== undefined) conditions.push(eq(securityProfilesTable.ipAddress, query.ip_address));
      if (query.site !== undefined) conditions.push(eq(securityProfilesTable.site, query.site));
      const profiles = await loadProfiles(db, caller.accountId, conditions, { limit: query.limit, offset: query.offset });
      return { status: 200, body: profiles };
    },

    getProfile: async ({ params }, { request: { caller } }) => {
      const profile = await loadProfile(db, caller.accountId, params.id);
      if (!profile) throw notFound(`Security profile ${params.id}`);
      return { status: 200, body: profile };
    },

    createProfile: async ({ body }, { request: { caller } }) => {
      const { accountId } = caller;
      const profile = await db.transaction(async (tx) => {
        const templateId = await checkProfileBody(tx, accountId, body);
        const now = new Date();
        const [created] = await tx
          .insert(securityProfilesTable)
          .values({
            accountId,
            templateId,
            ipAddress: body.ip_address ?? null,
            site: body.site,
            options: { bgp: false, active: true, price: "0.00" },
            protocols: [],
            status: { status: "active", updated: isoTime(now) },
            plan: "standard",
            created: now,
            updated: now,
          })
          .returning({ id: securityProfilesTable.id });
        await writeProfileValues(tx, accountId, created!.id, body);
        return (await loadProfile(tx, accountId, created!.id))!;
      });
      return { status: 201, body: profile };
    },

    updateProfile: async ({ params, body }, { request: { caller } }) => {
      const { accountId } = caller;
      const profile = await db.transaction(async (tx) => {
        const [current] = await tx
          .select({ id: securityProfilesTable.id })
          .from(securityProfilesTable)
          .where(and(eq(securityProfilesTable.accountId, accountId), eq(securityProfilesTable.id, params.id), isNull(securityProfilesTable.deleted)))
          .for("update");
        if (!current) throw notFound(`Security profile ${params.id}`);
        const templateId = await checkProfileBody(tx, accountId, body);
        await tx
          .update(securityProfilesTable)
          .set({ templateId, ipAddress: body.ip_address ?? null, site: body.site, updated: new Date() })
          .where(and(eq(securityProfilesTable.accountId, accountId), eq(securityProfilesTable.id, current.id)));
        await writeProfileValues(tx, accountId, current.id, body);
        return (await loadProfile(tx, accountId, current.id))!;
      });
      return { status: 200, body: profile };
    },

    recreateProfile: async ({ params, body }, { request: { caller } }) => {
      const { accountId } = caller;
      const profile = await db.transaction(async (tx) => {
        const [current] = await tx
          .select({ id: securityProfilesTable.id, site: securityProfilesTable.site })
          .from(securityProfilesTable)
          .where(and(eq(securityProfilesTable.accountId, accountId), eq(securityProfilesTable.id, params.id), isNull(securityProfilesTable.deleted)))
          .for("update");
        if (!current) throw notFound(`Security profile ${params.id}`);
        const settings: CreateSecurityProfileBody = { ...withSite(body, current.site) };
        const templateId = await checkProfileBody(tx, accountId, settings);
        const now = new Date();
        // Set up anew: active, no protocols until the service sets them; bgp, the price and the plan are kept.
        await tx
          .update(securityProfilesTable)
          .set({
            templateId,
            ipAddress: settings.ip_address ?? null,
            site: settings.site,
            options: sql`jsonb_set(${securityProfilesTable.options}, '{active}', 'true'::jsonb)`,
            protocols: [],
            status: { status: "active", updated: isoTime(now) },
            updated: now,
          })
          .where(and(eq(securityProfilesTable.accountId, accountId), eq(securityProfilesTable.id, current.id)));
        await writeProfileValues(tx, accountId, current.id, settings);
        return (await loadProfile(tx, accountId, current.id))!;
      });
      return { status: 200, body: profile };
    },

    deleteProfile: async ({ params }, { request: { caller } }) => {
      const now = new Date();
      // Kept, turned off, for include_deleted: its values stay with it.
      const deleted = await db
        .update(securityProfilesTable)
        .set({
          deleted: now,
          updated: now,
          options: sql`jsonb_set(${securityProfilesTable.options}, '{active}', 'false'::jsonb)`,
          status: { status: "deleted", updated: isoTime(now) },
        })
        .where(and(eq(securityProfilesTable.accountId, caller.accountId), eq(securityProfilesTable.id, params.id), isNull(securityProfilesTable.deleted)))
        .returning({ id: securityProfilesTable.id });
      if (!deleted.length) throw notFound(`Security profile ${params.id}`);
      return { status: 204, body: undefined };
    },
  });
}
