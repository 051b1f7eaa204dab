/**
 * Route cases: one valid request for every route, declared beside the route in the contract
 * (`route(definition, { example, case })`). A case names no ids of its own: it finds the objects it
 * works on through the deployment's own read routes (`world.first("edge.listApps")`), as the account's
 * administrator, so the same cases run against any deployment that holds a few objects of each kind in
 * two accounts: the handlers' role, isolation and fuzz walks on the demo data, and the black-box
 * conformance suite over HTTP. An alias takes its primary route's case at its own path.
 */
import type { AppRoute } from "@ts-rest/core";
import type { RoleId, RouteAccess } from "./roles.js";

/** The two accounts a case is aimed at: 1, the caller's own, and 2, another account. */
export type CaseAccount = 1 | 2;

/** An object a deployment answers: an item of a list, or the answer of the route that made it. */
export interface CaseObject {
  id: number | string;
  [field: string]: unknown;
}

/** Which answer of a read route: its path parameters and query. */
export interface CaseReadOptions {
  /** The route's path parameters, e.g. `{ resource_id: 8 }`. */
  params?: Record<string, string | number>;
  /** The query, as written in a URL (`status=active&limit=10`). */
  query?: string;
}

/**
 * What a case sees of the deployment, for one account: the answers of its read routes (GET routes
 * without side effects), called as the account's administrator. Each answer is fetched once, before the
 * walks start, and the same answer is seen again afterwards.
 */
export interface CaseWorld {
  /** The account the case is aimed at. */
  account: CaseAccount;
  /** The answer of the GET route `routeId` (`area.name`). */
  get(routeId: string, options?: CaseReadOptions): unknown;
  /** The items of a list route's answer: the answer itself when it is an array, else its first array field (`results`, …). */
  list(routeId: string, options?: CaseReadOptions): CaseObject[];
  /** The first item of the list (that `where` accepts); an error naming the route when there is none. */
  first(routeId: string, options?: CaseReadOptions & { where?: (item: CaseObject) => boolean }): CaseObject;
}

/** How a route is called in the walks, as its contract entry declares it. */
export interface RouteCaseSpec {
  /**
   * The path (with any query) on the account's objects. For a case that `makes` its object, `made` is the
   * answer that made it, over the body that was sent (`madeObject`); without one, the path names an object
   * that does not exist (`missingId`).
   */
  path: (world: CaseWorld, made?: CaseObject) => string;
  /**
   * Whether the path names objects (or the account) of its own, so that another account's path must
   * not reach them: 404, or 403 where the path names the account.
   */
  ownsObjects: boolean;
  /**
   * A fresh valid body for each call on the account's objects, for routes that take one: a JSON value, or,
   * for a route that takes raw bytes, a Uint8Array (sent with `Content-Type: application/octet-stream`).
   */
  body?: (world: CaseWorld) => unknown;
  /**
   * For a route that uses its object up (a delete): the route (`area.name`) whose case makes a fresh
   * object first, as the account's administrator, before each call; its answer is given to `path`.
   */
  makes?: string;
  /**
   * What a role's call answers where the route's access does not say it all (its success status, or 403
   * or 404): token creation is for Administrators alone, and other roles see only their own tokens.
   */
  roleStatus?: Partial<Record<RoleId, number>>;
}

/** A name no earlier run used: the requests may be sent many times to one database. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

/** An id no object has, a different one for each account: the path of a delete's case called without a made object. */
export function missingId(account: CaseAccount): number {
  return 2_147_483_000 + account;
}

/** A route of the contract with its case, ready to call: every read the case needs has been made. */
export interface RouteCase {
  /** `area.name`, the route's id in ROUTES. */
  id: string;
  route: AppRoute;
  /** `read` routes are open to the Users role, `write` routes are not. */
  access: RouteAccess;
  /** The route's success status. */
  status: number;
  ownsObjects: boolean;
  /** The path on `account`'s objects (see `RouteCaseSpec.path`). */
  path: (account: CaseAccount, made?: CaseObject) => string;
  /** A fresh valid body on `account`'s objects, for a route that takes one. */
  body?: (account: CaseAccount) => unknown;
  makes?: string;
  /** For a case that `makes` its object: the case of the route that makes it. */
  maker?: RouteCase;
  roleStatus?: Partial<Record<RoleId, number>>;
}

