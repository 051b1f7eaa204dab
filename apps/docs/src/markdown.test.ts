/** The guide's and the changelog's Markdown renders to the HTML it means, with everything else escaped. */
import { describe, expect, it } from "vitest";
import { renderInline, renderMarkdown, slug } from "./markdown.js";

describe("renderMarkdown", () => {
  it("renders headings with anchor ids, paragraphs and lists", () => {
    expect(renderMarkdown("## Rate limits\n\nFirst line\nsecond line.\n\n- one\n  continued\n- two")).toBe(
      '<h2 id="rate-limits">Rate limits</h2>\n<p>First line second line.</p>\n<ul><li>one continued</li><li>two</li></ul>',
    );
  });

  it("renders pipe tables, with escaped pipes inside cells", () => {
    expect(renderMarkdown("| a | b |\n| --- | --- |\n| `x \\| y` | **z** |")).toBe(
      "<table>\n<thead><tr><th>a</th><th>b</th></tr></thead>\n<tbody><tr><td><code>x | y</code></td><td><strong>z</strong></td></tr></tbody>\n</table>",
    );
  });

  it("keeps fenced code as it is written, escaped", () => {
    expect(renderMarkdown("```ts\nconst a = 1 < 2;\n\n// *not emphasis*\n```")).toBe(
      '<pre><code class="language-ts">const a = 1 &lt; 2;\n\n// *not emphasis*</code></pre>',
    );
  });

  it("escapes HTML and links only safe addresses", () => {
    expect(renderInline("<script>alert(1)</script>")).toBe("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(renderInline("[guide](guide.html) and [x](javascript:void)")).toBe('<a href="guide.html">guide</a> and x');
    expect(renderInline("[op](./#tag/cdn/PATCH/cdn/resources/{resource_id})")).toBe('<a href="./#tag/cdn/PATCH/cdn/resources/{resource_id}">op</a>');
    expect(renderInline("`<b>` *em* **strong**")).toBe("<code>&lt;b&gt;</code> <em>em</em> <strong>strong</strong>");
  });

  it("makes anchor ids from heading text", () => {
    expect(slug("`@cloudplane/contract` (minor)")).toBe("cloudplane-contract-minor");
  });
});
