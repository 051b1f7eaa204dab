/**
 * Bundles the client the way it is published and then the way an application bundles it: the source
 * into one ESM module as tsup does for dist/index.js (side-effect free, as package.json says), then
 * an application's module that imports it as `@cloudplane/client`, for a browser or workerd.
 */
import { build, type Metafile, type Platform, type Plugin } from "esbuild";
import { fileURLToPath } from "node:url";

const PACKAGE_DIR = fileURLToPath(new URL("..", import.meta.url));

export interface Bundle {
  code: string;
  metafile: Metafile;
}

let published: Promise<Bundle> | undefined;

/** The client as one ESM module, like the published dist/index.js (same target, nothing minified). */
export function publishedModule(): Promise<Bundle> {
  published ??= build({
    entryPoints: ["src/index.ts"],
    absWorkingDir: PACKAGE_DIR,
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    packages: "external",
    write: false,
    metafile: true,
    logLevel: "silent",
  }).then((result) => ({ code: result.outputFiles[0]!.text, metafile: result.metafile }));
  return published;
}

const publishedClient: Plugin = {
  name: "published-client",
  setup(plugin) {
    plugin.onResolve({ filter: /^@cloudplane\/client$/ }, () => ({ path: "@cloudplane/client", namespace: "published", sideEffects: false }));
    plugin.onLoad({ filter: /.*/, namespace: "published" }, async () => ({ contents: (await publishedModule()).code, loader: "js" }));
  },
};

/** Bundles `source`, an application module that imports from `@cloudplane/client`. */
export async function bundle(source: string, options: { platform: Platform; minify?: boolean }): Promise<Bundle> {
  const result = await build({
    stdin: { contents: source, resolveDir: PACKAGE_DIR, loader: "ts" },
    plugins: [publishedClient],
    bundle: true,
    format: "esm",
    platform: options.platform,
    target: "es2022",
    minify: options.minify ?? false,
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  return { code: result.outputFiles[0]!.text, metafile: result.metafile };
}
