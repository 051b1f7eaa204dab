/**
 * `pnpm --filter @cloudplane/db seed`: loads the demo data into DATABASE_URL, or into the PGlite data
 * directory DATA_DIR (default ./.data, relative to where pnpm was run). Secrets are encrypted with
 * CLOUDPLANE_SECRETS_KEY, or with the local key file of the data directory. Loading twice is harmless.
 */
import { resolve } from "node:path";
import { createDatabase, importSecretsKey, loadDemoData } from "../src/index.js";
import { loadOrCreateLocalSecretsKey } from "../src/node.js";

const url = process.env.DATABASE_URL || undefined;
const dataDir = resolve(process.env.INIT_CWD ?? process.cwd(), process.env.DATA_DIR || ".data");

const keyFromEnvironment = process.env.CLOUDPLANE_SECRETS_KEY || undefined;
const secretsKey = await importSecretsKey(keyFromEnvironment ?? (await loadOrCreateLocalSecretsKey(dataDir)));

const database = await createDatabase(url ? { url, max: 1 } : { dataDir });
try {
  const { inserted } = await loadDemoData(database.db, { secretsKey });
  const total = Object.values(inserted).reduce((sum, count) => sum + count, 0);
  // The URL is not printed: it may carry a password.
  const where = url ? `PostgreSQL (${new URL(url).host}${new URL(url).pathname})` : `PGlite in ${dataDir}`;
  const key = keyFromEnvironment ? "CLOUDPLANE_SECRETS_KEY" : `the key file in ${dataDir}`;
  console.log(`Demo data loaded into ${where}, secrets encrypted with ${key}: ${total} rows inserted${total === 0 ? " (all were already there)" : ""}.`);
} finally {
  await database.close();
}
