/**
 * CDN resources: list, create, get, delete, PATCH merge and PUT replace with their reference, host name
 * and option rules, and a resource's origin shielding.
 */
import {
  CDN_PLAN_LIMITS,
  cdnResourcesRoutes,
  completeCdnResourceOptions,
  type CdnResource,
  type CdnResourceOptions,
  type ListCdnResourcesQuery,
  type ReplaceCdnResourceBody,
} from "@cloudplane/contract";
import { and, asc, count, type Database, desc, encryptSecret, eq, gte, ilike, inArray, lte, ne, schema, sql, type SQL } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { isForeignKeyViolation, sqlState } from "../database-errors.js";
import { conflict, invalid, notFound, validationFailed } from "../errors.js";
import { cdnTime } from "../format.js";
import { likePattern } from "../like.js";
import { listingCount, onPage, pageAndCount } from "../page.js";
import { columnPlaceholder, inTransaction, type PlaceholderValues, preparedOnce, preparedPerShape } from "../prepared.js";
import type { RequestExtension, RouteDeps } from "../types.js";
import { insertOriginGroup, NEW_GROUP_DEFAULTS, referringIds, type Transaction } from "./shared.js";
import { served } from "../served.js";
import { managedOptions, prepareRulesOfResources, rulesOfResources } from "./rules.js";

const { accounts, cdnResourceHostnames, cdnResources, certificates, originGroups, shieldingPops, streams } = schema;

type StoredOptions = Record<string, Record<string, unknown>>;
type ResourceRow = typeof cdnResources.$inferSelect;

/** The writable fields of a resource after a write: PATCH starts from the row, PUT from a new resource's defaults. */
interface ResourceState {
  active: boolean;
  name: string;
  description: string;
  originGroupId: number;
  originProtocol: "HTTP" | "HTTPS" | "MATCH";
  sslEnabled: boolean;
  sslDataId: number | null;
  proxySslEnabled: boolean;
  proxySslCaId: number | null;
  proxySslDataId: number | null;
  waapApiDomainEnabled: boolean;
  options: StoredOptions;
}

/** A stored option as returned: `secure_key.key` is a secret and never leaves the service. */
function publicOptions(options: StoredOptions): CdnResourceOptions {
  const { secure_key: secureKey, ...rest } = options;
  if (!secureKey) return completeCdnResourceOptions(rest);
  const { key: _key, ...shown } = secureKey;
  return completeCdnResourceOptions({ ...rest, secure_key: shown });
}

/** The column of each writable field of a resource (every field of `ResourceState`). */
const STATE_COLUMNS = {
  active: cdnResources.active,
  name: cdnResources.name,
  description: cdnResources.description,
  originGroupId: cdnResources.originGroupId,
  originProtocol: cdnResources.originProtocol,
  sslEnabled: cdnResources.sslEnabled,
  sslDataId: cdnResources.sslDataId,
  proxySslEnabled: cdnResources.proxySslEnabled,
  proxySslCaId: cdnResources.proxySslCaId,
  proxySslDataId: cdnResources.proxySslDataId,
  waapApiDomainEnabled: cdnResources.waapApiDomainEnabled,
  options: cdnResources.options,
} satisfies Record<keyof ResourceState, unknown>;

/** A resource with what its answer takes from other tables: the origin group's name and the shielding POP's data center. */
interface ResourceSelection {
  resource: ResourceRow;
  originGroupName: string;
  shieldDc: string | null;
}

function selectResources(db: Pick<Database, "select">) {
  return db
    .select({ resource: cdnResources, originGroupName: originGroups.name, shieldDc: shieldingPops.datacenter })
    .from(cdnResources)
    .innerJoin(originGroups, and(eq(originGroups.accountId, cdnResources.accountId), eq(originGroups.id, cdnResources.originGroupId)))
    .leftJoin(shieldingPops, eq(shieldingPops.id, cdnResources.shieldingPopId));
}

