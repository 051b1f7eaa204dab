/**
 * The limited fields of a schema: every integer with its range, and every list and map with its
 * maximum size, each with its path. The contract's tests check with it that every integer has its
 * column's range and every list and map a documented maximum; the handlers' tests send values just
 * past each limit to the routes.
 */
import { z } from "zod";
import { mapLimit } from "./common.js";

export type FieldPath = (string | number)[];

export type LimitedField =
  | { kind: "integer"; path: FieldPath; min: number; max: number }
  | { kind: "list" | "map"; path: FieldPath; min: number; max: number | undefined; description: string | undefined };

/**
 * Keys tried, in order, as the key of a map's entry in the paths: the first that the map's key schema
 * accepts is used (an environment name, a header name, a status code).
 */
const SAMPLE_KEYS = ["KEY", "x-key", "404"];

/** `schema` without the wrappers that do not change what is sent (optional, nullable, default, effects), and the first description met. */
function unwrap(schema: z.ZodTypeAny): { inner: z.ZodTypeAny; description: string | undefined } {
  let current = schema;
  let description: string | undefined;
  for (;;) {
    description ??= current.description;
    if (current instanceof z.ZodOptional || current instanceof z.ZodNullable) current = current.unwrap() as z.ZodTypeAny;
    else if (current instanceof z.ZodDefault) current = current.removeDefault() as z.ZodTypeAny;
    else if (current instanceof z.ZodEffects) current = current.innerType() as z.ZodTypeAny;
    else if (current instanceof z.ZodPipeline) current = (current._def as z.ZodPipelineDef<z.ZodTypeAny, z.ZodTypeAny>).in;
    else if (current instanceof z.ZodLazy) current = current.schema as z.ZodTypeAny;
    else return { inner: current, description };
  }
}

/** Every integer, list and map of `schema` (an object's fields, a list's item, a map's value, each option of a union), depth first. */
export function limitedFields(schema: z.ZodTypeAny, path: FieldPath = []): LimitedField[] {
  const { inner, description } = unwrap(schema);
  if (inner instanceof z.ZodNumber)
    return inner.isInt ? [{ kind: "integer", path, min: inner.minValue ?? -Infinity, max: inner.maxValue ?? Infinity }] : [];
  if (inner instanceof z.ZodArray) {
    const def = inner._def as z.ZodArrayDef;
    const list: LimitedField = { kind: "list", path, min: def.minLength?.value ?? 0, max: def.maxLength?.value, description };
    return [list, ...limitedFields(def.type, [...path, 0])];
  }
  if (inner instanceof z.ZodRecord) {
    const record = inner as z.ZodRecord<z.ZodString, z.ZodTypeAny>;
    const key = SAMPLE_KEYS.find((candidate) => record.keySchema.safeParse(candidate).success) ?? SAMPLE_KEYS[0]!;
    const map: LimitedField = { kind: "map", path, min: 0, max: mapLimit(record), description };
    return [map, ...limitedFields(record.valueSchema, [...path, key])];
  }
  if (inner instanceof z.ZodObject)
    return Object.entries(inner.shape as z.ZodRawShape).flatMap(([key, field]) => limitedFields(field, [...path, key]));
  if (inner instanceof z.ZodUnion) return (inner.options as z.ZodTypeAny[]).flatMap((option) => limitedFields(option, path));
  return [];
}
