/**
 * Security profiles: the DDoS protection profiles of the account's IP addresses, built on profile
 * templates, their schemas and their routes.
 */
import type { ClientMetadata } from "../client-names.js";
import { initContract } from "@ts-rest/core";
import { z } from "zod";
import { booleanQuery, errorResponses, idParam, integer, ipAddress, jsonValue, listOf, strictObject, withBody } from "../common.js";
import * as examples from "../examples.js";
import { route } from "../route.js";
import { missingId, type CaseWorld } from "../route-case.js";
import { securityProfileTemplate } from "./profile-templates.js";
import { pageQuery, templateField } from "./shared.js";

const c = initContract();

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
    ip_address: z
      .string()
      .nullable()
      .describe("The protected IPv4 or IPv6 address; null for a profile of a template whose addresses are fixed."),
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

const writeSecurityProfileFields = {
  profile_template: integer({ min: 1 }).describe(
    "A profile template the account may use, one of GET /security/iaas/profile-templates (400 `errors.profile_template` otherwise).",
  ),
  ip_address: ipAddress
    .nullable()
    .optional()
    .describe(
      "The IPv4 or IPv6 address to protect: required when the template takes one (its accepts_ip_address), and to be " +
        "left out or null when the template's addresses are fixed (400 `errors.ip_address` otherwise).",
    ),
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
  ).superRefine((fields, ctx) => {
    const seen = new Set<number>();
    fields.forEach((field, index) => {
      if (seen.has(field.base_field))
        ctx.addIssue({ code: z.ZodIssueCode.custom, path: [index, "base_field"], message: "Each field may be given once." });
      seen.add(field.base_field);
    });
  }),
  site: z.string().min(1).max(64).describe('The site that protects the address, e.g. "ED" (also called the service).'),
};

const readOnlyProfileFields = ["id", "options", "protocols", "status", "plan"];

const updateSecurityProfileBodySchema = strictObject(writeSecurityProfileFields, { readOnly: readOnlyProfileFields }).describe(
  "Replaces the profile: every field is required but ip_address, which follows the template.",
);
export interface UpdateSecurityProfileBodySchema extends UpdateSecurityProfileBodySchemaType {}
type UpdateSecurityProfileBodySchemaType = typeof updateSecurityProfileBodySchema;
export const updateSecurityProfileBody: UpdateSecurityProfileBodySchema = updateSecurityProfileBodySchema;

export type UpdateSecurityProfileBody = z.input<typeof updateSecurityProfileBody>;

const createSecurityProfileBodySchema = strictObject(writeSecurityProfileFields, { readOnly: readOnlyProfileFields }).describe(
  "The new profile: its template, the values of the template's fields, the site and (if the template takes one) the address.",
);
export interface CreateSecurityProfileBodySchema extends CreateSecurityProfileBodySchemaType {}
type CreateSecurityProfileBodySchemaType = typeof createSecurityProfileBodySchema;
export const createSecurityProfileBody: CreateSecurityProfileBodySchema = createSecurityProfileBodySchema;

export type CreateSecurityProfileBody = z.input<typeof createSecurityProfileBody>;

const recreateSecurityProfileBodySchema = strictObject(
  { ...writeSecurityProfileFields, site: writeSecurityProfileFields.site.optional().describe('The site that protects the address, e.g. "ED". Default: the profile\'s.') },
  { readOnly: readOnlyProfileFields },
).describe("The profile anew: its template (another one, typically), the values of that template's fields, the address if the template takes one, and the site.");
export interface RecreateSecurityProfileBodySchema extends RecreateSecurityProfileBodySchemaType {}
type RecreateSecurityProfileBodySchemaType = typeof recreateSecurityProfileBodySchema;
export const recreateSecurityProfileBody: RecreateSecurityProfileBodySchema = recreateSecurityProfileBodySchema;

export type RecreateSecurityProfileBody = z.input<typeof recreateSecurityProfileBody>;

const listSecurityProfilesQuerySchema = z.object({
  exclude_empty_address: booleanQuery("true: leave out profiles without an address of their own (those of fixed-address templates).").optional(),
  include_deleted: booleanQuery("true: list deleted profiles too (options.active false, status.status \"deleted\"). Default false.").optional(),
  ip_address: z.string().max(64).optional().describe("Only the profiles of exactly this address."),
  site: z.string().max(64).optional().describe('Only the profiles of this site, e.g. "ED" (exact).'),
  ...pageQuery,
});
export interface ListSecurityProfilesQuerySchema extends ListSecurityProfilesQuerySchemaType {}
type ListSecurityProfilesQuerySchemaType = typeof listSecurityProfilesQuerySchema;
export const listSecurityProfilesQuery: ListSecurityProfilesQuerySchema = listSecurityProfilesQuerySchema;

export type ListSecurityProfilesQuery = z.input<typeof listSecurityProfilesQuery>;

const profileIdParams = z.object({ id: idParam("The profile id.") });

// The cases' objects: the account's first profile, and its own settings (valid against its template by construction).
const profileOf = (w: CaseWorld) => w.first("security.listProfiles");
const ownSettings = (w: CaseWorld) => {
  const own = profileOf(w) as unknown as SecurityProfile;
  return {
    profile_template: own.profile_template.id,
    ip_address: own.ip_address,
    site: own.site,
    fields: own.fields.map((field) => ({ base_field: field.base_field, field_value: field.field_value })),
  };
};

