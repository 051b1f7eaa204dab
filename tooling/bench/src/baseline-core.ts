/**
 * The baseline's request handling, shared by the bare `node:http` server (servers/baseline.ts) and the
 * bare worker in workerd (workers/bare.ts): it runs the very statements our handler runs (caught by
 * capture.ts) through postgres.js or PGlite, builds their parameters from the request by hand, and
 * answers the rows as plain JSON. No authentication (the caller is account 1), no rate limit, no
 * validation, no request id, no error envelope. It imports no Node module, so it bundles for Workers.
 */
import type { Sql, TransactionSql } from "postgres";
import { BENCH_ACCOUNT_ID, BENCH_TOKEN_ID, BENCH_USER_ID } from "./account.js";
import type { CapturedStatement } from "./capture.js";

export type Row = unknown[];

export interface RawQuery {
  /** Rows as arrays (joins name columns alike), with the result's column names. */
  query(sql: string, params: unknown[]): Promise<{ columns: string[]; rows: Row[] }>;
}

export interface RawDatabase extends RawQuery {
  transaction<T>(work: (tx: RawQuery) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * A postgres.js client as a RawDatabase. `prepare`: each statement prepared on the server once per
 * connection (postgres.js's default), or sent unnamed (as ours does on a connection that serves one
 * request, on Workers).
 */
export function postgresRawDatabase(sql: Sql, prepare: boolean): RawDatabase {
  // JSON parameters arrive as JSON text (as Drizzle sends them); postgres.js would encode them again.
  for (const type of [114, 3802]) sql.options.serializers[type] = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));
  const on = (client: Pick<Sql, "unsafe"> | Pick<TransactionSql, "unsafe">): RawQuery => ({
    async query(text, params) {
      const result = await client.unsafe(text, params as never[], { prepare }).values();
      return { columns: (result.columns ?? []).map((column) => column.name), rows: result as unknown as Row[] };
    },
  });
  return {
    ...on(sql),
    transaction: async (work) => (await sql.begin((tx) => work(on(tx)))) as Awaited<ReturnType<typeof work>>,
    close: () => sql.end({ timeout: 5 }),
  };
}

/** Rows as objects; a name seen twice (the joined tables' `name`) gets a number, so nothing is lost. */
function toObjects(columns: string[], rows: Row[]): Record<string, unknown>[] {
  const keys = columns.map((name, index) => (columns.indexOf(name) === index ? name : `${name}_${index}`));
  return rows.map((row) => {
    const object: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++) object[keys[i]!] = row[i];
    return object;
  });
}

/** Which captured statements a request needs: the SQL text depends on the filters given. */
export function variantKey(method: string, url: URL, body: unknown): string | undefined {
  const { pathname, searchParams } = url;
  if (method === "GET" && /^\/streaming\/streams\/\d+$/.test(pathname)) return "getStream";
  if (method === "POST" && pathname === "/streaming/streams") return "createStream";
  if (method === "DELETE" && /^\/streaming\/streams\/\d+$/.test(pathname)) return "deleteStream";
  if (method === "GET" && /^\/edge\/v1\/apps\/\d+$/.test(pathname)) return "getApp";
  if (method === "GET" && pathname === "/edge/v1/apps") {
    const filters = LIST_FILTERS.filter((name) => searchParams.has(name));
    return `listApps[${filters.join(",")}]`;
  }
  // The bench lists CDN resources unfiltered: one variant.
  if (method === "GET" && pathname === "/cdn/resources") return "listResources";
  if (method === "PATCH" && /^\/cdn\/resources\/\d+$/.test(pathname)) return "patchResource";
  // The player's statistics over a period, without filters: one variant each.
  if (method === "GET" && pathname === "/streaming/statistics/countries") return "viewsByCountry";
  if (method === "GET" && pathname === "/streaming/statistics/views" && searchParams.get("group") === "country") return "viewsGrouped";
  if (method === "POST" && pathname === "/cloud/v1/reservation_cost_report/totals") {
    // Lists are one array parameter each (`= any($n::…[])`): only whether they are given changes the SQL.
    const report = body as CostReportBody;
    return `costReport[${[report.regions && "regions", report.types && "types"].filter(Boolean).join(",")}]`;
  }
  return undefined;
}

/** The listing's filters in the order the handler adds their conditions (and so their parameters). */
const LIST_FILTERS = ["name", "api_type", "status", "template", "binary", "plan"] as const;

