/**
 * The addresses the CDN's servers pull from origins with (`/cdn/public-ip-list`, `/cdn/public-net-list`), for
 * an origin's allow list: catalogues kept here as constants, and their routes.
 */
import { z } from "zod";
import type { ClientMetadata } from "../client-names.js";
import { errorResponses } from "../common.js";
import { route } from "../route.js";
import { read } from "./shared.js";

/**
 * The networks of this deployment's CDN servers. They are documentation ranges (RFC 5737, RFC 3849): this API
 * runs no edge servers of its own, so an allow list made from them lets nothing real through.
 */
export const CDN_PUBLIC_NETWORKS = {
  addresses: ["192.0.2.0/25", "198.51.100.0/26", "203.0.113.128/26"],
  addresses_v6: ["2001:db8:c0::/48", "2001:db8:c1::/48"],
} as const;

/** The addresses of the servers in those networks. */
export const CDN_PUBLIC_IPS = {
  addresses: ["192.0.2.10", "192.0.2.11", "192.0.2.12", "198.51.100.20", "198.51.100.21", "203.0.113.140", "203.0.113.141"],
  addresses_v6: ["2001:db8:c0::10", "2001:db8:c0::11", "2001:db8:c1::20"],
} as const;

const formatQuery = z.object({
  format: z
    .enum(["json", "plain"])
    .optional()
    .describe("json: the JSON object; plain: text/plain, one address a line, IPv4 first. Wins over the Accept header."),
});

const addressListSchema = (what: string) =>
  z
    .object({
      addresses: z.array(z.string()).describe(`The IPv4 ${what}.`),
      addresses_v6: z.array(z.string()).describe(`The IPv6 ${what}.`),
    })
    .strict();

const publicIpListSchema = addressListSchema("addresses").describe("The addresses of the CDN's servers.");
export interface PublicIpListSchema extends PublicIpListSchemaType {}
type PublicIpListSchemaType = typeof publicIpListSchema;
export const publicIpList: PublicIpListSchema = publicIpListSchema;

const publicNetworkListSchema = addressListSchema("networks (CIDR)").describe("The networks of the CDN's servers.");
export interface PublicNetworkListSchema extends PublicNetworkListSchemaType {}
type PublicNetworkListSchemaType = typeof publicNetworkListSchema;
export const publicNetworkList: PublicNetworkListSchema = publicNetworkListSchema;

const PLAIN = "With `format=plain`, or `Accept: text/plain` without `format`, the list is text/plain, one a line, IPv4 first.";
const CHANGES =
  "The list changes over time: an allow list made from it must be kept up to date. Here they are documentation ranges, as this " +
  "API runs no edge servers; the platform answers this without a token, this API with one, as every route.";

/** The routes of the CDN servers' addresses. */
export const cdnIpRangesRoutes = {
  listPublicIps: route({
    method: "GET",
    path: "/cdn/public-ip-list",
    query: formatQuery,
    responses: { 200: publicIpList.or(z.string().describe("text/plain, with format=plain.")), ...errorResponses() },
    summary: "List the CDN servers' IP addresses",
    description: `The IP addresses the CDN's servers pull content from origins with. ${PLAIN} ${CHANGES}`,
    metadata: { ...read, client: { resource: "ips", method: "list" } } satisfies ClientMetadata,
  }, {
    example: { response: { addresses: [...CDN_PUBLIC_IPS.addresses], addresses_v6: [...CDN_PUBLIC_IPS.addresses_v6] } },
    case: { path: () => "/cdn/public-ip-list", ownsObjects: false },
  }),
  listPublicNetworks: route({
    method: "GET",
    path: "/cdn/public-net-list",
    query: formatQuery,
    responses: { 200: publicNetworkList.or(z.string().describe("text/plain, with format=plain.")), ...errorResponses() },
    summary: "List the CDN servers' networks",
    description: `The networks (CIDR) of the CDN's servers, for an origin's allow list. ${PLAIN} ${CHANGES}`,
    metadata: { ...read, client: { resource: "ipRanges", method: "list" } } satisfies ClientMetadata,
  }, {
    example: { response: { addresses: [...CDN_PUBLIC_NETWORKS.addresses], addresses_v6: [...CDN_PUBLIC_NETWORKS.addresses_v6] } },
    case: { path: () => "/cdn/public-net-list", ownsObjects: false },
  }),
} as const;
