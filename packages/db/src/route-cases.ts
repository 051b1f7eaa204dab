/**
 * One valid request for every route of the contract on an account's demo objects: the table the
 * handlers' auth matrix, isolation and fuzz tests and the black-box conformance suite all walk.
 * Each area's cases sit in route-cases/<area>.ts; the table is keyed by route id, so a route of the
 * contract without a case fails to compile. An alias takes its primary route's case at its own path.
 * Objects are picked from the demo fixture; names that must be unique are made unique, so the same
 * requests can be sent again and again to one database.
 */
import { ROUTES, type ContractRoute, type RouteAccess, type RouteId } from "@cloudplane/contract";
import { demoFixture as defaultFixture, type DemoAccountId, type DemoFixture } from "./demo-fixture.js";
import type { MadeObject, RouteCaseRequest, RouteCaseTable } from "./route-cases/case.js";
import { cdnRouteCases } from "./route-cases/cdn.js";
import { cloudRouteCases } from "./route-cases/cloud.js";
import { edgeRouteCases } from "./route-cases/edge.js";
import { iamRouteCases } from "./route-cases/iam.js";
import { logsUploaderRouteCases } from "./route-cases/logs-uploader.js";
import { securityRouteCases } from "./route-cases/security.js";
import { storageRouteCases } from "./route-cases/storage.js";
import { streamingRouteCases } from "./route-cases/streaming.js";

export { uniqueName, type AreaRouteCases, type MadeObject, type RouteCaseRequest, type RouteCaseTable } from "./route-cases/case.js";

/** A route of the contract with its request. */
export interface RouteCase extends RouteCaseRequest {
  /** `area.name`, the route's id in ROUTES. */
  id: RouteId;
  route: ContractRoute["route"];
  /** `read` routes are open to the Users role, `write` routes are not. */
  access: RouteAccess;
  /** The route's success status. */
  status: number;
  /** For a case that `makes` its object: the case of the route that makes it. */
  maker?: RouteCase;
}

/** The request of every route but the aliases on the objects of `fixture`. */
export function routeCaseTable(fixture: DemoFixture = defaultFixture): RouteCaseTable {
  return {
    ...iamRouteCases(fixture),
    ...cdnRouteCases(fixture),
    ...logsUploaderRouteCases(fixture),
    ...edgeRouteCases(fixture),
    ...streamingRouteCases(fixture),
    ...cloudRouteCases(fixture),
    ...securityRouteCases(fixture),
    ...storageRouteCases(fixture),
  };
}

/** The path parameters a concrete path gives a route's pattern, or undefined if it does not match. */
export function pathParams(pattern: string, path: string): Record<string, string> | undefined {
  const names = [...pattern.matchAll(/:(\w+)/g)].map((match) => match[1]!);
  const match = new RegExp(`^${pattern.replace(/:\w+/g, "([^/]+)")}$`).exec(path.split("?")[0]!);
  return match ? Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(match[index + 1]!)])) : undefined;
}

/** `path`, written for the route pattern `from`, moved to the pattern `to` (same parameters), query kept. */
function movePath(from: string, to: string, path: string): string {
  const params = pathParams(from, path);
  if (!params) throw new Error(`The path ${path} does not match the route ${from}.`);
  const query = path.includes("?") ? path.slice(path.indexOf("?")) : "";
  return to.replace(/:(\w+)/g, (_whole, name: string) => encodeURIComponent(params[name]!)) + query;
}

/** Every route of the contract (in ROUTES' order) with its request on the objects of `fixture`. */
export function routeCases(fixture: DemoFixture = defaultFixture): RouteCase[] {
  const table = routeCaseTable(fixture) as Partial<Record<RouteId, RouteCaseRequest>>;
  const byId = new Map<RouteId, RouteCase>();
  const cases = ROUTES.map(({ id, route, access, aliasOf }) => {
    const primary = aliasOf ? ROUTES.find((entry) => entry.id === aliasOf)! : undefined;
    const request = table[aliasOf ?? id];
    // Unreachable while the table is typed by route id; kept for a contract built apart from this package.
    if (!request) throw new Error(`No route case for ${aliasOf ?? id}: add one to @cloudplane/db's src/route-cases/.`);
    const status = Number(Object.keys(route.responses).find((code) => Number(code) < 300));
    const path = primary ? (account: DemoAccountId, made?: MadeObject) => movePath(primary.route.path, route.path, request.path(account, made)) : request.path;
    const routeCase: RouteCase = { id, route, access, status, ...request, path };
    byId.set(id, routeCase);
    return routeCase;
  });
  for (const routeCase of cases) {
    if (!routeCase.makes) continue;
    const maker = byId.get(routeCase.makes);
    if (!maker || maker.makes) throw new Error(`The route case ${routeCase.id} makes its object with ${routeCase.makes}, which has no case that makes one.`);
    routeCase.maker = maker;
  }
  return cases;
}

/**
 * Sends one request and gives back its status and parsed body: how the suites reach a deployment. A
 * Uint8Array body goes as it is, with `Content-Type: application/octet-stream`; any other as JSON.
 */
export type RouteCaseSend = (method: string, path: string, body: unknown) => Promise<{ status: number; body: unknown }>;

/**
 * The path of `routeCase` on `account`'s objects, making the object it uses up first when the case
 * says so: `sendAsAdministrator` calls the deployment as that account's administrator.
 */
export async function routeCasePath(routeCase: RouteCase, account: DemoAccountId, sendAsAdministrator: RouteCaseSend): Promise<string> {
  if (!routeCase.maker) return routeCase.path(account);
  const { maker } = routeCase;
  const made = await sendAsAdministrator(maker.route.method, maker.path(account), maker.body?.(account));
  if (made.status !== maker.status)
    throw new Error(`Making an object for ${routeCase.id} with ${maker.id} answered ${made.status}: ${JSON.stringify(made.body)}`);
  return routeCase.path(account, made.body as MadeObject);
}
