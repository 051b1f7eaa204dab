/**
 * The cloud storage regions of two providers a CDN resource may pull from (`/cdn/aws_regions`,
 * `/cdn/alibaba_regions`): catalogues the platform fixes, kept here as constants, and their routes.
 */
import { z } from "zod";
import type { ClientMetadata } from "../client-names.js";
import { errorResponses, integer, paging } from "../common.js";
import { route } from "../route.js";
import { linkedPageOf } from "./logs-uploader/shared.js";
import { CDN_PAGE_MAX, read } from "./shared.js";

/** Amazon S3 regions, by code, with the platform's id and name. */
export const AWS_REGIONS = [
  { id: 1, code: "us-east-1", name: "US East (N. Virginia)" },
  { id: 2, code: "us-east-2", name: "US East (Ohio)" },
  { id: 3, code: "us-west-1", name: "US West (N. California)" },
  { id: 4, code: "us-west-2", name: "US West (Oregon)" },
  { id: 5, code: "af-south-1", name: "Africa (Cape Town)" },
  { id: 6, code: "ap-east-1", name: "Asia Pacific (Hong Kong)" },
  { id: 7, code: "ap-south-1", name: "Asia Pacific (Mumbai)" },
  { id: 8, code: "ap-northeast-1", name: "Asia Pacific (Tokyo)" },
  { id: 9, code: "ap-northeast-2", name: "Asia Pacific (Seoul)" },
  { id: 10, code: "ap-northeast-3", name: "Asia Pacific (Osaka)" },
  { id: 11, code: "ap-southeast-1", name: "Asia Pacific (Singapore)" },
  { id: 12, code: "ap-southeast-2", name: "Asia Pacific (Sydney)" },
  { id: 13, code: "ca-central-1", name: "Canada (Central)" },
  { id: 14, code: "eu-central-1", name: "Europe (Frankfurt)" },
  { id: 15, code: "eu-west-1", name: "Europe (Ireland)" },
  { id: 16, code: "eu-west-2", name: "Europe (London)" },
  { id: 17, code: "eu-west-3", name: "Europe (Paris)" },
  { id: 18, code: "eu-north-1", name: "Europe (Stockholm)" },
  { id: 19, code: "eu-south-1", name: "Europe (Milan)" },
  { id: 20, code: "me-south-1", name: "Middle East (Bahrain)" },
  { id: 21, code: "sa-east-1", name: "South America (São Paulo)" },
] as const;

/** Alibaba Cloud OSS regions, by code, with the platform's id and name. */
export const ALIBABA_REGIONS = [
  { id: 1, code: "oss-cn-hangzhou", name: "China (Hangzhou)" },
  { id: 2, code: "oss-cn-shanghai", name: "China (Shanghai)" },
  { id: 3, code: "oss-cn-qingdao", name: "China (Qingdao)" },
  { id: 4, code: "oss-cn-beijing", name: "China (Beijing)" },
  { id: 5, code: "oss-cn-zhangjiakou", name: "China (Zhangjiakou)" },
  { id: 6, code: "oss-cn-shenzhen", name: "China (Shenzhen)" },
  { id: 7, code: "oss-cn-hongkong", name: "China (Hong Kong)" },
  { id: 8, code: "oss-ap-southeast-1", name: "Singapore" },
  { id: 9, code: "oss-ap-southeast-5", name: "Indonesia (Jakarta)" },
  { id: 10, code: "oss-ap-northeast-1", name: "Japan (Tokyo)" },
  { id: 11, code: "oss-ap-south-1", name: "India (Mumbai)" },
  { id: 12, code: "oss-eu-central-1", name: "Germany (Frankfurt)" },
  { id: 13, code: "oss-eu-west-1", name: "UK (London)" },
  { id: 14, code: "oss-us-west-1", name: "US (Silicon Valley)" },
  { id: 15, code: "oss-us-east-1", name: "US (Virginia)" },
  { id: 16, code: "oss-me-east-1", name: "UAE (Dubai)" },
] as const;

const storageRegionSchema = z
  .object({
    id: integer().describe("The region's id."),
    code: z.string().describe("The provider's region code."),
    name: z.string().describe("The region's name."),
  })
  .strict()
  .describe("A cloud storage region.");

const storageRegionListSchema = linkedPageOf(storageRegionSchema, "regions");
export interface StorageRegionListSchema extends StorageRegionListSchemaType {}
type StorageRegionListSchemaType = typeof storageRegionListSchema;
export const storageRegionList: StorageRegionListSchema = storageRegionListSchema;

export type StorageRegionList = z.infer<typeof storageRegionList>;

const listRegionsQuerySchema = z.object({ ...paging("regions", CDN_PAGE_MAX) });
export interface ListRegionsQuerySchema extends ListRegionsQuerySchemaType {}
type ListRegionsQuerySchemaType = typeof listRegionsQuerySchema;
export const listRegionsQuery: ListRegionsQuerySchema = listRegionsQuerySchema;

const PAGED = `Paged by \`limit\` (default and at most ${CDN_PAGE_MAX}) and \`offset\`, in ascending id order, with \`count\`, \`next\` and \`previous\`.`;

/** The routes of the storage providers' regions. */
export const cdnRegionsRoutes = {
  listAwsRegions: route({
    method: "GET",
    path: "/cdn/aws_regions",
    query: listRegionsQuery,
    responses: { 200: storageRegionList, ...errorResponses() },
    summary: "List Amazon S3 regions",
    description: `The Amazon S3 regions the platform knows, the same for every account. ${PAGED}`,
    metadata: { ...read, client: { resource: "awsRegions" } } satisfies ClientMetadata,
  }, {
    example: {
      query: { limit: 2 },
      response: { count: AWS_REGIONS.length, next: "http://localhost:8787/cdn/aws_regions?limit=2&offset=2", previous: null, results: AWS_REGIONS.slice(0, 2) },
    },
    case: { path: () => "/cdn/aws_regions", ownsObjects: false },
  }),
  listAlibabaRegions: route({
    method: "GET",
    path: "/cdn/alibaba_regions",
    query: listRegionsQuery,
    responses: { 200: storageRegionList, ...errorResponses() },
    summary: "List Alibaba Cloud OSS regions",
    description: `The Alibaba Cloud OSS regions the platform knows, the same for every account. ${PAGED}`,
    metadata: { ...read, client: { resource: "alibabaRegions" } } satisfies ClientMetadata,
  }, {
    example: {
      query: { limit: 2 },
      response: { count: ALIBABA_REGIONS.length, next: "http://localhost:8787/cdn/alibaba_regions?limit=2&offset=2", previous: null, results: ALIBABA_REGIONS.slice(0, 2) },
    },
    case: { path: () => "/cdn/alibaba_regions", ownsObjects: false },
  }),
} as const;
