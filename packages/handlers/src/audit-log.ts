/**
 * The CDN audit log's entries, written in one place for every write route of the CDN area: a route
 * marked as audited (`auditMark`, its first route middleware) has its entry inserted by the database the
 * area's routes get (`auditedDatabase`) as the last statement of the route's first transaction, so the
 * entry commits with the write or not at all; a write that opens no transaction, or is refused, gets its
 * entry when it is answered (`settleAudit`). One INSERT per audited request; reads cost nothing.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { isBytes } from "@cloudplane/contract";
import { eq, schema, sql, type Database, type DatabaseTransaction } from "@cloudplane/db";
import type { TsRestRequest } from "@ts-rest/serverless";
import { madeStorable } from "./front.js";
import { inTransaction, preparedOnce, type Statement } from "./prepared.js";
import type { ApiRequest } from "./types.js";

const { cdnAuditLog } = schema;

interface PendingEntry {
  request: ApiRequest;
  /** The status the route answers when it succeeds: what its committed transaction stands for. */
  successStatus: number;
  /** The entry written in the route's transaction, once it committed. */
  recordedId?: number;
  /** Its first transaction has begun: the only one that writes the entry, and the scope's last reader. */
  claimed?: boolean;
  /** No longer counted in `inScope` (its transaction began, or its implementation returned). */
  left?: boolean;
}

const PENDING = Symbol("cloudplane.audit");
type AuditedRequest = TsRestRequest & { [PENDING]?: PendingEntry };

const scope = new AsyncLocalStorage<PendingEntry>();

type Entry = typeof cdnAuditLog.$inferInsert;

/** The columns an entry is written with (`entryOf`'s keys): the insert's placeholders. */
const ENTRY_COLUMNS = [
  "accountId",
  "userId",
  "tokenId",
  "method",
  "path",
  "queryParams",
  "host",
  "remoteIpAddress",
  "statusCode",
  "data",
  "actionType",
] as const satisfies readonly (keyof Entry)[];

/** An entry's values, every column of `ENTRY_COLUMNS` given (null where it has none). */
type EntryValues = Required<Pick<Entry, (typeof ENTRY_COLUMNS)[number]>>;

/** The insert of an entry, prepared once per database (each value encoded as its column encodes it). */
const entryInserts = new WeakMap<Database, () => Statement<{ id: number }[]>>();

/** Writes `entry` on `db`, or inside `tx` when given; its id. */
async function insertEntry(db: Database, entry: EntryValues, tx?: DatabaseTransaction): Promise<number> {
  let statement = entryInserts.get(db);
  if (!statement) {
    const values = Object.fromEntries(ENTRY_COLUMNS.map((name) => [name, sql.placeholder(name)])) as unknown as Entry;
    entryInserts.set(db, (statement = preparedOnce(() => db.insert(cdnAuditLog).values(values).returning({ id: cdnAuditLog.id }).prepare("insert_cdn_audit_entry"))));
  }
  const [row] = await (tx ? inTransaction(statement(), tx) : statement()).execute(entry);
  return row!.id;
}

/** Keys whose values are secrets (an access key id is not; its secret key is): never kept in the log. */
const SECRET_KEY = /secret|password|passwd|private|token|credential|^key$|api_?key/i;

/** The body without its secrets (every member whose key names one is left out, at any depth), its text storable. */
export function withoutSecrets(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return madeStorable(value);
  if (depth > 64 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((item) => withoutSecrets(item, depth + 1));
  const kept: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) if (!SECRET_KEY.test(key)) kept[madeStorable(key)] = withoutSecrets(item, depth + 1);
  return kept;
}

/** The first address a proxy in front of the API reported the client at, or null. */
function remoteAddress(headers: Headers): string | null {
  const forwarded = headers.get("x-forwarded-for")?.split(",")[0]?.trim() || headers.get("x-real-ip")?.trim() || headers.get("cf-connecting-ip")?.trim();
  return forwarded ? forwarded.slice(0, 64) : null;
}

function actionOf(method: string, successStatus: number, status: number): "C" | "U" | "D" | null {
  if (status >= 300) return null;
  if (method === "DELETE") return "D";
  return method === "POST" && successStatus === 201 ? "C" : "U";
}

