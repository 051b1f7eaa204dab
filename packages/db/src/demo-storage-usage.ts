/**
 * The demo data's storage usage: an hourly row for each of the demo storages over 60 days from
 * 2026-01-22 00:00 UTC, made by one INSERT … SELECT over generate_series with arithmetic on the storage id
 * and the hour, so the same rows come out on every engine and every load, without a fixture of thousands
 * of rows. Rows already there are left alone, as the rest of the demo data's are.
 */
import { rowCount } from "./demo-activity.js";
import { sql } from "drizzle-orm";
import type { Database } from "./database.js";

/** The first hour of the demo usage, and how many hours it covers. */
export const DEMO_USAGE_START = "2026-01-22T00:00:00Z";
export const DEMO_USAGE_HOURS = 60 * 24;
/** The demo storages with usage: the fixture's storages 1 and 3 (account 1) and 2 (account 2). */
export const DEMO_USAGE_STORAGES = [1, 2, 3] as const;

/**
 * Per storage s and hour h (0 from the start): the stored bytes and files grow by the hour; requests follow a
 * daily curve (busier from 08:00 to 20:00 UTC) that differs by storage; traffic is requests times a size per request.
 */
export async function generateDemoStorageUsage(db: Pick<Database, "execute">): Promise<number> {
  const result = await db.execute(sql`
    insert into storage_usage (
      account_id, storage_id, hour, size_bytes, file_quantity,
      requests_in, requests_out_edges, requests_out_wo_edges, traffic_in, traffic_out_edges, traffic_out_wo_edges
    )
    select s.account_id, s.id, ${DEMO_USAGE_START}::timestamptz + make_interval(hours => h),
      s.id * 1000000000::bigint + h * s.id * 7340032::bigint,
      s.id * 1000 + h * s.id * 3,
      r.rin, r.redge, r.rdirect,
      r.rin * (200000 + s.id * 1000)::bigint, r.redge * 150000::bigint, r.rdirect * 120000::bigint
    from storages s
    cross join generate_series(0, ${DEMO_USAGE_HOURS - 1}) as h
    cross join lateral (
      select
        10 * s.id + (h * 7 + s.id * 13) % 50 as rin,
        (100 + (h * 11 + s.id * 5) % 400) * (case when h % 24 between 8 and 19 then 3 else 1 end) as redge,
        20 * s.id + (h * 17 + s.id * 3) % 90 as rdirect
    ) as r
    where s.id in (${sql.join(
      DEMO_USAGE_STORAGES.map((id) => sql`${id}`),
      sql`, `,
    )})
    on conflict do nothing
    returning 1
  `);
  // The rows inserted (none where they were all there).
  return rowCount(result);
}
