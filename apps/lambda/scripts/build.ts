/**
 * `pnpm --filter @cloudplane/lambda build`: bundles the Lambda into one ES module, dist/index.mjs
 * (handler `index.handler`, runtime nodejs20.x or later), and prints its size.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build, type Plugin } from "esbuild";

const LAMBDA_DIR = fileURLToPath(new URL("..", import.meta.url));

/** A Lambda always reaches PostgreSQL: the embedded PGlite (megabytes of WebAssembly) stays out of the bundle. */
const withoutPglite: Plugin = {
  name: "without-pglite",
  setup(builder) {
    builder.onResolve({ filter: /^(@electric-sql\/pglite|drizzle-orm\/pglite)$/ }, (args) => ({ path: args.path, namespace: "pglite-unavailable" }));
    builder.onLoad({ filter: /.*/, namespace: "pglite-unavailable" }, () => ({
      contents: 'throw new Error("PGlite is not part of the Lambda bundle: set DATABASE_URL.");',
      loader: "js",
    }));
  },
};

export interface LambdaBuild {
  file: string;
  bytes: number;
  gzipBytes: number;
}

export async function buildLambda(outdir = join(LAMBDA_DIR, "dist")): Promise<LambdaBuild> {
  await mkdir(outdir, { recursive: true });
  const file = join(outdir, "index.mjs");
  const result = await build({
    absWorkingDir: LAMBDA_DIR,
    entryPoints: ["src/index.ts"],
    outfile: file,
    bundle: true,
    platform: "node",
    // The workspace packages from their sources, as the tests and `pnpm start` read them: no build of theirs first.
    conditions: ["@cloudplane/source"],
    target: "node20",
    format: "esm",
    minify: true,
    legalComments: "none",
    plugins: [withoutPglite],
    write: false,
    logLevel: "warning",
  });
  const code = result.outputFiles[0]!.contents;
  await writeFile(file, code);
  return { file, bytes: code.byteLength, gzipBytes: gzipSync(code).byteLength };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const built = await buildLambda();
  const kib = (bytes: number) => (bytes / 1024).toFixed(2);
  console.log(`${built.file}: ${kib(built.bytes)} KiB / gzip: ${kib(built.gzipBytes)} KiB`);
}
