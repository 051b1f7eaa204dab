/**
 * A query of postgres.js is a Promise subclass. As published, its constructor kept two closures on each
 * query (`resolve` and `reject`, over the constructor's scope); V8 then kept every query, with its rows and
 * the code awaiting it, through its young-generation collections until a full one, whenever the query
 * was made from a `setImmediate` or `process.nextTick` callback, as a server's request handlers make
 * theirs. The patched driver has the two as methods (see `patches/README.md`). This test makes queries
 * that way and checks that their results die young: the old generation does not grow by them.
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { oldGenerationGrowth } from "../../../scripts/young-generation.mjs";

const url = process.env.DATABASE_URL;

// The driver's ESM build (`src/index.js`), two folders up from the CommonJS one `require` resolves.
const driver = pathToFileURL(join(dirname(createRequire(import.meta.url).resolve("postgres")), "../../src/index.js")).href;

/** Queries, 8 at a time, each from a setImmediate callback, each answering a row of 2,000 characters: the characters answered. */
const setup = `
const { default: postgres } = await import(process.env.DRIVER);
const sql = postgres(process.env.DATABASE_URL, { max: 4, onnotice: () => {} });
async function work(count) {
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
async function done() {
  await sql.end();
}
`;

describe.runIf(url)("postgres.js's queries (patched), on PostgreSQL", () => {
  it("let a query and its rows die young when it is made from a callback, as a request handler makes it", async () => {
    const { grown, result } = await oldGenerationGrowth(setup, { env: { DRIVER: driver } });
    expect(result).toBe(3000 * 2000);
    // Without the patch every query (its row's text among it) reached the old generation: ~9.8 MB here.
    expect(grown).toBeLessThan(2_000_000);
  });
});