/** PostgreSQL's array literal of a list, as `arrayLiteral` of @cloudplane/db writes it (this file stays free of our packages). */
function arrayLiteral(values: readonly (string | number)[]): string {
  return `{${values.map((value) => (typeof value === "number" ? String(value) : `"${value.replace(/[\\"]/g, "\\$&")}"`)).join(",")}}`;
}

interface CostReportBody {
  time_from: string;
  time_to: string;
  regions?: number[];
  types?: string[];
}

function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

export interface BaselineAnswer {
  status: number;
  body: unknown;
}

function statement(statements: Record<string, CapturedStatement[]>, key: string, index: number): string {
  const found = statements[key]?.[index];
  if (!found) throw new Error(`No captured SQL for ${key} #${index}`);
  return found.sql;
}

/** The captured statement of `key` that reads `table` first: for statements ours sends at once, whose order varies. */
function statementFrom(statements: Record<string, CapturedStatement[]>, key: string, table: string): string {
  const found = statements[key]?.find((captured) => captured.sql.includes(`from "${table}"`));
  if (!found) throw new Error(`No captured SQL for ${key} from ${table}`);
  return found.sql;
}

/** The columns an insert gives a parameter, in the parameters' order (`insert into "t" ("a", "b") values (default, $1)`). */
export function insertColumns(sql: string): string[] {
  const [, columns = "", values = ""] = /\(([^)]*)\) values \(([^)]*)\)/.exec(sql) ?? [];
  const names = [...columns.matchAll(/"(\w+)"/g)].map((match) => match[1]!);
  return values
    .split(", ")
    .map((value, index) => ({ name: names[index]!, param: Number(/^\$(\d+)$/.exec(value)?.[1] ?? 0) }))
    .filter((column) => column.param > 0)
    .sort((a, b) => a.param - b.param)
    .map((column) => column.name);
}

/**
 * What a new stream made from a name alone is written with, by column: ours writes every column a create
 * may set, those the body leaves out with the table's defaults (one prepared insert for every body).
 */
export function newStreamColumns(account: number, user: number, name: string): Record<string, unknown> {
  return {
    account_id: account,
    client_user_id: user,
    name,
    pull: false,
    uri: null,
    active: true,
    auto_record: false,
    html_overlay: false,
    dvr_duration: 0,
    projection: "regular",
    record_type: "origin",
    quality_set_id: null,
    cdn_id: null,
    client_entity_data: null,
    hls_mpegts_endlist_tag: false,
    srt_passphrase: null,
  };
}

/** A new stream's URLs by column, made from its id and a fresh stream key, in the form ours gives them. */
function streamUrls(account: number, id: unknown): Record<string, string> {
  const key = Array.from(crypto.getRandomValues(new Uint8Array(6)), (byte) => byte.toString(16).padStart(2, "0")).join("");
  const playback = `https://video.cloudplane.example/accounts/${account}/streams/${String(id)}`;
  return {
    push_url: `rtmp://vp-push.cloudplane.example/in/${String(id)}?${key}`,
    backup_push_url: `rtmp://vp-push-backup.cloudplane.example/in/${String(id)}?${key}`,
    push_url_srt: `srt://vp-push.cloudplane.example:5001?streamid=${String(id)}#${key}`,
    backup_push_url_srt: `srt://vp-push-backup.cloudplane.example:5001?streamid=${String(id)}#${key}`,
    push_url_whip: `https://whip.cloudplane.example/whip/${String(id)}/${key}`,
    iframe_url: `${playback}/player.html`,
    dash_url: `${playback}/index.mpd`,
    hls_cmaf_url: `${playback}/index.m3u8`,
    hls_mpegts_url: `${playback}/index-ts.m3u8`,
    screenshot: `${playback}/screenshot.jpg`,
  };
}

/** Keys whose values are secrets: left out of the body an audit entry keeps, at any depth, as ours leaves them out. */
const SECRET_KEY = /secret|password|passwd|private|token|credential|^key$|api_?key/i;

function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).flatMap(([key, item]) => (SECRET_KEY.test(key) ? [] : [[key, withoutSecrets(item)]])));
}

/** Who a CDN write is by: the account, the user and the API token. */
export interface Writer {
  accountId: number;
  userId: number;
  tokenId: number;
}

/**
 * The parameters of a CDN write's audit entry (`insert into "cdn_audit_log" …`, the last statement of the
 * write's transaction) in the insert's order: who, the request (its body as JSON text, without secrets),
 * the status it is answered with and what it did.
 */
