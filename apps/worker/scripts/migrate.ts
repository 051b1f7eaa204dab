/**
 * `pnpm --filter @cloudplane/worker migrate`: applies the migrations the database of DATABASE_URL
 * lacks. A worker never migrates (it opens a connection per request), so a deployment runs this first.
 */
import { applyMigrations, createDatabase } from "@cloudplane/db";

const url = process.env.DATABASE_URL;
if (!url) {
  console.error("Set DATABASE_URL to the PostgreSQL database the worker uses (the one behind Hyperdrive, if any).");
  process.exit(2);
}
const database = await createDatabase({ url, max: 1, migrate: false });
try {
  const applied = await applyMigrations(database.db);
  // The URL is not printed: it may carry a password.
  const where = `${new URL(url).host}${new URL(url).pathname}`;
  console.log(applied.length ? `Applied to ${where}: ${applied.join(", ")}.` : `${where} already has every migration.`);
} finally {
  await database.close();
}
