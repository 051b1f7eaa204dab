/**
 * Vitest global setup: makes the run's folder for the secrets scan (test/secrets-scan.ts) before any test
 * file runs, and scans it once every file has run, failing the run on a hit.
 */
import { mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { assertNoSecrets, describeScan, scanRun } from "./secrets-scan.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** Where the harness records this run's replies and logs for the secrets scan. */
    secretsScanDirectory: string;
  }
}

const DAY_MS = 24 * 60 * 60 * 1000;

export default function setup(project: TestProject) {
  const runs = join(project.config.root, "test-results", "secrets-scan");
  mkdirSync(runs, { recursive: true });
  // Folders of interrupted runs and of runs with hits are left behind; a day is long enough to look at them.
  for (const old of readdirSync(runs).map((name) => join(runs, name)))
    if (Date.now() - statSync(old).mtimeMs > DAY_MS) rmSync(old, { recursive: true, force: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const directory = join(runs, `${stamp}-${process.pid}`);
  mkdirSync(directory, { recursive: true });
  project.provide("secretsScanDirectory", directory);

  return function teardown() {
    const result = scanRun(directory);
    console.log(describeScan(result));
    assertNoSecrets(result);
    // A clean run's records are of no further use; a run with hits keeps them to look at.
    rmSync(directory, { recursive: true, force: true });
  };
}
