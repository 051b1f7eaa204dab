/**
 * The database module as the Workers deployment runs it: every table with its columns, without what only
 * the migrations and Drizzle's relational queries read. A table's constraints and indexes (`pgTable`'s third
 * argument: checks, uniques, foreign keys, indexes) are in the migrations, which drizzle-kit generates from
 * this schema; the relations (`relations(…)`) serve `db.query`, which a worker never builds
 * (`relationalQueries: false`). Serving a request reads neither, but a bundle carries both.
 *
 * `leanSchemaSource` takes them out of one schema module, found in the TypeScript compiler's syntax tree.
 * `writeLeanDatabase(file)` writes the package's entry (`src/index.ts`) as one ES module with its schema so,
 * every package it imports left to the importer (the Workers build, apps/worker/scripts/lean.ts, aliases
 * `@cloudplane/db` to it, as it does the contract's lean module: wrangler takes no esbuild plugin).
 */
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build, type Plugin } from "esbuild";
import ts from "typescript";

const DB = join(dirname(fileURLToPath(import.meta.url)), "..");
const SCHEMA = join(DB, "src", "schema");

/** One schema module without its tables' constraints and indexes and without its relations. */
export function leanSchemaSource(path: string, source: string): string {
  const file = ts.createSourceFile(path, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const cuts: { start: number; end: number }[] = [];
  for (const statement of file.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const { initializer } of statement.declarationList.declarations) {
      if (!initializer || !ts.isCallExpression(initializer) || !ts.isIdentifier(initializer.expression)) continue;
      const callee = initializer.expression.text;
      const [, columns, extraConfig] = initializer.arguments;
      if (callee === "relations" && statement.declarationList.declarations.length === 1) cuts.push({ start: statement.getStart(file), end: statement.end });
      else if (callee === "pgTable" && columns && extraConfig) cuts.push({ start: columns.end, end: extraConfig.end });
    }
  }
  let lean = "";
  let at = 0;
  for (const { start, end } of cuts) {
    // The line breaks stay, so that the source map names the source's own lines.
    lean += source.slice(at, start) + source.slice(start, end).replace(/[^\n]/g, "");
    at = end;
  }
  return lean + source.slice(at);
}

/** An esbuild plugin: the package's schema modules, read from its sources, loaded lean. */
export function leanDatabase(): Plugin {
  return {
    name: "lean-database",
    setup(builder) {
      builder.onLoad({ filter: /\.ts$/ }, async ({ path }) => {
        if (!path.startsWith(SCHEMA + "/") || path.endsWith(".test.ts")) return undefined;
        return { contents: leanSchemaSource(path, await readFile(path, "utf8")), loader: "ts" };
      });
    },
  };
}

/** Writes the lean database module to `file`: one ES module (and its source map), importing every package it uses. */
export async function writeLeanDatabase(file: string): Promise<void> {
  await build({
    entryPoints: [join(DB, "src", "index.ts")],
    outfile: file,
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    packages: "external",
    external: ["node:*"],
    sourcemap: "linked",
    plugins: [leanDatabase()],
    logLevel: "warning",
  });
}
