/**
 * The demo data (fixtures/demo.json): one list of rows per table, in the tables' own terms (Drizzle
 * column keys, times as ISO 8601 UTC), typed from the schema: what `pnpm start` serves and what tests compare against.
 */
import { getTableColumns } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import demoJson from "../fixtures/demo.json";
import { encryptSecret, hashToken, sha256Hex } from "./crypto.js";
import * as schema from "./schema/index.js";

/**
 * Tables the demo fixture leaves empty: the rate limiter's counters, the sums and versions triggers keep, the answers
 * kept under idempotency keys, and what the database makes for the demo as it loads: the activity of
 * demo-activity.ts, the CDN traffic and paid features' periods of demo-cdn-traffic.ts, and the streams'
 * statistics of demo-streaming-statistics.ts.
 */
type NotDemoTable =
  | "rateLimitBuckets"
  | "usageMonthTotals"
  | "listingCounts"
  | "securityAnnounceVersions"
  | "idempotencyKeys"
  | "edgeAppCalls"
  | "securityEvents"
  | "cdnUsage"
  | "cdnRequestLogs"
  | "cdnFeaturePeriods"
  | "streamingPlayerEvents"
  | "streamingCdnViews"
  | "streamingLiveMinutes"
  | "streamingVodUsage";

type Schema = typeof schema;

/** The tables the demo data fills, by their name in the schema module (`cdnResources`, …). */
export type DemoTableName = Exclude<{ [K in keyof Schema]: Schema[K] extends PgTable ? K : never }[keyof Schema], NotDemoTable>;

export type DemoTables = { [K in DemoTableName]: Schema[K] };

/** Turns a stored plaintext into the value of a column; the key is the secrets key of the load. */
export type DemoColumnValue = (plaintext: string, secretsKey: CryptoKey) => Promise<string>;

/**
 * The only columns not stored as the fixture writes them: the fixture holds a plaintext stand-in
 * (a field of the row that is no column) and loading derives each listed column from it.
 */
export const DEMO_PLAINTEXTS = {
  apiTokens: { plaintext: { tokenHash: (plaintext) => hashToken(plaintext) } },
  logsUploaderTargets: { secretAccessKey: { secretAccessKeyEncrypted: (plaintext, key) => encryptSecret(key, plaintext) } },
  certificateKeys: { privateKey: { privateKeyEncrypted: (plaintext, key) => encryptSecret(key, plaintext) } },
  storageAccessKeys: { secretKey: { secretKeyEncrypted: (plaintext, key) => encryptSecret(key, plaintext) } },
  inferenceRegistryCredentials: { password: { passwordEncrypted: (plaintext, key) => encryptSecret(key, plaintext) } },
  inferenceSecrets: { awsSecretAccessKey: { awsSecretAccessKeyEncrypted: (plaintext, key) => encryptSecret(key, plaintext) } },
  inferenceApiKeys: { secret: { secretHash: (plaintext) => sha256Hex(plaintext) } },
  cloudSecrets: { payload: { payloadEncrypted: (plaintext, key) => encryptSecret(key, plaintext) } },
  edgeSecretSlots: {
    value: { valueEncrypted: (plaintext, key) => encryptSecret(key, plaintext), checksum: (plaintext) => sha256Hex(plaintext) },
  },
} as const satisfies { [K in DemoTableName]?: Record<string, Partial<Record<keyof DemoTables[K]["$inferSelect"], DemoColumnValue>>> };

type Plaintexts = typeof DEMO_PLAINTEXTS;

/** A column's value as JSON holds it: a time as its ISO string; binary data has no place in the fixture. */
type JsonValue<V> = V extends Date ? string : V extends Uint8Array ? never : V;

/**
 * Columns the database computes itself (a generated column, or a count its triggers keep): never in the
 * fixture, which would otherwise be loaded over them.
 */
type KeptColumns = { originGroups: "relatedResources"; securityProfiles: "network" | "bgp" };

type Columns<K extends DemoTableName> = {
  [C in Exclude<keyof DemoTables[K]["$inferSelect"], K extends keyof KeptColumns ? KeptColumns[K] : never>]: JsonValue<DemoTables[K]["$inferSelect"][C]>;
};

/** The columns the plaintexts of a table stand in for. */
type DerivedColumns<P> = { [F in keyof P]: keyof P[F] }[keyof P];

/** A row of a table in the fixture: every column, but those derived from a plaintext, given by it instead. */
export type DemoRow<K extends DemoTableName> = K extends keyof Plaintexts
  ? Omit<Columns<K>, DerivedColumns<Plaintexts[K]>> & { -readonly [F in keyof Plaintexts[K]]: string }
  : Columns<K>;

export type DemoFixture = { [K in DemoTableName]: DemoRow<K>[] };

/** Names of the demo tokens of each account: the role group id and what the token is for. */
export type DemoTokenName =
  | "role-1-active"
  | "role-1-ci"
  | "role-2-active"
  | "role-5-active"
  | "role-3009-active"
  | "role-3022-active"
  | "role-5-expired"
  | "role-2-deleted";

/**
 * The demo data. Treat it as read-only: tests across the repository compare against it. The JSON is
 * written from a `DemoFixture` by scripts/generate-demo-fixture.ts, which is where its type is checked.
 */
export const demoFixture: DemoFixture = demoJson as unknown as DemoFixture;

/** The demo account ids: account 1 owns the odd ids of every account-owned kind, account 2 the even ones. */
export const DEMO_ACCOUNT_IDS = [1, 2] as const;

export type DemoAccountId = (typeof DEMO_ACCOUNT_IDS)[number];

/** A demo token of an account by name, e.g. `demoToken(1, "role-5-active").plaintext`. */
export function demoToken(accountId: DemoAccountId, name: DemoTokenName): DemoRow<"apiTokens"> {
  const token = demoFixture.apiTokens.find((candidate) => candidate.accountId === accountId && candidate.name === name);
  if (!token) throw new Error(`The demo fixture has no token ${name} in account ${accountId}.`);
  return token;
}

/**
 * A fixture row keyed by its table's SQL column names (`account_id`, `dvr_duration`), which are the
 * API's field names for most tables: how tests compare a row with what the API shows.
 */
export function byColumnName<K extends DemoTableName>(table: K, row: DemoRow<K>): Record<string, unknown> {
  const columns: Record<string, { name: string }> = getTableColumns(schema[table] as PgTable);
  return Object.fromEntries(Object.entries(row).map(([key, value]) => [columns[key]?.name ?? key, value]));
}
