/**
 * `pnpm --filter @cloudplane/lambda build`: bundles the Lambda into one ES module, dist/index.mjs
 * (handler `index.handler`, runtime nodejs22.x or nodejs24.x: the supported lines; it is built for Node 20
 * syntax, so an older function keeps working), and prints its size. The contract goes in without its
 * documentation (packages/contract/scripts/lean.ts): a Lambda serves no docs.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import type { Plugin } from "esbuild";
import { leanContract } from "../../../packages/contract/scripts/lean.js";
import { bundleForNode } from "../../../tooling/typescript/esbuild.js";

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
  const { file, bytes, code } = await bundleForNode({ cwd: LAMBDA_DIR, entry: "src/index.ts", file: join(outdir, "index.mjs"), plugins: [withoutPglite, leanContract()] });
  return { file, bytes, gzipBytes: gzipSync(code).byteLength };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const built = await buildLambda();
  const kib = (bytes: number) => (bytes / 1024).toFixed(2);
  console.log(`${built.file}: ${kib(built.bytes)} KiB / gzip: ${kib(built.gzipBytes)} KiB`);
}
