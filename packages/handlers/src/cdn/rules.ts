/**
 * Rules of CDN resources (list, create, get, PATCH, PUT, delete) and the account's rule templates, with
 * the options they share with resources: written merged by key (PATCH) or whole (PUT, create), the
 * secure key encrypted at rest and never returned, and the options a preset manages kept from change.
 */
import {
  CDN_PRESETS,
  cdnRulesRoutes,
  cdnRuleTemplatesRoutes,
  completeCdnRuleOptions,
  type CdnRule,
  type CdnRuleOptions,
  type CdnRuleOptionsWrite,
  type CdnRuleTemplate,
} from "@cloudplane/contract";
import { and, arrayLiteral, asc, count, type Database, encryptSecret, eq, schema, sql } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { conflict, invalid, notFound } from "../errors.js";
import type { Statement } from "../prepared.js";
import type { RequestExtension, RouteDeps } from "../types.js";
import { served } from "../served.js";
import { appliedPresetFields } from "./presets.js";
import type { Transaction } from "./shared.js";

const { accounts, cdnAppliedPresets, cdnResourceRules, cdnResources, cdnRuleTemplates, originGroups } = schema;

export type StoredOptions = Record<string, Record<string, unknown>>;
type RuleRow = typeof cdnResourceRules.$inferSelect;
type TemplateRow = typeof cdnRuleTemplates.$inferSelect;
type Protocol = "HTTP" | "HTTPS" | "MATCH";

/** Stored options as returned: `secure_key.key` is a secret and never leaves the service. */
export function shownOptions(options: StoredOptions): CdnRuleOptions {
  const { secure_key: secureKey, ...rest } = options;
  if (!secureKey) return completeCdnRuleOptions(rest);
  const { key: _key, ...shown } = secureKey;
  return completeCdnRuleOptions({ ...rest, secure_key: shown });
}

/**
 * The options after a write: `given` merged by key onto `current` (PATCH: null removes a key) or in its
 * place (PUT, create: null keys left out); the secure key encrypted. The options in `managed` (a preset's)
 * may not be given (409) and are kept as they are.
 */
export async function writtenOptions(
  secretsKey: CryptoKey,
  current: StoredOptions,
  given: CdnRuleOptionsWrite | undefined,
  merge: boolean,
  managed: readonly string[] = [],
): Promise<StoredOptions> {
  if (given === undefined) return merge ? current : keepManaged({}, current, managed);
  const touched = managed.filter((key) => key in given);
  if (touched.length)
    throw conflict(`These options are managed by the preset applied (unapply it first to change them): ${touched.join(", ")}.`);
  const next: StoredOptions = merge ? { ...current } : {};
  for (const [key, option] of Object.entries(given)) {
    if (option === null || option === undefined) delete next[key];
    else next[key] = { ...(option as Record<string, unknown>) };
  }
  const secureKey = given.secure_key;
  if (secureKey) next.secure_key = { ...secureKey, key: await encryptSecret(secretsKey, secureKey.key) };
  return keepManaged(next, current, managed);
}

function keepManaged(next: StoredOptions, current: StoredOptions, managed: readonly string[]): StoredOptions {
  for (const key of managed) if (current[key] !== undefined) next[key] = current[key]!;
  return next;
}

/** The options a preset applied to a resource or rule manages (none without one). */
export async function managedOptions(tx: Pick<Database, "select">, accountId: number, object: { resourceId: number } | { ruleId: number }): Promise<string[]> {
  const [applied] = await tx
    .select({ presetId: cdnAppliedPresets.presetId })
    .from(cdnAppliedPresets)
    .where(
      and(
        eq(cdnAppliedPresets.accountId, accountId),
        "resourceId" in object ? eq(cdnAppliedPresets.resourceId, object.resourceId) : eq(cdnAppliedPresets.ruleId, object.ruleId),
      ),
    );
  const preset = applied && CDN_PRESETS.find((candidate) => candidate.id === applied.presetId);
  return preset ? Object.keys(preset.preset_settings.options) : [];
}

