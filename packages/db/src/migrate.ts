/**
 * Applies the bundled migrations (migrations.generated.ts) in order, each in its own transaction,
 * and records them in `cloudplane_migrations`. Safe to run at every start and from many instances at once.
 */
import { eq, sql } from "drizzle-orm";
import { pgTable, text } from "drizzle-orm/pg-core";
import type { Database, DatabaseTransaction } from "./database.js";
import { migrations as bundledMigrations } from "./migrations.generated.js";
import { timestamptz } from "./schema/columns.js";

export interface Migration {
  /** The migration's tag in drizzle/, e.g. `0000_init`; they apply in this order. */
  name: string;
  /** Hex SHA-256 of the migration's SQL file, to notice a migration that was edited after it shipped. */
  hash: string;
  statements: readonly string[];
}

/** Kept apart from the schema so that Drizzle Kit does not try to create it: the migrator owns it. */
export const cloudplaneMigrations = pgTable("cloudplane_migrations", {
  name: text("name").primaryKey(),
  hash: text("hash").notNull(),
  appliedAt: timestamptz("applied_at").notNull().defaultNow(),
});

/**
 * Every instance that starts at once takes the same transaction-scoped advisory lock before it looks
 * at or changes the schema, so exactly one applies each migration and the others then see it done.
 */
const MIGRATION_LOCK_KEY = 0x636c6f7564; // "cloud" in ASCII

async function underMigrationLock<T>(db: Database, work: (tx: DatabaseTransaction) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${sql.raw(String(MIGRATION_LOCK_KEY))})`);
    await tx.execute(
      sql`create table if not exists cloudplane_migrations (name text primary key, hash text not null, applied_at timestamp with time zone not null default now())`,
    );
    return work(tx);
  });
}

function checkHash(migration: Migration, appliedHash: string): void {
  if (appliedHash !== migration.hash) {
    throw new Error(
      `Migration ${migration.name} was changed after it was applied to this database. ` +
        "Add a new migration (pnpm --filter @cloudplane/db generate) instead of editing a shipped one.",
    );
  }
}

/** Whether every migration is applied (each checked against its recorded hash). */
function upToDate(migrations: readonly Migration[], appliedHashes: Map<string, string>): boolean {
  for (const migration of migrations) {
    const known = appliedHashes.get(migration.name);
    if (known === undefined) return false;
    checkHash(migration, known);
  }
  return true;
}

/**
 * Applies the migrations this database has not had yet and returns their names (empty when it was
 * up to date). Each runs in one transaction with its record, so a failure leaves no half schema.
 */
export async function applyMigrations(db: Database, migrations: readonly Migration[] = bundledMigrations): Promise<string[]> {
  // Up to date, as nearly every start finds it: one statement, without the lock's transaction (five).
  // Where the record cannot be read (a new database has none), the locked path below makes it.
  const seen = await db
    .select()
    .from(cloudplaneMigrations)
    .catch(() => undefined);
  if (seen && upToDate(migrations, new Map(seen.map((row) => [row.name, row.hash])))) return [];
  const applied = await underMigrationLock(db, (tx) => tx.select().from(cloudplaneMigrations));
  const appliedHashes = new Map(applied.map((row) => [row.name, row.hash]));

  const newlyApplied: string[] = [];
  for (const migration of migrations) {
    const known = appliedHashes.get(migration.name);
    if (known !== undefined) {
      checkHash(migration, known);
      continue;
    }
    const ran = await underMigrationLock(db, async (tx) => {
      // Another instance may have applied it while this one waited for the lock.
      const [record] = await tx.select().from(cloudplaneMigrations).where(eq(cloudplaneMigrations.name, migration.name));
      if (record) {
        checkHash(migration, record.hash);
        return false;
      }
      for (const statement of migration.statements) await tx.execute(sql.raw(statement));
      await tx.insert(cloudplaneMigrations).values({ name: migration.name, hash: migration.hash });
      return true;
    });
    if (ran) newlyApplied.push(migration.name);
  }
  return newlyApplied;
}
