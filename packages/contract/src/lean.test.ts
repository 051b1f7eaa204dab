/**
 * The lean contract (scripts/lean.ts), which the deployments' bundles carry: its source edits, and the whole
 * lean module against the contract itself, route by route and schema by schema.
 */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { leanSource, writeLeanContract } from "../scripts/lean.js";
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
        'const a = z.string().min(1, "Must not be empty.");',
        "const b = z",
        "  .object({ c: z.number().optional() })",
        ";",
        "const d = z.boolean() as unknown as z.ZodType<boolean>;",
        "const e = z",
        "  .boolean() satisfies z.ZodTypeAny;",
      ].join("\n"),
    );
  });

  it("keeps what only looks like documentation: strings, other calls, describe with other arities", () => {
    const source = [
      'const s = "x.describe(\\"y\\")";',
      "const t = `route(${1}, {})`;",
      'const u = other.describe("a", "b");',
      'const v = describe("free function");',
      'const w = { summary: "a field", description: "kept" };',
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
    expect(lean.replace(/\s+/g, " ")).toBe('export const routes = { getThing: route({ method: "GET", path: "/things/:id", responses: { 200: thing }, metadata: { access: "read" }, }, {} ), };');
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

  it("has every route's schemas as the contract has them, but for their descriptions", () => {
    let compared = 0;
    for (const [index, { id, route }] of full.ROUTES.entries()) {
      const leanRoute = lean.ROUTES[index]!.route;
      const parts: [string, unknown, unknown][] = [
        ["pathParams", route.pathParams, leanRoute.pathParams],
        ["query", route.query, leanRoute.query],
        ["headers", route.headers, leanRoute.headers],
        ...("body" in route ? [["body", route.body, (leanRoute as typeof route & { body: unknown }).body] as [string, unknown, unknown]] : []),
        ...Object.entries(route.responses).map(([status, schema]) => [`responses.${status}`, schema, (leanRoute.responses as Record<string, unknown>)[status]] as [string, unknown, unknown]),
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
    expect(compared).toBeGreaterThan(full.ROUTES.length * 2);
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
        [Object.values(route.responses)[0], Object.values(leanRoute.responses)[0], example.response],
      ];
      for (const [schema, leanSchema, value] of pairs) {
        if (value === undefined || !(schema instanceof Object && "safeParse" in schema)) continue;
        const expected = outcome((schema as z.ZodTypeAny).safeParse(value));
        expect(outcome((leanSchema as z.ZodTypeAny).safeParse(value)), id).toEqual(expected);
        parsed++;
      }
    }
    expect(parsed).toBeGreaterThan(full.ROUTES.length);
  });

  it("keeps the messages of the checks: a bad body is refused with the contract's words", () => {
    const body = { name: "", comment: 5 };
    const expected = outcome(full.writeKvStoreBody.safeParse(body));
    expect(expected.issues?.map((issue) => issue.path)).toEqual([["name"], ["comment"]]);
    expect(outcome(lean.writeKvStoreBody.safeParse(body))).toEqual(expected);
  });
});
