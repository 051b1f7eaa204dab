/**
 * The deployments' one-file bundles for Node (the Lambda's and the production server's): esbuild bundles an
 * entry with everything it imports into one minified ES module, the workspace packages read from their
 * sources (the `@cloudplane/source` condition), as the tests and `pnpm start` read them, so no package's
 * build comes first. Each app's scripts/build.ts says what stays out.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { build, type BuildOptions } from "esbuild";

export interface NodeBundle {
  file: string;
  bytes: number;
  code: Uint8Array;
}

export async function bundleForNode(options: { cwd: string; entry: string; file: string } & Pick<BuildOptions, "external" | "plugins">): Promise<NodeBundle> {
  await mkdir(dirname(options.file), { recursive: true });
  const result = await build({
    absWorkingDir: options.cwd,
    entryPoints: [options.entry],
    outfile: options.file,
    bundle: true,
    platform: "node",
    conditions: ["@cloudplane/source"],
    // Node 20's syntax, which every supported line runs.
    target: "node20",
    format: "esm",
    minify: true,
    legalComments: "none",
    ...(options.external ? { external: options.external } : {}),
    ...(options.plugins ? { plugins: options.plugins } : {}),
    write: false,
    logLevel: "warning",
  });
  const code = result.outputFiles[0]!.contents;
  await writeFile(options.file, code);
  return { file: options.file, bytes: code.byteLength, code };
}
