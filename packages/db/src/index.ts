/**
 * @cloudplane/db: the database of the cloudplane API. The Drizzle schema per area, `createDatabase`
 * over embedded PGlite or PostgreSQL, bundled migrations, encryption of secrets and the demo data.
 * Runs on Node, AWS Lambda and Cloudflare Workers; Node-only helpers are in `@cloudplane/db/node`.
 */
export {
  arrayLiteral,
  createDatabase,
  DRIZZLE_PARSERS,
  openDatabase,
  PGLITE_CLIENT_OPTIONS,
  pgliteDatabase,
  type CloudplaneDatabase,
  type CreateDatabaseOptions,
  type Database,
  type DatabaseTransaction,
  type Engine,
  PGLITE_DURABILITIES,
  type PgliteDurability,
  type Schema,
} from "./database.js";
export { applyMigrations, cloudplaneMigrations, type Migration } from "./migrate.js";
export { migrations } from "./migrations.generated.js";
export { decryptSecret, encryptSecret, generateSecretsKey, hashToken, importSecretsKey, sha256Hex } from "./crypto.js";
export { loadPlatformCatalog, platformCatalog } from "./catalog.js";
export { demoDataFingerprint, holdsDemoData, loadDemoData, type LoadDemoDataOptions, type LoadDemoDataResult } from "./demo.js";
export { DEMO_CALLS_FROM, DEMO_CALLS_HOURS, DEMO_EVENTS_FROM, DEMO_EVENTS_PER_ADDRESS } from "./demo-activity.js";
export { DEMO_TRAFFIC_FROM, DEMO_TRAFFIC_TO } from "./demo-cdn-traffic.js";
export * from "./provision.js";
export * from "./demo-fixture.js";
export * as schema from "./schema/index.js";
export * from "./schema/index.js";

// Query building blocks (eq, and, sql, count, …) from the same drizzle-orm the schema is built with,
// so handlers need no drizzle-orm of their own whose types could differ.
export * from "drizzle-orm/sql";
export { alias, type PgColumn } from "drizzle-orm/pg-core";
