/** The changelog shows the pending changesets and each released package's CHANGELOG.md. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { changelogMarkdown, pendingChanges, releasedChangelogs } from "./changelog.js";
import { REPOSITORY_ROOT } from "./site.js";

const root = mkdtempSync(join(tmpdir(), "docs-changelog-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("the changelog", () => {
  it("reads the repository's released changelogs and its pending changesets, with the packages each bumps", () => {
    const released = releasedChangelogs(REPOSITORY_ROOT);
    expect(released.map(({ directory }) => directory)).toEqual(
      expect.arrayContaining(["packages/client", "packages/contract", "packages/db", "packages/handlers", "packages/testing"]),
    );
    const contract = released.find(({ directory }) => directory === "packages/contract")!.markdown;
    expect(contract).toMatch(/^# @cloudplane\/contract\n\n## 0\.1\.0\n/);
    expect(contract).toContain("First release of the contract");
    const pending = pendingChanges(REPOSITORY_ROOT);
    expect(pending.map((change) => change.id)).not.toContain("README");
    for (const change of pending) expect(Object.keys(change.releases).length, change.id).toBeGreaterThan(0);
  });

  it("shows pending changes first, then each released package's changelog under its own heading", () => {
    mkdirSync(join(root, ".changeset"));
    writeFileSync(join(root, ".changeset", "README.md"), "# Changesets\n");
    writeFileSync(join(root, ".changeset", "fast-cats.md"), '---\n"@cloudplane/client": patch\n---\n\nRetries honour `Retry-After`.\n');
    mkdirSync(join(root, "packages", "client"), { recursive: true });
    writeFileSync(join(root, "packages", "client", "CHANGELOG.md"), "# @cloudplane/client\n\n## 0.1.0\n\n### Minor Changes\n\n- 1a2b3c4: First release.\n");
    expect(releasedChangelogs(root).map(({ directory }) => directory)).toEqual(["packages/client"]);
    const markdown = changelogMarkdown(root);
    expect(markdown.indexOf("## Unreleased")).toBeLessThan(markdown.indexOf("## @cloudplane/client"));
    expect(markdown).toContain("### @cloudplane/client (patch)\n\nRetries honour `Retry-After`.");
    expect(markdown).toContain("### 0.1.0\n\n#### Minor Changes\n\n- 1a2b3c4: First release.");
  });

  it("says so when nothing is pending or released", () => {
    const empty = mkdtempSync(join(root, "empty-"));
    const markdown = changelogMarkdown(empty);
    expect(markdown).toContain("Nothing is waiting to be released.");
    expect(markdown).toContain("No version has been released yet.");
  });
});
