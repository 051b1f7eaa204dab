/**
 * What the bench's peers share, whatever framework serves them (peer-core.ts: Hono with @hono/zod-openapi;
 * fastify-peer-core.ts: Fastify): the contract's zod schemas of each route's path, query, body and answer
 * (checked to be the very ones the contract's routes use), the `Authorization: apikey <token>` lookup (the
 * token's SHA-256 hash in one SQL statement, reused for up to a second, as ours is), the role check, and
 * each route's work: the very statements ours sends (caught from our handler at the start of the run, as
 * the baseline gets them) run through the driver, with the rows mapped to the API's fields by hand. A peer
 * adds only its framework: routing, validation with these schemas, the error answers, the serialiser.
 *
 * It serves the request shapes the bench sends (the SQL it was given): a listing filter set, a cost report
 * option, a PATCH field or a stream field of a create that needs SQL it was not given answers 501
 * (`PeerError`). It imports no Node module and no framework, so that the Hono peer runs in workerd.
 */
import {
  cdnResource,
  completeCdnResourceOptions,
  completeCdnRuleOptions,
  costReportTotals,
  costReportTotalsBody,
  createStreamBody,
  edgeAppDetail,
  edgeAppList,
  listEdgeAppsQuery,
  roleMayCall,
  routeById,
  stream,
  updateCdnResourceBody,
  type CdnResource,
  type CdnRule,
  type CostReportTotals,
  type EdgeApp,
  type EdgeAppDetail,
  type EdgeAppList,
  type Overlay,
  type RouteAccess,
  type RouteId,
  type Stream,
} from "@cloudplane/contract";
import type { z } from "zod";
import { auditParams, byReadName, insertColumns, newStreamColumns, type RawDatabase, type RawQuery, type Row } from "./baseline-core.js";
import type { CapturedStatement } from "./capture.js";

/** Who is calling, from the token. */
export interface PeerCaller {
  accountId: number;
  roleId: number;
  userId: number;
  tokenId: number;
}


/** The route statements ours sends, per request variant (baseline-core.ts `variantKey`). */
export type RouteStatements = Record<string, CapturedStatement[]>;

/** What a route's work runs on: the database (a transaction's connection for a write), the statements, the caller. */
export interface PeerContext {
  db: RawDatabase;
  statements: RouteStatements;
  caller: PeerCaller;
}

/** The JSON error answer: a code and a message, and the field problems of a validation failure. */
export interface Problem {
  code: string;
  message: string;
  errors?: Record<string, string[]>;
}

/** A refusal with its status, answered as a `Problem` by either peer's error handler. */
export class PeerError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 501,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const notFound = (what: string) => new PeerError(404, "not_found", `${what} not found.`);
const notImplemented = (what: string) => new PeerError(501, "not_implemented", `The peer serves the bench's requests only: ${what}.`);

/** The contract's schema of a route's part, checked to be the very one the contract's route uses. */
function contractSchema<S>(id: RouteId, part: "pathParams" | "query" | "body", exported?: S): S {
  const route: Partial<Record<typeof part, unknown>> = routeById(id).route;
  const schema = route[part];
  if (!schema) throw new Error(`The contract's ${id} has no ${part}.`);
  if (exported !== undefined && schema !== exported) throw new Error(`The contract's ${id} no longer uses the exported ${part} schema.`);
  return schema as S;
}

/**
 * The contract's schema of a route's success answer, checked to be the exported one, or one side of the
 * route's union (the cost report's JSON, beside its CSV text, which the peers do not serve).
 */
function contractResponse<S>(id: RouteId, status: number, exported: S): S {
  const answer = (routeById(id).route.responses as Record<number, unknown>)[status];
  const sides = (answer as { _def?: { options?: unknown[] } } | undefined)?._def?.options ?? [answer];
  if (!sides.includes(exported)) throw new Error(`The contract's ${id} no longer answers ${status} with the exported schema.`);
  return exported;
}

type IdParams<K extends string> = z.ZodObject<{ [key in K]: z.ZodType<number, z.ZodTypeDef, unknown> }>;

