/**
 * A query of postgres.js is a Promise subclass. As published, its constructor kept two closures on each
 * query (`resolve` and `reject`, over the constructor's scope); V8 then kept every query, with its rows and
 * the code awaiting it, through its young-generation collections until a full one, whenever the query
 * was made from a `setImmediate` or `process.nextTick` callback, as a server's request handlers make
 * theirs. The patched driver has the two as methods (see `patches/README.md`). This test makes queries
 * that way and checks that their results die young: the old generation does not grow by them.
 *
 * It runs in a Node process of its own: under the test runner's module loader the published driver's
 * queries died young too, so the test could not tell the two apart.
 */
import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const url = process.env.DATABASE_URL;

// The driver's ESM build (`src/index.js`), two folders up from the CommonJS one `require` resolves.
const driver = pathToFileURL(join(dirname(createRequire(import.meta.url).resolve("postgres")), "../../src/index.js")).href;

/**
 * Warms up, then makes 3,000 queries, 8 at a time, each from a setImmediate callback, each answering a row
 * of 2,000 characters; prints how much the old generation grew by them (after a full collection before,
 * and two young ones after: whatever is still held by then has been moved there) and the characters answered.
 */
const script = `
import v8 from "node:v8";
const { default: postgres } = await import(process.env.DRIVER);
const sql = postgres(process.env.DATABASE_URL, { max: 4, onnotice: () => {} });
const oldSpaceUsed = () => v8.getHeapSpaceStatistics().find((space) => space.space_name === "old_space").space_used_size;
async function queriesFromCallbacks(count) {
  let next = 0, answered = 0;
  const worker = async () => {
    while (next < count) {
      next++;
      const rows = await new Promise((resolve, reject) =>
        setImmediate(() => { sql.unsafe("select repeat('x', 2000) as text").then(resolve, reject); }));
      answered += rows[0].text.length;
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return answered;
}
await queriesFromCallbacks(500);
gc({ type: "major" });
const before = oldSpaceUsed();
const answered = await queriesFromCallbacks(3000);
gc({ type: "minor" });
gc({ type: "minor" });
console.log(JSON.stringify({ grown: oldSpaceUsed() - before, answered }));
await sql.end();
`;

describe.runIf(url)("postgres.js's queries (patched), on PostgreSQL", () => {
  it("let a query and its rows die young when it is made from a callback, as a request handler makes it", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ["--expose-gc", "--input-type=module", "-e", script], {
      env: { ...process.env, DRIVER: driver },
    });
    const { grown, answered } = JSON.parse(stdout.trim().split("\n").at(-1)!) as { grown: number; answered: number };
    expect(answered).toBe(3000 * 2000);
    // Without the patch every query (its row's text among it) reached the old generation: ~9.8 MB here.
    expect(grown).toBeLessThan(2_000_000);
  });
});
