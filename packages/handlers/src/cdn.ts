/**
 * CDN routes: CDN resource PATCH (merge) and PUT (replace) with their reference, host name and option
 * rules; shielding; logs uploader targets; the account's CDN settings and features; origin groups.
 */
import {
  contract,
  type CdnClientSettings,
  type CdnResource,
  type CdnResourceOptions,
  type LogsUploaderTarget,
  type OriginGroup,
  type ReplaceCdnResourceBody,
} from "@cloudplane/contract";
import { and, asc, type Database, encryptSecret, eq, inArray, ne, schema, sql } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { sqlState } from "./database-errors.js";
import { conflict, invalid, notFound, validationFailed } from "./errors.js";
import { cdnTime, isoTime } from "./format.js";
import { columnPlaceholder, inTransaction, preparedOnce } from "./prepared.js";
import type { RequestExtension, RouteDeps } from "./types.js";

const {
  accounts,
  cdnFeatures,
  cdnResourceHostnames,
  cdnResources,
  certificates,
  logsUploaderTargets,
  originGroupSources,
  originGroups,
  shieldingPops,
} = schema;

type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];
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
  if (!secureKey) return rest;
  const { key: _key, ...shown } = secureKey;
  return { ...rest, secure_key: shown } as CdnResourceOptions;
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

