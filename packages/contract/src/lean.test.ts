/**
 * The lean contract (scripts/lean.ts), which the deployments' bundles carry: its source edits, and the whole
 * lean module against the contract itself, route by route and schema by schema.
 */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { isAppRouteNoBody } from "@ts-rest/core";
import type { z } from "zod";
import { descriptionParameters, leanSource, writeLeanContract } from "../scripts/lean.js";
import * as full from "./index.js";

describe("leanSource", () => {
  it("takes out each .describe(…), chained or nested, and keeps the schema it was called on", () => {
    const source = [
      'const a = z.string().min(1, "Must not be empty.").describe("A name.");',
      "const b = z",
      "  .object({ c: z.number().describe(`A ${'count'}.`).optional() })",
      '  .describe("Two" + " lines.");',
      'const d = z.boolean().describe("Flag.") as unknown as z.ZodType<boolean>;',
      "const e = z",
      "  .boolean()",
      '  .describe("Flag.") satisfies z.ZodTypeAny;',
    ].join("\n");
    const lean = leanSource("x.ts", source);
    expect(lean).toBe(
      [
        'const a = /* @__PURE__ */ (() => (z.string().min(1, "Must not be empty.")))();',
        "const b = /* @__PURE__ */ (() => (z",
        "  .object({ c: z.number().optional() })",
        "))();",
        "const d = /* @__PURE__ */ (() => (z.boolean() as unknown as z.ZodType<boolean>))();",
        "const e = /* @__PURE__ */ (() => (z",
        "  .boolean() satisfies z.ZodTypeAny))();",
      ].join("\n"),
    );
  });

  it("keeps what only looks like documentation: strings, other calls, describe with other arities", () => {
    const source = [
      'const s = "x.describe(\\"y\\")";',
      "t = `route(${1}, {})`;",
      'u = other.describe("a", "b");',
      'v = describe("free function");',
      'w = { summary: "a field", description: "kept", responses: { 200: thing } };',
    ].join("\n");
    expect(leanSource("x.ts", source)).toBe(source);
  });

  it("takes a route's summary and description out of its definition and its example and case out of its extras", () => {
    const source = [
      "export const routes = {",
      "  getThing: route({",
      '    method: "GET",',
      '    path: "/things/:id",',
      '    responses: { 200: thing.describe("The thing.") },',
      '    summary: "Get a thing",',
      "    description:",
      '      "One thing " +',
      '      "of the account.",',
      '    metadata: { access: "read" },',
      "  }, {",
      '    example: { pathParams: { id: 1 }, response: { id: 1, description: "a thing" } },',
      '    case: { path: () => "/things/1" },',
      "  }),",
      "};",
    ].join("\n");
    const lean = leanSource("x.ts", source);
    expect(lean.split("\n")).toHaveLength(source.split("\n").length);
    expect(lean.replace(/\s+/g, " ")).toBe(
      'export const routes = /* @__PURE__ */ (() => ({ getThing: route({ method: "GET", path: "/things/:id", responses: { 200: null }, metadata: { access: "read" }, }, {} ), }))();',
    );
  });

  it("keeps of a route's answers their statuses and which have no body", () => {
    const source = 'const r = route({ method: "DELETE", path: "/x", responses: { 200: z.array(thing), 204: c.noBody(), ...errorResponses([422]) } }, { example: {} });';
    expect(leanSource("x.ts", source)).toBe(
      'const r = /* @__PURE__ */ (() => (route({ method: "DELETE", path: "/x", responses: { 200: null, 204: c.noBody(), ...errorResponses([422]) } }, {})))();',
    );
  });

  it("makes each module-level constant in a call marked pure, so that a bundle leaves out what it does not use, and leaves out the examples' namespace", () => {
    const source = [
      "export const a = z.string(), b = 5, c = () => 1;",
      'const d = "text";',
      "let e = { f: a };",
      "function g() { const h = z.number(); return h; }",
      'export * as examples from "./examples.js";',
      'export * from "./other.js";',
    ].join("\n");
    expect(leanSource("x.ts", source)).toBe(
      [
        "export const a = /* @__PURE__ */ (() => (z.string()))(), b = 5, c = () => 1;",
        'const d = "text";',
        "let e = /* @__PURE__ */ (() => ({ f: a }))();",
        "function g() { const h = z.number(); return h; }",
        "",
        'export * from "./other.js";',
      ].join("\n"),
    );
  });
});

