/** What a conformance check is: a name and a function that throws when the deployment misbehaves. */
import { routeCasePath, type CaseSend, type RouteCase } from "@cloudplane/contract";
import type { ConformanceAccount, ConformanceClient } from "./client.js";

export interface ConformanceContext {
  client: ConformanceClient;
  /** Every route's case, its objects found on the deployment (see `prepareContext`). */
  cases: RouteCase[];
}

export interface ConformanceCheck {
  /** `topic: what the deployment does`, e.g. `auth: no Authorization header is 401 on every route`. */
  name: string;
  run(context: ConformanceContext): Promise<void>;
}

/** How the cases call the deployment: as the administrator of the account they are aimed at. */
export function asAdministrator(client: ConformanceClient): CaseSend {
  return (account, method, path, body) => client.call(method, path, { body, as: [account, "role-1-active"] });
}

/** The route case of the route `id`. */
export function routeCase(context: ConformanceContext, id: string): RouteCase {
  const found = context.cases.find((candidate) => candidate.id === id);
  if (!found) throw new Error(`No route case ${id}.`);
  return found;
}

/** The path of the route on `account`'s objects, making the object first for a case that uses one up. */
export function casePath(context: ConformanceContext, route: RouteCase, account: ConformanceAccount): Promise<string> {
  return routeCasePath(route, account, asAdministrator(context.client));
}

/** Calls the route on account 1's objects (or `account`'s) with a fresh valid body. */
export async function callCase(context: ConformanceContext, route: RouteCase, options: Parameters<ConformanceClient["call"]>[2] & { account?: ConformanceAccount } = {}) {
  const account = options.account ?? 1;
  return context.client.call(route.route.method, await casePath(context, route, account), { body: route.body?.(account), ...options });
}
