/**
 * How much of a piece of work's garbage reaches V8's old generation: the tests of the patches that let
 * each request's objects die young (postgres.js, ts-rest, zod; see `patches/README.md`) run their work
 * through this. The work runs in a Node process of its own (`--expose-gc`), so that what the old
 * generation holds is measured without the test runner's own objects (under vitest's module loader
 * the published driver's queries died young too).
 *
 * `setup` is the source of an ES module that defines `async function work(count)`: it does the work
 * `count` times and returns what a test checks was done right. It may define `async function done()`
 * too, run at the end. The work is warmed up (500 times), then after a full collection it is done
 * `count` times and followed by two young collections: whatever it left that is still held by then
 * has been moved to the old generation, and is counted in `grown` (bytes).
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";

const measure = `
const { getHeapSpaceStatistics } = await import("node:v8");
const oldSpaceUsed = () => getHeapSpaceStatistics().find((space) => space.space_name === "old_space").space_used_size;
await work(500);
gc({ type: "major" });
const before = oldSpaceUsed();
const result = await work(Number(process.env.YOUNG_GENERATION_COUNT));
gc({ type: "minor" });
gc({ type: "minor" });
console.log(JSON.stringify({ grown: oldSpaceUsed() - before, result }));
if (typeof done === "function") await done();
`;

/** @param {string} setup @param {{ count?: number; env?: Record<string, string> }} [options] */
export async function oldGenerationGrowth(setup, { count = 3000, env = {} } = {}) {
  const { stdout } = await promisify(execFile)(process.execPath, ["--expose-gc", "--input-type=module", "-e", `${setup}\n${measure}`], {
    env: { ...process.env, ...env, YOUNG_GENERATION_COUNT: String(count) },
  });
  return JSON.parse(stdout.trim().split("\n").at(-1));
}
