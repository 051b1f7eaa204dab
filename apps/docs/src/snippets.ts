/**
 * Code snippets of each operation, from its route and its example: a call of the TypeScript client's
 * (@cloudplane/client) method for it, named by the contract's `clientMethodOf` as the client is, and the
 * same request with curl. Parts the example lacks are left out (a path parameter without one is shown as
 * `{name}`, and as the argument's name in the call).
 */
import { bodyTypeOf, clientMethodOf, isBytes, RAW_BODY } from "@cloudplane/contract";
import type { AppRoute } from "@ts-rest/core";
import type { OperationDocs } from "./operations.js";

/** The environment variables the snippets read: the API's base URL and an API token. */
export const ENV = { baseUrl: "CLOUDPLANE_BASE_URL", apiToken: "CLOUDPLANE_API_KEY" } as const;

/**
 * How a project gets the client. zod and @ts-rest/core are its peer dependencies: the project's own
 * copies are used, and npm and pnpm add them when it has none.
 */
export const CLIENT_INSTALL = "npm install @cloudplane/client";

/** How a program makes the client that every operation snippet uses (these options are also its defaults). */
export const CLIENT_SETUP = [
  'import { createClient } from "@cloudplane/client";',
  "",
  "const client = createClient({",
  `  baseUrl: process.env.${ENV.baseUrl},`,
  `  apiKey: process.env.${ENV.apiToken},`,
  "});",
].join("\n");

/** The path parameter names of a route, in path order. */
export function pathParamNames(route: AppRoute): string[] {
  return [...route.path.matchAll(/:(\w+)/g)].map((match) => match[1]!);
}

/** The route's path with the example's path parameters filled in. */
export function examplePath(route: AppRoute, docs: OperationDocs): string {
  return route.path.replace(/:(\w+)/g, (_match, name: string) => {
    const value = docs.pathParams?.[name];
    return value === undefined ? `{${name}}` : encodeURIComponent(String(value));
  });
}

/**
 * The call through the TypeScript client, without the setup: `const x = await client.cdn.resources.update(1, { … });`,
 * the method a user would write (an alias's is its primary's), with the example's path parameters, body and query.
 */
export function clientCall(docs: OperationDocs): string {
  const { resource, method, args, body, query } = clientMethodOf(docs.id);
  const values = args.map(({ param, name }) => {
    const value = docs.pathParams?.[param];
    return value === undefined ? name : tsLiteral(value, "");
  });
  const withQuery = query && docs.query !== undefined;
  // The body comes before the query: a query to show needs a body in its place, if only an empty one.
  if (body && (docs.body !== undefined || withQuery)) values.push(docs.body === undefined ? "{}" : tsLiteral(docs.body, ""));
  if (withQuery) values.push(tsLiteral(docs.query, ""));
  const [area] = docs.id.split(".");
  return `const ${docs.result} = await client.${[area, ...resource, method].join(".")}(${values.join(", ")});`;
}

/** A whole TypeScript program: the client setup and the call. */
export function typescriptSnippet(docs: OperationDocs): string {
  return `${CLIENT_SETUP}\n\n${clientCall(docs)}`;
}

/** The request with curl, reading the base URL and the token from the environment. */
export function curlSnippet(route: AppRoute, docs: OperationDocs): string {
  const query = docs.query ? `?${new URLSearchParams(Object.entries(docs.query).map(([key, value]) => [key, String(value)])).toString()}` : "";
  const lines = [`curl -X ${route.method} "$${ENV.baseUrl}${examplePath(route, docs)}${query}"`, `-H "Authorization: apikey $${ENV.apiToken}"`];
  if ("body" in route && docs.body !== undefined && bodyTypeOf(route) === RAW_BODY && isBytes(docs.body)) {
    // Raw bytes, piped in by printf's octal escapes so that the sample runs as it is (a file: --data-binary @app.wasm).
    lines.push(`-H "Content-Type: ${RAW_BODY}"`, "--data-binary @-");
    const octal = Array.from(docs.body, (byte) => `\\${byte.toString(8).padStart(3, "0")}`).join("");
    return `printf '${octal}' | ${lines.join(" \\\n  ")}`;
  }
  if ("body" in route && docs.body !== undefined) {
    lines.push('-H "Content-Type: application/json"');
    lines.push(`-d '${JSON.stringify(docs.body, null, 2).replaceAll("'", "'\\''")}'`);
  }
  return lines.join(" \\\n  ");
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** `value` as a TypeScript expression, indented by `indent`: keys unquoted where they may be. */
export function tsLiteral(value: unknown, indent: string): string {
  // Raw bytes (a body of a route that takes them), byte by byte.
  if (isBytes(value)) return `new Uint8Array([${Array.from(value, (byte) => `0x${byte.toString(16).padStart(2, "0")}`).join(", ")}])`;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    const inner = indent + "  ";
    return `[\n${value.map((item) => inner + tsLiteral(item, inner)).join(",\n")},\n${indent}]`;
  }
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value);
    if (entries.length === 0) return "{}";
    const inner = indent + "  ";
    const lines = entries.map(([key, item]) => `${inner}${IDENTIFIER.test(key) ? key : JSON.stringify(key)}: ${tsLiteral(item, inner)}`);
    return `{\n${lines.join(",\n")},\n${indent}}`;
  }
  if (value === undefined) throw new Error("An example value is missing");
  return JSON.stringify(value);
}