/**
 * Sends one request as the administrator of `account` and gives back its status and parsed body: how the
 * cases read a deployment and make their objects. A Uint8Array body goes as it is, with
 * `Content-Type: application/octet-stream`; any other as JSON.
 */
export type CaseSend = (account: CaseAccount, method: string, path: string, body?: unknown) => Promise<{ status: number; body: unknown }>;

/** The path parameters a concrete path gives a route's pattern, or undefined if it does not match. */
export function pathParams(pattern: string, path: string): Record<string, string> | undefined {
  const names = [...pattern.matchAll(/:(\w+)/g)].map((match) => match[1]!);
  const match = new RegExp(`^${pattern.replace(/:\w+/g, "([^/]+)")}$`).exec(path.split("?")[0]!);
  return match ? Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(match[index + 1]!)])) : undefined;
}

/** The route pattern `pattern` with its parameters filled in (each encoded). */
export function fillPath(pattern: string, params: Record<string, string | number>): string {
  return pattern.replace(/:(\w+)/g, (_whole, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`The path ${pattern} needs the parameter ${name}.`);
    return encodeURIComponent(String(value));
  });
}

/** `path`, written for the route pattern `from`, moved to the pattern `to` (same parameters), query kept. */
function movePath(from: string, to: string, path: string): string {
  const params = pathParams(from, path);
  if (!params) throw new Error(`The path ${path} does not match the route ${from}.`);
  const query = path.includes("?") ? path.slice(path.indexOf("?")) : "";
  return fillPath(to, params) + query;
}

/** Thrown by a world's read that has not been made yet; `prepareRouteCases` makes it and runs the case again. */
class UnreadAnswer extends Error {
  constructor(
    readonly key: string,
    readonly account: CaseAccount,
    readonly path: string,
  ) {
    super(`The route cases read ${path} for account ${account} after they were prepared: read it in the case's path or body.`);
  }
}

/** The items of a list route's answer. */
function itemsOf(answer: unknown, path: string): CaseObject[] {
  if (Array.isArray(answer)) return answer as CaseObject[];
  if (answer && typeof answer === "object") {
    const record = answer as Record<string, unknown>;
    const field = Array.isArray(record.results) ? "results" : Object.keys(record).find((key) => Array.isArray(record[key]));
    if (field) return record[field] as CaseObject[];
  }
  throw new Error(`The route cases read ${path} as a list, but it answered no list.`);
}

/** The answers a world has read, by account, route and options. */
type Answers = Map<string, unknown>;

function worldOf(account: CaseAccount, routes: ReadonlyMap<string, AppRoute>, answers: Answers): CaseWorld {
  const get = (routeId: string, options: CaseReadOptions = {}): unknown => {
    const route = routes.get(routeId);
    if (!route || route.method !== "GET") throw new Error(`The route cases read ${routeId}, which is no GET route of the contract.`);
    const path = fillPath(route.path, options.params ?? {}) + (options.query ? `?${options.query}` : "");
    const key = `${account} ${path}`;
    if (!answers.has(key)) throw new UnreadAnswer(key, account, path);
    return answers.get(key);
  };
  const list = (routeId: string, options?: CaseReadOptions) => itemsOf(get(routeId, options), routeId);
  return {
    account,
    get,
    list,
    first(routeId, options = {}) {
      const found = list(routeId, options).find((item) => options.where?.(item) ?? true);
      if (!found) throw new Error(`The route cases need an object that ${routeId} lists for account ${account}${options.where ? " and that the case accepts" : ""}; there is none.`);
      return found;
    },
  };
}

/** A route of the contract, as the cases read it: `ContractRoute` of ./routes.ts, without its types. */
export interface CaseRoute {
  id: string;
  route: AppRoute;
  access: RouteAccess;
  aliasOf?: string;
}

/** The case a route declares beside it (an alias's is its primary's). */
export function caseSpecOf(route: AppRoute): RouteCaseSpec | undefined {
  return (route.metadata as { case?: RouteCaseSpec } | undefined)?.case;
}