/**
 * The statements every PATCH and PUT of a resource runs whatever its body (lock, write, read back),
 * prepared once; they run in the write's transaction through `inTransaction`.
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
    read: db
      .select({ resource: cdnResources, originGroupName: originGroups.name, shieldDc: shieldingPops.datacenter })
      .from(cdnResources)
      .innerJoin(originGroups, and(eq(originGroups.accountId, cdnResources.accountId), eq(originGroups.id, cdnResources.originGroupId)))
      .leftJoin(shieldingPops, eq(shieldingPops.id, cdnResources.shieldingPopId))
      .where(resource())
      .prepare("read_cdn_resource"),
    hostnames: db
      .select({ hostname: cdnResourceHostnames.hostname })
      .from(cdnResourceHostnames)
      .where(and(eq(cdnResourceHostnames.accountId, sql.placeholder("accountId")), eq(cdnResourceHostnames.resourceId, sql.placeholder("id"))))
      .orderBy(asc(cdnResourceHostnames.position))
      .prepare("cdn_resource_hostnames"),
  };
}

type ResourceStatements = ReturnType<typeof prepareResourceStatements>;

async function loadResource(tx: Transaction, statements: ResourceStatements, accountId: number, id: number): Promise<CdnResource | undefined> {
  const [row] = await inTransaction(statements.read, tx).execute({ accountId, id });
  if (!row) return undefined;
  const hostnames = await inTransaction(statements.hostnames, tx).execute({ accountId, id });
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
    secondaryHostnames: hostnames.map((item) => item.hostname),
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
    rules: r.rules,
    options: publicOptions(r.options),
    waap_api_domain_enabled: r.waapApiDomainEnabled,
  };
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

/** The state a PUT starts from: a new resource's defaults, keeping only the name. */
function defaultsOf(row: ResourceRow, body: ReplaceCdnResourceBody): ResourceState {
  return {
    active: true,
    name: row.name,
    description: "",
    originGroupId: body.originGroup,
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

/**
 * Applies a PATCH or PUT body to `state`, checks every reference against the account, and writes
 * the row and its host names. Runs inside the transaction that locked the row.
 */
async function writeResource(
  tx: Transaction,
  statements: ResourceStatements,
  secretsKey: CryptoKey,
  row: ResourceRow,
  state: ResourceState,
  body: ReplaceCdnResourceBody | Partial<ReplaceCdnResourceBody>,
  mergeOptions: boolean,
): Promise<void> {
  const { accountId } = row;
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

  if (body.originGroup !== undefined) {
    const [group] = await tx
      .select({ id: originGroups.id })
      .from(originGroups)
      .where(and(eq(originGroups.accountId, accountId), eq(originGroups.id, body.originGroup)));
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
      .where(and(eq(certificates.accountId, accountId), inArray(certificates.id, wanted)));
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

  if (body.secondaryHostnames !== undefined && body.secondaryHostnames.length) {
    const lower = body.secondaryHostnames.map((name) => name.toLowerCase());
    const taken = await tx
      .select({ hostname: cdnResourceHostnames.hostname })
      .from(cdnResourceHostnames)
      .where(
        and(
          eq(cdnResourceHostnames.accountId, accountId),
          ne(cdnResourceHostnames.resourceId, row.id),
          inArray(sql`lower(${cdnResourceHostnames.hostname})`, lower),
        ),
      );
    if (taken.length && !Object.keys(errors).length)
      throw conflict(`Secondary host names already used by another resource of the account: ${taken.map((item) => item.hostname).join(", ")}.`);
  }
  if (Object.keys(errors).length) throw validationFailed(errors);

  await inTransaction(statements.write, tx).execute({ ...state, updated: new Date(), accountId, id: row.id });
  if (body.secondaryHostnames !== undefined) {
    await tx.delete(cdnResourceHostnames).where(and(eq(cdnResourceHostnames.accountId, accountId), eq(cdnResourceHostnames.resourceId, row.id)));
    if (body.secondaryHostnames.length)
      await tx
        .insert(cdnResourceHostnames)
        .values(body.secondaryHostnames.map((hostname, position) => ({ accountId, resourceId: row.id, position, hostname })));
  }
}

function settingsOf(account: typeof accounts.$inferSelect): CdnClientSettings {
  return {
    id: account.id,
    created: cdnTime(account.created),
    updated: cdnTime(account.updated),
    service: { enabled: account.cdnServiceEnabled, status: account.cdnServiceStatus, updated: cdnTime(account.cdnServiceUpdated) },
    utilization_level: account.utilizationLevel,
    cname: account.cname,
    use_balancer: account.useBalancer,
    auto_suspend_enabled: account.autoSuspendEnabled,
    cdn_resources_rules_max_count: account.cdnResourcesRulesMaxCount,
  };
}

function targetOf(row: typeof logsUploaderTargets.$inferSelect): LogsUploaderTarget {
  return {
    id: row.id,
    client_id: row.accountId,
    created: isoTime(row.created),
    updated: isoTime(row.updated),
    storage_type: row.storageType,
    name: row.name,
    description: row.description,
    related_uploader_configs: row.relatedUploaderConfigs,
    status: { status: row.status, code: row.statusCode, updated: isoTime(row.statusUpdated), details: row.statusDetails },
    config: {
      access_key_id: row.accessKeyId,
      region: row.region,
      bucket_name: row.bucketName,
      directory: row.directory,
      endpoint: row.endpoint,
      use_path_style: row.usePathStyle,
    },
  };
}

export function cdnRoutes({ db, secretsKey }: RouteDeps) {
  const resourceStatements = preparedOnce(() => prepareResourceStatements(db));

  /** Locks the resource, applies the body and returns the resource as it is afterwards. */
  async function changeResource(
    accountId: number,
    id: number,
    body: ReplaceCdnResourceBody | Partial<ReplaceCdnResourceBody>,
    replace: boolean,
  ): Promise<CdnResource> {
    try {
      return await db.transaction(async (tx) => {
        const [row] = await inTransaction(resourceStatements().lock, tx).execute({ accountId, id });
        if (!row) throw notFound(`CDN resource ${id}`);
        // A PATCH that gives no field changes nothing, `updated` included: PATCH {} reads the resource.
        if (replace || Object.keys(body).length > 0) {
          const state = replace ? defaultsOf(row, body as ReplaceCdnResourceBody) : stateOf(row);
          await writeResource(tx, resourceStatements(), secretsKey, row, state, replace ? { secondaryHostnames: [], ...body } : body, !replace);
        }
        return (await loadResource(tx, resourceStatements(), accountId, id))!;
      });
    } catch (error) {
      // A concurrent write took a host name between our check and our insert.
      if (sqlState(error) === "23505") throw conflict("A secondary host name is already used by another resource of the account.");
      throw error;
    }
  }

  return tsr.routerWithMiddleware(contract.cdn)<RequestExtension>({
    updateResource: async ({ params, body }, { request: { caller } }) => ({
      status: 200,
      body: await changeResource(caller.accountId, params.resource_id, body, false),
    }),

    replaceResource: async ({ params, body }, { request: { caller } }) => ({
      status: 200,
      body: await changeResource(caller.accountId, params.resource_id, body, true),
    }),

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

    createLogsUploaderTarget: async ({ body }, { request: { caller } }) => {
      const [row] = await db
        .insert(logsUploaderTargets)
        .values({
          accountId: caller.accountId,
          name: body.name,
          description: body.description ?? "",
          storageType: body.storage_type,
          accessKeyId: body.config.access_key_id,
          secretAccessKeyEncrypted: await encryptSecret(secretsKey, body.config.secret_access_key),
          region: body.config.region,
          bucketName: body.config.bucket_name,
          directory: body.config.directory ?? null,
          endpoint: body.config.endpoint ?? null,
          usePathStyle: body.config.use_path_style ?? false,
        })
        .returning();
      return { status: 201, body: targetOf(row!) };
    },

    getClientFeatures: async (_args, { request: { caller } }) => {
      const features = await db.select().from(cdnFeatures).where(eq(cdnFeatures.accountId, caller.accountId)).orderBy(asc(cdnFeatures.id));
      const entry = (feature: (typeof features)[number]) => ({
        feature_id: feature.featureId,
        name: feature.name,
        create_date: cdnTime(feature.created),
      });
      return {
        status: 200,
        body: {
          id: caller.accountId,
          paid_features: features.filter((feature) => feature.paid).map((feature) => ({ ...entry(feature), paid_feature_id: feature.id })),
          free_features: features.filter((feature) => !feature.paid).map((feature) => ({ ...entry(feature), free_feature_id: feature.id })),
        },
      };
    },

    updateClientSettings: async ({ body }, { request: { caller } }) => {
      const [account] = await db
        .update(accounts)
        .set({ utilizationLevel: body.utilization_level, updated: new Date() })
        .where(eq(accounts.id, caller.accountId))
        .returning();
      return { status: 200, body: settingsOf(account!) };
    },

    getOriginGroup: async ({ params }, { request: { caller } }) => {
      const [group] = await db
        .select()
        .from(originGroups)
        .where(and(eq(originGroups.accountId, caller.accountId), eq(originGroups.id, params.origin_group_id)));
      if (!group) throw notFound(`Origin group ${params.origin_group_id}`);
      const sources = await db
        .select()
        .from(originGroupSources)
        .where(and(eq(originGroupSources.accountId, caller.accountId), eq(originGroupSources.originGroupId, group.id)))
        .orderBy(asc(originGroupSources.position));
      // A query of its own rather than a correlated subquery among the selected fields: Drizzle writes the
      // columns there without their table, so the subquery compared cdn_resources' columns with themselves.
      const related = await db
        .select({ id: cdnResources.id })
        .from(cdnResources)
        .where(and(eq(cdnResources.accountId, caller.accountId), eq(cdnResources.originGroupId, group.id), eq(cdnResources.deleted, false)))
        .limit(1);
      const body: OriginGroup = {
        id: group.id,
        name: group.name,
        use_next: group.useNext,
        proxy_next_upstream: group.proxyNextUpstream as OriginGroup["proxy_next_upstream"],
        auth_type: group.authType,
        sources: sources.map((source) => ({ backup: source.backup, enabled: source.enabled, source: source.source })),
        path: group.path,
        has_related_resources: related.length > 0,
      };
      return { status: 200, body };
    },
  });
}
