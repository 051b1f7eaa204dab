/**
 * The platform's catalog: what it offers every account, kept in the demo fixture's rows that belong to no
 * account (shielding points of presence, edge plans, public templates and their binaries, inference
 * models, regions, common security profile templates). Every deployment needs it, demo data or not:
 * provisioning loads it.
 */
import { getTableColumns } from "drizzle-orm";
import { getTableConfig, type PgColumn, type PgTable } from "drizzle-orm/pg-core";
import type { Database } from "./database.js";
import { demoTablesInOrder, loadDemoData } from "./demo.js";
import { demoFixture, type DemoFixture, type DemoTableName } from "./demo-fixture.js";

/**
 * The values of `columns` in a fixture row of `table` (keyed by column key). Columns are matched by SQL
 * name: a constraint's columns are copies of the table's own.
 */
function valuesOf(table: PgTable, row: object, columns: PgColumn[]): unknown[] {
  const keys = new Map(Object.entries(getTableColumns(table)).map(([key, column]) => [column.name, key]));
  return columns.map((column) => (row as Record<string, unknown>)[keys.get(column.name)!] ?? null);
}

/**
 * The rows of `fixture` (the demo data by default) that belong to no account: the accounts are left
 * out, and with them every row that refers to one, or to a row left out, through the schema's foreign keys.
 */
export function platformCatalog(fixture: DemoFixture = demoFixture): DemoFixture {
  const ordered = demoTablesInOrder(fixture);
  const nameOf = new Map(ordered.map(([name, table]) => [table, name]));
  const catalog: Partial<Record<DemoTableName, object[]>> = {};
  for (const [name, table] of ordered) {
    // A table's references to itself are not followed: no row of the platform refers to an account's row of its own table.
    const references = getTableConfig(table)
      .foreignKeys.map((foreignKey) => foreignKey.reference())
      .filter((reference) => reference.foreignTable !== table && nameOf.has(reference.foreignTable))
      .map((reference) => ({
        columns: reference.columns,
        kept: new Set(catalog[nameOf.get(reference.foreignTable)!]!.map((row) => JSON.stringify(valuesOf(reference.foreignTable, row, reference.foreignColumns)))),
      }));
    const rows = name === "accounts" ? [] : (fixture[name] as object[]);
    // As PostgreSQL checks a foreign key (MATCH SIMPLE): a reference with a null in it refers to nothing.
    catalog[name] = rows.filter((row) =>
      references.every(({ columns, kept }) => {
        const values = valuesOf(table, row, columns);
        return values.includes(null) || kept.has(JSON.stringify(values));
      }),
    );
  }
  return catalog as DemoFixture;
}

/**
 * Loads the platform's catalog, idempotently (rows already there are left alone), in one transaction.
 * The catalog holds no secret, so the key it is loaded with encrypts nothing and is thrown away.
 */
export async function loadPlatformCatalog(db: Database): Promise<void> {
  const catalog = platformCatalog();
  if (catalog.logsUploaderTargets.length > 0 || catalog.edgeSecretSlots.length > 0)
    throw new Error("The platform's catalog must hold no secrets: logs uploader targets and edge secrets belong to accounts.");
  const secretsKey = await globalThis.crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]);
  await loadDemoData(db, { secretsKey, fixture: catalog });
}