function toRule(row: RuleRow, resourceProtocol: Protocol): CdnRule {
  return {
    id: row.id,
    name: row.name,
    active: row.active,
    deleted: false,
    rule: row.rule,
    ruleType: row.ruleType,
    weight: row.weight,
    originGroup: row.originGroupId,
    originProtocol: row.overrideOriginProtocol ?? resourceProtocol,
    overrideOriginProtocol: row.overrideOriginProtocol,
    preset_applied: row.presetApplied,
    primary_rule: null,
    options: shownOptions(row.options),
  };
}

function toTemplate(row: TemplateRow): CdnRuleTemplate {
  return {
    id: row.id,
    client: row.accountId,
    name: row.name,
    rule: row.rule,
    ruleType: row.ruleType,
    weight: row.weight,
    overrideOriginProtocol: row.overrideOriginProtocol,
    options: shownOptions(row.options),
    default: false,
    template: true,
    deleted: false,
  };
}

const RULE_ORDER = [asc(cdnResourceRules.weight), asc(cdnResourceRules.id)];

/**
 * The statement `rulesOfResources` runs, prepared once by its caller: the rules of some of an account's
 * resources (`resourceIds`, an array literal), each resource's in the order they are matched.
 */
export function prepareRulesOfResources(db: Database) {
  return db
    .select()
    .from(cdnResourceRules)
    .where(
      and(
        eq(cdnResourceRules.accountId, sql.placeholder("accountId")),
        sql`${cdnResourceRules.resourceId} = any(${sql.placeholder("resourceIds")}::integer[])`,
      ),
    )
    .orderBy(asc(cdnResourceRules.resourceId), ...RULE_ORDER)
    .prepare("cdn_rules_of_resources");
}

/** The rules of the account's resources `ids`, each resource's in the order they are matched (the resources' `rules`). */
export async function rulesOfResources(
  statement: Statement<RuleRow[]>,
  accountId: number,
  resources: readonly { id: number; originProtocol: Protocol }[],
): Promise<Map<number, CdnRule[]>> {
  const byResource = new Map<number, CdnRule[]>(resources.map((resource) => [resource.id, []]));
  if (!resources.length) return byResource;
  const protocols = new Map(resources.map((resource) => [resource.id, resource.originProtocol]));
  const rows = await statement.execute({ accountId, resourceIds: arrayLiteral([...protocols.keys()]) });
  for (const row of rows) byResource.get(row.resourceId)?.push(toRule(row, protocols.get(row.resourceId)!));
  return byResource;
}

/** Is `originGroup` one of the account's origin groups? Locked (key share) until the write commits, so that its delete waits. */
async function checkOriginGroup(tx: Transaction, accountId: number, originGroup: number | null | undefined): Promise<void> {
  if (originGroup === null || originGroup === undefined) return;
  const [group] = await tx
    .select({ id: originGroups.id })
    .from(originGroups)
    .where(and(eq(originGroups.accountId, accountId), eq(originGroups.id, originGroup)))
    .for("key share");
  if (!group) throw invalid("originGroup", "Must be an origin group of the account.");
}