/** The contract's zod schemas of the bench's routes: what each peer validates requests with and describes its answers by. */
export const peerSchemas = {
  streamParams: contractSchema<IdParams<"stream_id">>("streaming.getStream", "pathParams"),
  deleteStreamParams: contractSchema<IdParams<"stream_id">>("streaming.deleteStream", "pathParams"),
  appParams: contractSchema<IdParams<"id">>("edge.getApp", "pathParams"),
  newStreamBody: contractSchema("streaming.createStream", "body", createStreamBody),
  resourceParams: contractSchema<IdParams<"resource_id">>("cdn.updateResource", "pathParams"),
  appsQuery: contractSchema("edge.listApps", "query", listEdgeAppsQuery),
  patchBody: contractSchema("cdn.updateResource", "body", updateCdnResourceBody),
  reportBody: contractSchema("cloud.getReservationCostReportTotals", "body", costReportTotalsBody),
  stream: contractResponse("streaming.getStream", 200, stream),
  newStream: contractResponse("streaming.createStream", 201, stream),
  edgeAppList: contractResponse("edge.listApps", 200, edgeAppList),
  edgeAppDetail: contractResponse("edge.getApp", 200, edgeAppDetail),
  cdnResource: contractResponse("cdn.updateResource", 200, cdnResource),
  costReportTotals: contractResponse("cloud.getReservationCostReportTotals", 200, costReportTotals),
};

/** The column indexes of a result by name; a name given twice (joined tables' `name`) by its occurrence. */
function columnIndex(columns: string[]): (name: string, occurrence?: number) => number {
  return (name, occurrence = 0) => {
    let seen = -1;
    for (let index = 0; index < columns.length; index++) if (columns[index] === name && ++seen === occurrence) return index;
    throw new Error(`No column ${name} (#${occurrence}) in the result.`);
  };
}

const iso = (value: unknown) => asDate(value).toISOString();

function asDate(value: unknown): Date {
  return value instanceof Date ? value : new Date(String(value));
}

/** `YYYY-MM-DD HH:MM:SS.ffffff+00:00`, the CDN area's time format. */
function cdnTime(value: unknown): string {
  const date = asDate(value);
  return `${date.toISOString().slice(0, 19).replace("T", " ")}.${String(date.getUTCMilliseconds()).padStart(3, "0")}000+00:00`;
}

/**
 * A text[] column: an array when the driver parses it (postgres.js with its type lookup, PGlite), else
 * PostgreSQL's literal (`{a,"b c"}`), as postgres.js without the type lookup (on Workers) gives it.
 */
function textArray(value: unknown): string[] {
  if (Array.isArray(value)) return value as string[];
  const text = String(value);
  const items: string[] = [];
  let at = 1;
  while (at < text.length - 1) {
    if (text[at] === '"') {
      let item = "";
      for (at++; at < text.length && text[at] !== '"'; at++) item += text[text[at] === "\\" ? ++at : at];
      items.push(item);
      at++;
    } else {
      const end = text.indexOf(",", at) === -1 ? text.length - 1 : text.indexOf(",", at);
      items.push(text.slice(at, end));
      at = end;
    }
    at++;
  }
  return items;
}

function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/** PostgreSQL's array literal of a list, as ours sends the cost report's lists. */
function arrayLiteral(values: readonly (string | number)[]): string {
  return `{${values.map((value) => (typeof value === "number" ? String(value) : `"${value.replace(/[\\"]/g, "\\$&")}"`)).join(",")}}`;
}

async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  let hex = "";
  for (const byte of digest) hex += byte.toString(16).padStart(2, "0");
  return hex;
}

const TOKEN_LOOKUP =
  "select t.id, t.account_id, t.exp_date, t.last_usage, t.deleted, u.role_id, u.deleted, t.user_id from api_tokens t " +
  "join users u on u.account_id = t.account_id and u.id = t.user_id where t.token_hash = $1 limit 1";
const TOKEN_TOUCH =
  "update api_tokens set last_usage = now() where id = $1 and (last_usage is null or last_usage < now() - interval '1 minute')";
/** The listing's filters in the order ours adds their conditions (and so their parameters). */
const LIST_FILTERS = ["name", "api_type", "status", "template", "binary", "plan"] as const;

/** The column each of the listing's orderings sorts by. */
const ORDER_COLUMNS: Record<string, string> = { name: "name", status: "status", id: "id", template: "template_id", binary: "binary_id", plan: "plan_id" };

