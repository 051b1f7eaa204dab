/**
 * The contract's zod schemas as OpenAPI 3.1 schema objects (JSON Schema 2020-12), by a walk over the
 * zod definitions, with the contract's named schemas as `components.schemas` referenced by `$ref`. The
 * docs' OpenAPI document and the client's plain TypeScript types are both written from it.
 */
import { z } from "zod";

/** An OpenAPI 3.1 schema object, as far as this walk writes one. */
export interface SchemaObject {
  $ref?: string;
  type?: string | string[];
  description?: string;
  enum?: unknown[];
  default?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  items?: SchemaObject;
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, SchemaObject>;
  required?: string[];
  additionalProperties?: SchemaObject | boolean;
  propertyNames?: SchemaObject;
  anyOf?: SchemaObject[];
  allOf?: SchemaObject[];
}

/**
 * Converts zod schemas, collecting the named ones it meets into `components`. A schema is named when it
 * is (or wraps) the object of one of the `named` schemas: `errorEnvelope.describe("…")` is still the
 * `ErrorEnvelope` component, its description going beside the `$ref`.
 */
/**
 * Which side of a schema to describe: what is sent (`input`: a field with a default may be left out) or
 * what is parsed from it (`output`: a field with a default is always there).
 */
export type SchemaSide = "input" | "output";

/**
 * The named schemas of a module of the contract (`import * as contract from "@cloudplane/contract"`):
 * every exported object schema, by its name with a capital first letter (`cdnResource` → `CdnResource`).
 */
export function namedSchemas(module: Record<string, unknown>): Record<string, z.ZodTypeAny> {
  const named: Record<string, z.ZodTypeAny> = {};
  for (const [name, value] of Object.entries(module)) {
    if (value instanceof z.ZodType && unwrapped(value) instanceof z.ZodObject) named[name[0]!.toUpperCase() + name.slice(1)] = value;
  }
  return named;
}

export class SchemaConverter {
  /** Named schemas met so far, by component name: the `components.schemas` of the document. */
  readonly components: Record<string, SchemaObject> = {};
  private readonly names = new Map<unknown, string>();
  private readonly namedSchemas = new Map<string, z.ZodTypeAny>();

  private readonly formats: Map<unknown, string>;

  /**
   * `named`: the schemas that become components, by name. `formats`: string schemas (and the ones made
   * from them by `.describe()`) whose checks JSON Schema says better with a format, e.g. a case-insensitive
   * host name pattern as `hostname`.
   */
  constructor(
    named: Record<string, z.ZodTypeAny>,
    formats: Array<[z.ZodString, string]> = [],
    private readonly side: SchemaSide = "input",
  ) {
    this.formats = new Map(formats.map(([schema, format]) => [schema._def.checks, format]));
    for (const [name, schema] of Object.entries(named)) {
      const key = identity(schema);
      if (key !== undefined && !this.names.has(key)) {
        this.names.set(key, name);
        this.namedSchemas.set(name, schema);
      }
    }
  }

  /** The schema object of `schema`, a `$ref` when it is a named schema. */
  convert(schema: z.ZodTypeAny): SchemaObject {
    const description = describedAs(schema);
    const name = this.names.get(identity(schema));
    if (name === undefined) return this.inline(schema);
    if (!(name in this.components)) {
      this.components[name] = {}; // Reserved first, so that a schema that contains itself ends.
      this.components[name] = this.inline(this.namedSchemas.get(name)!);
    }
    const ref: SchemaObject = { $ref: `#/components/schemas/${name}` };
    const result = isNullable(schema) ? withNull(ref) : ref;
    if (description !== undefined && description !== this.components[name]?.description) result.description = description;
    return result;
  }

  /** The schema object of `schema` written out, even when it is a named schema. */
  inline(schema: z.ZodTypeAny): SchemaObject {
    const description = describedAs(schema);
    const converted = this.convertType(unwrapped(schema));
    const defaultValue = defaultOf(schema);
    const nullable = isNullable(schema);
    const result = nullable ? withNull(converted) : converted;
    if (defaultValue !== undefined) result.default = defaultValue;
    if (description !== undefined) result.description = description;
    return result;
  }

