/**
 * zod 3's schemas hand out their methods bound to themselves, made when first read instead of in every
 * schema's constructor (patches/zod@3.25.76.patch): a schema made and never asked for one carries none,
 * and everything a caller could do with them before still works.
 */
/* eslint-disable @typescript-eslint/unbound-method -- what is tested: methods taken off their schema work. */
import { describe, expect, it } from "vitest";
import { z } from "zod";

const BOUND = ["parse", "safeParse", "parseAsync", "safeParseAsync", "spa", "refine", "refinement", "superRefine", "optional", "nullable", "nullish", "array", "promise", "or", "and", "transform", "brand", "default", "catch", "describe", "pipe", "readonly", "isNullable", "isOptional"] as const;

describe("zod 3's bound methods", () => {
  it("are not made with the schema: a new schema holds only its definition", () => {
    for (const schema of [z.string(), z.number().int().min(1).describe("n"), z.object({ a: z.string().optional() })]) {
      expect(BOUND.filter((name) => Object.hasOwn(schema, name))).toEqual([]);
      expect(Object.hasOwn(schema, "~standard")).toBe(false);
      expect(Object.hasOwn(schema, "_def")).toBe(true);
    }
  });

  it("are bound to their schema once read, and the same function every time", () => {
    const schema = z.string().min(2, "Too short.");
    const { parse, safeParse } = schema;
    expect(parse("ab")).toBe("ab");
    expect(safeParse("a")).toMatchObject({ success: false, error: { issues: [{ message: "Too short." }] } });
    const detached = [schema.parse][0]!;
    expect(["xy", "zw"].map((value) => detached(value))).toEqual(["xy", "zw"]);
    expect(schema.parse).toBe(parse);
    expect(Object.hasOwn(schema, "parse")).toBe(true);
    // Each schema has its own: another schema's parse checks with that schema.
    const other = z.number();
    const otherParse = other.parse;
    expect(otherParse).not.toBe(parse);
    expect(() => otherParse("ab")).toThrow();
    const { optional, describe: describeIt, or } = schema;
    expect(optional().parse(undefined)).toBeUndefined();
    expect(describeIt("described").description).toBe("described");
    expect(or(z.number()).parse(5)).toBe(5);
  });

  it("keep spa as safeParseAsync, and the standard schema props", async () => {
    const schema = z.object({ id: z.number() });
    const { spa } = schema;
    expect(await spa({ id: "x" })).toMatchObject({ success: false });
    expect(await schema.safeParseAsync({ id: 1 })).toEqual({ success: true, data: { id: 1 } });
    const standard = schema["~standard"];
    expect(schema["~standard"]).toBe(standard);
    expect(standard).toMatchObject({ version: 1, vendor: "zod" });
    expect(await standard.validate({ id: 2 })).toEqual({ value: { id: 2 } });
    expect(await standard.validate({})).toMatchObject({ issues: [{ path: ["id"] }] });
  });

  it("can be replaced on a schema, as before, without touching another schema", () => {
    const schema = z.string();
    const replacement = () => "replaced";
    schema.parse = replacement;
    expect(schema.parse).toBe(replacement);
    expect(schema.parse(1)).toBe("replaced");
    expect(z.string().parse("kept")).toBe("kept");
  });

  it("read off the prototype are the methods themselves, and leave the prototype as it was", () => {
    const schema = z.string();
    const method = z.ZodType.prototype.safeParse;
    expect(method.call(schema, "a")).toEqual({ success: true, data: "a" });
    expect(Object.getOwnPropertyDescriptor(z.ZodType.prototype, "safeParse")?.get).toBeTypeOf("function");
    const { safeParse } = z.number();
    expect(safeParse("a").success).toBe(false);
    expect(safeParse(1)).toEqual({ success: true, data: 1 });
  });
});