const AUTH_SCHEME = /^apikey +(\S+)$/i;

/**
 * The `Authorization: apikey <token>` check: the caller from one lookup of the token's hash, kept for
 * `cacheMs` per token in the process's memory (0: looked up every time); `last_usage` written at most
 * once a minute. Throws a 401 `PeerError` for a missing, unknown, revoked or expired token.
 */
export function tokenAuthenticator(cacheMs: number): (authorization: string | undefined, db: RawQuery) => Promise<PeerCaller> {
  const cache = new Map<string, { caller: PeerCaller; until: number; expires: number | null }>();
  return async (authorization, db) => {
    const match = AUTH_SCHEME.exec(authorization?.trim() ?? "");
    if (!match) throw new PeerError(401, "not_authenticated", "Send `Authorization: apikey <API token>`.");
    const token = match[1]!;
    const now = Date.now();
    const cached = cache.get(token);
    if (cached && cached.until > now && (cached.expires === null || cached.expires > now)) return cached.caller;
    const { rows } = await db.query(TOKEN_LOOKUP, [await sha256Hex(token)]);
    const row = rows[0];
    // id, account_id, exp_date, last_usage, deleted, role_id, user deleted, user_id
    if (!row || row[4] || row[6]) throw new PeerError(401, "token_not_valid", "The API token is not valid.");
    const expires = row[2] === null ? null : asDate(row[2]).getTime();
    if (expires !== null && expires <= now) throw new PeerError(401, "token_not_valid", "The API token has expired.");
    if (row[3] === null || now - asDate(row[3]).getTime() >= 60_000) await db.query(TOKEN_TOUCH, [row[0]]);
    const caller = { accountId: Number(row[1]), roleId: Number(row[5]), userId: Number(row[7]), tokenId: Number(row[0]) };
    if (cache.size >= 10_000) cache.delete(cache.keys().next().value!);
    if (cacheMs > 0) cache.set(token, { caller, until: now + cacheMs, expires });
    return caller;
  };
}

/** The role table: reads for every role that reads, writes for Administrators and Engineers; a 403 `PeerError` otherwise. */
export function checkAccess(caller: PeerCaller, kind: RouteAccess): void {
  if (!roleMayCall(caller.roleId, kind)) throw new PeerError(403, "permission_denied", "Your role may not call this route.");
}

/** The zod issues as `errors` per field path. */
export function fieldErrors(issues: z.ZodIssue[]): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const issue of issues) (errors[issue.path.join(".") || "body"] ??= []).push(issue.message);
  return errors;
}

/** What the PATCH's audit entry needs of the request: a header, the URL and the body as sent (before validation). */
export interface PeerRequestFacts {
  header: (name: string) => string | undefined;
  url: URL;
  /** The parsed body as sent, or a promise of it. */
  sentBody: () => unknown;
}

/** Each bench route's work, given its validated path, query or body: the answer's body, or a `PeerError`. */
export interface PeerRoutes {
  getStream(context: PeerContext, params: z.output<typeof peerSchemas.streamParams>): Promise<Stream>;
  listApps(context: PeerContext, query: z.output<typeof peerSchemas.appsQuery>): Promise<EdgeAppList>;
  getApp(context: PeerContext, params: z.output<typeof peerSchemas.appParams>): Promise<EdgeAppDetail>;
  createStream(context: PeerContext, body: z.output<typeof peerSchemas.newStreamBody>): Promise<Stream>;
  deleteStream(context: PeerContext, params: z.output<typeof peerSchemas.deleteStreamParams>): Promise<void>;
  patchResource(
    context: PeerContext,
    params: z.output<typeof peerSchemas.resourceParams>,
    body: z.output<typeof peerSchemas.patchBody>,
    request: PeerRequestFacts,
  ): Promise<CdnResource>;
  costReport(context: PeerContext, body: z.output<typeof peerSchemas.reportBody>): Promise<CostReportTotals>;
}

