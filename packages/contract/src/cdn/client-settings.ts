/**
 * The account-level CDN settings (`/cdn/clients/me`): the settings, their change body and their routes
 * (the PATCH alias of the change is added in the area's router, index.ts).
 */
import { z } from "zod";
import { cdnTimestamp, errorResponses, integer, strictObject, withBody } from "../common.js";
import type { ClientMetadata } from "../client-names.js";
import * as examples from "../examples.js";
import { route } from "../route.js";
import { read, write } from "./shared.js";

const cdnClientSettingsSchema = z
  .object({
    id: integer().describe("The account id."),
    created: cdnTimestamp,
    updated: cdnTimestamp,
    service: z
      .object({
        enabled: z.boolean(),
        status: z.string().describe('"active" when the CDN service is on.'),
        updated: cdnTimestamp,
      })
      .strict()
      .describe("The account's CDN service."),
    utilization_level: integer().describe("Expected traffic utilization level. Writable."),
    cname: z.string().describe("The account's CNAME target for delivery host names."),
    use_balancer: z
      .boolean()
      .describe("Set by the service; read-only. Whether custom balancing is used to deliver the account's content."),
    auto_suspend_enabled: z.boolean().describe("Whether resources without traffic are suspended automatically."),
    cdn_resources_rules_max_count: integer().describe("Maximum count of rules per CDN resource."),
  })
  .strict()
  .describe("The account-level CDN settings.");
export interface CdnClientSettingsSchema extends CdnClientSettingsSchemaType {}
type CdnClientSettingsSchemaType = typeof cdnClientSettingsSchema;
export const cdnClientSettings: CdnClientSettingsSchema = cdnClientSettingsSchema;

export type CdnClientSettings = z.infer<typeof cdnClientSettings>;

export const updateCdnClientSettingsBody = strictObject(
  { utilization_level: integer({ min: 0 }).describe("An integer from 0 to 2147483647.") },
  {
    readOnly: ["id", "created", "updated", "service", "cname", "use_balancer", "auto_suspend_enabled", "cdn_resources_rules_max_count"],
  },
).describe("The account-level CDN setting to change: utilization_level, the only writable one.");

/** The routes of the account's CDN settings. */
export const cdnClientSettingsRoutes = {
  getClientSettings: route({
    method: "GET",
    path: "/cdn/clients/me",
    responses: { 200: cdnClientSettings, ...errorResponses() },
    summary: "Get the account's CDN settings",
    description: "The account-level CDN settings of the caller's account, as the change operation returns them.",
    // `/cdn/clients/me` is the account's CDN settings, not an account.
    metadata: { ...read, client: { resource: "clientSettings" } } satisfies ClientMetadata,
  }, {
    example: { response: examples.cdnClientSettingsExample },
    case: { path: () => "/cdn/clients/me", ownsObjects: false },
  }),
  updateClientSettings: route({
    method: "PUT",
    path: "/cdn/clients/me",
    body: updateCdnClientSettingsBody,
    responses: { 200: cdnClientSettings, ...errorResponses(withBody) },
    summary: "Change the account's CDN settings",
    description: "Sets the account's `utilization_level` (an integer from 0 to 2147483647) and returns the account-level CDN settings.",
    metadata: { ...write, client: { resource: "clientSettings" } } satisfies ClientMetadata,
  }, {
    example: {
      body: { utilization_level: examples.cdnClientSettingsExample.utilization_level },
      response: examples.cdnClientSettingsExample,
    },
    case: { path: () => "/cdn/clients/me", ownsObjects: false, body: () => ({ utilization_level: 2 }) },
  }),
} as const;
