/**
 * zod 3 (patched) gives a failed parse's result its `error`, a refinement's context its `path`, and a
 * `ZodError` its `addIssue` and `addIssues` through functions shared by every parse (see
 * `patches/README.md`). Written in an object literal or kept on the error, they were new functions for
 * each parse, over its scope, and V8 then kept each parse's objects (the data parsed, the issues, what
 * awaits the parse: a server's request) through its young-generation collections until a full one. This
 * test parses with a refinement, passing and failing, each from a `setImmediate` callback as a server
 * does, and checks that the old generation does not grow by them.
 */
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { oldGenerationGrowth } from "../../../scripts/young-generation.mjs";

// zod's ESM build, as the contract's users import it: `index.js` beside the CommonJS `index.cjs` that `require` resolves.
const zod = pathToFileURL(createRequire(import.meta.url).resolve("zod").replace(/\.cjs$/, ".js")).href;

/**
 * Parses, 8 at a time, each from a setImmediate callback in an async function (as a server's handler
 * parses a request): one that passes and one that a refinement fails, reading its error. How many said
 * what they should.
 */
const setup = `
const { z } = await import(process.env.ZOD);
const period = z
  .object({ from: z.string(), to: z.string(), count: z.number().int() })
  .superRefine((value, ctx) => {
    if (value.from > value.to) ctx.addIssue({ code: "custom", message: "from is after to", path: ["from"] });
  });
async function check(input) {
  await null;
  const result = period.safeParse(input);
  await null;
  return result.success ? result.data.count : result.error.issues[0].path[0] + ": " + result.error.issues[0].message;
}
const fromCallback = (input) => new Promise((resolve, reject) => setImmediate(() => check(input).then(resolve, reject)));
async function work(count) {
  let next = 0, right = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      if ((await fromCallback({ from: "a" + i, to: "b" + i, count: i, note: "x".repeat(500) })) === i) right++;
      if ((await fromCallback({ from: "b" + i, to: "a", count: i, note: "y".repeat(2000) })) === "from: from is after to") right++;
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return right;
}
`;

describe("zod's parses (patched)", () => {
  it("let a parse's objects die young, passed or failed by a refinement", async () => {
    const { grown, result } = await oldGenerationGrowth(setup, { count: 6000, env: { ZOD: zod } });
    expect(result).toBe(2 * 6000);
    // Without the patch each parse's objects reached the old generation: 10.6-12.6 MB here (Node 22).
    expect(grown).toBeLessThan(1_000_000);
  });

  it("hands out results, contexts and errors that look as they did", async () => {
    const seen: { keys: string[]; path: (string | number)[] }[] = [];
    const named = z.object({
      name: z.string().superRefine((value, ctx) => {
        seen.push({ keys: Reflect.ownKeys({ ...ctx }).map(String), path: ctx.path });
        // Taken off the context, as zod has always allowed.
        const { addIssue } = ctx;
        if (value === "") addIssue({ code: "custom", message: "empty", fatal: true });
      }),
    });
    const failed = named.safeParse({ name: "" });
    expect(failed.success).toBe(false);
    // What a spread, an inspection or a deep equality sees: the result's own enumerable keys, and no more.
    const visible = (value: object) => Reflect.ownKeys({ ...value }).map(String);
    expect(visible(failed)).toEqual(["success", "error"]);
    const error = failed.error!;
    expect(error).toBeInstanceOf(z.ZodError);
    expect(failed.error).toBe(error);
    // zod keeps the error it made as `_error`, as it always has.
    expect(visible(failed)).toEqual(["success", "error", "_error"]);
    expect(error.issues).toEqual([{ code: "custom", message: "empty", fatal: true, path: ["name"] }]);
    expect(seen).toEqual([{ keys: ["addIssue", "path"], path: ["name"] }]);
    expect(named.safeParse({ name: "ann" })).toStrictEqual({ success: true, data: { name: "ann" } });
    // An error's addIssue and addIssues work taken off it too.
    const built = new z.ZodError([]);
    const { addIssue, addIssues } = built;
    addIssue({ code: "custom", message: "one", path: [] });
    addIssues([
      { code: "custom", message: "two", path: ["a"] },
      { code: "custom", message: "three", path: ["b"] },
    ]);
    expect(built.issues.map((issue) => issue.message)).toEqual(["one", "two", "three"]);
    const asyncFailed = await named.safeParseAsync({ name: "" });
    expect(visible(asyncFailed)).toEqual(["success", "error"]);
    expect(asyncFailed.error!.issues).toEqual(error.issues);
  });
});
