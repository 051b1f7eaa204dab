/**
 * CDN raw logs: the account's logged requests (`cdn_request_logs`) filtered by the platform's
 * `<field>__<op>` parameters, ordered and paged in SQL; listed as JSON or downloaded as a zipped CSV or TSV.
 */
import { CDN_LOG_FIELDS, CDN_LOG_FILTERS, CDN_LOG_ORDERINGS, CDN_LOGS_MAX_HOURS, cdnLogsRoutes, type CdnLogField } from "@cloudplane/contract";
import { sql, type Database, type SQL } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { addFieldError, fieldErrors, invalid, problemCount, validationFailed } from "../errors.js";
import { likePattern } from "../like.js";
import { rowsOf } from "../rows.js";
import { served } from "../served.js";
import type { RequestExtension, RouteDeps } from "../types.js";
import { zipOne } from "../zip.js";

const HOUR_MS = 3_600_000;

/** Each field's column; `sent_http_content_type` is the response's content type. */
const COLUMN: Record<CdnLogField, string> = {
  timestamp: "timestamp",
  resource_id: "resource_id",
  cname: "cname",
  client_ip: "client_ip",
  method: "method",
  path: "path",
  status: "status",
  size: "size",
  cache_status: "cache_status",
  datacenter: "datacenter",
  referer: "referer",
  user_agent: "user_agent",
  sent_http_content_type: "content_type",
  tcpinfo_rtt: "tcpinfo_rtt",
};

type Query = Record<string, unknown> & { from: string; to: string; fields?: string; limit: number; offset: number };

/** The WHERE of a listing or a download: the account, the period and each filter parameter given. */
function whereOf(accountId: number, query: Query): SQL {
  const from = new Date(query.from);
  const to = new Date(query.to);
  if (from >= to) throw invalid("query.to", "Must be after `from`.");
  if (to.getTime() - from.getTime() > CDN_LOGS_MAX_HOURS * HOUR_MS) throw invalid("query.from", `The period may be at most ${CDN_LOGS_MAX_HOURS} hours long.`);
  const conditions: SQL[] = [sql`account_id = ${accountId}`, sql`timestamp >= ${from.toISOString()}::timestamptz`, sql`timestamp < ${to.toISOString()}::timestamptz`];
  const errors = fieldErrors();
  for (const [field, { ops, integer }] of Object.entries(CDN_LOG_FILTERS)) {
    const column = sql.raw(COLUMN[field as CdnLogField]);
    for (const op of ops) {
      const name = `${field}__${op}`;
      // The contract typed each filter: an integer, or text.
      const given = query[name] as string | number | undefined;
      if (given === undefined) continue;
      const value = String(given);
      if (op === "in" || op === "not_in") {
        const items = value.split(",").map((item) => item.trim());
        if (items.some((item) => item === "") || (integer && items.some((item) => !/^\d{1,15}$/.test(item)))) {
          addFieldError(errors, `query.${name}`, integer ? "Must be integers separated by commas." : "Must be values separated by commas, none empty.");
          continue;
        }
        const list = sql.join(items.map((item) => (integer ? sql`${Number(item)}::bigint` : sql`${item}`)), sql`, `);
        conditions.push(op === "in" ? sql`${column} in (${list})` : sql`${column} not in (${list})`);
        continue;
      }
      const compared = integer ? sql`${Number(value)}::bigint` : sql`${value}`;
      if (op === "contains") conditions.push(sql`${column} ilike ${likePattern(value)}`);
      else if (op === "eq") conditions.push(sql`${column} = ${compared}`);
      else if (op === "ne") conditions.push(sql`${column} <> ${compared}`);
      else if (op === "gt") conditions.push(sql`${column} > ${compared}`);
      else if (op === "gte") conditions.push(sql`${column} >= ${compared}`);
      else if (op === "lt") conditions.push(sql`${column} < ${compared}`);
      else if (op === "lte") conditions.push(sql`${column} <= ${compared}`);
    }
  }
  if (problemCount(errors)) throw validationFailed(errors);
  return sql.join(conditions, sql` and `);
}