/** The routes of the rules of CDN resources. */
export function cdnRulesRouter(deps: RouteDeps) {
  const { db, secretsKey } = deps;

  /** The account's resource, locked as `strength` says (its rules are written under its lock); 404 when it is not the account's. */
  async function lockResource(tx: Transaction, accountId: number, id: number, strength: "update" | "key share") {
    const [resource] = await tx
      .select({ id: cdnResources.id, originProtocol: cdnResources.originProtocol })
      .from(cdnResources)
      .where(and(eq(cdnResources.accountId, accountId), eq(cdnResources.id, id)))
      .for(strength);
    if (!resource) throw notFound(`CDN resource ${id}`);
    return resource;
  }

  async function readResource(accountId: number, id: number) {
    const [resource] = await db
      .select({ id: cdnResources.id, originProtocol: cdnResources.originProtocol })
      .from(cdnResources)
      .where(and(eq(cdnResources.accountId, accountId), eq(cdnResources.id, id)));
    if (!resource) throw notFound(`CDN resource ${id}`);
    return resource;
  }

  const ruleWhere = (accountId: number, resourceId: number, id: number) =>
    and(eq(cdnResourceRules.accountId, accountId), eq(cdnResourceRules.resourceId, resourceId), eq(cdnResourceRules.id, id));

  type RuleBody = {
    name?: string;
    active?: boolean;
    rule?: string;
    ruleType?: 0 | 1;
    weight?: number;
    originGroup?: number | null;
    overrideOriginProtocol?: Protocol | null;
    options?: CdnRuleOptionsWrite;
  };

  /** PATCH (merge) or PUT (replace) of a rule, under the lock of its resource and its own. */
  async function changeRule(accountId: number, resourceId: number, id: number, body: RuleBody, replace: boolean): Promise<CdnRule> {
    return db.transaction(async (tx) => {
      const resource = await lockResource(tx, accountId, resourceId, "key share");
      const [row] = await tx.select().from(cdnResourceRules).where(ruleWhere(accountId, resourceId, id)).for("update");
      if (!row) throw notFound(`Rule ${id} of CDN resource ${resourceId}`);
      if (!replace && Object.keys(body).length === 0) return toRule(row, resource.originProtocol);
      if (!replace && body.rule !== undefined && body.ruleType === undefined && row.ruleType === 0 && !/^\^?\//.test(body.rule))
        throw invalid("rule", "With ruleType 0, must start with / or ^/.");
      if (!replace && body.ruleType === 0 && body.rule === undefined && !/^\^?\//.test(row.rule))
        throw invalid("rule", "With ruleType 0, must start with / or ^/: give a new rule with the new ruleType.");
      await checkOriginGroup(tx, accountId, body.originGroup);
      const managed = row.presetApplied ? await managedOptions(tx, accountId, { ruleId: id }) : [];
      const options = await writtenOptions(secretsKey, row.options, body.options, !replace, managed);
      const base = replace ? { active: true, weight: 1, originGroupId: null, overrideOriginProtocol: null } : {};
      const [written] = await tx
        .update(cdnResourceRules)
        .set({
          ...base,
          ...(body.name !== undefined && { name: body.name }),
          ...(body.active !== undefined && { active: body.active }),
          ...(body.rule !== undefined && { rule: body.rule }),
          ...(body.ruleType !== undefined && { ruleType: body.ruleType }),
          ...(body.weight !== undefined && { weight: body.weight }),
          ...(body.originGroup !== undefined && { originGroupId: body.originGroup }),
          ...(body.overrideOriginProtocol !== undefined && { overrideOriginProtocol: body.overrideOriginProtocol }),
          options,
          updated: new Date(),
        })
        .where(ruleWhere(accountId, resourceId, id))
        .returning();
      return toRule(written!, resource.originProtocol);
    });
  }

  return tsr.routerWithMiddleware(served("cdn", cdnRulesRoutes))<RequestExtension>({
    listRules: async ({ params, query }, { request: { caller } }) => {
      const resource = await readResource(caller.accountId, params.resource_id);
      const where = and(eq(cdnResourceRules.accountId, caller.accountId), eq(cdnResourceRules.resourceId, resource.id));
      const [rows, [total]] = await Promise.all([
        db.select().from(cdnResourceRules).where(where).orderBy(...RULE_ORDER).limit(query.limit).offset(query.offset),
        db.select({ total: count() }).from(cdnResourceRules).where(where),
      ]);
      return { status: 200, body: { count: total?.total ?? 0, results: rows.map((row) => toRule(row, resource.originProtocol)) } };
    },

    createRule: async ({ params, body }, { request: { caller } }) => {
      const { accountId } = caller;
      const rule = await db.transaction(async (tx) => {
        // Locked for update: two creates on one resource count its rules one after the other.
        const resource = await lockResource(tx, accountId, params.resource_id, "update");
        await checkOriginGroup(tx, accountId, body.originGroup);
        const [[account], [existing]] = await Promise.all([
          tx.select({ max: accounts.cdnResourcesRulesMaxCount }).from(accounts).where(eq(accounts.id, accountId)),
          tx
            .select({ total: count() })
            .from(cdnResourceRules)
            .where(and(eq(cdnResourceRules.accountId, accountId), eq(cdnResourceRules.resourceId, resource.id))),
        ]);
        if ((existing?.total ?? 0) >= (account?.max ?? 0))
          throw conflict(`CDN resource ${resource.id} has ${existing?.total ?? 0} rules, the most the account's cdn_resources_rules_max_count allows.`);
        const options = await writtenOptions(secretsKey, {}, body.options, false);
        const [row] = await tx
          .insert(cdnResourceRules)
          .values({
            accountId,
            resourceId: resource.id,
            name: body.name,
            rule: body.rule,
            ruleType: body.ruleType,
            weight: body.weight ?? 1,
            active: body.active ?? true,
            originGroupId: body.originGroup ?? null,
            overrideOriginProtocol: body.overrideOriginProtocol ?? null,
            options,
          })
          .returning();
        return toRule(row!, resource.originProtocol);
      });
      return { status: 201, body: rule };
    },

    getRule: async ({ params }, { request: { caller } }) => {
      const resource = await readResource(caller.accountId, params.resource_id);
      const [row] = await db.select().from(cdnResourceRules).where(ruleWhere(caller.accountId, resource.id, params.rule_id));
      if (!row) throw notFound(`Rule ${params.rule_id} of CDN resource ${params.resource_id}`);
      return { status: 200, body: toRule(row, resource.originProtocol) };
    },

    updateRule: async ({ params, body }, { request: { caller } }) => ({
      status: 200,
      body: await changeRule(caller.accountId, params.resource_id, params.rule_id, body, false),
    }),

    replaceRule: async ({ params, body }, { request: { caller } }) => ({
      status: 200,
      body: await changeRule(caller.accountId, params.resource_id, params.rule_id, body, true),
    }),

    deleteRule: async ({ params }, { request: { caller } }) => {
      await db.transaction(async (tx) => {
        await lockResource(tx, caller.accountId, params.resource_id, "key share");
        // The preset applied to it goes with it (the foreign key cascades).
        const deleted = await tx
          .delete(cdnResourceRules)
          .where(ruleWhere(caller.accountId, params.resource_id, params.rule_id))
          .returning({ id: cdnResourceRules.id });
        if (!deleted.length) throw notFound(`Rule ${params.rule_id} of CDN resource ${params.resource_id}`);
      });
      return { status: 204, body: undefined };
    },

    getRulePreset: async ({ params }, { request: { caller } }) => {
      const { accountId } = caller;
      const [row] = await db
        .select({ id: cdnResourceRules.id, presetId: cdnAppliedPresets.presetId })
        .from(cdnResourceRules)
        .leftJoin(cdnAppliedPresets, and(eq(cdnAppliedPresets.accountId, accountId), eq(cdnAppliedPresets.ruleId, cdnResourceRules.id)))
        .where(ruleWhere(accountId, params.resource_id, params.rule_id));
      if (!row) throw notFound(`Rule ${params.rule_id} of CDN resource ${params.resource_id}`);
      const preset = CDN_PRESETS.find((candidate) => candidate.id === row.presetId);
      if (!preset) throw notFound(`A preset applied to rule ${params.rule_id}`);
      return { status: 200, body: appliedPresetFields(preset, caller.roleId) };
    },
  });
}

/** The routes of the account's rule templates. */
export function cdnRuleTemplatesRouter(deps: RouteDeps) {
  const { db, secretsKey } = deps;
  const templateWhere = (accountId: number, id: number) => and(eq(cdnRuleTemplates.accountId, accountId), eq(cdnRuleTemplates.id, id));

  type TemplateBody = {
    name?: string;
    rule?: string;
    ruleType?: 0 | 1;
    weight?: number;
    overrideOriginProtocol?: Protocol | null;
    options?: CdnRuleOptionsWrite;
  };

  async function changeTemplate(accountId: number, id: number, body: TemplateBody, replace: boolean): Promise<CdnRuleTemplate> {
    return db.transaction(async (tx) => {
      const [row] = await tx.select().from(cdnRuleTemplates).where(templateWhere(accountId, id)).for("update");
      if (!row) throw notFound(`Rule template ${id}`);
      if (!replace && Object.keys(body).length === 0) return toTemplate(row);
      if (!replace && body.rule !== undefined && body.ruleType === undefined && row.ruleType === 0 && !/^\^?\//.test(body.rule))
        throw invalid("rule", "With ruleType 0, must start with / or ^/.");
      if (!replace && body.ruleType === 0 && body.rule === undefined && !/^\^?\//.test(row.rule))
        throw invalid("rule", "With ruleType 0, must start with / or ^/: give a new rule with the new ruleType.");
      const options = await writtenOptions(secretsKey, row.options, body.options, !replace);
      const [written] = await tx
        .update(cdnRuleTemplates)
        .set({
          ...(replace ? { weight: 1, overrideOriginProtocol: null } : {}),
          ...(body.name !== undefined && { name: body.name }),
          ...(body.rule !== undefined && { rule: body.rule }),
          ...(body.ruleType !== undefined && { ruleType: body.ruleType }),
          ...(body.weight !== undefined && { weight: body.weight }),
          ...(body.overrideOriginProtocol !== undefined && { overrideOriginProtocol: body.overrideOriginProtocol }),
          options,
          updated: new Date(),
        })
        .where(templateWhere(accountId, id))
        .returning();
      return toTemplate(written!);
    });
  }

  return tsr.routerWithMiddleware(served("cdn", cdnRuleTemplatesRoutes))<RequestExtension>({
    listRuleTemplates: async ({ query }, { request: { caller } }) => {
      const where = eq(cdnRuleTemplates.accountId, caller.accountId);
      const [rows, [total]] = await Promise.all([
        db.select().from(cdnRuleTemplates).where(where).orderBy(asc(cdnRuleTemplates.id)).limit(query.limit).offset(query.offset),
        db.select({ total: count() }).from(cdnRuleTemplates).where(where),
      ]);
      return { status: 200, body: { count: total?.total ?? 0, results: rows.map(toTemplate) } };
    },

    createRuleTemplate: async ({ body }, { request: { caller } }) => {
      const options = await writtenOptions(secretsKey, {}, body.options, false);
      const [row] = await db
        .insert(cdnRuleTemplates)
        .values({
          accountId: caller.accountId,
          name: body.name ?? body.rule,
          rule: body.rule,
          ruleType: body.ruleType,
          weight: body.weight ?? 1,
          overrideOriginProtocol: body.overrideOriginProtocol ?? null,
          options,
        })
        .returning();
      return { status: 201, body: toTemplate(row!) };
    },

    getRuleTemplate: async ({ params }, { request: { caller } }) => {
      const [row] = await db.select().from(cdnRuleTemplates).where(templateWhere(caller.accountId, params.rule_template_id));
      if (!row) throw notFound(`Rule template ${params.rule_template_id}`);
      return { status: 200, body: toTemplate(row) };
    },

    updateRuleTemplate: async ({ params, body }, { request: { caller } }) => ({
      status: 200,
      body: await changeTemplate(caller.accountId, params.rule_template_id, body, false),
    }),

    replaceRuleTemplate: async ({ params, body }, { request: { caller } }) => ({
      status: 200,
      body: await changeTemplate(caller.accountId, params.rule_template_id, body, true),
    }),

    deleteRuleTemplate: async ({ params }, { request: { caller } }) => {
      const deleted = await db
        .delete(cdnRuleTemplates)
        .where(templateWhere(caller.accountId, params.rule_template_id))
        .returning({ id: cdnRuleTemplates.id });
      if (!deleted.length) throw notFound(`Rule template ${params.rule_template_id}`);
      return { status: 204, body: undefined };
    },
  });
}
