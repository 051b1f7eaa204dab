/**
 * The platform's shielding POPs: the points of presence a CDN resource's requests to its origin can go
 * through (a resource's `shielding_pop`), and their listing.
 */
import { z } from "zod";
import { errorResponses, integer, pageOf, paging } from "../common.js";
import type { ClientMetadata } from "../client-names.js";
import { route } from "../route.js";
import { CDN_PAGE_MAX, read } from "./shared.js";

export const shieldingPop = z
  .object({
    id: integer().describe("The POP id, the value of a resource's `shielding_pop`."),
    datacenter: z.string().describe("The data center, the value of a shielded resource's `shield_dc`."),
    country: z.string().describe("The country, an ISO 3166-1 alpha-2 code."),
    city: z.string().describe("The city where the POP is."),
  })
  .strict()
  .describe("A shielding POP of the platform: a point of presence through which a resource's requests to its origin can go.");

export type ShieldingPop = z.infer<typeof shieldingPop>;

const shieldingPopListSchema = pageOf(shieldingPop, "shielding POPs");
export interface ShieldingPopListSchema extends ShieldingPopListSchemaType {}
type ShieldingPopListSchemaType = typeof shieldingPopListSchema;
export const shieldingPopList: ShieldingPopListSchema = shieldingPopListSchema;

export type ShieldingPopList = z.infer<typeof shieldingPopList>;

export const listShieldingPopsQuery = z.object(paging("POPs", CDN_PAGE_MAX));

export type ListShieldingPopsQuery = z.input<typeof listShieldingPopsQuery>;

/** The shielding POPs' route. */
export const cdnShieldingPopsRoutes = {
  listShieldingPops: route({
    method: "GET",
    path: "/cdn/shieldingpop_v2",
    query: listShieldingPopsQuery,
    responses: { 200: shieldingPopList, ...errorResponses() },
    summary: "List the shielding POPs",
    description:
      "The platform's shielding POPs, the same for every account: the values a resource's `shielding_pop` may take. " +
      `Paged by \`limit\` (default and at most ${CDN_PAGE_MAX}) and \`offset\`, ordered by id ascending; always the page ` +
      "envelope `{count, results}`.",
    // The path's `shieldingpop` is one word to the rule: named here in the API's two words.
    metadata: { ...read, client: { resource: "shieldingPops" } } satisfies ClientMetadata,
  }, {
    example: {
      query: { limit: 1000, offset: 0 },
      response: {
        count: 2,
        results: [
          { id: 1, datacenter: "fra-2", country: "DE", city: "Frankfurt" },
          { id: 2, datacenter: "ams-1", country: "NL", city: "Amsterdam" },
        ],
      },
    },
    case: { path: () => "/cdn/shieldingpop_v2?limit=10", ownsObjects: false },
  }),
} as const;