/**
 * The statements every read and write of one resource runs whatever its body (lock, write, read back),
 * prepared once; a write runs them in its transaction through `inTransaction`.
 */
function prepareResourceStatements(db: Database) {
  const resource = () => and(eq(cdnResources.accountId, sql.placeholder("accountId")), eq(cdnResources.id, sql.placeholder("id")));
  return {
    lock: db.select().from(cdnResources).where(resource()).for("update").prepare("lock_cdn_resource"),
    write: db
      .update(cdnResources)
      .set({
        ...Object.fromEntries(Object.entries(STATE_COLUMNS).map(([field, column]) => [field, columnPlaceholder(field, column)])),
        updated: columnPlaceholder("updated", cdnResources.updated),
      })
      .where(resource())
      .prepare("write_cdn_resource"),
    read: selectResources(db).where(resource()).prepare("read_cdn_resource"),
    hostnames: db
      .select({ hostname: cdnResourceHostnames.hostname })
      .from(cdnResourceHostnames)
      .where(and(eq(cdnResourceHostnames.accountId, sql.placeholder("accountId")), eq(cdnResourceHostnames.resourceId, sql.placeholder("id"))))
      .orderBy(asc(cdnResourceHostnames.position))
      .prepare("cdn_resource_hostnames"),
    rules: prepareRulesOfResources(db),
  };
}

type ResourceStatements = ReturnType<typeof prepareResourceStatements>;

function toCdnResource(row: ResourceSelection, hostnames: string[], rules: Record<string, unknown>[]): CdnResource {
  const r = row.resource;
  return {
    id: r.id,
    cname: r.cname,
    active: r.active,
    enabled: r.enabled,
    status: r.status,
    deleted: r.deleted,
    client: r.accountId,
    name: r.name,
    description: r.description,
    created: cdnTime(r.created),
    updated: cdnTime(r.updated),
    originGroup: r.originGroupId,
    originGroup_name: row.originGroupName,
    originProtocol: r.originProtocol,
    secondaryHostnames: hostnames,
    shielded: r.shieldingPopId !== null,
    shield_dc: row.shieldDc,
    shield_enabled: r.shieldingPopId !== null,
    shield_routing_map: r.shieldRoutingMap,
    sslEnabled: r.sslEnabled,
    sslData: r.sslDataId,
    proxy_ssl_enabled: r.proxySslEnabled,
    proxy_ssl_ca: r.proxySslCaId,
    proxy_ssl_data: r.proxySslDataId,
    preset_applied: r.presetApplied,
    vp_enabled: r.vpEnabled,
    full_custom_enabled: r.fullCustomEnabled,
    can_purge_by_urls: r.canPurgeByUrls,
    suspend_date: r.suspendDate ? cdnTime(r.suspendDate) : null,
    suspended: r.suspended,
    primary_resource: r.primaryResourceId,
    is_primary: r.isPrimary,
    waap_domain_id: r.waapDomainId,
    rules,
    options: publicOptions(r.options),
    waap_api_domain_enabled: r.waapApiDomainEnabled,
  };
}

/** One resource of the account as the API shows it; inside `tx` when given (a write reads back its own changes). */
async function loadResource(
  statements: ResourceStatements,
  accountId: number,
  id: number,
  tx?: Transaction,
): Promise<CdnResource | undefined> {
  const [row] = await (tx ? inTransaction(statements.read, tx) : statements.read).execute({ accountId, id });
  if (!row) return undefined;
  const hostnames = await (tx ? inTransaction(statements.hostnames, tx) : statements.hostnames).execute({ accountId, id });
  const rules = await rulesOfResources(tx ? inTransaction(statements.rules, tx) : statements.rules, accountId, [row.resource]);
  return toCdnResource(row, hostnames.map((item) => item.hostname), rules.get(id) ?? []);
}

