/**
 * Edge app binaries: compiled WebAssembly modules, the account's or the platform's (behind public
 * templates), with the bytes of those uploaded through the API.
 */
import { EDGE_API_TYPES } from "@cloudplane/contract";
import { sql } from "drizzle-orm";
import { check, customType, index, integer, pgTable, smallint, text } from "drizzle-orm/pg-core";
import { identityId, sqlList, timestamptz } from "../columns.js";
import { accounts } from "../iam/account.js";

/** Raw bytes (PostgreSQL's bytea), read and written as a Uint8Array. */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => "bytea" });

/** A compiled WebAssembly binary. `account_id` null: a platform binary, run by apps made from public templates. */
export const edgeBinaries = pgTable(
  "edge_binaries",
  {
    id: identityId(),
    accountId: integer("account_id").references(() => accounts.id),
    apiType: text("api_type", { enum: EDGE_API_TYPES }).notNull(),
    checksum: text("checksum").notNull(),
    /** 0 pending, 1 compiled, 2 and 3 compilation failed, 4 over the size limit, 5 unsupported source language. */
    status: smallint("status").notNull().default(1),
    /** The source language: 0 unknown, 1 Rust, 2 JavaScript, 3 Go. */
    source: smallint("source").notNull().default(0),
    /** When the last app stopped running the binary; null while an app runs it (or none ever did). */
    unrefSince: timestamptz("unref_since"),
    /**
     * The module's bytes, for a binary uploaded through the API; null for one that came another way (the
     * demo data). Stored, never returned: reads of binaries select their other columns.
     */
    content: bytea("content"),
    created: timestamptz("created").notNull().defaultNow(),
  },
  (t) => [
    index("edge_binaries_account_id_id_idx").on(t.accountId, t.id),
    check("edge_binaries_api_type_check", sql`${t.apiType} in (${sql.raw(sqlList(EDGE_API_TYPES))})`),
    check("edge_binaries_status_check", sql`${t.status} between 0 and 5`),
    check("edge_binaries_source_check", sql`${t.source} between 0 and 3`),
  ],
);
