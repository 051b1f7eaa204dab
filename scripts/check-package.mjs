#!/usr/bin/env node
/**
 * `check:package`: publint and are-the-types-wrong on the tarball `pnpm pack` makes of the package whose
 * script runs this, which is what `changeset publish` uploads. pnpm applies `publishConfig.exports` when
 * it packs, taking out the workspace-only `@cloudplane/source` condition; `attw --pack` would pack with
 * npm instead, which does not, so its tarball is not the published one.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const SOURCE_CONDITION = "@cloudplane/source";
const shell = process.platform === "win32";
const dir = mkdtempSync(join(tmpdir(), "check-package-"));
try {
  run("pnpm", ["pack", "--pack-destination", dir], { stdio: ["ignore", "ignore", "inherit"] });
  const tarball = join(dir, readdirSync(dir).find((name) => name.endsWith(".tgz")));
  // publint passes a condition it does not know even when its file is not in the tarball.
  run("tar", ["-xzf", tarball, "-C", dir, "package/package.json"]);
  const packed = JSON.parse(readFileSync(join(dir, "package", "package.json"), "utf8"));
  if (JSON.stringify(packed.exports ?? {}).includes(SOURCE_CONDITION)) {
    console.error(`check-package: the packed package.json's exports still have the ${SOURCE_CONDITION} condition, whose sources are not published: give the package a publishConfig.exports without it.`);
    process.exit(1);
  }
  run("publint", ["run", tarball, "--strict"]);
  run("attw", [tarball]);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

function run(command, args, options = { stdio: "inherit" }) {
  const result = spawnSync(command, args, { ...options, shell });
  if (result.error) throw result.error;
  if (result.status !== 0) process.exit(result.status ?? 1);
}
