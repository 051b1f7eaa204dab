/**
 * What several resources of the edge area share: the ABI (api_type) of binaries, templates and apps,
 * environment variable names, paging and force queries, the routes' access, and the case that finds a
 * binary of the account.
 */
import { z } from "zod";
import { booleanQuery, integerParam, stringEnum } from "../common.js";
import type { CaseWorld } from "../route-case.js";
export { read, write } from "../roles.js";

export const EDGE_API_TYPES = ["wasi-http", "proxy-wasm"] as const;
export const apiType = stringEnum(EDGE_API_TYPES).describe("The app's ABI: wasi-http or proxy-wasm.");

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
export const envName = z.string().regex(ENV_NAME, "Must be an environment variable name such as API_KEY.");

/** A page's `limit` and `offset`, with the default page size said in the description. */
export function paging(noun: string, defaultLimit: number) {
  return {
    limit: integerParam({ min: 1, max: 1000, description: `Page size, 1 to 1000. Default ${defaultLimit}.` }).default(defaultLimit),
    offset: integerParam({ min: 0, description: `Number of matching ${noun} skipped. Default 0.` }).default(0),
  };
}

export const forceQuery = (what: string) => z.object({ force: booleanQuery(what).default(false) });

/** The case's binary: the first one the account has. */
export const binaryOf = (w: CaseWorld) => w.first("edge.listBinaries");
