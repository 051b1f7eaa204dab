#!/usr/bin/env node
/**
 * Writes src/core/api.generated.ts: the API's types as plain TypeScript, from the contract's zod schemas
 * (read from its build) through the contract's JSON Schema walk, the one the docs' OpenAPI document is
 * written with. Every named schema of the contract becomes an interface of that name (`EdgeApp`,
 * `CdnResource`, `CreateEdgeAppBody`, …), and so does each route's unnamed body, query and object
 * response (`StreamingListStreamsQuery`), so that hovers and errors show names. `Routes` gives each
 * route's method, path, path parameters, query, body and success response by id. Requests are typed as
 * they are sent (a field with a default may be left out), responses as they are answered.
 *
 * The client's published types need neither zod nor the contract. test/api-types.test-d.ts checks these
 * types against the contract's zod types, route by route.
 *
 *   node scripts/generate-types.mjs            writes the file
 *   node scripts/generate-types.mjs --check    exits 1, writing nothing, if it is not up to date
 *   --out <file>                               another file instead (for the tests)
 */
import { fileURLToPath, URL } from "node:url";
import * as contract from "@cloudplane/contract";
import { docComment, runGenerator } from "./generated.mjs";

const { ERROR_CODES, ERROR_STATUS, RAW_BODY, ROUTES, SchemaConverter, bodyTypeOf, namedSchemas } = contract;

const DEFAULT_OUT = fileURLToPath(new URL("../src/core/api.generated.ts", import.meta.url));
const pascal = (word) => word.charAt(0).toUpperCase() + word.slice(1);
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

const componentName = (ref) => ref.slice(ref.lastIndexOf("/") + 1);

/** Whether `type` is one object literal: its first brace closes at its end (`{ … } | { … }` is two). */
function isOneObject(type) {
  if (!type.startsWith("{")) return false;
  let depth = 0;
  for (let index = 0; index < type.length; index += 1) {
    if (type[index] === "{") depth += 1;
    else if (type[index] === "}" && --depth === 0) return index === type.length - 1;
  }
  return false;
}

/** A type in parentheses where `[]` or `&` would bind to a part of it. */
const grouped = (type) => (isOneObject(type) || !/[|&]/.test(type) ? type : `(${type})`);

/** The TypeScript type of a JSON Schema object of the walk, its nested objects indented from `indent`. */
export function typeOf(schema, indent = "") {
  if (schema.$ref !== undefined) return componentName(schema.$ref);
  if (schema.anyOf !== undefined) return union(schema.anyOf.map((option) => typeOf(option, indent)));
  if (schema.allOf !== undefined) return schema.allOf.map((part) => grouped(typeOf(part, indent))).join(" & ");
  if (schema.enum !== undefined) return union(schema.enum.map((value) => JSON.stringify(value)));
  const types = schema.type === undefined ? [] : [schema.type].flat();
  if (types.length === 0) return "unknown";
  return union(types.map((type) => single(type, schema, indent)));
}

function union(types) {
  const unique = [...new Set(types)];
  return unique.includes("unknown") ? "unknown" : unique.join(" | ");
}

function single(type, schema, indent) {
  switch (type) {
    case "string":
    case "boolean":
    case "null":
      return type;
    case "integer":
    case "number":
      return "number";
    case "array":
      return `${grouped(typeOf(schema.items ?? {}, indent))}[]`;
    case "object":
      return objectType(schema, indent);
    default:
      throw new Error(`No TypeScript type for the JSON Schema type ${type}.`);
  }
}

function objectType(schema, indent) {
  const properties = Object.entries(schema.properties ?? {});
  const extra = schema.additionalProperties;
  const rest = extra === undefined || extra === true ? "unknown" : extra === false ? undefined : typeOf(extra, `${indent}  `);
  if (properties.length === 0) return rest === undefined ? "Record<string, never>" : `Record<string, ${rest}>`;
  const required = new Set(schema.required ?? []);
  const lines = ["{"];
  for (const [key, property] of properties) {
    if (property.description) lines.push(...docComment(property.description, `${indent}  `));
    const name = IDENTIFIER.test(key) ? key : JSON.stringify(key);
    lines.push(`${indent}  ${name}${required.has(key) ? "" : "?"}: ${typeOf(property, `${indent}  `)};`);
  }
  // A zod object that keeps unknown keys (a catchall) or is not strict: its extra keys, as the contract parses them.
  if (rest !== undefined && extra !== undefined) lines.push(`${indent}  [key: string]: ${rest === "unknown" ? "unknown" : `${rest} | undefined`};`);
  lines.push(`${indent}}`);
  return lines.join("\n");
}