export function auditParams(insert: string, writer: Writer, method: string, url: URL, remoteIp: string | null, status: number, body: unknown): unknown[] {
  const values: Record<string, unknown> = {
    account_id: writer.accountId,
    user_id: writer.userId,
    token_id: writer.tokenId,
    method,
    path: url.pathname,
    query_params: url.search.slice(1),
    host: url.host,
    remote_ip_address: remoteIp,
    status_code: status,
    data: body === undefined ? null : JSON.stringify(withoutSecrets(body)),
    action_type: method === "DELETE" ? "D" : method === "POST" && status === 201 ? "C" : "U",
  };
  return insertColumns(insert).map((column) => values[column]);
}

/** The secrets or KV stores an app reads, by the name it reads each under (rows: that name, then the id, name and comment). */
export function byReadName(rows: Row[]): Record<string, { id: number; name: string; comment: string }> {
  return Object.fromEntries(rows.map(([as, id, name, comment]) => [String(as), { id: Number(id), name: String(name), comment: String(comment) }]));
}

/** The SQL's SET columns in order (`update "t" set "a" = $1, "b" = $2 where …`). */
function setColumns(sql: string): string[] {
  const set = /\bset (.*) where /.exec(sql)?.[1] ?? "";
  return [...set.matchAll(/"(\w+)" = \$\d+/g)].map((match) => match[1]!);
}

/**
 * Answers one request the way a bare server would: parameters from the path, query and body as they
 * are, the route's statements, rows turned into JSON. Requests it does not know answer 404.
 */
