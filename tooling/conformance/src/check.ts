/** What a conformance check is: a name and a function that throws when the deployment misbehaves. */
import type { RouteId } from "@cloudplane/contract";
import type { DemoAccountId, DemoFixture } from "@cloudplane/db";
import type { ConformanceClient } from "./client.js";
import { routeCasePath, type RouteCase } from "./route-cases.js";

export interface ConformanceContext {
  client: ConformanceClient;
  fixture: DemoFixture;
  cases: RouteCase[];
}

export interface ConformanceCheck {
  /** `topic: what the deployment does`, e.g. `auth: no Authorization header is 401 on every route`. */
  name: string;
  run(context: ConformanceContext): Promise<void>;
}

/** The route case of the route `id`. */
export function routeCase(context: ConformanceContext, id: RouteId): RouteCase {
  const found = context.cases.find((candidate) => candidate.id === id);
  if (!found) throw new Error(`No route case ${id}.`);
  return found;
}

/** The path of the route on `account`'s objects, making the object first for a case that uses one up. */
export function casePath(context: ConformanceContext, route: RouteCase, account: DemoAccountId): Promise<string> {
  return routeCasePath(route, account, async (method, path, body) => context.client.call(method, path, { body, as: [account, "role-1-active"] }));
}

/** Calls the route on account 1's objects (or `account`'s) with a fresh valid body. */
export async function callCase(context: ConformanceContext, route: RouteCase, options: Parameters<ConformanceClient["call"]>[2] & { account?: DemoAccountId } = {}) {
  const account = options.account ?? 1;
  return context.client.call(route.route.method, await casePath(context, route, account), { body: route.body?.(account), ...options });
}
