/**
 * The testing page: @cloudplane/testing's README under the page's title, rendered like the guide, and
 * linked from the guide's overview.
 */
import { describe, expect, it } from "vitest";
import { guideMarkdown } from "./guide.js";
import { renderPage } from "./pages.js";
import { REPOSITORY_ROOT } from "./site.js";
import { TESTING_PAGE, testingMarkdown } from "./testing.js";

describe("the testing page", () => {
  const markdown = testingMarkdown(REPOSITORY_ROOT);

  it("is the kit's README under the page's own title", () => {
    expect(markdown.split("\n")[0]).toBe("# Testing your code against the platform");
    expect(markdown).not.toContain("# @cloudplane/testing");
    for (const section of ["## A first test", "## createTestPlatform(options?)", "## Builders", "## Isolation: reset()", "## Failure injection: platform.faults", "## Speed"])
      expect(markdown).toContain(`\n${section}\n`);
  });

  it("renders with a table of contents of its sections and its code", () => {
    const html = renderPage({ file: "guide.html", title: TESTING_PAGE.title, markdown, toc: true });
    expect(html).toContain("<title>Testing your code against the platform · cloudplane API</title>");
    expect(html).toContain('<li><a href="#builders">Builders</a></li>');
    expect(html).toContain("createTestPlatform");
    expect(html).toMatch(/<pre><code[^>]*>[^<]*import \{ createTestPlatform/);
  });

  it("is linked from the guide and the reference's introduction", () => {
    for (const links of [false, true]) expect(guideMarkdown({ links })).toContain(`[Testing your code against the platform](${TESTING_PAGE.file})`);
  });
});
