-- Custom migration: Drizzle cannot declare UNLOGGED, so the schema (src/schema/iam.ts) only says so in
-- a comment. The buckets are upserted on every request; unlogged, those writes skip the write-ahead log
-- and their commits do not wait for it to reach the disk. After a crash (not a clean shutdown) the table
-- is emptied, which only refills every token's bucket. Standbys do not get it: only the primary uses it.
-- PostgreSQL and PGlite both accept this statement.
ALTER TABLE "rate_limit_buckets" SET UNLOGGED;
