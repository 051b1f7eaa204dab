/**
 * The storage providers' regions: catalogues the contract keeps as constants, paged.
 */
import { ALIBABA_REGIONS, AWS_REGIONS, cdnRegionsRoutes } from "@cloudplane/contract";
import { tsr } from "@ts-rest/serverless/fetch";
import type { RequestExtension, RouteDeps } from "../types.js";
import { served } from "../served.js";
import { pageLinks } from "./logs-uploader/shared.js";

type Region = { id: number; code: string; name: string };

function regionPage(regions: readonly Region[], url: string, query: { limit: number; offset: number }) {
  return { count: regions.length, ...pageLinks(url, query, regions.length), results: regions.slice(query.offset, query.offset + query.limit).map((region) => ({ ...region })) };
}

/** The routes of the storage providers' regions. */
export function cdnRegions(_deps: RouteDeps) {
  return tsr.routerWithMiddleware(served("cdn", cdnRegionsRoutes))<RequestExtension>({
    listAwsRegions: ({ query }, { request }) => Promise.resolve({ status: 200 as const, body: regionPage(AWS_REGIONS, request.url, query) }),
    listAlibabaRegions: ({ query }, { request }) => Promise.resolve({ status: 200 as const, body: regionPage(ALIBABA_REGIONS, request.url, query) }),
  });
}