/** The bench's routes' work, on the statements ours sends. */
export function peerRoutes(): PeerRoutes {
  const sql = (statements: RouteStatements, key: string, index: number): string => {
    const found = statements[key]?.[index];
    if (!found) throw notImplemented(`no SQL for ${key}`);
    return found.sql;
  };
  // Whether the listing's statement has the order asked for, per ordering (the SQL text is the given one).
  const orderings = new Map<string, boolean>();
  const orderedBy = (statements: RouteStatements, key: string, ordering: string) => {
    let known = orderings.get(`${key} ${ordering}`);
    if (known === undefined) {
      const column = ORDER_COLUMNS[ordering.replace(/^-/, "")] ?? "?";
      const direction = ordering.startsWith("-") ? "desc" : "asc";
      known = new RegExp(`order by "edge_apps"\\."${column}"(?: collate "C")? ${direction}`).test(sql(statements, key, 0));
      orderings.set(`${key} ${ordering}`, known);
    }
    return known;
  };

  return {
    async getStream({ db, statements, caller: { accountId } }, { stream_id: id }) {
      const key = "getStream";
      // The stream and its overlays, at once.
      const [found, overlays] = await Promise.all([
        db.query(sql(statements, key, 0), [accountId, id, 1]),
        db.query(sql(statements, key, 1), [accountId, id]),
      ]);
      const row = found.rows[0];
      if (!row) throw notFound(`Stream ${id}`);
      // The statement's last column is the stream's broadcast ids (a JSON list; its text where the driver parses no JSON).
      const ids = row[found.columns.length - 1];
      const broadcastIds = (typeof ids === "string" ? JSON.parse(ids) : ids) as number[];
      return toStream(found.columns, row, broadcastIds, toOverlays(overlays.columns, overlays.rows));
    },

    async listApps({ db, statements, caller: { accountId } }, query) {
      // The filters given, in the order of the statement's conditions (the handler's LIST_FILTERS).
      const given: string[] = [];
      const filters: unknown[] = [];
      for (const name of LIST_FILTERS) {
        const value = query[name];
        if (value === undefined || value === "") continue;
        given.push(name);
        filters.push(name === "name" ? likePattern(value as string) : value);
      }
      const key = `listApps[${given.join(",")}]`;
      if (!orderedBy(statements, key, query.ordering)) throw notImplemented(`the listing ordered by ${query.ordering}`);
      const [apps, total] = await Promise.all([
        db.query(sql(statements, key, 0), [accountId, ...filters, query.limit, query.offset]),
        db.query(sql(statements, key, 1), [accountId, ...filters]),
      ]);
      return { apps: toEdgeApps(apps.columns, apps.rows), count: Number(total.rows[0]?.[0] ?? 0) };
    },

    async getApp({ db, statements, caller: { accountId } }, { id }) {
      const found = await db.query(sql(statements, "getApp", 0), [accountId, id]);
      const [app] = toEdgeApps(found.columns, found.rows);
      if (!app) throw notFound(`Edge app ${id}`);
      // Then the secrets and KV stores it reads, at once: each by the name the app reads it under.
      const [secrets, stores] = await Promise.all([
        db.query(sql(statements, "getApp", 1), [accountId, id]),
        db.query(sql(statements, "getApp", 2), [accountId, id]),
      ]);
      const at = columnIndex(found.columns);
      const settings = found.rows[0]!;
      return {
        ...app,
        env: settings[at("env")] as EdgeAppDetail["env"],
        rsp_headers: settings[at("rsp_headers")] as EdgeAppDetail["rsp_headers"],
        log: settings[at("log")] as EdgeAppDetail["log"],
        secrets: byReadName(secrets.rows),
        stores: byReadName(stores.rows),
      };
    },

    async createStream({ db, statements, caller: { accountId, userId } }, body) {
      // Fields whose checks or writes need SQL the peer was not given (the user, the CDN resource) or rules it does not have (pull, DVR, …).
      const others = Object.keys(body).filter((field) => field !== "name");
      if (others.length) throw notImplemented(`a stream created with ${others.join(", ")}`);
      const key = "createStream";
      const created = await db.transaction(async (tx) => {
        // The URLs are made from the id, which the insert gives: written by a second statement of the same transaction.
        const insert = sql(statements, key, 0);
        const values = { ...newStreamColumns(accountId, userId, body.name), ...streamUrls(accountId, 0) };
        const inserted = await tx.query(insert, insertColumns(insert).map((column) => values[column]));
        const id = Number(inserted.rows[0]![0]);
        const update = sql(statements, key, 1);
        const urls = streamUrls(accountId, id);
        const written = await tx.query(update, [...updateColumns(update).map((column) => urls[column]), accountId, id]);
        return { columns: written.columns, row: written.rows[0]! };
      });
      return toStream(created.columns, created.row, [], []);
    },

    async deleteStream({ db, statements, caller: { accountId } }, { stream_id: id }) {
      // The broadcasts it is the last stream of; then the stream: its clips go with it and it leaves its other broadcasts (foreign keys that cascade).
      const deleted = await db.transaction(async (tx) => {
        await tx.query(sql(statements, "deleteStream", 0), [accountId, accountId, id, id]);
        const result = await tx.query(sql(statements, "deleteStream", 1), [accountId, id]);
        return result.rows.length > 0;
      });
      if (!deleted) throw notFound(`Stream ${id}`);
    },

    async patchResource({ db, statements, caller }, { resource_id: id }, body, request) {
      const { accountId } = caller;
      // Fields whose checks or writes need SQL the peer was not given (references, host names, the secure key's encryption).
      for (const field of ["originGroup", "sslData", "proxy_ssl_data", "proxy_ssl_ca", "secondaryHostnames"] as const)
        if (body[field] !== undefined) throw notImplemented(`a PATCH of ${field}`);
      if (body.options?.secure_key) throw notImplemented("a PATCH of the secure key");
      const key = "patchResource";
      const resource = await db.transaction(async (tx) => {
        const locked = await tx.query(sql(statements, key, 0), [accountId, id]);
        const current = locked.rows[0];
        if (!current) return undefined;
        if (Object.keys(body).length > 0) {
          const at = columnIndex(locked.columns);
          const options = { ...(current[at("options")] as Record<string, Record<string, unknown>>) };
          for (const [name, option] of Object.entries(body.options ?? {})) {
            if (option === null || option === undefined) delete options[name];
            else options[name] = { ...option };
          }
          const written: Record<string, unknown> = {
            name: body.name ?? current[at("name")],
            description: body.description ?? current[at("description")],
            active: body.active ?? current[at("active")],
            origin_group_id: current[at("origin_group_id")],
            origin_protocol: body.originProtocol ?? current[at("origin_protocol")],
            ssl_enabled: body.sslEnabled ?? current[at("ssl_enabled")],
            ssl_data_id: current[at("ssl_data_id")],
            proxy_ssl_enabled: body.proxy_ssl_enabled ?? current[at("proxy_ssl_enabled")],
            proxy_ssl_ca_id: current[at("proxy_ssl_ca_id")],
            proxy_ssl_data_id: current[at("proxy_ssl_data_id")],
            waap_api_domain_enabled: current[at("waap_api_domain_enabled")],
            options: JSON.stringify(options),
            updated: new Date().toISOString(),
          };
          if (written.ssl_enabled && written.ssl_data_id === null)
            throw new PeerError(400, "validation_failed", "sslData is required when sslEnabled is true.");
          const update = sql(statements, key, 1);
          await tx.query(update, [...updateColumns(update).map((column) => written[column]), accountId, id]);
        }
        const loaded = await loadResource(tx, sql(statements, key, 2), sql(statements, key, 3), sql(statements, key, 4), accountId, id);
        // The write's audit entry, the transaction's last statement: the body as sent, the client's address as a proxy in front reports it.
        // (A refused write is not logged here: ours logs it with a statement of its own.)
        const header = (name: string) => request.header(name)?.trim();
        const address = header("x-forwarded-for")?.split(",")[0]?.trim() || header("x-real-ip") || header("cf-connecting-ip");
        const audit = sql(statements, key, 5);
        await tx.query(audit, auditParams(audit, caller, "PATCH", request.url, address ? address.slice(0, 64) : null, 200, await request.sentBody()));
        return loaded;
      });
      if (!resource) throw notFound(`CDN resource ${id}`);
      return resource;
    },

    async costReport({ db, statements, caller: { accountId } }, body) {
      if (body.tags || body.schema_filter || body.response_format === "csv_totals") throw notImplemented("tags, schema_filter or csv_totals");
      const key = `costReport[${[body.regions && "regions", body.types && "types"].filter(Boolean).join(",")}]`;
      const lists = [body.regions, body.types].filter((list) => list !== undefined).map((list) => arrayLiteral(list));
      const result = await db.query(sql(statements, key, 0), [accountId, body.time_from, body.time_to, ...lists]);
      type Total = CostReportTotals["results"][number];
      const results = result.rows.map((row): Total => {
        // Ours reads the monthly totals (usage_month_totals) for a report without tags: type, region_id, flavor,
        // instance_type, volume_type, billing_metric_name, billing_feature_name, billing_value_unit, currency,
        // sum (billing value), sum (cost), bool_or (unpriced: any unpriced line)
        const cost = Number(row[10]);
        return {
          type: row[0] as Total["type"],
          region: row[1] as Total["region"],
          region_id: row[1] as Total["region_id"],
          flavor: row[2] as Total["flavor"],
          instance_type: row[3] as Total["instance_type"],
          volume_type: row[4] as Total["volume_type"],
          billing_metric_name: row[5] as Total["billing_metric_name"],
          billing_feature_name: row[6] as Total["billing_feature_name"],
          billing_value_unit: row[7] as Total["billing_value_unit"],
          currency: row[8] as Total["currency"],
          billing_value: Number(row[9]),
          cost: body.rounding === false ? cost : Math.round(cost * 1e5) / 1e5,
          err: row[11] ? "No price for part of this usage; that part is counted at 0." : null,
        };
      });
      return { count: results.length, price_status: results.some((item) => item.err !== null) ? "error" : "show", results };
    },
  };
}