function stateOf(row: ResourceRow): ResourceState {
  return {
    active: row.active,
    name: row.name,
    description: row.description,
    originGroupId: row.originGroupId,
    originProtocol: row.originProtocol,
    sslEnabled: row.sslEnabled,
    sslDataId: row.sslDataId,
    proxySslEnabled: row.proxySslEnabled,
    proxySslCaId: row.proxySslCaId,
    proxySslDataId: row.proxySslDataId,
    waapApiDomainEnabled: row.waapApiDomainEnabled,
    options: row.options,
  };
}

/** The writable fields of a new resource (what a PUT returns every field it leaves out to). */
function newResourceState(name: string, originGroupId: number): ResourceState {
  return {
    active: true,
    name,
    description: "",
    originGroupId,
    originProtocol: "HTTP",
    sslEnabled: false,
    sslDataId: null,
    proxySslEnabled: false,
    proxySslCaId: null,
    proxySslDataId: null,
    waapApiDomainEnabled: false,
    options: {},
  };
}

type ResourceBody = ReplaceCdnResourceBody | Partial<ReplaceCdnResourceBody>;

/**
 * Applies a create, PATCH or PUT body to `state` and checks every reference against the account: 400
 * with every problem at once, then 409 for a secondary host name another resource of the account uses
 * (`resourceId` is the resource written, null for a new one). Writes nothing.
 */
async function applyResourceBody(
  tx: Transaction,
  secretsKey: CryptoKey,
  accountId: number,
  resourceId: number | null,
  state: ResourceState,
  body: ResourceBody,
  mergeOptions: boolean,
): Promise<void> {
  const errors: Record<string, string[]> = {};
  if (body.active !== undefined) state.active = body.active;
  if (body.name !== undefined) state.name = body.name;
  if (body.description !== undefined) state.description = body.description;
  if (body.originProtocol !== undefined) state.originProtocol = body.originProtocol;
  if (body.sslEnabled !== undefined) state.sslEnabled = body.sslEnabled;
  if (body.sslData !== undefined) state.sslDataId = body.sslData;
  if (body.proxy_ssl_enabled !== undefined) state.proxySslEnabled = body.proxy_ssl_enabled;
  if (body.proxy_ssl_ca !== undefined) state.proxySslCaId = body.proxy_ssl_ca;
  if (body.proxy_ssl_data !== undefined) state.proxySslDataId = body.proxy_ssl_data;
  if (body.waap_api_domain_enabled !== undefined) state.waapApiDomainEnabled = body.waap_api_domain_enabled;

  // The origin group and certificates named are locked (key share) until the write commits: a delete of
  // one, which locks it for update, waits for the write and then sees the resource, or the write sees it gone.
  if (body.originGroup !== undefined) {
    const [group] = await tx
      .select({ id: originGroups.id })
      .from(originGroups)
      .where(and(eq(originGroups.accountId, accountId), eq(originGroups.id, body.originGroup)))
      .for("key share");
    if (!group) errors.originGroup = ["Must be an origin group of the account."];
    state.originGroupId = body.originGroup;
  }

  const certificateChecks = [
    ["sslData", body.sslData, "ssl"],
    ["proxy_ssl_data", body.proxy_ssl_data, "ssl"],
    ["proxy_ssl_ca", body.proxy_ssl_ca, "ca"],
  ] as const;
  const wanted = certificateChecks.filter(([, id]) => typeof id === "number").map(([, id]) => id as number);
  if (wanted.length) {
    const found = await tx
      .select({ id: certificates.id, kind: certificates.kind })
      .from(certificates)
      .where(and(eq(certificates.accountId, accountId), inArray(certificates.id, wanted)))
      .for("key share");
    for (const [field, id, kind] of certificateChecks) {
      if (typeof id !== "number") continue;
      const certificate = found.find((item) => item.id === id);
      if (!certificate) errors[field] = ["Must be a certificate of the account."];
      else if (certificate.kind !== kind)
        errors[field] = [kind === "ca" ? "Must be a CA certificate of the account." : "Must be an SSL certificate of the account, not a CA certificate."];
    }
  }
  if (state.sslEnabled && state.sslDataId === null && !errors.sslData)
    errors.sslData = ["Required when sslEnabled is true: the certificate to serve HTTPS with."];

  if (body.options !== undefined) {
    const next: StoredOptions = mergeOptions ? { ...state.options } : {};
    for (const [key, option] of Object.entries(body.options)) {
      if (option === null || option === undefined) delete next[key];
      else next[key] = { ...option };
    }
    const secureKey = body.options.secure_key;
    // The secure key is a secret: encrypted at rest like every other secret, never returned.
    if (secureKey) next.secure_key = { ...secureKey, key: await encryptSecret(secretsKey, secureKey.key) };
    state.options = next;
  }
  if (Object.keys(errors).length) throw validationFailed(errors);

  if (body.secondaryHostnames !== undefined && body.secondaryHostnames.length) {
    const lower = body.secondaryHostnames.map((name) => name.toLowerCase());
    const conditions = [eq(cdnResourceHostnames.accountId, accountId), inArray(sql`lower(${cdnResourceHostnames.hostname})`, lower)];
    if (resourceId !== null) conditions.push(ne(cdnResourceHostnames.resourceId, resourceId));
    const taken = await tx.select({ hostname: cdnResourceHostnames.hostname }).from(cdnResourceHostnames).where(and(...conditions));
    if (taken.length)
      throw conflict(`Secondary host names already used by another resource of the account: ${taken.map((item) => item.hostname).join(", ")}.`);
  }
}

