/**
 * `pnpm --filter @cloudplane/server build`: bundles the server into one ES module, dist/server.mjs, which
 * runs with `node dist/server.mjs` anywhere Node 20 or later is (no node_modules, turbo or tsx), and prints
 * its size.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { leanContract } from "../../../packages/contract/scripts/lean.js";
import { bundleForNode } from "../../../tooling/typescript/esbuild.js";

const SERVER_DIR = fileURLToPath(new URL("..", import.meta.url));

export async function buildServer(outdir = join(SERVER_DIR, "dist")): Promise<{ file: string; bytes: number }> {
  // The server always runs on PostgreSQL: PGlite (WebAssembly and data files) is never loaded, so never bundled.
  // It serves no docs: the contract goes in without its documentation (packages/contract/scripts/lean.ts).
  const { file, bytes } = await bundleForNode({
    cwd: SERVER_DIR,
    entry: "src/main.ts",
    file: join(outdir, "server.mjs"),
    external: ["@electric-sql/pglite", "drizzle-orm/pglite"],
    plugins: [leanContract()],
  });
  return { file, bytes };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const built = await buildServer();
  console.log(`${built.file}: ${(built.bytes / 1024).toFixed(2)} KiB`);
}