/** The edge apps of a result of the apps' statement (the app's columns, then its template's and its plan's names). */
function toEdgeApps(columns: string[], rows: Row[]): EdgeApp[] {
  const at = columnIndex(columns);
  const index = {
    id: at("id"),
    name: at("name"),
    url: at("url"),
    status: at("status"),
    binary: at("binary_id"),
    template: at("template_id"),
    templateName: at("name", 1),
    comment: at("comment"),
    apiType: at("api_type"),
    debugUntil: at("debug_until"),
    networks: at("networks"),
    upgradeableTo: at("upgradeable_to"),
    planId: at("plan_id"),
    plan: at("name", 2),
  };
  const now = Date.now();
  return rows.map(
    (row): EdgeApp => ({
      id: row[index.id] as number,
      name: row[index.name] as string,
      url: row[index.url] as string,
      status: row[index.status] as number,
      binary: row[index.binary] as number | null,
      template: row[index.template] as number | null,
      template_name: row[index.template] === null ? null : (row[index.templateName] as string | null),
      comment: row[index.comment] as string,
      api_type: row[index.apiType] as EdgeApp["api_type"],
      debug_until: row[index.debugUntil] !== null && asDate(row[index.debugUntil]).getTime() > now ? iso(row[index.debugUntil]) : null,
      networks: textArray(row[index.networks]),
      upgradeable_to: row[index.upgradeableTo] as number | null,
      plan_id: row[index.planId] as number,
      plan: row[index.plan] as string,
    }),
  );
}

