/** The types of generate-resources.mjs, for the tests that run it on routes of their own. */
import type { ContractRoute } from "@cloudplane/contract";

/** The generated module of each area, by file name (`cdn.ts`). */
export function renderResources(routes: readonly ContractRoute[]): Map<string, string>;
/** The README's table of every method, between its markers. */
export function renderMethodTable(routes: readonly ContractRoute[]): string;
/** The README with its method table as the routes give it; throws when it has no place for one. */
export function withMethodTable(readme: string, routes: readonly ContractRoute[]): string;
