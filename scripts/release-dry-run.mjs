#!/usr/bin/env node
/**
 * `pnpm release:dry-run`: what `pnpm release` would publish, without publishing. pnpm publishes every
 * public package of the workspace whose version the registry does not have yet (`pnpm -r publish
 * --dry-run`; `changeset publish` asks the registry the same and has pnpm pack and publish each such
 * package: packed with its `publishConfig` and its `workspace:` ranges replaced by versions, after its
 * `prepack` build). The
 * check fails when a public package would not be published (its version is already on the registry, or it
 * is missing from the run), so that a release never skips one silently.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";

const SUMMARY = "pnpm-publish-summary.json";
const root = process.cwd();
rmSync(join(root, SUMMARY), { force: true });
const publish = spawnSync("pnpm", ["-r", "publish", "--dry-run", "--no-git-checks", "--report-summary"], { stdio: "inherit", shell: process.platform === "win32" });
if (publish.status !== 0) process.exit(publish.status ?? 1);

const publicPackages = ["packages", "apps"].flatMap((group) =>
  readdirSync(join(root, group))
    .map((name) => join(root, group, name, "package.json"))
    .filter((file) => existsSync(file))
    .map((file) => JSON.parse(readFileSync(file, "utf8")))
    .filter((manifest) => manifest.private !== true)
    .map((manifest) => `${manifest.name}@${manifest.version}`),
);
const summary = JSON.parse(readFileSync(join(root, SUMMARY), "utf8"));
rmSync(join(root, SUMMARY), { force: true });
const published = summary.publishedPackages.map((entry) => `${entry.name}@${entry.version}`);
const missing = publicPackages.filter((name) => !published.includes(name));
console.log(`release:dry-run: would publish ${published.sort().join(", ")}`);
if (missing.length > 0) {
  console.error(`release:dry-run: would not publish ${missing.join(", ")}: is that version already on the registry?`);
  process.exit(1);
}