/** Where new streams' ingest and playback live. */
const INGEST_HOST = "vp-push.cloudplane.example";
const BACKUP_INGEST_HOST = "vp-push-backup.cloudplane.example";
const WHIP_ORIGIN = "https://whip.cloudplane.example";
const PLAYBACK_ORIGIN = "https://video.cloudplane.example";

/** A new stream's URLs by column: ingest by id and a fresh stream key (12 hex digits), playback by account and id. */
function streamUrls(accountId: number, id: number): Record<string, string> {
  const key = Array.from(crypto.getRandomValues(new Uint8Array(6)), (byte) => byte.toString(16).padStart(2, "0")).join("");
  const playback = `${PLAYBACK_ORIGIN}/accounts/${accountId}/streams/${id}`;
  return {
    push_url: `rtmp://${INGEST_HOST}/in/${id}?${key}`,
    backup_push_url: `rtmp://${BACKUP_INGEST_HOST}/in/${id}?${key}`,
    push_url_srt: `srt://${INGEST_HOST}:5001?streamid=${id}#${key}`,
    backup_push_url_srt: `srt://${BACKUP_INGEST_HOST}:5001?streamid=${id}#${key}`,
    push_url_whip: `${WHIP_ORIGIN}/whip/${id}/${key}`,
    iframe_url: `${playback}/player.html`,
    dash_url: `${playback}/index.mpd`,
    hls_cmaf_url: `${playback}/index.m3u8`,
    hls_mpegts_url: `${playback}/index-ts.m3u8`,
    screenshot: `${playback}/screenshot.jpg`,
  };
}

