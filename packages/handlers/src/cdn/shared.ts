/**
 * What several resources of the CDN area share: the transaction type, an origin group's writable
 * fields, defaults and insert (a resource created with an `origin` makes its own group), and the ids a
 * 409 names of the rows that refer to what a delete would remove.
 */
import { MAX_LISTED_REFERENCES, type CreateOriginGroupBody } from "@cloudplane/contract";
import { and, asc, type Database, eq, schema, sql, type SQL } from "@cloudplane/db";
import { listed } from "../errors.js";

const { originGroupSources, originGroups } = schema;

export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];
export type OriginGroupRow = typeof originGroups.$inferSelect;
type OriginGroupSourceWrite = CreateOriginGroupBody["sources"][number];

/** The writable fields of an origin group. */
export interface OriginGroupState {
  name: string;
  useNext: boolean;
  proxyNextUpstream: string[];
  authType: string;
  path: string;
}

/** A new group's defaults, the values a PUT returns every optional field it leaves out to. */
export const NEW_GROUP_DEFAULTS = { useNext: false, proxyNextUpstream: ["error", "timeout"], authType: "none", path: "" } as const;

export async function writeSources(tx: Transaction, accountId: number, originGroupId: number, sources: OriginGroupSourceWrite[], replacing: boolean): Promise<void> {
  if (replacing)
    await tx.delete(originGroupSources).where(and(eq(originGroupSources.accountId, accountId), eq(originGroupSources.originGroupId, originGroupId)));
  await tx.insert(originGroupSources).values(
    sources.map((source, position) => ({
      accountId,
      originGroupId,
      position,
      source: source.source,
      backup: source.backup ?? false,
      enabled: source.enabled ?? true,
      hostHeaderOverride: source.host_header_override ?? null,
    })),
  );
}

/** Inserts a group and its sources; the new group's row. */
export async function insertOriginGroup(tx: Transaction, accountId: number, state: OriginGroupState, sources: OriginGroupSourceWrite[]): Promise<OriginGroupRow> {
  const [group] = await tx
    .insert(originGroups)
    .values({ accountId, ...state })
    .returning();
  await writeSources(tx, accountId, group!.id, sources, false);
  return group!;
}

/**
 * The ids of the rows of `table` that `where` finds, for a 409's message: the first MAX_LISTED_REFERENCES
 * in id order and how many more (`listed`); undefined for none.
 */
export async function referringIds(tx: Transaction, table: typeof schema.cdnResources | typeof schema.streams, where: SQL | undefined): Promise<string | undefined> {
  const rows = await tx
    .select({ id: table.id, total: sql<number>`(count(*) over ())::int` })
    .from(table)
    .where(where)
    .orderBy(asc(table.id))
    .limit(MAX_LISTED_REFERENCES);
  return rows.length ? listed(rows.map((row) => row.id), rows[0]!.total) : undefined;
}