describe("the documentation passed to the contract's functions", () => {
  it("takes out a description wherever it is passed: a parameter named so, one read by nothing once the documentation is out, a description in options", () => {
    const source = [
      "interface SizeOptions { max: number; description: string }",
      "function listOf(item: unknown, options: SizeOptions & { min?: number }) { return z.array(item).max(options.max); }",
      "const idParam = (description: string) => integer({ min: 1 }).describe(description);",
      "const pemText = (what: string, max: number) => z.string().max(max).describe(`${what}, in PEM`);",
      "const forceQuery = (what: string) => z.object({ force: booleanQuery(idParam(what)) });",
      "const a = listOf(z.string(), { max: 5, description: `At most ${5}.` });",
      "const b = pemText(FIELD.key, 10);",
      'const c = strictObject({ description: z.string(), id: idParam("The id.") });',
      'const d = forceQuery("true: delete it anyway.");',
    ].join("\n");
    expect(leanSource("x.ts", source).split("\n")).toEqual([
      "interface SizeOptions { max: number; description: string }",
      "function listOf(item: unknown, options: SizeOptions & { min?: number }) { return z.array(item).max(options.max); }",
      "const idParam = (description: string) => integer({ min: 1 });",
      "const pemText = (what: string, max: number) => z.string().max(max);",
      // forceQuery passed `what` on to a description: once that is out, `what` is read by nothing.
      'const forceQuery = (what: string) => z.object({ force: booleanQuery(idParam("")) });',
      "const a = /* @__PURE__ */ (() => (listOf(z.string(), { max: 5,  })))();",
      'const b = /* @__PURE__ */ (() => (pemText("", 10)))();',
      // A schema's field named `description` is no documentation: strictObject takes a shape, not options.
      'const c = /* @__PURE__ */ (() => (strictObject({ description: z.string(), id: idParam("") })))();',
      'const d = /* @__PURE__ */ (() => (forceQuery("")))();',
    ]);
  });

  it("finds the functions across modules, an alias of one too, and leaves alone a name declared twice with different parameters", () => {
    const found = descriptionParameters(
      new Map([
        ["a.ts", "export function isoInstant(description: string) { return z.string().describe(description); }"],
        ["b.ts", "const reportDay = isoInstant; const values = (x: string) => x;"],
        ["c.ts", "const values = (x: string, description: string) => x;"],
      ]),
    );
    expect(Object.fromEntries(found)).toEqual({ isoInstant: { text: [0], options: [] }, reportDay: { text: [0], options: [] } });
  });
});