/** A named type: an interface for an object, else a type alias. */
function declaration(name, schema) {
  const lines = schema.description ? docComment(schema.description, "") : [];
  const type = typeOf({ ...schema, description: undefined });
  if (type.startsWith("{")) lines.push(`export interface ${name} ${type}`);
  else lines.push(`export type ${name} = ${type};`);
  return lines.join("\n");
}

/** The success (200 or 201) response schema of a route; undefined for one that answers 204. */
const successOf = (route) => route.responses[200] ?? route.responses[201];

/** The generated module's text. */
export function renderTypes(routes) {
  const named = namedSchemas(contract);
  const input = new SchemaConverter(named, [], "input");
  const output = new SchemaConverter(named, [], "output");
  /** Types named after the route that first has them, by the zod schema (an alias's parts are its primary's). */
  const routeTypes = new Map();
  /** The declarations of those types, by name. */
  const declared = new Map();

  /** A part of a route as a type: the component's name, a new name for an unnamed object, else the type itself. */
  const part = (schema, converter, name) => {
    if (routeTypes.has(schema)) return routeTypes.get(schema);
    const converted = converter.convert(schema);
    let type;
    if (converted.$ref !== undefined && converted.description === undefined) type = componentName(converted.$ref);
    else if (converted.type === "object" && converted.properties !== undefined) {
      declared.set(name, declaration(name, converted));
      type = name;
    } else type = typeOf({ ...converted, description: undefined });
    routeTypes.set(schema, type);
    return type;
  };

  const entries = [];
  for (const { id, area, name, route, aliasOf } of routes) {
    const stem = pascal(area) + pascal(name);
    const primary = aliasOf ?? id;
    const pathNames = [...route.path.matchAll(/:(\w+)/g)].map((match) => match[1]);
    let params = "never";
    // Inline: the named methods take path parameters one by one.
    if (route.pathParams) params = typeOf({ ...input.convert(route.pathParams), description: undefined }, "    ");
    else if (pathNames.length > 0) params = `{ ${pathNames.map((each) => `${each}: string`).join("; ")} }`;
    const query = route.query ? part(route.query, input, `${stem}Query`) : "never";
    let body = "never";
    if (route.method !== "GET" && route.method !== "DELETE" && route.body !== undefined && route.body !== null) {
      body = bodyTypeOf(route) === RAW_BODY ? "Uint8Array" : part(route.body, input, `${stem}Body`);
      // A body the route takes or goes without (an empty POST).
      if (route.body.safeParse?.(undefined).success) body = `${body} | undefined`;
    }
    const success = successOf(route);
    const response = success === undefined ? "undefined" : part(success, output, `${stem}Response`);
    const doc = aliasOf ? `\`${route.method} ${route.path}\`: an alias of ${primary}.` : `\`${route.method} ${route.path}\`: ${route.summary ?? ""}.`;
    entries.push(
      ...docComment(doc, "  "),
      `  ${JSON.stringify(id)}: {`,
      `    method: ${JSON.stringify(route.method)};`,
      `    path: ${JSON.stringify(route.path)};`,
      `    params: ${params};`,
      `    query: ${query};`,
      `    body: ${body};`,
      `    response: ${response};`,
      "  };",
    );
  }
  // The error envelope, which no route's success names.
  output.convert(contract.errorEnvelope);

  const components = { ...input.components, ...output.components };
  const lines = [
    "// Generated by scripts/generate-types.mjs from the contract; do not edit. The build writes it,",
    "// `pnpm --filter @cloudplane/client generate` too, and test/generated.test.ts fails when it is out of date.",
    ...docComment(
      "The API's types, as plain TypeScript: every resource and request body the contract names, each route's " +
        "unnamed parts, and `Routes`, each route's method, path, path parameters, query, body and success response by id.",
      "",
    ),
    "",
    ...docComment("The code of an error answered by the API (`error.code` of the error envelope).", ""),
    `export type ErrorCode = ${ERROR_CODES.map((code) => JSON.stringify(code)).join(" | ")};`,
    "",
    "/** The error codes the API answers with each HTTP status. */",
    "export interface ErrorCodes {",
    ...[...new Set(Object.values(ERROR_STATUS))]
      .sort((a, b) => a - b)
      .map((status) => `  ${status}: ${ERROR_CODES.filter((code) => ERROR_STATUS[code] === status).map((code) => JSON.stringify(code)).join(" | ")};`),
    "}",
    "",
  ];
  for (const name of Object.keys(components).sort()) lines.push(declaration(name, components[name]), "");
  for (const name of [...declared.keys()].sort()) lines.push(declared.get(name), "");
  lines.push("/** Every route of the API by id (`area.name`): what it takes and what it answers. */", "export interface Routes {", ...entries, "}", "");
  // The envelope's code is the one type above the walk writes as an enum of its own.
  return lines.join("\n");
}

await runGenerator(import.meta, DEFAULT_OUT, () => renderTypes(ROUTES));