/** Replaces a resource's secondary host names with `hostnames`, in their order. */
async function writeHostnames(tx: Transaction, accountId: number, resourceId: number, hostnames: string[], replacing: boolean): Promise<void> {
  if (replacing)
    await tx.delete(cdnResourceHostnames).where(and(eq(cdnResourceHostnames.accountId, accountId), eq(cdnResourceHostnames.resourceId, resourceId)));
  if (hostnames.length)
    await tx.insert(cdnResourceHostnames).values(hostnames.map((hostname, position) => ({ accountId, resourceId, position, hostname })));
}

/** Runs a write whose unique violations can only be a host name a concurrent write took between our check and our insert. */
async function uniqueConflicts<T>(message: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (sqlState(error) === "23505") throw conflict(message);
    throw error;
  }
}

/** The resource listing's filters, in the order their conditions (and so their parameters) are added. */
const RESOURCE_FILTERS = [
  "cname",
  "name",
  "status",
  "deleted",
  "enabled",
  "active",
  "originGroup",
  "sslEnabled",
  "sslData",
  "sslData_in",
  "shielded",
  "shield_dc",
  "vp_enabled",
  "secondaryHostnames",
  "min_created",
  "max_created",
] as const;

type ResourceFilter = (typeof RESOURCE_FILTERS)[number];
type ListedResources = Omit<ListCdnResourcesQuery, "sslData_in"> & { sslData_in?: number[] };

/** Each filter's condition, its value a placeholder named after it (see `resourceFilterValue`). */
const RESOURCE_CONDITIONS: Record<ResourceFilter, (value: SQL) => SQL> = {
  cname: (value) => sql`${cdnResources.cname} = ${value}`,
  name: (value) => ilike(cdnResources.name, value),
  status: (value) => sql`${cdnResources.status} = ${value}`,
  deleted: (value) => sql`${cdnResources.deleted} = ${value}`,
  enabled: (value) => sql`${cdnResources.enabled} = ${value}`,
  active: (value) => sql`${cdnResources.active} = ${value}`,
  originGroup: (value) => sql`${cdnResources.originGroupId} = ${value}`,
  sslEnabled: (value) => sql`${cdnResources.sslEnabled} = ${value}`,
  sslData: (value) => sql`${cdnResources.sslDataId} = ${value}`,
  // The ids travel as one text parameter: the same statement for any number of them, on both engines.
  sslData_in: (value) => sql`${cdnResources.sslDataId} = any(string_to_array(${value}, ',')::integer[])`,
  shielded: (value) => sql`(${cdnResources.shieldingPopId} is not null) = ${value}`,
  shield_dc: (value) =>
    sql`${cdnResources.shieldingPopId} in (select ${shieldingPops.id} from ${shieldingPops} where ${shieldingPops.datacenter} = ${value})`,
  vp_enabled: (value) => sql`${cdnResources.vpEnabled} = ${value}`,
  secondaryHostnames: (value) =>
    sql`${cdnResources.id} in (select ${cdnResourceHostnames.resourceId} from ${cdnResourceHostnames} where ${cdnResourceHostnames.accountId} = ${sql.placeholder("accountId")} and lower(${cdnResourceHostnames.hostname}) = ${value})`,
  min_created: (value) => gte(cdnResources.created, value),
  max_created: (value) => lte(cdnResources.created, value),
};