/** The SET columns of an update statement in order (`set "a" = $1, "b" = $2 where …`). */
function updateColumns(update: string): string[] {
  const set = /\bset (.*) where /.exec(update)?.[1] ?? "";
  return [...set.matchAll(/"(\w+)" = \$\d+/g)].map((match) => match[1]!);
}

/** A stream's overlays as the API shows them. */
function toOverlays(columns: string[], rows: Row[]): Overlay[] {
  const at = columnIndex(columns);
  const value = (row: Row, name: string) => row[at(name)];
  return rows.map((row) => ({
    id: value(row, "id") as number,
    stream_id: value(row, "stream_id") as number,
    url: value(row, "url") as string,
    width: value(row, "width") as number | null,
    height: value(row, "height") as number | null,
    x: value(row, "x") as number | null,
    y: value(row, "y") as number | null,
    stretch: value(row, "stretch") as boolean,
    created_at: iso(value(row, "created_at")),
    updated_at: iso(value(row, "updated_at")),
  }));
}

function toStream(columns: string[], row: Row, broadcastIds: number[], overlays: Overlay[]): Stream {
  const at = columnIndex(columns);
  const value = (name: string) => row[at(name)];
  const time = (name: string) => (value(name) === null ? null : iso(value(name)));
  return {
    id: value("id") as number,
    name: value("name") as string,
    pull: value("pull") as boolean,
    active: value("active") as boolean,
    auto_record: value("auto_record") as boolean,
    html_overlay: value("html_overlay") as boolean,
    live: value("live") as boolean,
    backup_live: value("backup_live") as boolean,
    client_user_id: value("client_user_id") as number,
    uri: value("uri") as string | null,
    push_url: value("push_url") as string,
    backup_push_url: value("backup_push_url") as string,
    push_url_srt: value("push_url_srt") as string,
    backup_push_url_srt: value("backup_push_url_srt") as string,
    push_url_whip: value("push_url_whip") as string,
    created_at: iso(value("created_at")),
    started_at_primary: time("started_at_primary"),
    finished_at_primary: time("finished_at_primary"),
    started_at_backup: time("started_at_backup"),
    dvr_duration: value("dvr_duration") as number,
    recording_duration: value("recording_started_at") === null ? 0 : Math.max(0, Math.floor((Date.now() - new Date(value("recording_started_at") as string).getTime()) / 1000)),
    iframe_url: value("iframe_url") as string,
    dash_url: value("dash_url") as string,
    hls_cmaf_url: value("hls_cmaf_url") as string,
    hls_mpegts_url: value("hls_mpegts_url") as string,
    screenshot: value("screenshot") as string,
    transcoded_qualities: textArray(value("transcoded_qualities")),
    transcoding_speed: value("transcoding_speed") as number,
    frame_rate: value("frame_rate") as number,
    video_height: value("video_height") as number,
    video_width: value("video_width") as number,
    dvr_enabled: (value("dvr_duration") as number) > 0,
    broadcast_ids: broadcastIds,
    cdn_id: value("cdn_id") as number | null,
    client_entity_data: value("client_entity_data") as string | null,
    hls_mpegts_endlist_tag: value("hls_mpegts_endlist_tag") as boolean,
    projection: value("projection") as Stream["projection"],
    quality_set_id: value("quality_set_id") as number | null,
    record_type: value("record_type") as Stream["record_type"],
    stream_source_type: value("stream_source_type") as Stream["stream_source_type"],
    token: (value("push_url") as string).slice((value("push_url") as string).lastIndexOf("?") + 1),
    srt_passphrase: value("srt_passphrase") as string | null,
    active_ingest_region_primary: value("ingest_region_primary") as string | null,
    active_ingest_region_backup: value("ingest_region_backup") as string | null,
    html_overlays: overlays,
  };
}

