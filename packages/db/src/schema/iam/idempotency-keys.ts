/**
 * Idempotency keys: the answer to each POST a client sent with an `Idempotency-Key` header, per user,
 * kept for 24 hours, so that the same request sent again (a retry after a dropped connection) gets the
 * first answer instead of doing its work twice. The answer is stored encrypted with the service's
 * secrets key, as it may hold a value shown once (a new API token).
 */
import { sql } from "drizzle-orm";
import { check, foreignKey, index, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { timestamptz } from "../columns.js";
import { accountId, users } from "./account.js";

export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    accountId: accountId(),
    /** The user whose token sent the request: each user has keys of their own. */
    userId: integer("user_id").notNull(),
    key: text("key").notNull(),
    /** Hex SHA-256 of the request's method, path, query and body: the same key with another request is refused. */
    fingerprint: text("fingerprint").notNull(),
    /** The answer (status, content type, body) encrypted; null while the first request is being served. */
    answer: text("answer"),
    created: timestamptz("created").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: "idempotency_keys_pkey", columns: [t.accountId, t.userId, t.key] }),
    foreignKey({ name: "idempotency_keys_user_fk", columns: [t.accountId, t.userId], foreignColumns: [users.accountId, users.id] }).onDelete("cascade"),
    index("idempotency_keys_created_idx").on(t.created),
    check("idempotency_keys_fingerprint_check", sql`${t.fingerprint} ~ '^[0-9a-f]{64}$'`),
  ],
);
