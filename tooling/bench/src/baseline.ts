/**
 * The baseline on Node: the driver our handler uses on the engine (postgres.js with its defaults, or
 * PGlite with the prepared statements ours keeps), without Drizzle, answering with baseline-core.ts; and the check, before any load, that it
 * sends exactly the statements our handler sends.
 */
import type { CapturedStatement } from "./capture.js";
import type { DatabaseLocation } from "./databases.js";
import { answeredId, requestPath, type BenchRequest } from "./scenario.js";
import { baselineAnswer, compareStatements, postgresRawDatabase, recording, variantKey, type RawDatabase, type RawQuery, type Row } from "./baseline-core.js";

export { baselineAnswer, variantKey, type BaselineAnswer, type RawDatabase, type RawQuery } from "./baseline-core.js";

export interface RawDatabaseOptions {
  /** Most connections in the PostgreSQL pool (ours has 10). */
  max?: number;
  /**
   * Prepare each statement on the server once per connection, as a bare server would: on PostgreSQL as
   * postgres.js does by default, on PGlite as ours does (`PGLITE_CLIENT_OPTIONS`' statement cache).
   * False sends unnamed statements, parsed and planned for their values each time: on PostgreSQL as
   * Drizzle sends every statement the code does not name with `.prepare(name)`, on PGlite as PGlite does
   * by default.
   */
  prepare?: boolean;
}

/** The driver our handler uses on the engine (postgres.js, or PGlite), without Drizzle. */
export async function openRawDatabase(location: DatabaseLocation, options: RawDatabaseOptions = {}): Promise<RawDatabase> {
  if (location.engine === "postgres") {
    const { default: postgres } = await import("postgres");
    const prepare = options.prepare ?? true;
    return postgresRawDatabase(postgres(location.url, { max: options.max ?? 10, prepare, onnotice: () => undefined }), prepare);
  }
  const [{ PGlite }, { PGLITE_CLIENT_OPTIONS }] = await Promise.all([import("@electric-sql/pglite"), import("@cloudplane/db")]);
  const statementCacheSize = options.prepare === false ? 0 : PGLITE_CLIENT_OPTIONS.statementCacheSize;
  const client = await PGlite.create(`${location.dataDir}/pglite`, { statementCacheSize });
  const on = (target: Pick<typeof client, "query">): RawQuery => ({
    async query(text, params) {
      const result = await target.query<Row>(text, params, { rowMode: "array" });
      return { columns: result.fields.map((field) => field.name), rows: result.rows };
    },
  });
  return { ...on(client), transaction: (work) => client.transaction((tx) => work(on(tx))), close: () => client.close() };
}

/**
 * Runs each request through the baseline on `location`, in turn (a path may follow from the answer
 * before), and checks that it sends exactly the statements, with the same parameters, that our handler
 * sent. Returns the differences (none: same).
 */
export async function verifyBaseline(
  location: DatabaseLocation,
  statements: Record<string, CapturedStatement[]>,
  requests: BenchRequest[],
): Promise<string[]> {
  const log: CapturedStatement[] = [];
  const db = recording(await openRawDatabase(location, { max: 2 }), log);
  const differences: string[] = [];
  try {
    // Twice: the second time reads what the first one wrote (a write that stored it wrongly shows then).
    let previous: unknown;
    let madeId: number | undefined;
    for (const request of [...requests, ...requests]) {
      log.length = 0;
      const url = new URL(requestPath(request, previous), "http://bench.local");
      const key = variantKey(request.method, url, request.body)!;
      const answer = await baselineAnswer(db, statements, request.method, url, request.body);
      if (answer.status < 200 || answer.status >= 300) differences.push(`${key}: the baseline answered ${answer.status}`);
      previous = answer.body;
      madeId = request.made ? (answeredId(previous) ?? madeId) : undefined;
      differences.push(...compareStatements(key, statements[key] ?? [], log, request.made && { made: request.made, id: madeId }));
    }
  } finally {
    await db.close();
  }
  return differences;
}
