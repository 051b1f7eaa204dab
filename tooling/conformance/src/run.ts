/** Runs the checks one after another against a base URL and reports each one's outcome. */
import { demoFixture, type DemoFixture } from "@cloudplane/db";
import { authChecks } from "./checks/auth.js";
import { errorChecks } from "./checks/errors.js";
import { isolationChecks } from "./checks/isolation.js";
import { pagingChecks } from "./checks/paging.js";
import { rawChecks } from "./checks/raw.js";
import { routeChecks } from "./checks/routes.js";
import { validationChecks } from "./checks/validation.js";
import { writeChecks } from "./checks/writes.js";
import type { ConformanceCheck, ConformanceContext } from "./check.js";
import { createClient } from "./client.js";
import { routeCases } from "./route-cases.js";

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
  /** The demo data the deployment was loaded with. Default: the bundled demo fixture. */
  fixture?: DemoFixture;
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

/** The context the checks run in: a client for the base URL, the fixture and the route table. */
export function conformanceContext(baseUrl: string, fixture: DemoFixture = demoFixture): ConformanceContext {
  return { client: createClient(baseUrl), fixture, cases: routeCases(fixture) };
}

export async function runConformance(options: ConformanceOptions): Promise<ConformanceReport> {
  const context = conformanceContext(options.baseUrl, options.fixture);
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