  private convertType(schema: z.ZodTypeAny): SchemaObject {
    const def = schema._def as { typeName: z.ZodFirstPartyTypeKind };
    switch (def.typeName) {
      case z.ZodFirstPartyTypeKind.ZodString: {
        const result = stringSchema(schema as z.ZodString);
        const format = this.formats.get((schema as z.ZodString)._def.checks);
        if (format !== undefined) result.format = format;
        return result;
      }
      case z.ZodFirstPartyTypeKind.ZodNumber:
        return numberSchema(schema as z.ZodNumber);
      case z.ZodFirstPartyTypeKind.ZodBoolean:
        return { type: "boolean" };
      case z.ZodFirstPartyTypeKind.ZodNull:
        return { type: "null" };
      case z.ZodFirstPartyTypeKind.ZodLiteral: {
        const value = (schema as z.ZodLiteral<unknown>).value;
        return { type: jsonType(value), enum: [value] };
      }
      case z.ZodFirstPartyTypeKind.ZodEnum:
        return { type: "string", enum: [...(schema as z.ZodEnum<[string, ...string[]]>).options] };
      case z.ZodFirstPartyTypeKind.ZodUnion:
        return this.union((schema as z.ZodUnion<[z.ZodTypeAny, ...z.ZodTypeAny[]]>).options);
      case z.ZodFirstPartyTypeKind.ZodArray:
        return this.array(schema as z.ZodArray<z.ZodTypeAny>);
      case z.ZodFirstPartyTypeKind.ZodObject:
        return this.object(schema as z.AnyZodObject);
      case z.ZodFirstPartyTypeKind.ZodRecord: {
        const record = schema as z.ZodRecord<z.ZodString, z.ZodTypeAny>;
        const result: SchemaObject = { type: "object", additionalProperties: this.convert(record.valueSchema) };
        const keys = stringSchema(unwrapped(record.keySchema) as z.ZodString);
        if (keys.pattern !== undefined) result.propertyNames = { pattern: keys.pattern };
        return result;
      }
      case z.ZodFirstPartyTypeKind.ZodIntersection: {
        const { left, right } = schema._def as z.ZodIntersectionDef;
        return { allOf: [this.convert(left), this.convert(right)] };
      }
      case z.ZodFirstPartyTypeKind.ZodUnknown:
      case z.ZodFirstPartyTypeKind.ZodAny:
        return {};
      default:
        // A zod type this walk does not know would be documented wrongly; better to fail the build.
        throw new Error(`No OpenAPI form for ${def.typeName}`);
    }
  }

  private union(options: readonly z.ZodTypeAny[]): SchemaObject {
    const literals = options.map(unwrapped).filter((option): option is z.ZodLiteral<unknown> => option instanceof z.ZodLiteral);
    const types = new Set(literals.map((literal) => jsonType(literal.value)));
    if (literals.length === options.length && types.size === 1) {
      return { type: [...types][0]!, enum: literals.map((literal) => literal.value) };
    }
    return { anyOf: options.map((option) => this.convert(option)) };
  }

  private array(schema: z.ZodArray<z.ZodTypeAny>): SchemaObject {
    const def = schema._def;
    const result: SchemaObject = { type: "array", items: this.convert(def.type) };
    if (def.exactLength) result.minItems = result.maxItems = def.exactLength.value;
    if (def.minLength) result.minItems = def.minLength.value;
    if (def.maxLength) result.maxItems = def.maxLength.value;
    return result;
  }

  private object(schema: z.AnyZodObject): SchemaObject {
    const properties: Record<string, SchemaObject> = {};
    const required: string[] = [];
    for (const [key, field] of Object.entries(schema.shape as z.ZodRawShape)) {
      properties[key] = this.convert(field);
      if (!(this.side === "output" ? isOptionalOutput(field) : field.isOptional())) required.push(key);
    }
    const result: SchemaObject = { type: "object", properties };
    if (required.length > 0) result.required = required;
    const catchall = schema._def.catchall as z.ZodTypeAny;
    if (!(catchall instanceof z.ZodNever)) result.additionalProperties = this.convert(catchall);
    else if (schema._def.unknownKeys === "strict") result.additionalProperties = false;
    return result;
  }
}

/** Whether a field may be missing from what a schema parses: optional, and not filled by a default. */
function isOptionalOutput(schema: z.ZodTypeAny): boolean {
  let current: z.ZodTypeAny | undefined = schema;
  while (current !== undefined) {
    if (current instanceof z.ZodDefault) return false;
    if (current instanceof z.ZodOptional) return true;
    const next = unwrapOnce(current);
    current = next === current ? undefined : next;
  }
  return false;
}

/** The JSON Schema type of a literal value. */
function jsonType(value: unknown): string {
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return value === null ? "null" : typeof value;
}

/** What makes two zod schemas "the same named schema": the object they are or wrap. */
function identity(schema: z.ZodTypeAny): unknown {
  const inner = unwrapped(schema);
  // `.describe()` copies the definition, so the shape getter is shared by every described copy.
  return inner instanceof z.ZodObject ? (inner._def as { shape: unknown }).shape : undefined;
}