/**
 * Every route of `routes` (in their order) with its case, every read the cases make done through `send`:
 * the walks then call `path` and `body` as they like. Reads are made once for each account.
 */
export async function prepareRouteCases(routes: readonly CaseRoute[], send: CaseSend): Promise<RouteCase[]> {
  const byId = new Map(routes.map((entry) => [entry.id, entry.route]));
  const answers: Answers = new Map();
  const worlds = { 1: worldOf(1, byId, answers), 2: worldOf(2, byId, answers) };
  /** Runs `use` until every read it makes has an answer. */
  const settle = async (use: () => unknown) => {
    for (;;) {
      try {
        return use();
      } catch (error) {
        if (!(error instanceof UnreadAnswer)) throw error;
        const reply = await send(error.account, "GET", error.path);
        if (reply.status !== 200)
          throw new Error(`The route cases read ${error.path} for account ${error.account}: it answered ${reply.status}, ${JSON.stringify(reply.body)}.`, { cause: error });
        answers.set(error.key, reply.body);
      }
    }
  };
  const cases: RouteCase[] = [];
  /** The body of each case, one function for a primary and its aliases. */
  const bodies = new Map<RouteCaseSpec, (account: CaseAccount) => unknown>();
  for (const { id, route, access, aliasOf } of routes) {
    const primary = aliasOf ? routes.find((entry) => entry.id === aliasOf) : undefined;
    const spec = caseSpecOf(primary?.route ?? route);
    if (!spec) throw new Error(`The route ${aliasOf ?? id} declares no case: give it one beside it, route(definition, { example, case }).`);
    for (const account of [1, 2] as const) {
      await settle(() => spec.path(worlds[account]));
      if (spec.body) await settle(() => spec.body!(worlds[account]));
    }
    const path = primary
      ? (account: CaseAccount, made?: CaseObject) => movePath(primary.route.path, route.path, spec.path(worlds[account], made))
      : (account: CaseAccount, made?: CaseObject) => spec.path(worlds[account], made);
    const status = Number(Object.keys(route.responses).find((code) => Number(code) < 300));
    cases.push({
      id,
      route,
      access,
      status,
      ownsObjects: spec.ownsObjects,
      path,
      ...(spec.body ? { body: bodies.get(spec) ?? bodies.set(spec, (account: CaseAccount) => spec.body!(worlds[account])).get(spec)! } : {}),
      ...(spec.makes ? { makes: spec.makes } : {}),
      ...(spec.roleStatus ? { roleStatus: spec.roleStatus } : {}),
    });
  }
  for (const routeCase of cases) {
    if (!routeCase.makes) continue;
    const maker = cases.find((candidate) => candidate.id === routeCase.makes);
    if (!maker || maker.makes) throw new Error(`The route case ${routeCase.id} makes its object with ${routeCase.makes}, which has no case that makes one.`);
    routeCase.maker = maker;
  }
  return cases;
}

/**
 * The path of `routeCase` on `account`'s objects, making the object it uses up first when the case says
 * so (through `send`, as that account's administrator).
 */
export async function routeCasePath(routeCase: RouteCase, account: CaseAccount, send: CaseSend): Promise<string> {
  if (!routeCase.maker) return routeCase.path(account);
  const { maker } = routeCase;
  const body = maker.body?.(account);
  const made = await send(account, maker.route.method, maker.path(account), body);
  if (made.status !== maker.status) throw new Error(`Making an object for ${routeCase.id} with ${maker.id} answered ${made.status}: ${JSON.stringify(made.body)}`);
  return routeCase.path(account, madeObject(body, made.body));
}

/**
 * What a maker made, as a case's `path` is given it: an answer that is a list (of the objects made) as it
 * is; otherwise the answer over the JSON object it was sent (a create that answers only its task leaves
 * the new object's name in the body it was sent).
 */
export function madeObject(body: unknown, answer: unknown): CaseObject {
  if (Array.isArray(answer)) return answer as unknown as CaseObject;
  const sent = typeof body === "object" && body !== null && !Array.isArray(body) && !(body instanceof Uint8Array) ? body : {};
  const answered = typeof answer === "object" && answer !== null ? answer : {};
  return { ...sent, ...answered } as CaseObject;
}
