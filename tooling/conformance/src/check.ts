/** What a conformance check is: a name and a function that throws when the deployment misbehaves. */
import type { RouteId } from "@cloudplane/contract";
import type { DemoFixture } from "@cloudplane/db";
import type { ConformanceClient } from "./client.js";
import type { RouteCase } from "./route-cases.js";

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

/** Calls the route on account 1's objects (or `account`'s) with a fresh valid body. */
export function callCase(context: ConformanceContext, route: RouteCase, options: Parameters<ConformanceClient["call"]>[2] & { account?: 1 | 2 } = {}) {
  const account = options.account ?? 1;
  return context.client.call(route.route.method, route.path(account), { body: route.body?.(account), ...options });
}
