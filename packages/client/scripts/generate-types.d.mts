/** The types of generate-types.mjs, for the tests that run it on routes of their own. */
import type { ContractRoute } from "@cloudplane/contract";

/** The generated module's text. */
export function renderTypes(routes: readonly ContractRoute[]): string;
