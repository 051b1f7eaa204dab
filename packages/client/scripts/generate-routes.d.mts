/** The types of generate-routes.mjs, for the tests that run it on routes of their own. */
import type { ContractRoute } from "@cloudplane/contract";

/** The generated module's text. */
export function renderRoutes(routes: readonly ContractRoute[]): string;
