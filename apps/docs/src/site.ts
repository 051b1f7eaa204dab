/**
 * Builds the static site into a directory: vite bundles the reference page with Scalar, then the
 * OpenAPI document, the guide and the changelog are written beside it.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { join, resolve } from "node:path";
import { build } from "vite";
import { changelogMarkdown } from "./changelog.js";
import { guideMarkdown, operationsMarkdown } from "./guide.js";
import { buildOpenApiDocument } from "./openapi.js";
import { renderPage } from "./pages.js";
import { TESTING_PAGE, testingMarkdown } from "./testing.js";

/** apps/docs. */
export const DOCS_ROOT = fileURLToPath(new URL("..", import.meta.url));
/** The repository, whose .changeset and CHANGELOG.md files the changelog shows. */
export const REPOSITORY_ROOT = join(DOCS_ROOT, "..", "..");

/** Builds the whole site into `outDir` (absolute, or relative to apps/docs). */
export async function buildSite(outDir = "dist"): Promise<string> {
  const target = resolve(DOCS_ROOT, outDir);
  await build({ root: DOCS_ROOT, configFile: join(DOCS_ROOT, "vite.config.ts"), build: { outDir: target, emptyOutDir: true } });
  mkdirSync(target, { recursive: true });
  writeFileSync(join(target, "openapi.json"), `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`);
  writeFileSync(
    join(target, "guide.html"),
    renderPage({ file: "guide.html", title: "Guide", markdown: `# Guide\n\n${guideMarkdown({ links: false })}\n\n${operationsMarkdown()}`, toc: true }),
  );
  // A page of the guide: the navigation marks the guide as where the reader is.
  writeFileSync(join(target, TESTING_PAGE.file), renderPage({ file: "guide.html", title: TESTING_PAGE.title, markdown: testingMarkdown(REPOSITORY_ROOT), toc: true }));
  writeFileSync(
    join(target, "changelog.html"),
    renderPage({ file: "changelog.html", title: "Changelog", markdown: changelogMarkdown(REPOSITORY_ROOT), toc: false }),
  );
  return target;
}
