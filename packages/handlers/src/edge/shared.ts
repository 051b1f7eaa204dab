/**
 * What several resources of the edge area share: the templates an account may see and use, and the 409 of a write that hit a name the account already has.
 */
import { eq, isNull, or, schema, type SQL } from "@cloudplane/db";
import { sqlState } from "../database-errors.js";
import { conflict } from "../errors.js";

const { edgeTemplates } = schema;

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
