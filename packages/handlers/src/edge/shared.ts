/**
 * What several resources of the edge area share: their routes as the contract serves them, the
 * templates an account may see and use, and the 409 of a write that hit a name the account already has.
 */
import { contract, type Contract } from "@cloudplane/contract";
import { eq, isNull, or, schema, type SQL } from "@cloudplane/db";
import { sqlState } from "../database-errors.js";
import { conflict } from "../errors.js";

const { edgeTemplates } = schema;

/**
 * A resource's routes (`edgeAppsRoutes`, …) as the contract serves them: `contract.edge`'s, with the base
 * headers and the strict status codes the whole contract applies. Typed against these, an implementation
 * that answers a status its route does not declare fails to compile, as it did against `contract.edge`;
 * the resource module's own objects have neither.
 */
export function served<Name extends keyof Contract["edge"]>(routes: Record<Name, unknown>): Pick<Contract["edge"], Name> {
  return Object.fromEntries(Object.keys(routes).map((name) => [name, contract.edge[name as Name]])) as Pick<Contract["edge"], Name>;
}

/** Templates an account may use and read: its own and the public ones. */
export function visibleTemplates(accountId: number): SQL | undefined {
  return or(eq(edgeTemplates.accountId, accountId), isNull(edgeTemplates.accountId));
}

/** A write that hit a unique name: 409 saying whose name it is. */
export function nameTaken(what: string, name: string | undefined): (error: unknown) => never {
  return (error) => {
    if (sqlState(error) === "23505") throw conflict(`The account already has ${what} named ${name}.`);
    throw error;
  };
}
