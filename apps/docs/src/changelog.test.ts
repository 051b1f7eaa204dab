/** The changelog shows the pending changesets and each released package's CHANGELOG.md. */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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
    // `pnpm version-packages` versions the published packages only, and refuses a changeset that names a private one.
    const published = releasedChangelogs(REPOSITORY_ROOT).map(({ directory }) => JSON.parse(readFileSync(join(REPOSITORY_ROOT, directory, "package.json"), "utf8")) as { name: string; private?: boolean });
    const publishedNames = published.filter((manifest) => !manifest.private).map((manifest) => manifest.name);
    expect(publishedNames).toEqual(["@cloudplane/client", "@cloudplane/contract", "@cloudplane/db", "@cloudplane/handlers", "@cloudplane/testing"]);
    for (const change of pending) for (const name of Object.keys(change.releases)) expect(publishedNames, change.id).toContain(name);
    // Every line of each changeset's front matter is read as a release (an empty changeset has none).
    for (const change of pending) {
      const frontMatter = /^---\n([\s\S]*?)---/.exec(readFileSync(join(REPOSITORY_ROOT, ".changeset", `${change.id}.md`), "utf8"))![1]!;
      expect(Object.keys(change.releases).length, change.id).toBe(frontMatter.split("\n").filter((line) => line.trim()).length);
    }
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

  it("reads an empty changeset, as `pnpm changeset --empty` writes it, as releasing nothing, and shows its summary as the deployments' change", () => {
    const repository = mkdtempSync(join(root, "empty-changeset-"));
    mkdirSync(join(repository, ".changeset"));
    writeFileSync(join(repository, ".changeset", "quiet-owls.md"), "---\n---\n");
    writeFileSync(join(repository, ".changeset", "tidy-cats.md"), "---\n---\n\nA test moved; nothing a package's user sees.\n");
    expect(pendingChanges(repository)).toEqual([
      { id: "quiet-owls", releases: {}, summary: "" },
      { id: "tidy-cats", releases: {}, summary: "A test moved; nothing a package's user sees." },
    ]);
    const markdown = changelogMarkdown(repository);
    expect(markdown).not.toContain("Nothing is waiting to be released.");
    expect(markdown).toContain("## Unreleased\n\n### The deployments built from this repository (no package version)\n\nA test moved; nothing a package's user sees.\n");
    expect(markdown.match(/### The deployments/g)).toHaveLength(1);
    // Several such changes share the one heading.
    writeFileSync(join(repository, ".changeset", "wide-owls.md"), "---\n---\n\nThe worker's bundle is smaller.\n");
    const two = changelogMarkdown(repository);
    expect(two).toContain("(no package version)\n\nA test moved; nothing a package's user sees.\n\nThe worker's bundle is smaller.\n");
    expect(two.match(/### The deployments/g)).toHaveLength(1);
    rmSync(join(repository, ".changeset", "wide-owls.md"));
    rmSync(join(repository, ".changeset", "tidy-cats.md"));
    expect(changelogMarkdown(repository)).toContain("## Unreleased\n\nNothing is waiting to be released.");
    writeFileSync(join(repository, ".changeset", "no-marker.md"), "A summary without front matter.\n");
    expect(() => pendingChanges(repository)).toThrow(".changeset/no-marker.md has no front matter");
  });

  it("says so when nothing is pending or released", () => {
    const empty = mkdtempSync(join(root, "empty-"));
    const markdown = changelogMarkdown(empty);
    expect(markdown).toContain("Nothing is waiting to be released.");
    expect(markdown).toContain("No version has been released yet.");
  });
});