/**
 * The schema under optional, nullable, default and effects wrappers (preprocess, refine, transform):
 * the contract's strict bodies and integer path and query parameters are `z.preprocess` around the
 * object or number that says what is sent.
 */
export function unwrapped(schema: z.ZodTypeAny): z.ZodTypeAny {
  let current = schema;
  for (;;) {
    if (current instanceof z.ZodOptional || current instanceof z.ZodNullable) current = current.unwrap() as z.ZodTypeAny;
    else if (current instanceof z.ZodDefault) current = current.removeDefault() as z.ZodTypeAny;
    else if (current instanceof z.ZodEffects) current = current.innerType() as z.ZodTypeAny;
    else if (current instanceof z.ZodBranded || current instanceof z.ZodReadonly || current instanceof z.ZodCatch)
      current = (current._def as { innerType: z.ZodTypeAny }).innerType;
    else if (current instanceof z.ZodPipeline) current = (current._def as z.ZodPipelineDef<z.ZodTypeAny, z.ZodTypeAny>).in;
    else if (current instanceof z.ZodLazy) current = current.schema as z.ZodTypeAny;
    else return current;
  }
}

/** The outermost description: `.describe()` at the point of use wins over the one of the schema used. */
function describedAs(schema: z.ZodTypeAny): string | undefined {
  let current: z.ZodTypeAny | undefined = schema;
  while (current !== undefined) {
    if (current.description) return current.description;
    const next = unwrapOnce(current);
    current = next === current ? undefined : next;
  }
  return undefined;
}

function unwrapOnce(schema: z.ZodTypeAny): z.ZodTypeAny {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) return schema.unwrap() as z.ZodTypeAny;
  if (schema instanceof z.ZodDefault) return schema.removeDefault() as z.ZodTypeAny;
  if (schema instanceof z.ZodEffects) return schema.innerType() as z.ZodTypeAny;
  return schema;
}

function defaultOf(schema: z.ZodTypeAny): unknown {
  let current: z.ZodTypeAny | undefined = schema;
  while (current !== undefined) {
    if (current instanceof z.ZodDefault) return (current._def.defaultValue as () => unknown)();
    const next = unwrapOnce(current);
    current = next === current ? undefined : next;
  }
  return undefined;
}

function isNullable(schema: z.ZodTypeAny): boolean {
  let current: z.ZodTypeAny | undefined = schema;
  while (current !== undefined) {
    if (current instanceof z.ZodNullable) return true;
    const next = unwrapOnce(current);
    current = next === current ? undefined : next;
  }
  return false;
}

/** `schema` or null: a type list with "null" where it can, else `anyOf`. */
function withNull(schema: SchemaObject): SchemaObject {
  if (typeof schema.type === "string" && schema.$ref === undefined && schema.anyOf === undefined) {
    const result: SchemaObject = { ...schema, type: [schema.type, "null"] };
    if (schema.enum) result.enum = [...schema.enum, null];
    return result;
  }
  const { description, ...rest } = schema;
  return { anyOf: [rest, { type: "null" }], ...(description === undefined ? {} : { description }) };
}

function stringSchema(schema: z.ZodString): SchemaObject {
  const result: SchemaObject = { type: "string" };
  for (const check of schema._def.checks) {
    switch (check.kind) {
      case "min":
        result.minLength = check.value;
        break;
      case "max":
        result.maxLength = check.value;
        break;
      case "length":
        result.minLength = result.maxLength = check.value;
        break;
      case "regex":
        // JSON Schema patterns have no flags: a case-insensitive one would reject valid values.
        if (check.regex.flags.replace(/[gu]/g, "") === "") result.pattern = check.regex.source;
        break;
      case "datetime":
        result.format = "date-time";
        break;
      case "uuid":
        result.format = "uuid";
        break;
      case "url":
        result.format = "uri";
        break;
      case "email":
        result.format = "email";
        break;
      case "ip":
        if (check.version) result.format = `ip${check.version}`;
        break;
      default:
        break;
    }
  }
  return result;
}

function numberSchema(schema: z.ZodNumber): SchemaObject {
  const result: SchemaObject = { type: schema.isInt ? "integer" : "number" };
  for (const check of schema._def.checks) {
    if (check.kind === "min") {
      if (check.inclusive) result.minimum = check.value;
      else result.exclusiveMinimum = check.value;
    } else if (check.kind === "max") {
      if (check.inclusive) result.maximum = check.value;
      else result.exclusiveMaximum = check.value;
    } else if (check.kind === "multipleOf") result.multipleOf = check.value;
  }
  return result;
}
