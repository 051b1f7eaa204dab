/**
 * Security profile templates: the templates protection profiles are built on (the fields a profile gives
 * and how they are checked), their schemas and their route.
 */
import type { ClientMetadata } from "../client-names.js";
import { z } from "zod";
import { booleanQuery, errorResponses, integer, isoTimestamp, uuid } from "../common.js";
import * as examples from "../examples.js";
import { route } from "../route.js";
import { pageQuery, templateField } from "./shared.js";

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

const listProfileTemplatesQuerySchema = z.object({
  accepts_ip_address: booleanQuery(
    "true: only templates whose profiles each name the address they protect; false: only templates whose addresses are fixed. Default: every template.",
  ).optional(),
  ...pageQuery,
});
export interface ListProfileTemplatesQuerySchema extends ListProfileTemplatesQuerySchemaType {}
type ListProfileTemplatesQuerySchemaType = typeof listProfileTemplatesQuerySchema;
export const listProfileTemplatesQuery: ListProfileTemplatesQuerySchema = listProfileTemplatesQuerySchema;

export type ListProfileTemplatesQuery = z.input<typeof listProfileTemplatesQuery>;

export const securityProfileTemplatesRoutes = {
  listProfileTemplates: route({
    method: "GET",
    path: "/security/iaas/profile-templates",
    query: listProfileTemplatesQuery,
    responses: { 200: z.array(securityProfileTemplate).describe("The templates, by id."), ...errorResponses() },
    summary: "List profile templates",
    description:
      "The templates the account may build profiles on: the platform's common ones and those made for the account, " +
      "ordered by id. An array, as on the platform; `limit` (default 100, maximum 1000) and `offset` page it.",
    metadata: { access: "read", client: { resource: "profileTemplates" } } satisfies ClientMetadata,
  }, {
    example: {
      query: { accepts_ip_address: true },
      response: [examples.securityProfileExample.profile_template],
    },
    case: { path: () => "/security/iaas/profile-templates?accepts_ip_address=true", ownsObjects: false },
  }),
} as const;
