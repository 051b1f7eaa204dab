/** Runs the checks one after another against a base URL and reports each one's outcome. */
import { routeCases } from "@cloudplane/contract";
import { authChecks } from "./checks/auth.js";
import { errorChecks } from "./checks/errors.js";
import { isolationChecks } from "./checks/isolation.js";
import { pagingChecks } from "./checks/paging.js";
import { rawChecks } from "./checks/raw.js";
import { routeChecks } from "./checks/routes.js";
import { validationChecks } from "./checks/validation.js";
import { writeChecks } from "./checks/writes.js";
import { asAdministrator, type ConformanceCheck, type ConformanceContext } from "./check.js";
import { createClient, type ConformanceTokens } from "./client.js";

/**
 * Every check of the suite, in the order they run. Paging first: it counts the demo data's objects, and
 * the other checks make objects of their own (every route's lifecycle).
 */
export const conformanceChecks: readonly ConformanceCheck[] = [
  ...pagingChecks,
  ...routeChecks,
  ...authChecks,
  ...isolationChecks,
  ...errorChecks,
  ...validationChecks,
  ...writeChecks,
  ...rawChecks,
];

export interface ConformanceOptions {
  /** Where the deployment answers, e.g. `http://127.0.0.1:8787` (a path prefix is kept). */
  baseUrl: string;
  /** The tokens to call with (see `conformanceTokens`). */
  tokens: ConformanceTokens;
  /** Run only the checks whose name contains this text. */
  grep?: string;
  /** Called after each check. */
  onResult?: (result: CheckResult) => void;
}

export interface CheckResult {
  name: string;
  passed: boolean;
  /** Why it failed. */
  error?: unknown;
  durationMs: number;
}

export interface ConformanceReport {
  passed: number;
  failed: number;
  results: CheckResult[];
}

/**
 * The context the checks run in: a client for the base URL, and every route's case, whose objects are
 * found on the deployment through its read routes, as each account's administrator.
 */
export async function conformanceContext(baseUrl: string, tokens: ConformanceTokens): Promise<ConformanceContext> {
  const client = createClient(baseUrl, tokens);
  return { client, cases: await routeCases(asAdministrator(client)) };
}

export async function runConformance(options: ConformanceOptions): Promise<ConformanceReport> {
  const context = await conformanceContext(options.baseUrl, options.tokens);
  const results: CheckResult[] = [];
  for (const check of conformanceChecks) {
    if (options.grep && !check.name.includes(options.grep)) continue;
    const started = performance.now();
    let result: CheckResult;
    try {
      await check.run(context);
      result = { name: check.name, passed: true, durationMs: performance.now() - started };
    } catch (error) {
      result = { name: check.name, passed: false, error, durationMs: performance.now() - started };
    }
    results.push(result);
    options.onResult?.(result);
  }
  const passed = results.filter((result) => result.passed).length;
  return { passed, failed: results.length - passed, results };
}