export async function baselineAnswer(
  db: RawDatabase,
  statements: Record<string, CapturedStatement[]>,
  method: string,
  url: URL,
  body: unknown,
): Promise<BaselineAnswer> {
  const key = variantKey(method, url, body);
  const account = BENCH_ACCOUNT_ID;
  const id = Number(url.pathname.split("/").pop());
  switch (key?.replace(/\[.*$/, "")) {
    case "getStream": {
      // The stream (with its broadcasts' ids) and its overlays, at once.
      const [result, overlays] = await Promise.all([
        db.query(statement(statements, key, 0), [account, id, 1]),
        db.query(statement(statements, key, 1), [account, id]),
      ]);
      const [stream] = toObjects(result.columns, result.rows);
      return stream ? { status: 200, body: { ...stream, html_overlays: toObjects(overlays.columns, overlays.rows) } } : { status: 404, body: { message: "not found" } };
    }
    case "getApp": {
      const result = await db.query(statement(statements, key, 0), [account, id]);
      const [app] = toObjects(result.columns, result.rows);
      if (!app) return { status: 404, body: { message: "not found" } };
      // Then the secrets and KV stores it reads, at once.
      const [secrets, stores] = await Promise.all([
        db.query(statement(statements, key, 1), [account, id]),
        db.query(statement(statements, key, 2), [account, id]),
      ]);
      return { status: 200, body: { ...app, secrets: byReadName(secrets.rows), stores: byReadName(stores.rows) } };
    }
    case "createStream": {
      // The URLs are made from the id the insert gives: written by a second statement of the transaction.
      const stream = await db.transaction(async (tx) => {
        const insert = statement(statements, key, 0);
        const values = { ...newStreamColumns(account, BENCH_USER_ID, (body as { name: string }).name), ...streamUrls(account, 0) };
        const inserted = await tx.query(insert, insertColumns(insert).map((column) => values[column]));
        const created = inserted.rows[0]![0];
        const update = statement(statements, key, 1);
        const urls = streamUrls(account, created);
        const result = await tx.query(update, [...setColumns(update).map((column) => urls[column]), account, created]);
        return toObjects(result.columns, result.rows)[0];
      });
      return { status: 201, body: stream };
    }
    case "deleteStream": {
      // The broadcasts the stream is the last stream of, then the stream, in one transaction.
      const deleted = await db.transaction(async (tx) => {
        await tx.query(statement(statements, key, 0), [account, account, id, id]);
        const result = await tx.query(statement(statements, key, 1), [account, id]);
        return result.rows.length > 0;
      });
      return deleted ? { status: 204, body: undefined } : { status: 404, body: { message: "not found" } };
    }
    case "listApps": {
      const query = url.searchParams;
      const filters = LIST_FILTERS.filter((name) => query.has(name)).map((name) =>
        name === "name" ? likePattern(query.get(name)!) : name === "api_type" ? query.get(name) : Number(query.get(name)),
      );
      const paging = [Number(query.get("limit") ?? 25), Number(query.get("offset") ?? 0)];
      const [apps, total] = await Promise.all([
        db.query(statement(statements, key, 0), [account, ...filters, ...paging]),
        db.query(statement(statements, key, 1), [account, ...filters]),
      ]);
      return { status: 200, body: { apps: toObjects(apps.columns, apps.rows), count: Number(total.rows[0]?.[0] ?? 0) } };
    }
    case "listResources": {
      const query = url.searchParams;
      const paging = [Number(query.get("limit") ?? 25), Number(query.get("offset") ?? 0)] as const;
      // The count the database keeps comes first, then the page: read in the listing's order when it lies in
      // the first half, as ours does (ours reads a page of the second half from the other end, in SQL of its
      // own, which the scale part's offset 50 does not ask for).
      const total = await db.query(statementFrom(statements, key, "listing_counts"), [account, "cdn_resources", ""]);
      if (paging[1] * 2 > Number(total.rows[0]?.[0] ?? 0)) throw new Error("The baseline lists CDN resources of the first half only.");
      const page = await db.query(statementFrom(statements, key, "cdn_resources"), [account, ...paging]);
      const resources = toObjects(page.columns, page.rows);
      // The page's secondary host names (one parameter per resource id, `in ($2, $3, …)`) and rules (the ids as one array, `= any($2)`), at once, as ours sends them.
      const ids = resources.map((resource) => resource.id);
      const [hostnames, rules] = resources.length
        ? await Promise.all([
            db.query(statementFrom(statements, key, "cdn_resource_hostnames"), [account, ...ids]),
            db.query(statementFrom(statements, key, "cdn_resource_rules"), [account, `{${ids.join(",")}}`]),
          ])
        : [{ rows: [] }, { columns: [], rows: [] }];
      const hostnamesOf = new Map<unknown, unknown[]>(ids.map((resourceId) => [resourceId, []]));
      for (const [resourceId, hostname] of hostnames.rows) hostnamesOf.get(resourceId)?.push(hostname);
      const rulesOf = new Map<unknown, unknown[]>(ids.map((resourceId) => [resourceId, []]));
      for (const rule of toObjects(rules.columns, rules.rows)) rulesOf.get(rule.resource_id)?.push(rule);
      return {
        status: 200,
        body: {
          count: Number(total.rows[0]?.[0] ?? 0),
          results: resources.map((resource) => ({ ...resource, secondaryHostnames: hostnamesOf.get(resource.id), rules: rulesOf.get(resource.id) })),
        },
      };
    }
    case "patchResource": {
      const changes = (body as { options?: Record<string, unknown> }).options ?? {};
      const resource = await db.transaction(async (tx) => {
        const locked = await tx.query(statement(statements, key, 0), [account, id]);
        const [row] = toObjects(locked.columns, locked.rows);
        if (!row) return undefined;
        const options: Record<string, unknown> = { ...(row.options as Record<string, unknown>) };
        for (const [name, option] of Object.entries(changes)) {
          if (option === null) delete options[name];
          else options[name] = option;
        }
        const update = statement(statements, key, 1);
        const values = setColumns(update).map((column) =>
          column === "options" ? JSON.stringify(options) : column === "updated" ? new Date().toISOString() : row[column],
        );
        await tx.query(update, [...values, account, id]);
        const [loaded, hostnames, rules] = [
          await tx.query(statement(statements, key, 2), [account, id]),
          await tx.query(statement(statements, key, 3), [account, id]),
          await tx.query(statement(statements, key, 4), [account, `{${id}}`]),
        ];
        // The write's audit entry, the transaction's last statement (no request headers here: no client address).
        const audit = statement(statements, key, 5);
        await tx.query(audit, auditParams(audit, { accountId: account, userId: BENCH_USER_ID, tokenId: BENCH_TOKEN_ID }, method, url, null, 200, body));
        return {
          ...toObjects(loaded.columns, loaded.rows)[0],
          secondaryHostnames: hostnames.rows.map((item) => item[0]),
          rules: toObjects(rules.columns, rules.rows),
        };
      });
      return resource ? { status: 200, body: resource } : { status: 404, body: { message: "not found" } };
    }
    case "costReport": {
      const report = body as CostReportBody;
      // Lists go as array literals, as ours sends them (so they work without the driver's type lookup).
      const lists = [report.regions, report.types].filter((list) => list !== undefined).map(arrayLiteral);
      const result = await db.query(statement(statements, key, 0), [account, report.time_from, report.time_to, ...lists]);
      // Ours sums the monthly totals (usage_month_totals): type … currency, sum (billing value), sum (cost),
      // bool_or (any unpriced line); the second `sum` is named sum_10 here.
      const results = toObjects(result.columns, result.rows);
      return { status: 200, body: { count: results.length, price_status: results.some((item) => item.bool_or) ? "error" : "show", results } };
    }
    case "viewsByCountry":
    case "viewsGrouped": {
      // The account, the period and the row limit (the contract's STREAMING_RANKING_MAX and STREAMING_ROWS_MAX; this file stays free of our packages).
      const limit = key === "viewsByCountry" ? 1000 : 10_000;
      const result = await db.query(statement(statements, key, 0), [account, url.searchParams.get("date_from"), url.searchParams.get("date_to"), limit]);
      return { status: 200, body: { data: toObjects(result.columns, result.rows) } };
    }
    default:
      return { status: 404, body: { message: "not found" } };
  }
}

/** A RawDatabase that records what it is asked to run, to compare with what our handler ran. */
export function recording(db: RawDatabase, log: CapturedStatement[]): RawDatabase {
  const record = (target: RawQuery): RawQuery => ({
    query(sql, params) {
      log.push({ sql, params });
      return target.query(sql, params);
    },
  });
  return { ...record(db), transaction: (work) => db.transaction((tx) => work(record(tx))), close: () => db.close() };
}

/** Whether the baseline sent our parameter: lists item by item, any two times alike (`updated` is the time of the write), JSON by content. */
function sameParam(ours: unknown, baseline: unknown): boolean {
  if (ours === baseline) return true;
  // Lists (`= any($n)`) compare item by item.
  if (Array.isArray(ours) && Array.isArray(baseline))
    return ours.length === baseline.length && ours.every((item, index) => sameParam(item, baseline[index]));
  if (typeof ours === "string" && typeof baseline === "string" && /^\d{4}-\d\d-\d\dT/.test(ours) && /^\d{4}-\d\d-\d\dT/.test(baseline)) return true;
  // JSON text compares by content: jsonb keeps its own key order.
  if (typeof ours === "string" && typeof baseline === "string" && ours.startsWith("{")) {
    try {
      return JSON.stringify(sortKeys(JSON.parse(ours))) === JSON.stringify(sortKeys(JSON.parse(baseline)));
    } catch {
      return false;
    }
  }
  return false;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1)).map(([key, item]) => [key, sortKeys(item)]));
  return value;
}

