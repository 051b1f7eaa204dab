/**
 * `pnpm --filter @cloudplane/server build`: bundles the server into one ES module, dist/server.mjs, which
 * runs with `node dist/server.mjs` anywhere Node 20 or later is (no node_modules, turbo or tsx), and prints
 * its size.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const SERVER_DIR = fileURLToPath(new URL("..", import.meta.url));

export async function buildServer(outdir = join(SERVER_DIR, "dist")): Promise<{ file: string; bytes: number }> {
  await mkdir(outdir, { recursive: true });
  const file = join(outdir, "server.mjs");
  const result = await build({
    absWorkingDir: SERVER_DIR,
    entryPoints: ["src/main.ts"],
    outfile: file,
    bundle: true,
    platform: "node",
    // The workspace packages from their sources, as the tests and `pnpm start` read them: no build of theirs first.
    conditions: ["@cloudplane/source"],
    target: "node20",
    format: "esm",
    // The server always runs on PostgreSQL: PGlite (WebAssembly and data files) is never loaded, so never bundled.
    external: ["@electric-sql/pglite", "drizzle-orm/pglite"],
    minify: true,
    legalComments: "none",
    write: false,
    logLevel: "warning",
  });
  const code = result.outputFiles[0]!.contents;
  await writeFile(file, code);
  return { file, bytes: code.byteLength };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const built = await buildServer();
  console.log(`${built.file}: ${(built.bytes / 1024).toFixed(2)} KiB`);
}
