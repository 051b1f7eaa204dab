/**
 * Origin groups with their sources: the filtered listing, create, get, PATCH merge, PUT replace and
 * delete (409 while a CDN resource uses the group).
 */
import { cdnOriginGroupsRoutes, type CreateOriginGroupBody, type OriginGroup } from "@cloudplane/contract";
import { and, asc, count, type Database, desc, eq, ilike, inArray, schema, sql, type SQL } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { isForeignKeyViolation } from "../database-errors.js";
import { conflict, invalid, notFound } from "../errors.js";
import { likePattern } from "../like.js";
import { listingCount, pageAndCount } from "../page.js";
import { type PlaceholderValues, preparedPerShape } from "../prepared.js";
import type { RequestExtension, RouteDeps } from "../types.js";
import { insertOriginGroup, NEW_GROUP_DEFAULTS, type OriginGroupRow, type OriginGroupState, referringIds, writeSources } from "./shared.js";
import { served } from "../served.js";

const { cdnResourceRules, cdnResources, originGroupSources, originGroups } = schema;

/** The origin group listing's filters, in the order their conditions are added. */
const GROUP_FILTERS = ["name", "sources", "has_related_resources"] as const;

type GroupFilter = (typeof GROUP_FILTERS)[number];

/**
 * Whether a (non-deleted) resource uses the group: `has_related_resources`, from the number of resources
 * using it that the database keeps on the group (origin_groups.related_resources). Written as the
 * expression the (account_id, related_resources > 0, id) index holds, so a page and its count walk only
 * the groups that match.
 */
const groupInUse = () => sql`(${originGroups.relatedResources} > 0)`;

/** A group filter given: its name, and for has_related_resources the value, which is part of the SQL (see below). */
type GivenGroupFilter = Exclude<GroupFilter, "has_related_resources"> | "has_related_resources=true" | "has_related_resources=false";

const GROUP_CONDITIONS: Record<GivenGroupFilter, () => SQL> = {
  name: () => ilike(originGroups.name, sql`${sql.placeholder("name")}`),
  sources: () =>
    sql`${originGroups.id} in (select ${originGroupSources.originGroupId} from ${originGroupSources} where ${originGroupSources.accountId} = ${sql.placeholder("accountId")} and ${originGroupSources.source} ilike ${sql.placeholder("sources")})`,
  "has_related_resources=true": () => groupInUse(),
  "has_related_resources=false": () => sql`not ${groupInUse()}`,
};

function groupConditions(filters: GivenGroupFilter[]): SQL | undefined {
  return and(eq(originGroups.accountId, sql.placeholder("accountId")), ...filters.map((filter) => GROUP_CONDITIONS[filter]()));
}

/** The groups as the API shows them, with their sources and whether a resource uses them: one query for any number of groups. */
async function originGroupViews(runner: Pick<Database, "select">, accountId: number, groups: OriginGroupRow[]): Promise<OriginGroup[]> {
  if (!groups.length) return [];
  const ids = groups.map((group) => group.id);
  const sources = await runner
    .select()
    .from(originGroupSources)
    .where(and(eq(originGroupSources.accountId, accountId), inArray(originGroupSources.originGroupId, ids)))
    .orderBy(asc(originGroupSources.originGroupId), asc(originGroupSources.position));
  return groups.map((group) => ({
    id: group.id,
    name: group.name,
    use_next: group.useNext,
    proxy_next_upstream: group.proxyNextUpstream as OriginGroup["proxy_next_upstream"],
    auth_type: group.authType,
    sources: sources
      .filter((source) => source.originGroupId === group.id)
      .map((source) => ({ backup: source.backup, enabled: source.enabled, source: source.source, host_header_override: source.hostHeaderOverride })),
    path: group.path,
    has_related_resources: group.relatedResources > 0,
  }));
}

/** Applies a group body to `state`; 400 when use_next is left without a failure to act on. */
function applyGroupBody(state: OriginGroupState, body: Partial<CreateOriginGroupBody>): void {
  if (body.name !== undefined) state.name = body.name;
  if (body.use_next !== undefined) state.useNext = body.use_next;
  if (body.proxy_next_upstream !== undefined) state.proxyNextUpstream = body.proxy_next_upstream;
  if (body.auth_type !== undefined) state.authType = body.auth_type;
  if (body.path !== undefined) state.path = body.path;
  // Checked only when the body touches these fields: a stored group is never refused a change of its name.
  if ((body.use_next !== undefined || body.proxy_next_upstream !== undefined) && state.useNext && state.proxyNextUpstream.length === 0)
    throw invalid("proxy_next_upstream", "Required when use_next is true: at least one failure after which the next origin is tried.");
}