/** Stored options as shown: the secure key's `key` is a secret and never shown. */
function withoutKey(options: Record<string, Record<string, unknown>>): Record<string, unknown> {
  const { secure_key: secureKey, ...rest } = options;
  if (!secureKey) return rest;
  const { key: _key, ...shown } = secureKey;
  return { ...rest, secure_key: shown };
}

/** A resource's rules as the API shows them, in the order they are read (by weight, then id); their protocol is the resource's unless they override it. */
function toRules(columns: string[], rows: Row[], resourceProtocol: CdnRule["originProtocol"]): CdnRule[] {
  const at = columnIndex(columns);
  return rows.map((row) => {
    const value = (name: string) => row[at(name)];
    const override = value("override_origin_protocol") as CdnRule["overrideOriginProtocol"];
    return {
      id: value("id") as number,
      name: value("name") as string,
      active: value("active") as boolean,
      deleted: false,
      rule: value("rule") as string,
      ruleType: value("rule_type") as number,
      weight: value("weight") as number,
      originGroup: value("origin_group_id") as number | null,
      originProtocol: override ?? resourceProtocol,
      overrideOriginProtocol: override,
      preset_applied: value("preset_applied") as boolean,
      primary_rule: null,
      options: completeCdnRuleOptions(withoutKey(value("options") as Record<string, Record<string, unknown>>)),
    };
  });
}

/** One resource as the API shows it, read back in the write's transaction: the row, its origin group's name, its POP, its host names, its rules. */
async function loadResource(tx: RawQuery, read: string, hostnames: string, rules: string, accountId: number, id: number): Promise<CdnResource | undefined> {
  const found = await tx.query(read, [accountId, id]);
  const row = found.rows[0];
  if (!row) return undefined;
  const names = await tx.query(hostnames, [accountId, id]);
  const ruleRows = await tx.query(rules, [accountId, `{${id}}`]);
  const at = columnIndex(found.columns);
  const value = (name: string, occurrence = 0) => row[at(name, occurrence)];
  const shieldingPop = value("shielding_pop_id");
  return {
    id: value("id") as number,
    cname: value("cname") as string,
    active: value("active") as boolean,
    enabled: value("enabled") as boolean,
    status: value("status") as CdnResource["status"],
    deleted: value("deleted") as boolean,
    client: value("account_id") as number,
    name: value("name") as string,
    description: value("description") as string,
    created: cdnTime(value("created")),
    updated: cdnTime(value("updated")),
    originGroup: value("origin_group_id") as number,
    originGroup_name: value("name", 1) as string,
    originProtocol: value("origin_protocol") as CdnResource["originProtocol"],
    secondaryHostnames: names.rows.map((item) => item[0] as string),
    shielded: shieldingPop !== null,
    shield_dc: value("datacenter") as string | null,
    shield_enabled: shieldingPop !== null,
    shield_routing_map: value("shield_routing_map") as number | null,
    sslEnabled: value("ssl_enabled") as boolean,
    sslData: value("ssl_data_id") as number | null,
    proxy_ssl_enabled: value("proxy_ssl_enabled") as boolean,
    proxy_ssl_ca: value("proxy_ssl_ca_id") as number | null,
    proxy_ssl_data: value("proxy_ssl_data_id") as number | null,
    preset_applied: value("preset_applied") as boolean,
    vp_enabled: value("vp_enabled") as boolean,
    full_custom_enabled: value("full_custom_enabled") as boolean,
    can_purge_by_urls: value("can_purge_by_urls") as boolean,
    suspend_date: value("suspend_date") === null ? null : cdnTime(value("suspend_date")),
    suspended: value("suspended") as boolean,
    primary_resource: value("primary_resource_id") as number | null,
    is_primary: value("is_primary") as boolean | null,
    waap_domain_id: value("waap_domain_id") as number | null,
    rules: toRules(ruleRows.columns, ruleRows.rows, value("origin_protocol") as CdnRule["originProtocol"]),
    options: completeCdnResourceOptions(withoutKey(value("options") as Record<string, Record<string, unknown>>)),
    waap_api_domain_enabled: value("waap_api_domain_enabled") as boolean,
  };
}