function entryOf(pending: PendingEntry, status: number): EntryValues {
  const { request } = pending;
  const url = new URL(request.url);
  const content: unknown = request.content;
  return {
    accountId: request.caller.accountId,
    userId: request.caller.userId,
    tokenId: request.caller.tokenId,
    method: request.method,
    path: url.pathname,
    queryParams: url.search.slice(1),
    host: url.host,
    remoteIpAddress: remoteAddress(request.headers),
    statusCode: status,
    data: content === undefined || isBytes(content) ? null : withoutSecrets(content),
    actionType: actionOf(request.method, pending.successStatus, status),
  };
}

/** The route middleware that marks a write of the CDN area for its entry; `successStatus` is the route's 2xx. */
export function auditMark(successStatus: number) {
  return (request: ApiRequest) => {
    // A request refused before this (401, 429) has no caller to name and is not logged.
    if (request.caller) (request as AuditedRequest)[PENDING] = { request, successStatus };
  };
}

/**
 * Audited requests whose implementation is running in the scope and has not begun its first transaction.
 * On Node before 24 an AsyncLocalStorage runs on async hooks: once it has run, every promise the process
 * makes carries its store, for good (a read makes ~100 promises: 37–53 µs of CPU more per request on
 * Node 22, where no request reads it). So the scope is switched off whenever no audited request needs it:
 * its only reader is such a request's first transaction, as it begins, and the next audited request
 * switches it on again. A request leaves the count as its transaction begins, not when it is answered:
 * the statements of a write (most of its time) then run with the hooks off, unless another write is
 * between its start and its transaction. Node 24 and Workers carry a store without hooks; there it costs
 * nothing either way.
 */
let inScope = 0;

/**
 * Whether this runtime's AsyncLocalStorage carries stores on async hooks: Node's implementation that does
 * (every line before 24, and 24 with --no-async-context-frame) is the one with `_propagate`, its hook's
 * step for each new resource. Nothing is switched off elsewhere (Workers' AsyncLocalStorage has no
 * `disable`).
 */
const carriedByHooks = typeof (AsyncLocalStorage.prototype as { _propagate?: unknown })._propagate === "function";

/** `pending` no longer needs the scope: counted out, once. */
function leaveScope(pending: PendingEntry): void {
  if (pending.left) return;
  pending.left = true;
  if (--inScope === 0 && carriedByHooks) scope.disable();
}

/** A route implementation run so that the database of `auditedDatabase` knows its request. */
export function auditScoped<Handler extends (args: never, context: { request: TsRestRequest }) => unknown>(handler: Handler): Handler {
  return (async (args: never, context: { request: TsRestRequest }) => {
    const pending = (context.request as AuditedRequest)[PENDING];
    if (!pending) return handler(args, context);
    inScope++;
    try {
      return await scope.run(pending, () => handler(args, context));
    } finally {
      leaveScope(pending);
    }
  }) as Handler;
}

/**
 * `db` for the CDN area's routes: its `transaction` also inserts the entry of the audited request being
 * served as the transaction's last statement (the first transaction of the request only); everything
 * else is `db`'s own.
 */
export function auditedDatabase(db: Database): Database {
  const transaction = async (run: (tx: unknown) => Promise<unknown>, config?: unknown) => {
    const pending = scope.getStore();
    if (!pending || pending.claimed) return (db.transaction as (run: unknown, config?: unknown) => Promise<unknown>)(run, config);
    pending.claimed = true;
    leaveScope(pending);
    let recorded: number | undefined;
    const result = await db.transaction(async (tx) => {
      const value = await run(tx);
      recorded = await insertEntry(db, entryOf(pending, pending.successStatus), tx);
      return value;
    }, config as Parameters<Database["transaction"]>[1]);
    pending.recordedId = recorded;
    return result;
  };
  return new Proxy(db, {
    get(target, key) {
      if (key === "transaction") return transaction;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === "function" && key !== "constructor" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * The entry of an audited request once it is answered: inserted now when its route committed no
 * transaction (a refusal, a write of one statement); when it did, but answered otherwise than its success
 * (a route that found nothing to change after its transaction), the entry is told the status.
 */
export async function settleAudit(db: Database, response: Response, request: TsRestRequest): Promise<void> {
  const pending = (request as AuditedRequest)[PENDING];
  if (!pending) return;
  if (pending.recordedId === undefined) {
    await insertEntry(db, entryOf(pending, response.status));
    return;
  }
  if (response.status !== pending.successStatus)
    await db.update(cdnAuditLog).set({ statusCode: response.status, actionType: actionOf(request.method, pending.successStatus, response.status) }).where(eq(cdnAuditLog.id, pending.recordedId));
}