/** The routes of origin groups. */
export function cdnOriginGroups(deps: RouteDeps) {
  const { db } = deps;

  /** Locks the group, applies a PATCH (merge) or PUT (replace) body and returns the group as it is afterwards. */
  async function changeOriginGroup(accountId: number, id: number, body: Partial<CreateOriginGroupBody>, replace: boolean): Promise<OriginGroup> {
    return db.transaction(async (tx) => {
      const [group] = await tx
        .select()
        .from(originGroups)
        .where(and(eq(originGroups.accountId, accountId), eq(originGroups.id, id)))
        .for("update");
      if (!group) throw notFound(`Origin group ${id}`);
      const state: OriginGroupState = replace
        ? { name: group.name, ...NEW_GROUP_DEFAULTS, proxyNextUpstream: [...NEW_GROUP_DEFAULTS.proxyNextUpstream] }
        : { name: group.name, useNext: group.useNext, proxyNextUpstream: group.proxyNextUpstream, authType: group.authType, path: group.path };
      applyGroupBody(state, body);
      const [updated] = await tx
        .update(originGroups)
        .set({ ...state, updated: new Date() })
        .where(and(eq(originGroups.accountId, accountId), eq(originGroups.id, id)))
        .returning();
      if (body.sources !== undefined) await writeSources(tx, accountId, id, body.sources, true);
      const [view] = await originGroupViews(tx, accountId, [updated!]);
      return view!;
    });
  }

  // The listing's SQL depends on which filters are given: a statement per set of filters.
  const groupPages = preparedPerShape<(typeof originGroups.$inferSelect)[]>("list_origin_groups");
  const groupCounts = preparedPerShape<{ total: number }[]>("count_origin_groups");
  const groupCount = listingCount(db, "origin_groups");

  return tsr.routerWithMiddleware(served("cdn", cdnOriginGroupsRoutes))<RequestExtension>({
    listOriginGroups: async ({ query }, { request: { caller } }) => {
      const filters: GivenGroupFilter[] = [];
      const values: PlaceholderValues = { accountId: caller.accountId, limit: query.limit, offset: query.offset };
      for (const filter of GROUP_FILTERS) {
        const value = query[filter];
        if (value === undefined || value === "") continue;
        if (filter === "has_related_resources") filters.push(`has_related_resources=${value as boolean}`);
        else {
          filters.push(filter);
          values[filter] = likePattern(value as string);
        }
      }
      const shape = filters.join(",");
      const { rows, total } = await pageAndCount(
        query,
        async (reversed, limit, offset) => {
          const rows = await groupPages(`${shape}${reversed ? ":reversed" : ""}`, () =>
            db
              .select()
              .from(originGroups)
              .where(groupConditions(filters))
              .orderBy(reversed ? desc(originGroups.id) : asc(originGroups.id))
              .limit(sql.placeholder("limit"))
              .offset(sql.placeholder("offset")),
          ).execute({ ...values, limit, offset });
          return reversed ? rows.reverse() : rows;
        },
        // Every group of the account: the count the database keeps.
        shape === ""
          ? { kept: () => groupCount(caller.accountId) }
          : { counted: async () => (await groupCounts(shape, () => db.select({ total: count() }).from(originGroups).where(groupConditions(filters))).execute(values))[0]?.total ?? 0 },
      );
      return { status: 200, body: { count: total, results: await originGroupViews(db, caller.accountId, rows) } };
    },

    createOriginGroup: async ({ body }, { request: { caller } }) => {
      const state: OriginGroupState = { name: body.name, ...NEW_GROUP_DEFAULTS, proxyNextUpstream: [...NEW_GROUP_DEFAULTS.proxyNextUpstream] };
      applyGroupBody(state, body);
      const [view] = await db.transaction(async (tx) => {
        const group = await insertOriginGroup(tx, caller.accountId, state, body.sources);
        return originGroupViews(tx, caller.accountId, [group]);
      });
      return { status: 201, body: view! };
    },

    getOriginGroup: async ({ params }, { request: { caller } }) => {
      const [group] = await db
        .select()
        .from(originGroups)
        .where(and(eq(originGroups.accountId, caller.accountId), eq(originGroups.id, params.origin_group_id)));
      if (!group) throw notFound(`Origin group ${params.origin_group_id}`);
      const [view] = await originGroupViews(db, caller.accountId, [group]);
      return { status: 200, body: view! };
    },

    updateOriginGroup: async ({ params, body }, { request: { caller } }) => ({
      status: 200,
      body: await changeOriginGroup(caller.accountId, params.origin_group_id, body, false),
    }),

    replaceOriginGroup: async ({ params, body }, { request: { caller } }) => ({
      status: 200,
      body: await changeOriginGroup(caller.accountId, params.origin_group_id, body, true),
    }),

    deleteOriginGroup: async ({ params }, { request: { caller } }) => {
      const { accountId } = caller;
      const id = params.origin_group_id;
      try {
        await db.transaction(async (tx) => {
          const [group] = await tx
            .select({ id: originGroups.id })
            .from(originGroups)
            .where(and(eq(originGroups.accountId, accountId), eq(originGroups.id, id)))
            .for("update");
          if (!group) throw notFound(`Origin group ${id}`);
          const users = await referringIds(tx, cdnResources, and(eq(cdnResources.accountId, accountId), eq(cdnResources.originGroupId, id)));
          if (users) throw conflict(`Origin group ${id} is used by CDN resources (${users}): move or delete them first.`);
          const [rule] = await tx
            .select({ id: cdnResourceRules.id, resourceId: cdnResourceRules.resourceId })
            .from(cdnResourceRules)
            .where(and(eq(cdnResourceRules.accountId, accountId), eq(cdnResourceRules.originGroupId, id)))
            .limit(1);
          if (rule)
            throw conflict(`Origin group ${id} is used by rule ${rule.id} of CDN resource ${rule.resourceId}: give the rule another originGroup, or null, first.`);
          await tx.delete(originGroups).where(and(eq(originGroups.accountId, accountId), eq(originGroups.id, id)));
        });
      } catch (error) {
        // A resource moved onto the group between our check and the delete.
        if (isForeignKeyViolation(error)) throw conflict(`Origin group ${id} is used by a CDN resource or a rule: move or delete it first.`);
        throw error;
      }
      return { status: 204, body: undefined };
    },
  });
}
