/** The types of generate-resources.mjs, for the tests that run it on routes of their own. */
import type { ContractRoute } from "@cloudplane/contract";

/** The generated module of each area, by file name (`cdn.ts`). */
export function renderResources(routes: readonly ContractRoute[]): Map<string, string>;