/** The fields of `fields` (all by default), in the order given; 400 naming the parameter for an unknown one. */
function fieldsOf(fields: string | undefined): CdnLogField[] {
  if (fields === undefined || fields.trim() === "") return [...CDN_LOG_FIELDS];
  const names = fields.split(",").map((name) => name.trim());
  const unknown = names.filter((name) => !(CDN_LOG_FIELDS as readonly string[]).includes(name));
  if (unknown.length) throw invalid("query.fields", `Unknown field${unknown.length > 1 ? "s" : ""} ${unknown.slice(0, 5).join(", ")}: the fields are ${CDN_LOG_FIELDS.join(", ")}.`);
  return [...new Set(names)] as CdnLogField[];
}

/** The ORDER BY of `ordering` (`-timestamp,status`), ending with the id so pages never overlap. */
function orderOf(ordering: string | undefined, parameter: string): SQL {
  const terms: SQL[] = [];
  for (const term of (ordering ?? "").split(",").map((item) => item.trim()).filter(Boolean)) {
    const descending = term.startsWith("-");
    const name = descending ? term.slice(1) : term;
    if (!(CDN_LOG_ORDERINGS as readonly string[]).includes(name)) throw invalid(`query.${parameter}`, `Cannot order by ${name.slice(0, 64)}: one of ${CDN_LOG_ORDERINGS.join(", ")}, each with - for descending.`);
    terms.push(sql.raw(`${COLUMN[name as CdnLogField]} ${descending ? "desc" : "asc"}`));
  }
  if (!terms.length) terms.push(sql.raw("timestamp asc"));
  terms.push(sql.raw("id asc"));
  return sql.join(terms, sql`, `);
}


/** A record's field as the API gives it: times in Unix seconds, numbers as numbers. */
function valueOf(field: CdnLogField, row: Record<string, unknown>): string | number {
  const value = row[COLUMN[field]];
  if (field === "timestamp") return Math.floor(new Date(value as string).getTime() / 1000);
  if (field === "resource_id" || field === "status" || field === "size" || field === "tcpinfo_rtt") return Number(value);
  return String(value);
}

async function page(db: Database, accountId: number, query: Query, ordering: string | undefined, parameter: string) {
  const where = whereOf(accountId, query);
  const fields = fieldsOf(query.fields);
  const order = orderOf(ordering, parameter);
  const [rows, total] = await Promise.all([
    db.execute(sql`select * from cdn_request_logs where ${where} order by ${order} limit ${query.limit} offset ${query.offset}`),
    db.execute(sql`select count(*)::int as total from cdn_request_logs where ${where}`),
  ]);
  return { fields, rows: rowsOf(rows), count: Number(rowsOf(total)[0]?.total ?? 0) };
}

/** A CSV field (RFC 4180: quoted when it holds a comma, a quote or a line break), or a TSV one (tabs and line breaks as spaces). */
const csvField = (value: string | number) => {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};
const tsvField = (value: string | number) => String(value).replace(/[\t\r\n]/g, " ");

export function cdnLogs(deps: RouteDeps) {
  const { db } = deps;

  return tsr.routerWithMiddleware(served("cdn", cdnLogsRoutes))<RequestExtension>({
    listLogs: async ({ query }, { request }) => {
      const { fields, rows, count } = await page(db, request.caller.accountId, query, query.ordering, "ordering");
      return {
        status: 200,
        body: { data: rows.map((row) => Object.fromEntries(fields.map((field) => [field, valueOf(field, row)]))), meta: { count } },
      };
    },

    downloadLogs: async ({ query }, { request }) => {
      const { fields, rows } = await page(db, request.caller.accountId, query, query.sort, "sort");
      const [separator, field] = query.format === "csv" ? [",", csvField] : ["\t", tsvField];
      const lines = [fields.join(separator), ...rows.map((row) => fields.map((name) => field(valueOf(name, row))).join(separator))];
      const archive = zipOne(`logs.${query.format}`, new TextEncoder().encode(`${lines.join("\r\n")}\r\n`), new Date(query.to));
      request.rawResponse = { contentType: "application/zip", body: archive, filename: `logs.${query.format}.zip` };
      return { status: 200, body: `(a zip archive holding logs.${query.format})` };
    },
  });
}