/** The value a filter's placeholder takes. */
function resourceFilterValue(query: ListedResources, filter: ResourceFilter): unknown {
  const value = query[filter];
  if (filter === "cname" || filter === "secondaryHostnames") return (value as string).toLowerCase();
  if (filter === "name") return likePattern(value as string);
  if (filter === "sslData_in") return (value as number[]).join(",");
  if (filter === "min_created" || filter === "max_created") return new Date(value as string).toISOString();
  return value;
}

function resourceConditions(filters: ResourceFilter[]): SQL | undefined {
  return and(
    eq(cdnResources.accountId, sql.placeholder("accountId")),
    ...filters.map((filter) => RESOURCE_CONDITIONS[filter](sql`${sql.placeholder(filter)}`)),
  );
}

/** Every resource's secondary host names, in order, for the resources `ids` of the account. */
async function hostnamesOf(runner: Pick<Database, "select">, accountId: number, ids: number[]): Promise<Map<number, string[]>> {
  const byResource = new Map<number, string[]>(ids.map((id) => [id, []]));
  if (!ids.length) return byResource;
  const rows = await runner
    .select({ resourceId: cdnResourceHostnames.resourceId, hostname: cdnResourceHostnames.hostname })
    .from(cdnResourceHostnames)
    .where(and(eq(cdnResourceHostnames.accountId, accountId), inArray(cdnResourceHostnames.resourceId, ids)))
    .orderBy(asc(cdnResourceHostnames.resourceId), asc(cdnResourceHostnames.position));
  for (const row of rows) byResource.get(row.resourceId)?.push(row.hostname);
  return byResource;
}

/**
 * The routes of CDN resources and their shielding; exported as `cdnResources`, a name this file gives
 * the resources' table.
 */
