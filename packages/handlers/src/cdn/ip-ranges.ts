/**
 * The CDN servers' addresses: catalogues the contract keeps as constants, given as JSON or as plain text.
 */
import { CDN_PUBLIC_IPS, CDN_PUBLIC_NETWORKS, cdnIpRangesRoutes } from "@cloudplane/contract";
import { tsr } from "@ts-rest/serverless/fetch";
import type { ApiRequest, RequestExtension, RouteDeps } from "../types.js";
import { served } from "../served.js";

/** The list as asked for: JSON, or (format=plain, or Accept: text/plain without format) text, one address a line. */
function addressAnswer(list: { addresses: readonly string[]; addresses_v6: readonly string[] }, format: "json" | "plain" | undefined, request: ApiRequest) {
  const accept = request.headers.get("accept") ?? "";
  const plain = format === "plain" || (format === undefined && /^\s*text\/plain\b/i.test(accept));
  if (plain) {
    const text = `${[...list.addresses, ...list.addresses_v6].join("\n")}\n`;
    request.rawResponse = { contentType: "text/plain; charset=utf-8", body: text };
    return { status: 200 as const, body: text };
  }
  return { status: 200 as const, body: { addresses: [...list.addresses], addresses_v6: [...list.addresses_v6] } };
}

/** The routes of the CDN servers' addresses. */
export function cdnIpRanges(_deps: RouteDeps) {
  return tsr.routerWithMiddleware(served("cdn", cdnIpRangesRoutes))<RequestExtension>({
    listPublicIps: ({ query }, { request }) => Promise.resolve(addressAnswer(CDN_PUBLIC_IPS, query.format, request)),
    listPublicNetworks: ({ query }, { request }) => Promise.resolve(addressAnswer(CDN_PUBLIC_NETWORKS, query.format, request)),
  });
}
