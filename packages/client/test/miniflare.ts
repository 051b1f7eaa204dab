/**
 * A worker in workerd through Miniflare, from a suite on any Node: miniflare 4 needs Node 22 or newer, so
 * it runs in a process of its own (test/miniflare-host.mjs) started through scripts/with-node.mjs, on this
 * Node when it is new enough and on Node 22 (from the npm registry) when it is not. The worker is reached
 * over HTTP on 127.0.0.1, as a deployed one is.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import type { MiniflareOptions } from "miniflare";

const WITH_NODE = fileURLToPath(new URL("../../../scripts/with-node.mjs", import.meta.url));
const HOST = fileURLToPath(new URL("miniflare-host.mjs", import.meta.url));

export interface Worker {
  /** The worker's address, e.g. http://127.0.0.1:41234/. */
  url: URL;
  /** Stops workerd and the process that runs Miniflare. */
  dispose(): Promise<void>;
}

/** Starts the worker; `options` are Miniflare's, but its host and port (127.0.0.1, a free port) and anything not JSON. */
export async function startWorker(options: MiniflareOptions): Promise<Worker> {
  const host = spawn(process.execPath, [WITH_NODE, "node", HOST], { cwd: fileURLToPath(new URL("..", import.meta.url)), stdio: ["pipe", "pipe", "inherit"] });
  const exited = once(host, "exit");
  host.stdin.write(`${JSON.stringify(options)}\n`);
  const lines = createInterface({ input: host.stdout });
  const [line] = (await Promise.race([once(lines, "line"), exited.then(([code, signal]) => [`{"error":"the Miniflare process exited (${code ?? signal})"}`])])) as [string];
  const answer = JSON.parse(line) as { url?: string; error?: string };
  if (!answer.url) {
    host.kill();
    throw new Error(`Miniflare did not start: ${answer.error}`);
  }
  return {
    url: new URL(answer.url),
    async dispose() {
      if (host.exitCode === null && host.signalCode === null) {
        host.stdin.end();
        await exited;
      }
    },
  };
}
