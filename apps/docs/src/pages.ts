/**
 * The static pages of the site around the reference: the guide and the changelog, and the navigation
 * and styles every page shares. Links are relative, so the site works under any base path.
 */
import { escapeHtml, renderMarkdown } from "./markdown.js";

/** The site's pages, in navigation order. */
export const PAGES = [
  { file: "index.html", title: "API reference" },
  { file: "guide.html", title: "Guide" },
  { file: "changelog.html", title: "Changelog" },
] as const;

export type PageFile = (typeof PAGES)[number]["file"];

export const SITE_TITLE = "cloudplane API";

/** The navigation bar of every page. */
export function siteNav(current: PageFile): string {
  const links = PAGES.map(
    ({ file, title }) => `<a href="./${file === "index.html" ? "" : file}"${file === current ? ' aria-current="page"' : ""}>${title}</a>`,
  );
  links.push('<a href="./openapi.json">openapi.json</a>');
  return `<nav class="site-nav"><span class="site-name">${SITE_TITLE}</span>${links.join("")}</nav>`;
}

/**
 * The navigation bar's styles; on the reference page they follow Scalar's colours, and its height. On a
 * phone the site's name gives way, so that every link fits; the bar scrolls sideways rather than the page.
 */
export const NAV_CSS = `
.site-nav { position: sticky; top: 0; z-index: 100; display: flex; align-items: center; gap: 20px; height: 48px;
  padding: 0 20px; box-sizing: border-box; border-bottom: 1px solid var(--nav-border, #e5e5e5);
  background: var(--nav-background, #fff); font: 14px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  max-width: 100vw; overflow-x: auto; white-space: nowrap; }
.site-nav .site-name { font-weight: 600; margin-right: 12px; color: var(--nav-color, #1a1a1a); }
.site-nav a { color: var(--nav-link, #555); text-decoration: none; }
.site-nav a:hover, .site-nav a[aria-current="page"] { color: var(--nav-color, #1a1a1a); text-decoration: underline; }
@media (max-width: 600px) { .site-nav { gap: 14px; padding: 0 12px; } .site-nav .site-name { display: none; } }
`;

const PAGE_CSS = `
:root { color-scheme: light; }
body { margin: 0; color: #1a1a1a; background: #fff; font: 16px/1.6 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { display: grid; grid-template-columns: minmax(180px, 240px) minmax(0, 860px); gap: 40px; padding: 24px 20px 80px; }
main.single { grid-template-columns: minmax(0, 860px); }
.toc { position: sticky; top: 64px; align-self: start; font-size: 14px; }
.toc ul { list-style: none; padding: 0; margin: 0; }
.toc li { margin: 4px 0; }
.toc a { color: #555; text-decoration: none; }
.toc a:hover { color: #1a1a1a; text-decoration: underline; }
h1, h2, h3, h4 { line-height: 1.25; margin: 1.6em 0 0.6em; }
h1 { margin-top: 0.4em; }
h2 { border-bottom: 1px solid #e5e5e5; padding-bottom: 0.3em; }
code { font: 0.9em/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: #f3f3f3; padding: 0.1em 0.3em; border-radius: 4px;
  overflow-wrap: anywhere; }
pre { background: #f6f6f6; border: 1px solid #e5e5e5; border-radius: 6px; padding: 12px 14px; overflow-x: auto; line-height: 1.45; }
pre code { background: none; padding: 0; font-size: 13px; line-height: inherit; overflow-wrap: normal; }
table { border-collapse: collapse; margin: 1em 0; font-size: 14px; display: block; max-width: 100%; overflow-x: auto; }
th, td { border: 1px solid #e5e5e5; padding: 6px 10px; text-align: left; vertical-align: top; }
th { background: #f6f6f6; }
a { color: #0b63c7; }
@media (max-width: 800px) { main { grid-template-columns: minmax(0, 1fr); } .toc { position: static; } }
@media (max-width: 600px) { main { padding: 16px 12px 60px; } }
`;

/** A whole page: navigation, an optional table of contents of the h2 headings, and the Markdown body. */
export function renderPage(options: { file: PageFile; title: string; markdown: string; toc: boolean }): string {
  const body = renderMarkdown(options.markdown);
  const headings = [...body.matchAll(/<h2 id="([^"]+)">(.*?)<\/h2>/g)];
  const toc = options.toc
    ? `<aside class="toc"><ul>${headings.map(([, id, text]) => `<li><a href="#${id}">${text}</a></li>`).join("")}</ul></aside>`
    : "";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(options.title)} · ${SITE_TITLE}</title>
<link rel="icon" href="data:,">
<style>${NAV_CSS}${PAGE_CSS}</style>
</head>
<body>
${siteNav(options.file)}
<main${options.toc ? "" : ' class="single"'}>
${toc}
<article>
${body}
</article>
</main>
</body>
</html>
`;
}
