/**
 * Typed builders: the objects a test needs, each made the way a user makes it (through the API where
 * the contract has a create route, through @cloudplane/db where none exists) and returned as the API
 * shows it. Every field has a default, so a test names only what it is about.
 */
import type {
  AccountOverview,
  CdnResource,
  CreateCdnResourceBody,
  CreateEdgeAppBody,
  CreateOriginGroupBody,
  CreateStreamBody,
  CreatedApiToken,
  EdgeApp,
  OriginGroup,
  RoleId,
  Stream,
} from "@cloudplane/contract";
import { ROLE_IDS } from "@cloudplane/contract";
import type { CloudplaneClient } from "@cloudplane/client";
import {
  asc,
  cloudRegions,
  edgeTemplates,
  isNull,
  loadDemoData,
  platformCatalog,
  provisionAccount,
  sql,
  usageLines,
  users,
  type Database,
  type DemoFixture,
  type DemoRow,
} from "@cloudplane/db";

/** A role by its name in `ROLE_IDS` of the contract: `"administrators"`, `"engineers"`, `"users"`, … */
export type RoleName = keyof typeof ROLE_IDS;

/** An account made by `build.account`, with a token of the role asked for and clients that call with it. */
export interface BuiltAccount {
  /** The account as `GET /iam/clients/me` shows it. */
  account: AccountOverview;
  /** The token of the role asked for, as `POST /iam/clients/{clientId}/tokens` answers it (`token` is the token itself). */
  token: CreatedApiToken;
  /** A client that calls with `token`. */
  client: CloudplaneClient;
  /** A client that calls as the account's Administrator (what builders given `in: thisAccount` create with). */
  administrator: CloudplaneClient;
}

/** Where a builder makes its object: another account's (`build.account()`'s), or by default the platform's own. */
export interface InAccount {
  in?: { administrator: CloudplaneClient; account: { id: number } };
}

export interface AccountOptions {
  /** Default: "Account <n>". */
  name?: string;
  /** The role of the token returned. Default "administrators". */
  role?: RoleName;
}

export interface TokenOptions extends InAccount {
  /** The token's role: a user of that role is added to the account for it. Default "administrators". */
  role?: RoleName;
  /** Default: a name saying which role. */
  name?: string;
  /** When it expires (RFC 3339), or null (default) for never. */
  exp_date?: string | null;
}

/** A CDN resource made by `build.cdnResource`, with the origin group it pulls from. */
export interface BuiltCdnResource {
  resource: CdnResource;
  originGroup: OriginGroup;
}

/** A usage line of the cost report, as the platform keeps it (the `usageLines` table's row). */
export type UsageLine = DemoRow<"usageLines">;

/** A usage line of the cost report in the table's column keys (`billingValue`, `regionId`, …). Every field has a default. */
export type UsageLineInput = Partial<Omit<UsageLine, "id" | "accountId">>;

/** What the builders need of their platform. */
export interface BuilderContext {
  db: Database;
  secretsKey: CryptoKey;
  /** The platform's own account (the seeded Administrator's). */
  accountId: number;
  /** The platform's client (its Administrator's). */
  client: CloudplaneClient;
  clientFor(token: string): CloudplaneClient;
}

/** A name no other object made by a builder in this process has: `<prefix>-<n>`. */
let made = 0;
export function uniqueName(prefix: string): string {
  made += 1;
  return `${prefix}-${made}`;
}

const EMPTY_FIXTURE = Object.fromEntries(Object.keys(platformCatalog()).map((table) => [table, []])) as unknown as DemoFixture;

/** This month, as the cost report's lines name months (YYYY-MM, UTC). */
function thisMonth(): string {
  return new Date().toISOString().slice(0, 7);
}

export class Builders {
  readonly #context: BuilderContext;

  constructor(context: BuilderContext) {
    this.#context = context;
  }

