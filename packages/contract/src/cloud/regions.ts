/**
 * Cloud regions: the platform's regions (v1), the same for every account, with what each offers; their
 * schemas and their routes.
 */
import { z } from "zod";
import { booleanQuery, errorResponses, idParam, integer, isoTimestamp, pageOf, paging, stringEnum } from "../common.js";
import { route } from "../route.js";
import { read } from "./shared.js";

export const CLOUD_REGION_ORDERS = ["created_at.asc", "created_at.desc", "display_name.asc", "display_name.desc"] as const;

/** The capabilities a region may have, each answered as `has_<capability>`. */
export const CLOUD_REGION_CAPABILITIES = ["ai", "ai_gpu", "baremetal", "basic_vm", "dbaas", "ddos", "k8s", "kvm", "sfs"] as const;

/** The products `product` filters by: a region offers one when its capabilities name it. */
export const CLOUD_REGION_PRODUCTS = ["containers", "inference"] as const;

const capabilityFields = Object.fromEntries(
  CLOUD_REGION_CAPABILITIES.map((capability) => [`has_${capability}`, z.boolean().describe(`Whether the region offers ${capability.replaceAll("_", " ")}.`)]),
) as Record<`has_${(typeof CLOUD_REGION_CAPABILITIES)[number]}`, z.ZodBoolean>;

const cloudRegionSchema = z
  .object({
    id: integer(),
    display_name: z.string().describe('The region\'s name for people, e.g. "Luxembourg-2".'),
    slug: z.string().describe('A short identifier of the region, e.g. "luxembourg-2".'),
    keystone_name: z.string().describe("The technical name of the region (the same as slug here)."),
    keystone_id: integer().describe("The id of the region's identity service."),
    country: z.string().describe("ISO 3166-1 alpha-2 code of the region's country."),
    zone: stringEnum(["AMERICAS", "APAC", "EMEA", "RUSSIA_AND_CIS"]).nullable().describe("The region's part of the world, or null."),
    access_level: stringEnum(["core", "edge"]).describe("core or edge."),
    state: stringEnum(["ACTIVE", "DELETED", "DELETING", "DELETION_FAILED", "INACTIVE", "MAINTENANCE", "NEW"]).describe("ACTIVE when it takes new resources."),
    endpoint_type: stringEnum(["admin", "internal", "public"]).describe('The endpoint served to accounts: always "public".'),
    coordinates: z
      .object({ latitude: z.string().describe("Degrees north (negative: south), as text."), longitude: z.string().describe("Degrees east (negative: west), as text.") })
      .strict()
      .nullable()
      .describe("Where the region is, in decimal degrees as text; null when not known."),
    available_volume_types: z
      .array(z.string())
      .nullable()
      .describe("The volume types the region offers, with show_volume_types=true; null otherwise, as on the platform."),
    file_share_types: z.array(stringEnum(["standard", "vast"])).nullable().describe("The file share types the region offers."),
    ...capabilityFields,
    created_at: isoTimestamp,
    created_on: isoTimestamp.describe("The same as created_at (the platform's older name for it)."),
    external_network_id: z.string().nullable().describe("Always null: the platform's external network is not exposed here."),
    metrics_database_id: integer().nullable().describe("Always null here."),
    ddos_endpoint_id: integer().nullable().describe("Always null here."),
    vlan_physical_network: z.string().describe('The physical network VLAN networks are made on: "" as none are made here.'),
    task_id: z.string().nullable().describe("Always null (the platform no longer uses it)."),
  })
  .strict()
  .describe("A region of the platform and what it offers.");
export interface CloudRegionSchema extends CloudRegionSchemaType {}
type CloudRegionSchemaType = typeof cloudRegionSchema;
export const cloudRegion: CloudRegionSchema = cloudRegionSchema;
export type CloudRegion = z.infer<typeof cloudRegion>;

const showVolumeTypes = booleanQuery("true: available_volume_types lists the region's volume types; false (default): it is null.").optional();

