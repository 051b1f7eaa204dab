/**
 * The contract as a deployment serves it: every route and the schemas of what it is sent, without the
 * documentation that only the docs, the client's types and the tests read. Most of the contract's code is prose: each schema's
 * `.describe("…")`, each route's `summary` and `description`, and the example call and the walks' case
 * beside each route (`route(definition, { example, case })`). Serving a request reads none of it, but a
 * deployment's bundle carries it, and a starting isolate or Lambda parses it and runs each `.describe`
 * (which makes one more zod schema) before its first request.
 *
 * `leanContract()` is an esbuild plugin that loads the contract's sources without it, found in the
 * TypeScript compiler's syntax tree (a string that merely looks like a call is never touched):
 * - `<schema>.describe(<text>)` becomes `<schema>`;
 * - `route(<definition>, <extras>)` becomes `route(<definition without summary and description>, {})`;
 * - in a route's `responses`, each status's schema becomes `null` but `c.noBody()` (the error statuses of an
 *   `...errorResponses()` keep their one shared envelope): ts-rest answers JSON for any status but a no-body
 *   one, and reads the schemas only to check answers (`responseValidation`), which no deployment does;
 * - each module-level constant's value is wrapped in a call marked `@__PURE__`, so that a bundler leaves
 *   out a schema or a constant nothing that is served reads (one only a success answer or an example used);
 * - `export * as examples` goes (a namespace export would keep every example in a bundle).
 * Everything else is the source as written: paths, methods, schemas with their checks and messages, and
 * the metadata the handlers read (access, body types, client names, aliases). What is taken out leaves its
 * line breaks behind (but before `as` and `satisfies`, which must follow on the same line), so a stack
 * trace through the bundle's source map names the source's own lines.
 *
 * As a script, `tsx scripts/lean.ts <file>` writes the lean contract as one ES module, with zod and
 * @ts-rest/core left to the importer (the Workers build aliases `@cloudplane/contract` to it: wrangler
 * takes no esbuild plugin).
 */
import { readFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build, type Plugin } from "esbuild";
import ts from "typescript";

const CONTRACT = join(dirname(fileURLToPath(import.meta.url)), "..");
const SOURCES = join(CONTRACT, "src");

/** The properties of a route's definition that only the docs read. */
const DOCUMENTATION = new Set(["summary", "description"]);

interface Cut {
  start: number;
  end: number;
  text: string;
}

/** Where the contract's documentation is in one module: the spans to cut, each with what replaces it. */
function documentationIn(file: ts.SourceFile): Cut[] {
  const source = file.text;
  const cuts: Cut[] = [];
  /** `start`…`end` (and a comma right after it) removed, but for the line breaks. */
  const cut = (start: number, end: number, withComma = false, text = "") => {
    if (withComma) {
      const comma = /^\s*,/.exec(source.slice(end));
      if (comma) end += comma[0].length;
    }
    // A line break before `as` or `satisfies` would end the expression there: none is kept before one.
    const breaks = /^\s*(?:as|satisfies)\b/.test(source.slice(end)) ? "" : source.slice(start, end).replace(/[^\n]/g, "");
    cuts.push({ start, end, text: text + breaks });
  };
  /** A route's `responses`: each status's schema becomes `null` (answered as JSON, its shape not checked), but for `c.noBody()`. */
  const answersOnly = (responses: ts.ObjectLiteralExpression) => {
    for (const response of responses.properties) {
      if (!ts.isPropertyAssignment(response)) continue;
      const answer = response.initializer;
      const noBody = ts.isCallExpression(answer) && ts.isPropertyAccessExpression(answer.expression) && answer.expression.name.text === "noBody";
      if (!noBody) cut(answer.getStart(file), answer.end, false, "null");
    }
  };
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      if (ts.isPropertyAccessExpression(callee) && callee.name.text === "describe" && node.arguments.length === 1) {
        cut(callee.expression.end, node.end);
        return visit(callee.expression);
      }
      const [definition, extras] = node.arguments;
      if (ts.isIdentifier(callee) && callee.text === "route" && node.arguments.length === 2 && definition && extras && ts.isObjectLiteralExpression(definition)) {
        for (const property of definition.properties) {
          const name = property.name && ts.isIdentifier(property.name) ? property.name.text : undefined;
          if (name && DOCUMENTATION.has(name)) cut(property.getFullStart(), property.end, true);
          else if (name === "responses" && ts.isPropertyAssignment(property) && ts.isObjectLiteralExpression(property.initializer)) answersOnly(property.initializer);
          else visit(property);
        }
        cut(extras.getStart(file), extras.end, false, "{}");
        return;
      }
    }
    ts.forEachChild(node, visit);
  };
  // Each module-level constant's value is made in a call marked pure: one the importer's bundle does not use is left out of it.
  for (const statement of file.statements) {
    // The examples are documentation too: the lean module does not export their namespace (which a bundle would keep whole).
    if (ts.isExportDeclaration(statement) && statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier) && statement.moduleSpecifier.text === "./examples.js")
      cut(statement.getStart(file), statement.end);
    if (!ts.isVariableStatement(statement)) continue;
    for (const declaration of statement.declarationList.declarations) {
      const value = declaration.initializer;
      if (!value || ts.isArrowFunction(value) || ts.isFunctionExpression(value) || ts.isLiteralExpression(value)) continue;
      cuts.push({ start: value.getStart(file), end: value.getStart(file), text: "/* @__PURE__ */ (() => (" });
      cuts.push({ start: value.end, end: value.end, text: "))()" });
    }
  }
  visit(file);
  return cuts;
}

/** The source of one contract module with its documentation taken out. */
export function leanSource(path: string, source: string): string {
  const cuts = documentationIn(ts.createSourceFile(path, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS)).sort((a, b) => a.start - b.start);
  let lean = "";
  let at = 0;
  for (const { start, end, text } of cuts) {
    lean += source.slice(at, start) + text;
    at = end;
  }
  return lean + source.slice(at);
}

/** An esbuild plugin: the contract's modules, read from its sources, loaded without their documentation. */
export function leanContract(): Plugin {
  return {
    name: "lean-contract",
    setup(builder) {
      builder.onLoad({ filter: /\.ts$/ }, async ({ path }) => {
        if (!path.startsWith(SOURCES + "/") || path.endsWith(".test.ts")) return undefined;
        return { contents: leanSource(path, await readFile(path, "utf8")), loader: "ts" };
      });
    },
  };
}

/** Writes the lean contract to `file`: one ES module (and its source map), importing zod and @ts-rest/core. */
export async function writeLeanContract(file: string): Promise<void> {
  await build({
    entryPoints: [join(SOURCES, "index.ts")],
    outfile: file,
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    external: ["zod", "@ts-rest/core"],
    sourcemap: "linked",
    plugins: [leanContract()],
    logLevel: "warning",
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const file = process.argv[2];
  if (!file) throw new Error("usage: tsx scripts/lean.ts <file>");
  await writeLeanContract(resolve(file));
}
