/**
 * The page "Testing your code against the platform": the README of @cloudplane/testing, which is where
 * the kit is documented once, under the page's own title. A page of the guide (linked from it).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

export const TESTING_PAGE = { file: "testing.html", title: "Testing your code against the platform" } as const;

/** The page's Markdown, from `<root>/packages/testing/README.md`. */
export function testingMarkdown(root: string): string {
  const readme = readFileSync(join(root, "packages", "testing", "README.md"), "utf8").replace(/\r\n/g, "\n");
  const heading = "# @cloudplane/testing\n";
  if (!readme.startsWith(heading)) throw new Error(`packages/testing/README.md no longer starts with "${heading.trim()}".`);
  return `# ${TESTING_PAGE.title}\n\nWith the \`@cloudplane/testing\` package.\n${readme.slice(heading.length)}`;
}