const listCloudRegionsQuerySchema = z.object({
  ...paging("regions", 100),
  display_name: z.string().max(255).optional().describe("Only the region of this display name (case-insensitive, exact)."),
  order_by: stringEnum(CLOUD_REGION_ORDERS)
    .default("created_at.asc")
    .describe("`created_at` or `display_name`, `.asc` or `.desc`. Default created_at.asc; ties are broken by id."),
  product: stringEnum(CLOUD_REGION_PRODUCTS).optional().describe("Only the regions that offer this product: containers or inference."),
  show_volume_types: showVolumeTypes,
});
export interface ListCloudRegionsQuerySchema extends ListCloudRegionsQuerySchemaType {}
type ListCloudRegionsQuerySchemaType = typeof listCloudRegionsQuerySchema;
export const listCloudRegionsQuery: ListCloudRegionsQuerySchema = listCloudRegionsQuerySchema;
export type ListCloudRegionsQuery = z.input<typeof listCloudRegionsQuery>;

const cloudRegionListSchema = pageOf(cloudRegion, "regions");
export interface CloudRegionListSchema extends CloudRegionListSchemaType {}
type CloudRegionListSchemaType = typeof cloudRegionListSchema;
export const cloudRegionList: CloudRegionListSchema = cloudRegionListSchema;
export type CloudRegionList = z.infer<typeof cloudRegionList>;

// The examples' object: the demo data's first region.
const demoRegion: CloudRegion = {
  id: 1,
  display_name: "Luxembourg-2",
  slug: "luxembourg-2",
  keystone_name: "luxembourg-2",
  keystone_id: 76,
  country: "LU",
  zone: "EMEA",
  access_level: "core",
  state: "ACTIVE",
  endpoint_type: "public",
  coordinates: { latitude: "49.6116", longitude: "6.1319" },
  available_volume_types: ["standard", "ssd_hiiops", "cold"],
  file_share_types: ["standard", "vast"],
  has_ai: true,
  has_ai_gpu: true,
  has_baremetal: true,
  has_basic_vm: true,
  has_dbaas: true,
  has_ddos: true,
  has_k8s: true,
  has_kvm: true,
  has_sfs: true,
  created_at: "2024-12-01T09:00:00.000Z",
  created_on: "2024-12-01T09:00:00.000Z",
  external_network_id: null,
  metrics_database_id: null,
  ddos_endpoint_id: null,
  vlan_physical_network: "",
  task_id: null,
};

export const cloudRegionsRoutes = {
  listRegions: route({
    method: "GET",
    path: "/cloud/v1/regions",
    query: listCloudRegionsQuery,
    responses: { 200: cloudRegionList, ...errorResponses() },
    summary: "List cloud regions",
    description:
      "The platform's regions (the same for every account) that match `display_name` and `product`, ordered by " +
      "`order_by` (default created_at.asc, ties by id) and paged by `limit` (default 100, at most 1000) and `offset`; " +
      "`count` is the number of all matches.",
    metadata: read,
  }, {
    example: {
      query: { limit: 1, offset: 0, show_volume_types: true },
      response: { count: 3, results: [demoRegion] },
    },
    case: { path: () => "/cloud/v1/regions?order_by=display_name.asc", ownsObjects: false },
  }),
  getRegion: route({
    method: "GET",
    path: "/cloud/v1/regions/:region_id",
    pathParams: z.object({ region_id: idParam("The region id.") }),
    query: z.object({ show_volume_types: showVolumeTypes }),
    responses: { 200: cloudRegion, ...errorResponses() },
    summary: "Get a cloud region",
    description: "One region of the platform; an id of no region answers 404.",
    metadata: read,
  }, {
    example: { pathParams: { region_id: 1 }, query: { show_volume_types: true }, response: demoRegion },
    case: { path: (w) => `/cloud/v1/regions/${w.first("cloud.listRegions").id}`, ownsObjects: false },
  }),
} as const;
