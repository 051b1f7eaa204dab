/**
 * Builds the static site into a directory: vite bundles the reference page with Scalar, then the
 * OpenAPI document, the guide and the changelog are written beside it.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { join, resolve } from "node:path";
import { Worker } from "node:worker_threads";
import { build, type Plugin } from "vite";
import { changelogMarkdown } from "./changelog.js";
import { guideMarkdown, operationsMarkdown } from "./guide.js";
import { buildOpenApiDocument } from "./openapi.js";
import { renderPage } from "./pages.js";
import { TESTING_PAGE, testingMarkdown } from "./testing.js";

/** apps/docs. */
export const DOCS_ROOT = fileURLToPath(new URL("..", import.meta.url));
/** The repository, whose .changeset and CHANGELOG.md files the changelog shows. */
export const REPOSITORY_ROOT = join(DOCS_ROOT, "..", "..");

/** How often a build that is still running says so. */
export const PROGRESS_EVERY_MS = 10_000;

const PHASES = ["transforming and tree-shaking the modules", "rendering and minifying the chunks", "writing the files"] as const;

/**
 * The heartbeat's thread: every `everyMs` it writes how far the bundling is, straight to standard output
 * (a worker's console goes through the main thread, which the bundler holds for long stretches). The
 * main thread keeps the counts in `state`: modules transformed, chunks rendered, the phase, and 1 in the
 * last slot once done.
 */
const HEARTBEAT = `
const { workerData } = require("node:worker_threads");
const { writeSync } = require("node:fs");
const state = new Int32Array(workerData.state);
const phases = ${JSON.stringify(PHASES)};
const started = Date.now();
const timer = setInterval(() => {
  if (Atomics.load(state, 3) === 1) return clearInterval(timer);
  const seconds = Math.round((Date.now() - started) / 1000);
  writeSync(1, "docs: still bundling the API reference: " + phases[Atomics.load(state, 2)] + ", " + Atomics.load(state, 0) + " modules, " + Atomics.load(state, 1) + " chunks so far (" + seconds + " s)\\n");
}, workerData.everyMs);
`;

/**
 * Says how far the bundling is every `everyMs`, from a thread of its own: vite prints nothing while it
 * transforms, tree-shakes and minifies Scalar's reference, tens of seconds on a busy machine (as on a
 * first `pnpm start`), during which the main thread runs no timers.
 */
export function progressPlugin(everyMs = PROGRESS_EVERY_MS): Plugin {
  const state = new Int32Array(new SharedArrayBuffer(4 * Int32Array.BYTES_PER_ELEMENT));
  let worker: Worker | undefined;
  const stop = () => {
    Atomics.store(state, 3, 1);
    void worker?.terminate();
    worker = undefined;
  };
  return {
    name: "cloudplane-docs-progress",
    buildStart() {
      worker = new Worker(HEARTBEAT, { eval: true, workerData: { state: state.buffer, everyMs } });
      worker.unref();
    },
    transform() {
      Atomics.add(state, 0, 1);
      return null;
    },
    buildEnd(error) {
      if (error) stop();
      else Atomics.store(state, 2, 1);
    },
    renderChunk() {
      Atomics.add(state, 1, 1);
      return null;
    },
    generateBundle() {
      Atomics.store(state, 2, 2);
    },
    closeBundle: stop,
  };
}

/** Builds the whole site into `outDir` (absolute, or relative to apps/docs), saying how far it is through `log`. */
export async function buildSite(outDir = "dist", log: (line: string) => void = console.log): Promise<string> {
  const target = resolve(DOCS_ROOT, outDir);
  log("docs: bundling the API reference page (vite, Scalar)");
  await build({
    root: DOCS_ROOT,
    configFile: join(DOCS_ROOT, "vite.config.ts"),
    build: { outDir: target, emptyOutDir: true },
    plugins: [progressPlugin()],
  });
  log("docs: writing the OpenAPI document, the guide and the changelog");
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