function cdnResourcesRouter(deps: RouteDeps) {
  const { db, secretsKey } = deps;
  const resourceStatements = preparedOnce(() => prepareResourceStatements(db));

  /** Locks the resource, applies the body and returns the resource as it is afterwards. */
  async function changeResource(accountId: number, id: number, body: ResourceBody, replace: boolean): Promise<CdnResource> {
    return uniqueConflicts("A secondary host name is already used by another resource of the account.", () =>
      db.transaction(async (tx) => {
        const statements = resourceStatements();
        const [row] = await inTransaction(statements.lock, tx).execute({ accountId, id });
        if (!row) throw notFound(`CDN resource ${id}`);
        // A PATCH that gives no field changes nothing, `updated` included: PATCH {} reads the resource.
        if (replace || Object.keys(body).length > 0) {
          const state = replace ? newResourceState(row.name, (body as ReplaceCdnResourceBody).originGroup) : stateOf(row);
          const written = replace ? { secondaryHostnames: [], ...body } : body;
          // The options a preset applied to the resource manages may not be given, and a PUT keeps them.
          const managed = row.presetApplied ? await managedOptions(tx, accountId, { resourceId: id }) : [];
          const touched = managed.filter((key) => body.options !== undefined && key in body.options);
          if (touched.length)
            throw conflict(`These options are managed by the preset applied (unapply it first to change them): ${touched.join(", ")}.`);
          await applyResourceBody(tx, secretsKey, accountId, id, state, written, !replace);
          for (const key of managed) if (row.options[key] !== undefined) state.options[key] = row.options[key]!;
          await inTransaction(statements.write, tx).execute({ ...state, updated: new Date(), accountId, id });
          if (written.secondaryHostnames !== undefined) await writeHostnames(tx, accountId, id, written.secondaryHostnames, true);
        }
        return (await loadResource(statements, accountId, id, tx))!;
      }),
    );
  }

  // The listing's SQL depends on which filters are given: a statement per set of filters.
  const resourcePages = preparedPerShape<ResourceSelection[]>("list_cdn_resources");
  const resourceCounts = preparedPerShape<{ total: number }[]>("count_cdn_resources");
  const resourceCount = listingCount(db, "cdn_resources");

  return tsr.routerWithMiddleware(served("cdn", cdnResourcesRoutes))<RequestExtension>({
    listResources: async ({ query }, { request: { caller } }) => {
      const listed = query as ListedResources;
      const filters = RESOURCE_FILTERS.filter((filter) => listed[filter] !== undefined && listed[filter] !== "");
      const values: PlaceholderValues = { accountId: caller.accountId, limit: query.limit, offset: query.offset };
      for (const filter of filters) values[filter] = resourceFilterValue(listed, filter);
      const shape = filters.join(",");
      const { rows, total } = await pageAndCount(
        query,
        (reversed, limit, offset) =>
          resourcePages(`${shape}${reversed ? ":reversed" : ""}`, () => {
            const order = [asc(cdnResources.id)];
            const walk = reversed ? [desc(cdnResources.id)] : order;
            const page = onPage(db, cdnResources.id, resourceConditions(filters), walk, sql.placeholder("limit"), sql.placeholder("offset"));
            return selectResources(db).where(page).orderBy(...order);
          }).execute({ ...values, limit, offset }),
        // Every resource of the account: the count the database keeps.
        shape === ""
          ? { kept: () => resourceCount(caller.accountId) }
          : {
              counted: async () =>
                (await resourceCounts(shape, () => db.select({ total: count() }).from(cdnResources).where(resourceConditions(filters))).execute(values))[0]
                  ?.total ?? 0,
            },
      );
      const [hostnames, rules] = await Promise.all([
        hostnamesOf(db, caller.accountId, rows.map((row) => row.resource.id)),
        rulesOfResources(resourceStatements().rules, caller.accountId, rows.map((row) => row.resource)),
      ]);
      return {
        status: 200,
        body: {
          count: total,
          results: rows.map((row) => toCdnResource(row, hostnames.get(row.resource.id) ?? [], rules.get(row.resource.id) ?? [])),
        },
      };
    },

    createResource: async ({ body }, { request: { caller } }) => {
      const { accountId } = caller;
      const { cname: givenCname, origin, name, ...fields } = body;
      const cname = givenCname.toLowerCase();
      const resource = await uniqueConflicts("The cname or a secondary host name is already used by another resource.", () =>
        db.transaction(async (tx) => {
          // Host names are case-insensitive: one spelling, lower case, is kept.
          const state = newResourceState(name ?? cname, fields.originGroup ?? 0);
          const secondaryHostnames = fields.secondaryHostnames ?? [];
          await applyResourceBody(tx, secretsKey, accountId, null, state, { ...fields, secondaryHostnames }, false);
          const [taken] = await tx.select({ id: cdnResources.id }).from(cdnResources).where(eq(cdnResources.cname, cname));
          if (taken) throw conflict(`The cname ${cname} is already used by a CDN resource.`);
          // The account is locked (no key update: rows that refer to it are still written) so that the count holds until the insert.
          await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId)).for("no key update");
          const [held] = await tx.select({ total: count() }).from(cdnResources).where(eq(cdnResources.accountId, accountId));
          if ((held?.total ?? 0) >= CDN_PLAN_LIMITS.resources)
            throw conflict(`The account has ${CDN_PLAN_LIMITS.resources} CDN resources, the most its plan allows (resources_limit); delete one first.`);
          if (origin !== undefined) {
            const group = await insertOriginGroup(tx, accountId, { name: cname, ...NEW_GROUP_DEFAULTS, proxyNextUpstream: [...NEW_GROUP_DEFAULTS.proxyNextUpstream] }, [
              { source: origin },
            ]);
            state.originGroupId = group.id;
          }
          const [row] = await tx
            .insert(cdnResources)
            .values({ accountId, cname, ...state })
            .returning({ id: cdnResources.id });
          await writeHostnames(tx, accountId, row!.id, secondaryHostnames, false);
          return (await loadResource(resourceStatements(), accountId, row!.id, tx))!;
        }),
      );
      return { status: 201, body: resource };
    },

    getResource: async ({ params }, { request: { caller } }) => {
      const resource = await loadResource(resourceStatements(), caller.accountId, params.resource_id);
      if (!resource) throw notFound(`CDN resource ${params.resource_id}`);
      return { status: 200, body: resource };
    },

    deleteResource: async ({ params }, { request: { caller } }) => {
      const { accountId } = caller;
      const id = params.resource_id;
      try {
        await db.transaction(async (tx) => {
          const [row] = await inTransaction(resourceStatements().lock, tx).execute({ accountId, id });
          if (!row) throw notFound(`CDN resource ${id}`);
          if (row.active) throw conflict(`CDN resource ${id} is active: deactivate it (active false) before deleting it.`);
          // A stream delivered by it keeps its cdn_id: the delete waits for the stream to be moved. Stream
          // writes lock the resource they name (key share), so one that races this delete is seen here or sees it gone.
          const deliveredStreams = await referringIds(tx, streams, and(eq(streams.accountId, accountId), eq(streams.cdnId, id)));
          if (deliveredStreams)
            throw conflict(`CDN resource ${id} delivers streams (${deliveredStreams}): give them another cdn_id, or null, or delete them first.`);
          // Its host names go with it (the foreign key cascades).
          await tx.delete(cdnResources).where(and(eq(cdnResources.accountId, accountId), eq(cdnResources.id, id)));
        });
      } catch (error) {
        if (isForeignKeyViolation(error)) throw conflict(`CDN resource ${id} is still referred to (by a reserve resource or a logs uploader config).`);
        throw error;
      }
      return { status: 204, body: undefined };
    },

    updateResource: async ({ params, body }, { request: { caller } }) => ({
      status: 200,
      body: await changeResource(caller.accountId, params.resource_id, body, false),
    }),

    replaceResource: async ({ params, body }, { request: { caller } }) => ({
      status: 200,
      body: await changeResource(caller.accountId, params.resource_id, body, true),
    }),

    getResourceShielding: async ({ params }, { request: { caller } }) => {
      const [row] = await db
        .select({ shieldingPopId: cdnResources.shieldingPopId })
        .from(cdnResources)
        .where(and(eq(cdnResources.accountId, caller.accountId), eq(cdnResources.id, params.resource_id)));
      if (!row) throw notFound(`CDN resource ${params.resource_id}`);
      return { status: 200, body: { shielding_pop: row.shieldingPopId } };
    },

    updateResourceShielding: async ({ params, body }, { request: { caller } }) => {
      if (body.shielding_pop !== null) {
        const [pop] = await db.select({ id: shieldingPops.id }).from(shieldingPops).where(eq(shieldingPops.id, body.shielding_pop));
        if (!pop) throw invalid("shielding_pop", "Must be the id of one of the platform's shielding POPs.");
      }
      const updated = await db
        .update(cdnResources)
        .set({ shieldingPopId: body.shielding_pop, updated: new Date() })
        .where(and(eq(cdnResources.accountId, caller.accountId), eq(cdnResources.id, params.resource_id)))
        .returning({ shieldingPopId: cdnResources.shieldingPopId });
      if (!updated.length) throw notFound(`CDN resource ${params.resource_id}`);
      return { status: 200, body: { shielding_pop: updated[0]!.shieldingPopId } };
    },
  });
}

export { cdnResourcesRouter as cdnResources };
