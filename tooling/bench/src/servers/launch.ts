/**
 * Starts a benchmark server (ours.ts, baseline.ts, peer.ts or fastify-peer.ts) in a Node process of its own, so that the load
 * generator never shares its event loop, and stops it again.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const BENCH_DIR = fileURLToPath(new URL("../..", import.meta.url));

export type ServerKind = "ours" | "baseline" | "peer" | "fastify-peer";

export interface RunningServer {
  url: string;
  /** The server's process id, to tell the results apart from nothing else. */
  pid: number;
  stop(): Promise<void>;
}

/**
 * Starts `kind` with `settings` and resolves once it listens. With BENCH_PROFILE_DIR set, it writes a CPU
 * profile of its serving there when it stops (settings.ts), named by `label` (default: `kind`).
 */
export async function startServer(kind: ServerKind, settings: unknown, label: string = kind): Promise<RunningServer> {
  const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(new URL(`./${kind}.ts`, import.meta.url))], {
    cwd: BENCH_DIR,
    env: { ...process.env, BENCH_SERVER: JSON.stringify(settings), BENCH_PROFILE_LABEL: label, NODE_ENV: "production" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const errors: string[] = [];
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    errors.push(chunk);
    if (errors.length > 50) errors.shift();
  });
  const lines = createInterface({ input: child.stdout });
  const port = await new Promise<number>((resolve, reject) => {
    const failed = (code: number | null) => reject(new Error(`The ${kind} server exited (${code}) before listening:\n${errors.join("")}`));
    child.once("exit", failed);
    lines.once("line", (line) => {
      child.off("exit", failed);
      try {
        resolve((JSON.parse(line) as { port: number }).port);
      } catch {
        reject(new Error(`The ${kind} server printed ${line}`));
      }
    });
  });
  // Anything the server prints later (an unexpected error) is shown as it happens.
  lines.on("line", (line) => console.log(`  [${kind}] ${line}`));
  child.stderr.on("data", (chunk: string) => process.stderr.write(`  [${kind}] ${chunk}`));
  return { url: `http://127.0.0.1:${port}`, pid: child.pid!, stop: () => stopChild(child) };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
  await exited;
  clearTimeout(timer);
}
