/**
 * The lean database module (scripts/lean.ts), which the Workers bundle carries: its source edits, and the
 * whole lean module against the package itself, table by table and column by column.
 */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Relations, sql } from "drizzle-orm";
import { getTableConfig, PgDialect, PgTable } from "drizzle-orm/pg-core";
import { beforeAll, describe, expect, it } from "vitest";
import { leanSchemaSource, writeLeanDatabase } from "../scripts/lean.js";
import * as full from "./index.js";

describe("leanSchemaSource", () => {
  it("takes out a table's constraints and indexes and a module's relations, and keeps their line breaks", () => {
    const source = [
      "export const things = pgTable(",
      '  "things",',
      '  { id: integer("id").primaryKey(), name: text("name").notNull() },',
      "  (t) => [",
      '    check("things_name_check", sql`length(${t.name}) > 0`),',
      "  ],",
      ");",
      'export const plain = pgTable("plain", { id: integer("id") });',
      "export const thingsRelations = relations(things, ({ many }) => ({ parts: many(parts) }));",
      'const unrelated = other("things", {}, () => []);',
    ].join("\n");
    const lean = leanSchemaSource("x.ts", source);
    expect(lean.split("\n")).toHaveLength(source.split("\n").length);
    expect(lean.replace(/\s+/g, " ")).toBe(
      'export const things = pgTable( "things", { id: integer("id").primaryKey(), name: text("name").notNull() } , ); export const plain = pgTable("plain", { id: integer("id") }); const unrelated = other("things", {}, () => []);',
    );
  });
});

describe("the lean database module", () => {
  let lean: typeof full;
  beforeAll(async () => {
    // Under the package's node_modules, so that its imports of drizzle-orm and the rest resolve to the package's own.
    const directory = fileURLToPath(new URL("../node_modules/.cache/lean-test/", import.meta.url));
    await mkdir(directory, { recursive: true });
    const file = join(directory, "db.js");
    await writeLeanDatabase(file);
    lean = (await import(/* @vite-ignore */ `${file}?${Date.now()}`)) as typeof full;
  }, 60_000);

  const tablesOf = (module: Record<string, unknown>) =>
    Object.entries(module)
      .filter((entry): entry is [string, PgTable] => entry[1] instanceof PgTable)
      .sort(([a], [b]) => (a < b ? -1 : 1));

  it("has every table with the same name and columns: their SQL names, types, nullability, defaults and keys", () => {
    const tables = tablesOf(full);
    expect(tables.length).toBeGreaterThan(50);
    expect(tablesOf(lean).map(([name]) => name)).toEqual(tables.map(([name]) => name));
    for (const [name, table] of tables) {
      const columns = (config: ReturnType<typeof getTableConfig>) =>
        config.columns.map((column) => ({
          name: column.name,
          type: column.getSQLType(),
          notNull: column.notNull,
          hasDefault: column.hasDefault,
          primary: column.primary,
          isUnique: column.isUnique,
        }));
      const config = getTableConfig(table);
      const leanConfig = getTableConfig((lean as unknown as Record<string, PgTable>)[name]!);
      expect({ name: leanConfig.name, columns: columns(leanConfig) }, name).toEqual({ name: config.name, columns: columns(config) });
    }
  });

  it("has none of the tables' own constraints and indexes (the migrations hold them) and no relations; the package has both", () => {
    const parts = (module: Record<string, unknown>) => {
      let constraints = 0;
      let foreignKeys = 0;
      for (const [, table] of tablesOf(module)) {
        const config = getTableConfig(table);
        constraints += config.checks.length + config.indexes.length + config.uniqueConstraints.length + config.primaryKeys.length;
        foreignKeys += config.foreignKeys.length;
      }
      return { constraints, foreignKeys, relations: Object.values(module).filter((value) => value instanceof Relations).length };
    };
    const ofPackage = parts(full);
    const ofLean = parts(lean);
    expect(ofPackage.constraints).toBeGreaterThan(100);
    expect(ofPackage.relations).toBeGreaterThan(20);
    expect({ constraints: ofLean.constraints, relations: ofLean.relations }).toEqual({ constraints: 0, relations: 0 });
    // A column's own `.references(…)` is part of its column; the table-level foreign keys go.
    expect(ofLean.foreignKeys).toBeLessThan(ofPackage.foreignKeys);
  });

  it("builds the same SQL for a query as the package", () => {
    const query = (module: typeof full) =>
      new PgDialect().sqlToQuery(sql`select ${module.streams.id} from ${module.streams} where ${module.streams.accountId} = ${1} and ${module.streams.name} = ${"a"}`);
    expect(query(lean)).toEqual(query(full));
  });
});