/**
 * The parameters of a statement that say where its request came to and from (an audit entry's host and
 * client address): ours' statements are caught in process, the checks' requests may come over HTTP.
 */
function whereFromParams(sql: string): number[] {
  if (!sql.startsWith('insert into "cdn_audit_log"')) return [];
  return insertColumns(sql).flatMap((column, index) => (column === "host" || column === "remote_ip_address" ? [index] : []));
}

/** Of a request with `made` (scenario.ts): the values it makes itself put in words, and the id of the object the other side made. */
export interface MadeBy {
  made: (value: unknown, id: number) => unknown;
  /** The id of the object the side compared with ours made (its create's answer). */
  id: number | undefined;
}

/**
 * The differences between the statements our handler sent for `key` and those the baseline `sent`
 * (none: the same SQL, in the same order, with the same parameters, but those of `whereFromParams`). With
 * `madeBy`, what a create makes itself is put in words on both sides first (ours' id is `madeId` of our
 * statements).
 */
export function compareStatements(key: string, ours: CapturedStatement[], sent: CapturedStatement[], madeBy?: MadeBy): string[] {
  if (madeBy) {
    const { made, id } = madeBy;
    const inWords = (list: CapturedStatement[], madeId: number | undefined) =>
      list.map((statement) => ({ ...statement, params: madeId === undefined ? statement.params : statement.params.map((param) => made(param, madeId)) }));
    if (id === undefined) return [`${key}: no id of the object made to compare by`];
    return compareStatements(key, inWords(ours, ours[0]?.madeId), inWords(sent, id));
  }
  const differences: string[] = [];
  if (sent.length !== ours.length) differences.push(`${key}: ${sent.length} statements, ours ${ours.length}`);
  ours.forEach((expected, index) => {
    const statement = sent[index];
    const whereFrom = whereFromParams(expected.sql);
    if (!statement || statement.sql !== expected.sql) differences.push(`${key} #${index}: other SQL`);
    else if (
      statement.params.length !== expected.params.length ||
      expected.params.some((param, i) => !whereFrom.includes(i) && !sameParam(param, statement.params[i]))
    )
      differences.push(`${key} #${index}: other parameters ${JSON.stringify(statement.params)} vs ${JSON.stringify(expected.params)}`);
  });
  return differences;
}
