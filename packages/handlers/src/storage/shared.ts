/**
 * What the Object storage routes share: the account's storage named by the path.
 */
import { and, type Database, eq, schema } from "@cloudplane/db";
import { notFound } from "../errors.js";

const { storages } = schema;

export type StorageRow = typeof storages.$inferSelect;

/** The account's storage `id`, or 404. */
export async function storageOf(db: Pick<Database, "select">, accountId: number, id: number): Promise<StorageRow> {
  const [row] = await db
    .select()
    .from(storages)
    .where(and(eq(storages.accountId, accountId), eq(storages.id, id)));
  if (!row) throw notFound(`Storage ${id}`);
  return row;
}
