/**
 * Security area: protection profiles of IP addresses, built on profile templates.
 */
import { initContract } from "@ts-rest/core";
import { z } from "zod";
import { errorResponses, idParam, integer, ipAddress, isoTimestamp, jsonValue, listOf, strictObject, uuid, withBody } from "./common.js";

const c = initContract();

const jsonSchema = z.record(z.unknown()).describe("A JSON Schema that the field's value must satisfy.");

const templateField = {
  id: integer(),
  name: z.string(),
  description: z.string(),
  field_type: z.string().describe('The value\'s type, e.g. "int".'),
  required: z.boolean().describe("Whether every profile must give this field."),
  default: z.string().nullable().describe("The default value as text, or null."),
  validation_schema: jsonSchema,
};

const securityProfileTemplateSchema = z
  .object({
    id: integer(),
    name: z.string(),
    description: z.string(),
    fields: z.array(z.object(templateField).strict()).describe("The fields a profile of this template gives."),
    base_template: integer().nullable().describe("The template this one derives from, or null."),
    version: uuid.describe("The template's version, a UUID."),
    created: isoTimestamp,
    template_sifter: z.string().describe("The filter rules the template applies, as text."),
  })
  .strict()
  .describe("A security profile template: the fields a profile gives and how they are checked.");
export interface SecurityProfileTemplateSchema extends SecurityProfileTemplateSchemaType {}
type SecurityProfileTemplateSchemaType = typeof securityProfileTemplateSchema;
export const securityProfileTemplate: SecurityProfileTemplateSchema = securityProfileTemplateSchema;

export type SecurityProfileTemplate = z.infer<typeof securityProfileTemplate>;

const fieldValueText =
  "The field's value, any JSON value (an array of integers for most fields); checked against the field's validation_schema.";

/** A field's value as returned. */
const fieldValue = z
  .unknown()
  .refine((value) => value !== undefined, "Required.")
  .describe(fieldValueText);

/**
 * The limits of a field's value as written: generous for the lists of ports and countries the templates
 * take, and small enough that checking a value against any validation_schema stays quick.
 */
export const SECURITY_FIELD_VALUE_LIMITS = { depth: 8, items: 1000, properties: 100, stringLength: 1024 } as const;

/** A field's value as written: any JSON value within SECURITY_FIELD_VALUE_LIMITS. */
const fieldValueWrite = jsonValue(SECURITY_FIELD_VALUE_LIMITS, fieldValueText).refine((value) => value !== undefined, "Required.");

const securityProfileSchema = z
  .object({
    id: integer(),
    profile_template: securityProfileTemplate,
    ip_address: z.string().describe("The protected IPv4 or IPv6 address."),
    fields: z
      .array(
        z
          .object({
            ...templateField,
            field_value: fieldValue,
            base_field: integer().describe("The id of the template field this value is for."),
          })
          .strict(),
      )
      .describe("The profile's values of its template's fields."),
    site: z
      .string()
      .describe('The site (point of presence) that protects the address, e.g. "ED"; also called the service.'),
    options: z
      .object({
        bgp: z.boolean().describe("Whether protection is announced over BGP."),
        active: z.boolean().describe("Whether the protection is active."),
        price: z.string().describe("The profile's price as text."),
      })
      .strict()
      .describe("The profile's options; set by the service, read-only."),
    protocols: z.array(z.record(z.unknown())).describe("Protocol settings, set by the service."),
    status: z.record(z.unknown()).describe("The profile's provisioning status, set by the service."),
    plan: z.string().describe("The protection plan."),
  })
  .strict()
  .describe("A security (DDoS protection) profile of an IP address.");
export interface SecurityProfileSchema extends SecurityProfileSchemaType {}
type SecurityProfileSchemaType = typeof securityProfileSchema;
export const securityProfile: SecurityProfileSchema = securityProfileSchema;

export type SecurityProfile = z.infer<typeof securityProfile>;

const updateSecurityProfileBodySchema = strictObject(
  {
    profile_template: integer({ min: 1 }).describe("An existing profile template (400 `errors.profile_template` otherwise)."),
    ip_address: ipAddress.describe("An IPv4 or IPv6 address."),
    fields: listOf(
      strictObject({
        base_field: integer({ min: 1 }).describe("A field of `profile_template`."),
        field_value: fieldValueWrite,
      }),
      {
        max: 100,
        noun: "fields",
        description:
          "Values of the template's fields. Every required field must be given (400 `errors.fields`), each `base_field` " +
          "must be a field of the template, and each value must satisfy the field's validation_schema (400 " +
          "`errors.fields.<index>.field_value`).",
      },
    )
      .superRefine((fields, ctx) => {
        const seen = new Set<number>();
        fields.forEach((field, index) => {
          if (seen.has(field.base_field))
            ctx.addIssue({ code: z.ZodIssueCode.custom, path: [index, "base_field"], message: "Each field may be given once." });
          seen.add(field.base_field);
        });
      }),
    site: z.string().min(1).max(64).describe('The site that protects the address, e.g. "ED" (also called the service).'),
  },
  { readOnly: ["id", "options", "protocols", "status", "plan"] },
).describe("Replaces the profile: every field is required.");
export interface UpdateSecurityProfileBodySchema extends UpdateSecurityProfileBodySchemaType {}
type UpdateSecurityProfileBodySchemaType = typeof updateSecurityProfileBodySchema;
export const updateSecurityProfileBody: UpdateSecurityProfileBodySchema = updateSecurityProfileBodySchema;

export type UpdateSecurityProfileBody = z.input<typeof updateSecurityProfileBody>;

export const securityContract = c.router({
  updateProfile: {
    method: "PUT",
    path: "/security/iaas/v2/profiles/:id",
    pathParams: z.object({ id: idParam("The profile id.") }),
    body: updateSecurityProfileBody,
    responses: { 200: securityProfile, ...errorResponses(withBody) },
    summary: "Replace a security profile",
    description:
      "Sets the profile's template, address, field values and site. The values are validated against the template: " +
      "required fields, known fields, and each field's JSON Schema.",
    metadata: { access: "write" },
  },
});