describe("the lean contract module", () => {
  let lean: typeof full;
  beforeAll(async () => {
    // Under the package's node_modules, so that its imports of zod and @ts-rest/core resolve to the package's own.
    const directory = fileURLToPath(new URL("../node_modules/.cache/lean-test/", import.meta.url));
    await mkdir(directory, { recursive: true });
    const file = join(directory, "contract.js");
    await writeLeanContract(file);
    lean = (await import(/* @vite-ignore */ `${file}?${Date.now()}`)) as typeof full;
  }, 60_000);

  /** A converted schema without its descriptions (a field named `description` is an object, and stays): what the lean one must equal. */
  const undocumented = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(undocumented)
      : value && typeof value === "object"
        ? Object.fromEntries(
            Object.entries(value)
              .filter(([key, inner]) => !(key === "description" && typeof inner === "string"))
              .map(([key, inner]) => [key, undocumented(inner)]),
          )
        : value;
  /** What a parse gives, comparable across the two modules' schemas: the value, or the issues. */
  const outcome = (result: z.SafeParseReturnType<unknown, unknown>) => (result.success ? { data: result.data } : { issues: result.error.issues });
  const converted = (schema: z.ZodTypeAny, side: full.SchemaSide) => new full.SchemaConverter({}, [], side).inline(schema);

  it("has every route, in the same order, with its method, path, status codes and metadata but no documentation", () => {
    expect(lean.ROUTES.map((entry) => entry.id)).toEqual(full.ROUTES.map((entry) => entry.id));
    for (const [index, entry] of full.ROUTES.entries()) {
      const leanEntry = lean.ROUTES[index]!;
      const { route } = entry;
      expect({ id: leanEntry.id, method: leanEntry.route.method, path: leanEntry.route.path, access: leanEntry.access, aliasOf: leanEntry.aliasOf }).toEqual({
        id: entry.id,
        method: route.method,
        path: route.path,
        access: entry.access,
        aliasOf: entry.aliasOf,
      });
      expect(Object.keys(leanEntry.route.responses)).toEqual(Object.keys(route.responses));
      const { example: _example, case: _case, ...metadata } = route.metadata as Record<string, unknown>;
      expect(leanEntry.route.metadata).toEqual(metadata);
      // An alias writes its own summary from its primary's: without one, it says only where it is served.
      if (entry.aliasOf) expect(leanEntry.route.summary).toMatch(/^\w+ \(/);
      else expect([leanEntry.route.summary, leanEntry.route.description]).toEqual([undefined, undefined]);
    }
  });

  it("has every route's request schemas as the contract has them, but for their descriptions", () => {
    let compared = 0;
    for (const [index, { id, route }] of full.ROUTES.entries()) {
      const leanRoute = lean.ROUTES[index]!.route;
      const parts: [string, unknown, unknown][] = [
        ["pathParams", route.pathParams, leanRoute.pathParams],
        ["query", route.query, leanRoute.query],
        ["headers", route.headers, leanRoute.headers],
        ...("body" in route ? [["body", route.body, (leanRoute as typeof route & { body: unknown }).body] as [string, unknown, unknown]] : []),
      ];
      for (const [part, schema, leanSchema] of parts) {
        if (!(schema instanceof Object && "_def" in schema)) {
          expect(leanSchema, `${id} ${part}`).toEqual(schema);
          continue;
        }
        for (const side of ["input", "output"] as const)
          expect(converted(leanSchema as z.ZodTypeAny, side), `${id} ${part} (${side})`).toEqual(undocumented(converted(schema as z.ZodTypeAny, side)));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(full.ROUTES.length);
  });

  it("answers as the contract says without the success answers' schemas: each status is there, with no body where the contract has none, and the error envelope", () => {
    let withoutBody = 0;
    let errors = 0;
    for (const [index, { id, route }] of full.ROUTES.entries()) {
      const leanResponses = lean.ROUTES[index]!.route.responses as Record<string, unknown>;
      for (const [status, schema] of Object.entries(route.responses)) {
        // An error status from `errorResponses()` keeps the envelope (one schema, shared); one written out in the route is null too.
        if (Number(status) >= 400 && leanResponses[status] !== null) {
          expect(converted(leanResponses[status] as z.ZodTypeAny, "output"), `${id} ${status}`).toEqual(undocumented(converted(schema as z.ZodTypeAny, "output")));
          errors++;
          continue;
        }
        if (isAppRouteNoBody(schema)) withoutBody++;
        expect(leanResponses[status], `${id} ${status}`).toBe(isAppRouteNoBody(schema) ? schema : null);
      }
    }
    expect(withoutBody).toBeGreaterThan(10);
    expect(errors).toBeGreaterThan(full.ROUTES.length * 7);
  });

  it("exports no examples: they are documentation", () => {
    expect(full.examples.cdnResourceExample.id).toBe(1);
    expect("examples" in lean).toBe(false);
  });

  it("parses every route's example as the contract does", () => {
    let parsed = 0;
    for (const [index, { id, route }] of full.ROUTES.entries()) {
      const example = full.routeExample(id);
      if (!example) continue;
      const leanRoute = lean.ROUTES[index]!.route;
      const pairs: [unknown, unknown, unknown][] = [
        [route.pathParams, leanRoute.pathParams, example.pathParams && Object.fromEntries(Object.entries(example.pathParams).map(([key, value]) => [key, String(value)]))],
        ["body" in route ? route.body : undefined, "body" in leanRoute ? leanRoute.body : undefined, example.body],
      ];
      for (const [schema, leanSchema, value] of pairs) {
        if (value === undefined || !(schema instanceof Object && "safeParse" in schema)) continue;
        const expected = outcome((schema as z.ZodTypeAny).safeParse(value));
        expect(outcome((leanSchema as z.ZodTypeAny).safeParse(value)), id).toEqual(expected);
        parsed++;
      }
    }
    expect(parsed).toBeGreaterThan(full.ROUTES.length / 2);
  });

  it("keeps the messages of the checks: a bad body is refused with the contract's words", () => {
    const body = { name: "", comment: 5 };
    const expected = outcome(full.writeKvStoreBody.safeParse(body));
    expect(expected.issues?.map((issue) => issue.path)).toEqual([["name"], ["comment"]]);
    expect(outcome(lean.writeKvStoreBody.safeParse(body))).toEqual(expected);
  });
});
