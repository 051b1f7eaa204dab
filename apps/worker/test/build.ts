/** Builds the worker as `pnpm --filter @cloudplane/worker build` does: `wrangler deploy --dry-run`, into a folder of the test's. */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

export const WORKER_DIR = fileURLToPath(new URL("..", import.meta.url));

export interface WorkerBuild {
  /** What wrangler printed. */
  output: string;
  /** The gzipped size wrangler reported, in KiB. */
  gzipKiB: number;
}

export async function buildWorker(outdir: string): Promise<WorkerBuild> {
  const wrangler = fileURLToPath(new URL("../node_modules/.bin/wrangler", import.meta.url));
  const { stdout, stderr } = await promisify(execFile)(wrangler, ["deploy", "--dry-run", "--outdir", outdir], {
    cwd: WORKER_DIR,
    // The package.json's build sets the same conditions: the workspace packages from their sources, then wrangler's own.
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", NO_COLOR: "1", WRANGLER_BUILD_CONDITIONS: "@cloudplane/source,workerd,worker,browser" },
  });
  const output = `${stdout}${stderr}`;
  const size = /Total Upload: [\d.]+ KiB \/ gzip: ([\d.]+) KiB/.exec(output);
  if (!size) throw new Error(`wrangler printed no bundle size:\n${output}`);
  return { output, gzipKiB: Number(size[1]) };
}