  #administrator(options: InAccount): CloudplaneClient {
    return options.in?.administrator ?? this.#context.client;
  }

  #accountId(options: InAccount): number {
    return options.in?.account.id ?? this.#context.accountId;
  }

  /**
   * A new account (there is no route that makes one: it is inserted as `provisionAccount` of
   * @cloudplane/db does, with its first user, an Administrator) and a token of `role`, made through the API.
   */
  async account(options: AccountOptions = {}): Promise<BuiltAccount> {
    const name = options.name ?? uniqueName("Account");
    const email = `${uniqueName("admin")}.${crypto.randomUUID().slice(0, 8)}@accounts.test.example`;
    // The platform's image holds the catalog already.
    const provisioned = await provisionAccount(this.#context.db, { name, email, loadCatalog: false });
    const administrator = this.#context.clientFor(provisioned.token);
    const token = await this.token({ in: { administrator, account: { id: provisioned.accountId } }, role: options.role ?? "administrators" });
    const account = await administrator.iam.account.get();
    return { account, token, client: this.#context.clientFor(token.token), administrator };
  }

  /**
   * A token of `role` in the platform's account (or `in` another), made with `POST /iam/clients/{clientId}/tokens`
   * as the account's Administrator: for that Administrator, or for another role a user of that role added
   * for it (there is no route that adds users).
   */
  async token(options: TokenOptions = {}): Promise<CreatedApiToken> {
    const role = options.role ?? "administrators";
    const roleId: RoleId = ROLE_IDS[role];
    const accountId = this.#accountId(options);
    let userId: number | undefined;
    if (roleId !== ROLE_IDS.administrators) {
      const email = `${uniqueName(role)}.${crypto.randomUUID().slice(0, 8)}@users.test.example`;
      const [user] = await this.#context.db.insert(users).values({ accountId, name: uniqueName(role), email, roleId }).returning({ id: users.id });
      userId = user!.id;
    }
    return this.#administrator(options).iam.tokens.create(accountId, {
      name: options.name ?? uniqueName(`${role} token`),
      exp_date: options.exp_date ?? null,
      ...(userId === undefined ? {} : { client_user: { user_id: userId, role: { id: roleId } } }),
    });
  }

  /**
   * An origin group, made with `POST /cdn/origin_groups`. Defaults: name `origin-group-<n>`, one enabled
   * source `origin-<n>.example.com`.
   */
  originGroup(body: Partial<CreateOriginGroupBody> = {}, options: InAccount = {}): Promise<OriginGroup> {
    const name = uniqueName("origin-group");
    return this.#administrator(options).cdn.originGroups.create({ name, sources: [{ source: `${name.replace("-group", "")}.example.com` }], ...body });
  }

  /**
   * A CDN resource and its origin group, made with `POST /cdn/origin_groups` (unless `originGroup` names
   * one, or `origin` asks the API to make it) and `POST /cdn/resources`. Default cname `cdn-<n>.test.example`.
   */
  async cdnResource(body: Partial<CreateCdnResourceBody> = {}, options: InAccount = {}): Promise<BuiltCdnResource> {
    const administrator = this.#administrator(options);
    const own = body.originGroup === undefined && body.origin === undefined ? await this.originGroup({}, options) : undefined;
    const resource = await administrator.cdn.resources.create({
      cname: `${uniqueName("cdn")}.test.example`,
      ...(own ? { originGroup: own.id } : {}),
      ...body,
    });
    // Read after the resource is made: the group now shows it is in use.
    const originGroup = await administrator.cdn.originGroups.get(resource.originGroup);
    return { resource, originGroup };
  }

  /** A live stream, made with `POST /streaming/streams`. Default name: `stream-<n>`. */
  stream(body: Partial<CreateStreamBody> = {}, options: InAccount = {}): Promise<Stream> {
    return this.#administrator(options).streaming.streams.create({ name: uniqueName("stream"), ...body });
  }

  /**
   * An edge app, made with `POST /edge/v1/apps`. Default name `app-<n>`; without `binary` or `template`,
   * the platform's first public template.
   */
  async edgeApp(body: Partial<CreateEdgeAppBody> = {}, options: InAccount = {}): Promise<EdgeApp> {
    let source: Partial<CreateEdgeAppBody> = {};
    if (body.binary === undefined && body.template === undefined) {
      const [template] = await this.#context.db
        .select({ id: edgeTemplates.id })
        .from(edgeTemplates)
        .where(isNull(edgeTemplates.accountId))
        .orderBy(asc(edgeTemplates.id))
        .limit(1);
      if (!template) throw new Error("The platform has no public edge template: give edgeApp a binary or a template.");
      source = { template: template.id };
    }
    return this.#administrator(options).edge.apps.create({ name: uniqueName("app"), ...source, ...body });
  }

  /**
   * Usage lines for the cost report (`POST /cloud/v1/reservation_cost_report/totals`), in the platform's
   * account (or `in` another). There is no route that adds them: they are inserted as the demo data's are.
   * Defaults: this month, an instance in the first region, 60 minutes costing 1 EUR, no tags.
   */
  async usageLines(lines: UsageLineInput[], options: InAccount = {}): Promise<UsageLine[]> {
    const accountId = this.#accountId(options);
    const db = this.#context.db;
    const [region] = await db.select({ id: cloudRegions.id }).from(cloudRegions).orderBy(asc(cloudRegions.id)).limit(1);
    const [last] = await db.select({ id: sql<number>`coalesce(max(${usageLines.id}), 0)` }).from(usageLines);
    const rows: UsageLine[] = lines.map((line, index) => ({
      month: thisMonth(),
      type: "instance",
      regionId: region?.id ?? 1,
      flavor: "",
      instanceType: null,
      volumeType: null,
      billingMetricName: "vm_minutes",
      billingFeatureName: "instance",
      billingValueUnit: "minutes",
      currency: "EUR",
      billingValue: 60,
      cost: 1,
      tags: {},
      projectId: null,
      resourceId: "",
      resourceName: "",
      firstSeen: null,
      lastSeen: null,
      details: {},
      ...line,
      id: Number(last?.id ?? 0) + index + 1,
      accountId,
    }));
    // Through the demo data's loader: one place that knows how a usage line is stored.
    await loadDemoData(db, { secretsKey: this.#context.secretsKey, fixture: { ...EMPTY_FIXTURE, usageLines: rows } });
    return rows;
  }
}

