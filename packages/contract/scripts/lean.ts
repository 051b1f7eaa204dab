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
 * `writeLeanContract(file)` writes the lean contract as one ES module, with zod and @ts-rest/core left to
 * the importer (the Workers build, apps/worker/scripts/lean.ts, aliases `@cloudplane/contract` to it:
 * wrangler takes no esbuild plugin).
 */
import { readdir, readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
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

/**
 * Where a function of the contract takes documentation: the indexes of its parameters that only documented
 * (named `description`, or read by nothing once the documentation is out: `pemText(what)`, whose `what` went
 * into a `.describe`), and of its options whose type or pattern has a `description` property
 * (`listOf(item, { max, noun, description })`).
 */
interface DescriptionParameters {
  text: number[];
  options: number[];
}

function typeHasDescription(type: ts.TypeNode, describedTypes: ReadonlySet<string>): boolean {
  if (ts.isTypeLiteralNode(type)) return type.members.some((member) => member.name?.getText() === "description");
  if (ts.isIntersectionTypeNode(type)) return type.types.some((part) => typeHasDescription(part, describedTypes));
  return ts.isTypeReferenceNode(type) && describedTypes.has(type.typeName.getText());
}

function parameterHasDescription(parameter: ts.ParameterDeclaration, describedTypes: ReadonlySet<string>): boolean {
  const { name, type } = parameter;
  if (ts.isObjectBindingPattern(name) && name.elements.some((element) => (element.propertyName ?? element.name).getText() === "description")) return true;
  return type !== undefined && typeHasDescription(type, describedTypes);
}

/** Whether `name` is read anywhere in `body` (a property's name is not a read; a shadowing declaration counts as one, to be safe). */
function reads(body: ts.Node, name: string): boolean {
  let found = false;
  const visit = (node: ts.Node): void => {
    if (found) return;
    if (ts.isIdentifier(node) && node.text === name) {
      const parent = node.parent;
      const isPropertyName = (ts.isPropertyAccessExpression(parent) && parent.name === node) || (ts.isPropertyAssignment(parent) && parent.name === node);
      if (!isPropertyName) found = true;
    }
    ts.forEachChild(node, visit);
  };
  visit(body);
  return found;
}

/** A module-level constant's value as written, out of the call marked pure that the lean module wraps it in. */
function unwrappedPure(value: ts.Expression): ts.Expression {
  if (!ts.isCallExpression(value) || value.arguments.length > 0 || !ts.isParenthesizedExpression(value.expression)) return value;
  const arrow = value.expression.expression;
  return ts.isArrowFunction(arrow) && ts.isParenthesizedExpression(arrow.body) ? arrow.body.expression : value;
}

/** The documentation parameters of every function the modules declare, by name; a name declared twice with different ones is left alone. */
function documentationParameters(files: readonly ts.SourceFile[], describedTypes: ReadonlySet<string>): Map<string, DescriptionParameters> {
  const found = new Map<string, DescriptionParameters | null>();
  const aliases: [string, string][] = [];
  const declare = (name: string, declaration: ts.SignatureDeclarationBase & { body?: ts.Node | undefined }) => {
    const { parameters, body } = declaration;
    const text = parameters.flatMap((parameter, index) =>
      ts.isIdentifier(parameter.name) && (parameter.name.text === "description" || (body !== undefined && !reads(body, parameter.name.text))) ? [index] : [],
    );
    const options = parameters.flatMap((parameter, index) => (parameterHasDescription(parameter, describedTypes) ? [index] : []));
    const signature = { text, options };
    const earlier = found.get(name);
    if (earlier === undefined) found.set(name, signature);
    else if (earlier && JSON.stringify(earlier) !== JSON.stringify(signature)) found.set(name, null);
  };
  for (const file of files) {
    const visit = (node: ts.Node): void => {
      if (ts.isFunctionDeclaration(node) && node.name) declare(node.name.text, node);
      else if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
        if (ts.isArrowFunction(node.initializer) || ts.isFunctionExpression(node.initializer)) declare(node.name.text, node.initializer);
        else {
          const value = unwrappedPure(node.initializer);
          if (ts.isIdentifier(value)) aliases.push([node.name.text, value.text]);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  // `const reportDay = isoInstant`: the alias takes what the function takes.
  for (const [alias, of] of aliases) if (!found.has(alias) && found.get(of)) found.set(alias, found.get(of)!);
  return new Map([...found].filter((entry): entry is [string, DescriptionParameters] => entry[1] !== null && (entry[1].text.length > 0 || entry[1].options.length > 0)));
}

/**
 * The contract's functions that take documentation, by name, from all its modules (`sources`, by path): a
 * description is documentation wherever it is passed. Taking one argument out can leave a parameter of the
 * function that passed it on read by nothing, so the modules are made lean again until no more are found.
 */
export function descriptionParameters(sources: ReadonlyMap<string, string>): Map<string, DescriptionParameters> {
  const files = [...sources].map(([path, source]) => parsed(path, source));
  const describedTypes = new Set<string>();
  for (const file of files)
    for (const statement of file.statements)
      if (
        (ts.isInterfaceDeclaration(statement) && statement.members.some((member) => member.name?.getText() === "description")) ||
        (ts.isTypeAliasDeclaration(statement) && typeHasDescription(statement.type, describedTypes))
      )
        describedTypes.add(statement.name.text);
  let described = new Map<string, DescriptionParameters>();
  for (let round = 0; round < 10; round++) {
    const lean = files.map((file) => parsed(file.fileName, leanText(file, described)));
    const next = documentationParameters(lean, describedTypes);
    if (JSON.stringify([...next]) === JSON.stringify([...described])) return next;
    described = next;
  }
  return described;
}

/** Where the contract's documentation is in one module: the spans to cut, each with what replaces it. */
function documentationIn(file: ts.SourceFile, described: ReadonlyMap<string, DescriptionParameters>): Cut[] {
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
      const parameters = ts.isIdentifier(callee) ? described.get(callee.text) : undefined;
      if (parameters) {
        node.arguments.forEach((argument, index) => {
          if (parameters.text.includes(index)) return cut(argument.getStart(file), argument.end, false, '""');
          if (parameters.options.includes(index) && ts.isObjectLiteralExpression(argument))
            for (const property of argument.properties) {
              if (ts.isPropertyAssignment(property) && property.name.getText() === "description") cut(property.getStart(file), property.end, true);
              else visit(property);
            }
          else visit(argument);
        });
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

function parsed(path: string, source: string): ts.SourceFile {
  return ts.createSourceFile(path, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
}

/**
 * The source of one contract module with its documentation taken out; `described`, the functions that take
 * documentation (`descriptionParameters`), by default those the module declares itself.
 */
export function leanSource(path: string, source: string, described?: ReadonlyMap<string, DescriptionParameters>): string {
  return leanText(parsed(path, source), described ?? descriptionParameters(new Map([[path, source]])));
}

function leanText(file: ts.SourceFile, described: ReadonlyMap<string, DescriptionParameters>): string {
  const source = file.text;
  const cuts = documentationIn(file, described).sort((a, b) => a.start - b.start);
  let lean = "";
  let at = 0;
  for (const { start, end, text } of cuts) {
    lean += source.slice(at, start) + text;
    at = end;
  }
  return lean + source.slice(at);
}

/** Every module of the contract's sources by path (its tests left out). */
async function contractModules(): Promise<Map<string, string>> {
  const paths = (await readdir(SOURCES, { recursive: true })).filter((path) => path.endsWith(".ts") && !path.endsWith(".test.ts")).map((path) => join(SOURCES, path));
  return new Map(await Promise.all(paths.map(async (path) => [path, await readFile(path, "utf8")] as const)));
}

/** An esbuild plugin: the contract's modules, read from its sources, loaded without their documentation. */
export function leanContract(): Plugin {
  return {
    name: "lean-contract",
    setup(builder) {
      // The modules are read, and the functions that take a description found in all of them, once a build.
      let read: Promise<{ modules: Map<string, string>; described: Map<string, DescriptionParameters> }> | undefined;
      builder.onStart(() => {
        read = undefined;
      });
      builder.onLoad({ filter: /\.ts$/ }, async ({ path }) => {
        if (!path.startsWith(SOURCES + "/") || path.endsWith(".test.ts")) return undefined;
        read ??= contractModules().then((modules) => ({ modules, described: descriptionParameters(modules) }));
        const { modules, described } = await read;
        return { contents: leanSource(path, modules.get(path) ?? (await readFile(path, "utf8")), described), loader: "ts" };
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
