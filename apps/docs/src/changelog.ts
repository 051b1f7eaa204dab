/**
 * The changelog page's Markdown: the pending changesets (.changeset/*.md, released by the next
 * `pnpm version-packages`), then the CHANGELOG.md of each package that has been released.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

export interface PendingChange {
  /** The changeset's file name, without `.md`. */
  id: string;
  /** The packages it bumps, with the bump: `{ "@cloudplane/contract": "minor" }`. */
  releases: Record<string, string>;
  /** What changed, as Markdown. */
  summary: string;
}

/** The changesets waiting in `<root>/.changeset`, by file name. */
export function pendingChanges(root: string): PendingChange[] {
  const directory = join(root, ".changeset");
  if (!existsSync(directory)) return [];
  return readdirSync(directory)
    .filter((file) => file.endsWith(".md") && file !== "README.md")
    .sort()
    .map((file) => {
      const text = readFileSync(join(directory, file), "utf8").replace(/\r\n/g, "\n");
      // An empty changeset (`pnpm changeset --empty`: nothing between the two markers) releases nothing.
      const match = /^---\n(?:([\s\S]*?)\n)?---\n?([\s\S]*)$/.exec(text);
      if (!match) throw new Error(`.changeset/${file} has no front matter`);
      const releases: Record<string, string> = {};
      for (const line of (match[1] ?? "").split("\n")) {
        const release = /^\s*["']?([^"':]+)["']?\s*:\s*(major|minor|patch|none)\s*$/.exec(line);
        if (release) releases[release[1]!] = release[2]!;
      }
      return { id: file.slice(0, -3), releases, summary: match[2]!.trim() };
    });
}

/** The released changelogs: `<root>/{packages,apps}/<name>/CHANGELOG.md`, by package directory. */
export function releasedChangelogs(root: string): Array<{ directory: string; markdown: string }> {
  return ["packages", "apps"].flatMap((group) => {
    const parent = join(root, group);
    if (!existsSync(parent)) return [];
    return readdirSync(parent)
      .sort()
      .map((name) => ({ directory: `${group}/${name}`, file: join(parent, name, "CHANGELOG.md") }))
      .filter(({ file }) => existsSync(file))
      .map(({ directory, file }) => ({ directory, markdown: readFileSync(file, "utf8") }));
  });
}

/** Headings one level deeper, so that a package's changelog sits under the page's own headings. */
function nested(markdown: string, levels: number): string {
  let inFence = false;
  return markdown
    .split("\n")
    .map((line) => {
      if (/^```/.test(line)) inFence = !inFence;
      return !inFence && /^#{1,6}\s/.test(line) ? "#".repeat(levels) + line : line;
    })
    .join("\n");
}

/** The changelog page as Markdown. */
export function changelogMarkdown(root: string): string {
  const pending = pendingChanges(root);
  const released = releasedChangelogs(root);
  const sections = [
    "# Changelog",
    "",
    "Every `@cloudplane/*` package shares one version. What changed, newest first: the changes not released yet, " +
      "then each package's released versions.",
    "",
    "## Unreleased",
    "",
  ];
  // A changeset that releases no package (empty front matter) is a change to what this repository deploys
  // (its apps, its patches of dependencies), which no package version carries; one with no summary either shows nothing.
  const releasing = pending.filter((change) => Object.keys(change.releases).length > 0);
  const unversioned = pending.filter((change) => Object.keys(change.releases).length === 0 && change.summary);
  if (releasing.length === 0 && unversioned.length === 0) sections.push("Nothing is waiting to be released.");
  for (const change of releasing) {
    const bumps = Object.entries(change.releases).map(([name, bump]) => `${name} (${bump})`);
    sections.push(`### ${bumps.join(", ")}`, "", nested(change.summary, 3), "");
  }
  if (unversioned.length > 0) sections.push("### The deployments built from this repository (no package version)", "");
  for (const change of unversioned) sections.push(nested(change.summary, 3), "");
  for (const { markdown } of released) sections.push(nested(markdown.trim(), 1), "");
  if (released.length === 0) sections.push("## Released", "", "No version has been released yet.");
  return sections.join("\n");
}
