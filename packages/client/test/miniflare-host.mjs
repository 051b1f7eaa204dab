/**
 * Miniflare in a process of its own, for test/miniflare.ts: miniflare 4 runs on Node 22 or newer, and the
 * client's suite runs on the machine's Node, which may be older, so test/miniflare.ts starts this through
 * scripts/with-node.mjs. Its Miniflare options arrive as one JSON line on stdin; it answers with one JSON
 * line on stdout, `{"url":…}` (the worker's address on 127.0.0.1) or `{"error":…}`, and serves until
 * stdin ends (the test is done with it, or its process is gone). What workerd prints goes to stderr.
 */
import { createInterface } from "node:readline";
import process from "node:process";
import { Miniflare } from "miniflare";

const lines = createInterface({ input: process.stdin });
let miniflare;
lines.once("line", async (line) => {
  try {
    miniflare = new Miniflare({
      ...JSON.parse(line),
      host: "127.0.0.1",
      port: 0,
      handleRuntimeStdio(stdout, stderr) {
        stdout.pipe(process.stderr);
        stderr.pipe(process.stderr);
      },
    });
    const url = await miniflare.ready;
    process.stdout.write(`${JSON.stringify({ url: url.href })}\n`);
  } catch (error) {
    process.stdout.write(`${JSON.stringify({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) })}\n`);
    process.exitCode = 1;
    lines.close();
  }
});
lines.once("close", async () => {
  await miniflare?.dispose();
  process.exit();
});