export const securityProfilesRoutes = {
  listProfiles: route({
    method: "GET",
    path: "/security/iaas/v2/profiles",
    query: listSecurityProfilesQuery,
    responses: { 200: z.array(securityProfile).describe("The profiles, by id."), ...errorResponses() },
    summary: "List security profiles",
    description:
      "The account's protection profiles, ordered by id, after the filters; deleted ones only with include_deleted=true. " +
      "An array, as on the platform; `limit` (default 100, maximum 1000) and `offset` page it.",
    metadata: { access: "read", client: { resource: "profiles" } } satisfies ClientMetadata,
  }, {
    example: {
      query: { site: "ED", exclude_empty_address: true },
      response: [examples.securityProfileExample],
    },
    case: { path: () => "/security/iaas/v2/profiles?include_deleted=true&limit=10", ownsObjects: false },
  }),
  getProfile: route({
    method: "GET",
    path: "/security/iaas/v2/profiles/:id",
    pathParams: profileIdParams,
    responses: { 200: securityProfile, ...errorResponses() },
    summary: "Get a security profile",
    description: "One protection profile of the account. A deleted profile, or another account's, answers 404.",
    metadata: { access: "read", client: { resource: "profiles" } } satisfies ClientMetadata,
  }, {
    example: {
      pathParams: { id: examples.securityProfileExample.id },
      response: examples.securityProfileExample,
    },
    case: { path: (w) => `/security/iaas/v2/profiles/${profileOf(w).id}`, ownsObjects: true },
  }),
  createProfile: route({
    method: "POST",
    path: "/security/iaas/v2/profiles",
    body: createSecurityProfileBody,
    responses: { 201: securityProfile, ...errorResponses(withBody) },
    summary: "Create a security profile",
    description:
      "Creates a protection profile and turns its protection on: the values are checked against the template as on " +
      "replace (required fields, known fields, each field's JSON Schema). The new profile has options " +
      '`{ bgp: false, active: true, price: "0.00" }`, no protocols, status `{ status: "active", updated }` and plan ' +
      '"standard" until the service sets them. Several profiles may protect the same address.',
    metadata: { access: "write", client: { resource: "profiles" } } satisfies ClientMetadata,
  }, {
    example: {
      body: { ...examples.updateSecurityProfileExample, ip_address: "203.0.113.25" },
      response: {
        ...examples.securityProfileExample,
        id: 8,
        ip_address: "203.0.113.25",
        options: { bgp: false, active: true, price: "0.00" },
        protocols: [],
        status: { status: "active", updated: "2026-11-02T10:15:00.000Z" },
        plan: "standard",
      },
    },
    case: {
      path: () => "/security/iaas/v2/profiles",
      ownsObjects: false,
      body: (w) => ownSettings(w),
    },
  }),
  updateProfile: route({
    method: "PUT",
    path: "/security/iaas/v2/profiles/:id",
    pathParams: profileIdParams,
    body: updateSecurityProfileBody,
    responses: { 200: securityProfile, ...errorResponses(withBody) },
    summary: "Replace a security profile",
    description:
      "Sets the profile's template, address, field values and site. The values are validated against the template: " +
      "required fields, known fields, and each field's JSON Schema. A deleted profile answers 404.",
    metadata: { access: "write", client: { resource: "profiles" } } satisfies ClientMetadata,
  }, {
    example: {
      pathParams: { id: examples.securityProfileExample.id },
      body: examples.updateSecurityProfileExample,
      response: examples.securityProfileExample,
    },
    case: {
      path: (w) => `/security/iaas/v2/profiles/${profileOf(w).id}`,
      ownsObjects: true,
      body: (w) => ownSettings(w),
    },
  }),
  recreateProfile: route({
    method: "PUT",
    path: "/security/iaas/v2/profiles/:id/recreate",
    pathParams: profileIdParams,
    body: recreateSecurityProfileBody,
    responses: { 200: securityProfile, ...errorResponses(withBody) },
    summary: "Re-create a security profile",
    description:
      "Builds the profile again, under the same id, on the template given (the way to move a profile to another " +
      "template): the values are checked against that template as on create, the site is kept unless given, and the " +
      "protection is set up anew: `options.active` true, no protocols until the service sets them, status " +
      '`{ status: "active", updated }`; `options.bgp`, the price and the plan are kept. A deleted profile answers 404.',
    metadata: { access: "write", client: { resource: "profiles", method: "recreate" } } satisfies ClientMetadata,
  }, {
    example: {
      pathParams: { id: examples.securityProfileExample.id },
      body: examples.updateSecurityProfileExample,
      response: { ...examples.securityProfileExample, protocols: [], status: { status: "active", updated: "2026-11-20T10:00:00.000Z" } },
    },
    case: {
      path: (w) => `/security/iaas/v2/profiles/${profileOf(w).id}/recreate`,
      ownsObjects: true,
      body: (w) => ownSettings(w),
    },
  }),
  deleteProfile: route({
    method: "DELETE",
    path: "/security/iaas/v2/profiles/:id",
    pathParams: profileIdParams,
    responses: { 204: c.noBody(), ...errorResponses() },
    summary: "Delete a security profile",
    description:
      "Turns the profile's protection off and deletes it: it answers 404 from then on, and shows in the list only " +
      'with include_deleted=true (options.active false, status.status "deleted"). Answers 204 with no body.',
    metadata: { access: "write", client: { resource: "profiles" } } satisfies ClientMetadata,
  }, {
    example: {
      pathParams: { id: 8 },
      // A 204 has no body; the example type asks for one.
    },
    case: {
      path: (w, made) => `/security/iaas/v2/profiles/${made?.id ?? missingId(w.account)}`,
      ownsObjects: true,
      makes: "security.createProfile",
    },
  }),
} as const;
